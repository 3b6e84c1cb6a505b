package podhash

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/controller"
	daemonutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"

	"github.com/schedkit/schedkit/manifest"
)

// createDaemonSet is what the API server stores of a new DaemonSet
// document: decoded, defaulted, converted, the strategy's PrepareForCreate
// (status cleared, template generation at least 1, disabled fields
// dropped), converted back, its template through protobuf.
func createDaemonSet(t *testing.T, doc []byte) *appsv1.DaemonSet {
	var ds appsv1.DaemonSet
	if err := json.Unmarshal(doc, &ds); err != nil {
		t.Fatal(err)
	}
	legacyscheme.Scheme.Default(&ds)
	var internal apps.DaemonSet
	if err := legacyscheme.Scheme.Convert(&ds, &internal, nil); err != nil {
		t.Fatal(err)
	}
	daemonset.Strategy.PrepareForCreate(context.Background(), &internal)
	var out appsv1.DaemonSet
	if err := legacyscheme.Scheme.Convert(&internal, &out, nil); err != nil {
		t.Fatal(err)
	}
	out.Spec.Template = *stored(t, &out.Spec.Template)
	return &out
}

// TestDaemonSetPodLabels: a DaemonSet's expanded pod carries the labels
// the DaemonSet controller's CreatePodTemplate gives it: the template's,
// pod-template-generation from the stored template generation, and
// controller-revision-hash, ComputeHash of the stored template with the
// collisionCount (upstream snapshot's hash of the revision it creates);
// for a stored DaemonSet (uid, collisionCount, annotation as read) and a
// new one (what create stores).
func TestDaemonSetPodLabels(t *testing.T) {
	checked, unreadable := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		var tpl corev1.PodTemplateSpec
		isStored := rapid.Bool().Draw(rt, "stored")
		seed := rapid.Int64().Draw(rt, "seed")
		if isStored {
			filler(seed).Fill(&tpl)
		} else {
			handWritten(seed).Fill(&tpl)
		}
		// On the one untainted node: no node constraints.
		tpl.Labels = map[string]string{"app": "agent"}
		tpl.Spec.NodeName, tpl.Spec.NodeSelector, tpl.Spec.Affinity = "", nil, nil
		raw, err := json.Marshal(&tpl)
		if err != nil {
			rt.Fatal(err)
		}
		meta := `{"name":"agent","namespace":"default"`
		if g := rapid.IntRange(-1, 3).Draw(rt, "generation"); g >= 0 {
			meta += `,"annotations":{"deprecated.daemonset.template.generation":"` + []string{"0", "1", "7", "x"}[g] + `"}`
		}
		status := ""
		if isStored {
			meta += `,"uid":"a1","resourceVersion":"9"`
			if rapid.Bool().Draw(rt, "collisions") {
				status = `,"status":{"collisionCount":` + []string{"0", "1", "5"}[rapid.IntRange(0, 2).Draw(rt, "cc")] + `}`
			}
		}
		meta += "}"
		doc := `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":` + meta + `,"spec":{"selector":{"matchLabels":{"app":"agent"}},"template":` + string(raw) + `}` + status + `}`
		var want *appsv1.DaemonSet
		if isStored {
			want = &appsv1.DaemonSet{}
			if err := json.Unmarshal([]byte(doc), want); err != nil {
				rt.Fatal(err)
			}
			want.Spec.Template = *stored(t, &want.Spec.Template)
		} else {
			if strings.Contains(meta, `"x"`) {
				return // the API server refuses it (conversion error)
			}
			want = createDaemonSet(t, []byte(doc))
		}
		gen, err := daemonutil.GetTemplateGeneration(want)
		if err != nil {
			gen = nil
		}
		hash := controller.ComputeHash(&want.Spec.Template, want.Status.CollisionCount)
		wantLabels := daemonutil.CreatePodTemplate(want.Spec.Template, gen, hash).Labels

		r := manifest.NewReader()
		if err := r.Read("d", strings.NewReader(`{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}}`+"\n"+doc)); err != nil {
			unreadable++
			return
		}
		c, err := manifest.NewCluster(r.Objects(), r.Report(), manifest.Options{ExpandWorkloads: true})
		if err != nil {
			rt.Fatal(err)
		}
		var got []map[string]string
		for _, p := range c.Pending {
			got = append(got, p.Labels)
		}
		for _, rj := range c.Report.Rejected {
			got = append(got, rj.Pod.Labels)
		}
		for _, w := range c.Report.Warnings {
			if strings.Contains(w.Message, "controller-revision-hash") {
				rt.Fatalf("warning: %s", w.Message)
			}
		}
		if len(got) != 1 {
			rt.Fatalf("%d pods", len(got))
		}
		if diff := cmp.Diff(wantLabels, got[0]); diff != "" {
			rt.Fatalf("labels (-upstream +schedkit):\n%s", diff)
		}
		checked++
	})
	t.Logf("%d DaemonSets expanded, %d not read", checked, unreadable)
	if checked == 0 {
		t.Error("no DaemonSet was read")
	}
}
