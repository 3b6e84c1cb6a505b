package podhash

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/controller/history"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"

	"github.com/schedkit/schedkit/manifest"
)

// upstreamRevisionName is the name of the revision the StatefulSet
// controller creates for set: history.NewControllerRevision of the
// set's patch. The patch is built as pkg/controller/statefulset getPatch
// builds it (unexported there): the set encoded with the apps/v1 legacy
// codec, spec.template kept, "$patch":"replace" added, marshalled again.
func upstreamRevisionName(t *testing.T, set *appsv1.StatefulSet) string {
	patch := upstreamSetPatch(t, set)
	var cc int32
	if set.Status.CollisionCount != nil {
		cc = *set.Status.CollisionCount
	}
	cr, err := history.NewControllerRevision(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"), set.Spec.Template.Labels, runtime.RawExtension{Raw: patch}, 1, &cc)
	if err != nil {
		t.Fatal(err)
	}
	return cr.Name
}

// upstreamSetPatch is the data of the ControllerRevision the StatefulSet
// controller makes of set (getPatch).
func upstreamSetPatch(t *testing.T, set *appsv1.StatefulSet) []byte {
	data, err := runtime.Encode(scheme.Codecs.LegacyCodec(appsv1.SchemeGroupVersion), set)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	tpl := raw["spec"].(map[string]any)["template"].(map[string]any)
	tpl["$patch"] = "replace"
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"template": tpl}})
	if err != nil {
		t.Fatal(err)
	}
	return patch
}

// createStatefulSet is what the API server stores of a new StatefulSet.
func createStatefulSet(t *testing.T, doc []byte) *appsv1.StatefulSet {
	var ss appsv1.StatefulSet
	if err := json.Unmarshal(doc, &ss); err != nil {
		t.Fatal(err)
	}
	legacyscheme.Scheme.Default(&ss)
	var internal apps.StatefulSet
	if err := legacyscheme.Scheme.Convert(&ss, &internal, nil); err != nil {
		t.Fatal(err)
	}
	statefulset.Strategy.PrepareForCreate(context.Background(), &internal)
	var out appsv1.StatefulSet
	if err := legacyscheme.Scheme.Convert(&internal, &out, nil); err != nil {
		t.Fatal(err)
	}
	out.Spec.Template = *stored(t, &out.Spec.Template)
	return &out
}

// TestStatefulSetPodIdentity: a StatefulSet's expanded pod has the
// revision name the controller's update revision gets as
// controller-revision-hash, the pod-name and pod-index labels, hostname
// and subdomain, for stored sets (uid, collisionCount) and new ones.
func TestStatefulSetPodIdentity(t *testing.T) {
	checked, unreadable := 0, 0
	var firstErr string
	rapid.Check(t, func(rt *rapid.T) {
		var tpl corev1.PodTemplateSpec
		isStored := rapid.Bool().Draw(rt, "stored")
		seed := rapid.Int64().Draw(rt, "seed")
		if isStored {
			filler(seed).Fill(&tpl)
			tpl = *stored(t, &tpl)
		} else {
			handWritten(seed).Fill(&tpl)
		}
		tpl.Labels = map[string]string{"app": "db"}
		raw, err := json.Marshal(&tpl)
		if err != nil {
			rt.Fatal(err)
		}
		meta := `{"name":"db","namespace":"default"`
		status := ""
		if isStored {
			meta += `,"uid":"s1","resourceVersion":"9"`
			if rapid.Bool().Draw(rt, "collisions") {
				status = `,"status":{"collisionCount":` + []string{"0", "1", "5"}[rapid.IntRange(0, 2).Draw(rt, "cc")] + `}`
			}
		}
		meta += "}"
		doc := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":` + meta + `,"spec":{"replicas":1,"serviceName":"dbs","selector":{"matchLabels":{"app":"db"}},"template":` + string(raw) + `}` + status + `}`
		var want *appsv1.StatefulSet
		if isStored {
			want = &appsv1.StatefulSet{}
			if err := json.Unmarshal([]byte(doc), want); err != nil {
				rt.Fatal(err)
			}
			want.Spec.Template = *stored(t, &want.Spec.Template)
		} else {
			want = createStatefulSet(t, []byte(doc))
		}
		wantRev := upstreamRevisionName(t, want)

		r := manifest.NewReader()
		if err := r.Read("s", strings.NewReader(doc)); err != nil {
			unreadable++
			if firstErr == "" {
				firstErr = err.Error()
			}
			return
		}
		c, err := manifest.NewCluster(r.Objects(), r.Report(), manifest.Options{ExpandWorkloads: true})
		if err != nil {
			rt.Fatal(err)
		}
		for _, w := range c.Report.Warnings {
			if strings.Contains(w.Message, "controller-revision-hash") {
				rt.Fatalf("warning: %s", w.Message)
			}
		}
		pods := c.Pending
		for _, rj := range c.Report.Rejected {
			pods = append(pods, rj.Pod)
		}
		if len(pods) != 1 {
			rt.Fatalf("%d pods", len(pods))
		}
		p := pods[0]
		if got := p.Labels["controller-revision-hash"]; got != wantRev {
			rt.Fatalf("controller-revision-hash %s, upstream %s", got, wantRev)
		}
		if p.Name != "db-0" || p.Labels["statefulset.kubernetes.io/pod-name"] != "db-0" || p.Labels["apps.kubernetes.io/pod-index"] != "0" ||
			p.Spec.Hostname != "db-0" || p.Spec.Subdomain != "dbs" {
			rt.Fatalf("pod %s: labels %v, hostname %q, subdomain %q", p.Name, p.Labels, p.Spec.Hostname, p.Spec.Subdomain)
		}
		checked++
	})
	t.Logf("%d StatefulSets expanded, %d not read (first: %s)", checked, unreadable, firstErr)
	if checked == 0 {
		t.Error("no StatefulSet was read")
	}
}

// TestStatefulSetRevisionPinned logs the revision names of a stored set
// with podhash's pinned template, which the main module's tests pin.
func TestStatefulSetRevisionPinned(t *testing.T) {
	const tpl = `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`
	for _, status := range []string{"", `,"status":{"collisionCount":5}`} {
		doc := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web","namespace":"default","uid":"s1"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":` + tpl + `}` + status + `}`
		var set appsv1.StatefulSet
		if err := json.Unmarshal([]byte(doc), &set); err != nil {
			t.Fatal(err)
		}
		set.Spec.Template = *stored(t, &set.Spec.Template)
		t.Logf("status %q: %s", status, upstreamRevisionName(t, &set))
	}
}
