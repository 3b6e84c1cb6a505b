package preemption_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/preemption"
)

// nodeState prints everything a filter or a PreFilter extension may read
// of ni, its pods in their order.
func nodeState(ni *cluster.NodeInfo) string {
	var b strings.Builder
	b.WriteString(ni.String())
	for _, l := range [][]*cluster.PodInfo{ni.Pods, ni.PodsWithAffinity, ni.PodsWithRequiredAntiAffinity} {
		b.WriteString(" [")
		for _, pi := range l {
			b.WriteString(pi.Pod.Name + " ")
		}
		b.WriteString("]")
	}
	fmt.Fprintf(&b, " %v %v", ni.UsedPorts.Len(), ni.PVCRefCounts)
	return b.String()
}

// TestTrackedRemovalMatchesPlain: the dry run removes and reprieves
// victims by their tracked positions; on generated nodes (pods of mixed
// priority, host ports, labels, required anti-affinity; budgets; a
// preemptor whose PreFilter extensions are active or skipped) it finds
// the victims, violations and status the plain removal by UID search
// finds, and leaves the node's copy in the same state, its pods in the
// same order.
func TestTrackedRemovalMatchesPlain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		apps := []string{"a", "b"}
		sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
		for _, p := range w.pods {
			if rapid.IntRange(0, 2).Draw(t, "labelled") > 0 {
				p.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "app")}
			}
			if rapid.IntRange(0, 5).Draw(t, "hostPort") == 0 {
				p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}}
			}
			if rapid.IntRange(0, 5).Draw(t, "antiAffinity") == 0 {
				p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
					LabelSelector: sel, TopologyKey: "kubernetes.io/hostname"}}}}
			}
		}
		pod := w.preemptor
		pod.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "podApp")}
		if rapid.Bool().Draw(t, "spread") {
			pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1,
				TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel}}
		}
		var budgets []*api.PodDisruptionBudget
		for i := range rapid.IntRange(0, 2).Draw(t, "pdbs") {
			budgets = append(budgets, pdb(fmt.Sprintf("b%d", i), map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "pdbApp")}, int32(rapid.IntRange(0, 2).Draw(t, "allowed"))))
		}
		h, err := newHandle(w.nodes, w.pods, budgets, w.seed, nil, framework.ProfileConfig{})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		state := framework.NewCycleState()
		if _, st, _ := h.prof.RunPreFilterPlugins(ctx, state, pod, h.snap.Nodes()); !st.IsSuccess() {
			return
		}
		pdbs := preemption.CompilePDBs(budgets)
		for _, ni := range h.snap.Nodes() {
			plainNode, trackedNode := ni.Clone(), ni.Clone()
			pv, pn, pst := preemption.SelectVictimsOnNodeBy(true, ctx, h.prof, state.Clone(), pod, plainNode, nil, pdbs)
			tv, tn, tst := preemption.SelectVictimsOnNodeBy(false, ctx, h.prof, state.Clone(), pod, trackedNode, nil, pdbs)
			want := fmt.Sprintf("%s %d %v %s %q", names(pv), pn, pst.Code(), pst.Plugin(), pst.Reasons())
			got := fmt.Sprintf("%s %d %v %s %q", names(tv), tn, tst.Code(), tst.Plugin(), tst.Reasons())
			if got != want {
				t.Fatalf("%s: tracked %s, plain %s", ni.Node().Name, got, want)
			}
			if a, b := nodeState(plainNode), nodeState(trackedNode); a != b {
				t.Fatalf("%s: node after tracked removal\n%s\nafter plain removal\n%s", ni.Node().Name, b, a)
			}
		}
	})
}
