package podtopologyspread

import (
	"testing"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// spreadSignature tells apart exactly what changes the per-node counts.
func TestSpreadSignatureEqual(t *testing.T) {
	honor, ignore := api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore
	seconds := int64(30)
	base := func() *api.Pod {
		return &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Labels: map[string]string{"app": "web"}},
			Spec: api.PodSpec{
				NodeSelector: map[string]string{"disk": "ssd"},
				Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
					NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: api.NodeSelectorOpIn, Values: []string{"z1"}}}}},
				}}},
				Tolerations: []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}},
				TopologySpreadConstraints: []api.TopologySpreadConstraint{{
					MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
					LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				}},
			},
		}
	}
	compile := func(pod *api.Pod) []affinity.SpreadConstraint {
		cs, err := affinity.CompileSpreadConstraints(pod.Spec.TopologySpreadConstraints, pod.Labels, api.DoNotSchedule)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	for _, tc := range []struct {
		name   string
		change func(*api.Pod)
		equal  bool
	}{
		{"same pod", func(*api.Pod) {}, true},
		{"another name and labels the selector ignores", func(p *api.Pod) { p.Name, p.Labels = "q", map[string]string{"app": "web", "x": "y"} }, true},
		{"maxSkew and minDomains do not count", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints[0].MaxSkew, p.Spec.TopologySpreadConstraints[0].MinDomains = 3, new(int32(2))
		}, true},
		{"namespace", func(p *api.Pod) { p.Namespace = "other" }, false},
		{"topology key", func(p *api.Pod) { p.Spec.TopologySpreadConstraints[0].TopologyKey = "rack" }, false},
		{"selector", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints[0].LabelSelector = &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
		}, false},
		{"a second constraint", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, p.Spec.TopologySpreadConstraints[0])
		}, false},
		{"nodeSelector under the default Honor", func(p *api.Pod) { p.Spec.NodeSelector = nil }, false},
		{"required node affinity under the default Honor", func(p *api.Pod) {
			p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values = []string{"z2"}
		}, false},
		{"node affinity policy", func(p *api.Pod) { p.Spec.TopologySpreadConstraints[0].NodeAffinityPolicy = &ignore }, false},
		{"tolerations under the default Ignore", func(p *api.Pod) { p.Spec.Tolerations = nil }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := base()
			kept := newSpreadSignature(a, compile(a), true)
			b := base()
			tc.change(b)
			cur := newSpreadSignature(b, compile(b), false)
			if got := kept.Equal(&cur); got != tc.equal {
				t.Fatalf("Equal = %v, want %v", got, tc.equal)
			}
		})
	}
	t.Run("tolerations under Honor, their seconds aside", func(t *testing.T) {
		a := base()
		a.Spec.TopologySpreadConstraints[0].NodeTaintsPolicy = &honor
		kept := newSpreadSignature(a, compile(a), true)
		b := base()
		b.Spec.TopologySpreadConstraints[0].NodeTaintsPolicy = &honor
		b.Spec.Tolerations[0].TolerationSeconds = &seconds
		if cur := newSpreadSignature(b, compile(b), false); !kept.Equal(&cur) {
			t.Fatal("tolerationSeconds changed the signature")
		}
		b.Spec.Tolerations[0].Key = "other"
		if cur := newSpreadSignature(b, compile(b), false); kept.Equal(&cur) {
			t.Fatal("another toleration kept the signature")
		}
	})
	t.Run("a kept signature does not change with the pod", func(t *testing.T) {
		a := base()
		kept := newSpreadSignature(a, compile(a), true)
		a.Spec.NodeSelector["disk"] = "hdd"
		a.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values[0] = "z9"
		b := base()
		if cur := newSpreadSignature(b, compile(b), false); !kept.Equal(&cur) {
			t.Fatal("the kept signature followed the pod's changes")
		}
	})
}
