package podhash

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/statefulset"
	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
)

// revisionYAML is a ControllerRevision as `kubectl get -o yaml` shows it
// (its data re-encoded, keys sorted, as YAML).
func revisionYAML(t *testing.T, name, hash, ownerKind, ownerUID string, data []byte) string {
	tr := true
	cr := appsv1.ControllerRevision{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: k8stypes.UID("r-" + name), ResourceVersion: "3",
			Labels:          map[string]string{"app": "x", "controller-revision-hash": hash},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: ownerKind, Name: "x", UID: "o1", Controller: &tr}}},
		Data:     runtime.RawExtension{Raw: data},
		Revision: 3,
	}
	cr.OwnerReferences[0].UID = k8stypes.UID(ownerUID)
	b, err := yaml.Marshal(&cr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// randomTemplate is a random stored pod template labelled app: x, with no
// node constraints (so a daemon pod lands on the one node).
func randomTemplate(t *testing.T, rt *rapid.T, label string) *corev1.PodTemplateSpec {
	var tpl corev1.PodTemplateSpec
	filler(rapid.Int64().Draw(rt, label)).Fill(&tpl)
	tpl = *stored(t, &tpl)
	tpl.Labels = map[string]string{"app": "x"}
	tpl.Spec.NodeName, tpl.Spec.NodeSelector, tpl.Spec.Affinity = "", nil, nil
	return &tpl
}

// TestDaemonSetRevisionMatch: a DaemonSet's ControllerRevision, as the
// DaemonSet controller writes it (getPatch) and `kubectl get -o yaml`
// shows it, is one upstream's Match finds current, and schedkit labels
// the DaemonSet's new pod with its controller-revision-hash.
func TestDaemonSetRevisionMatch(t *testing.T) {
	checked := 0
	rapid.Check(t, func(rt *rapid.T) {
		tpl := randomTemplate(t, rt, "tpl")
		ds := &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"},
			ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "default", UID: "o1", ResourceVersion: "9"},
			Spec:       appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, Template: *tpl}}
		// The DaemonSet controller's getPatch (unexported): the set with
		// encoding/json, decoded with apimachinery's util/json (integers
		// as int64), spec.template kept, "$patch": "replace".
		b, err := json.Marshal(ds)
		if err != nil {
			rt.Fatal(err)
		}
		var raw map[string]any
		if err := utiljson.Unmarshal(b, &raw); err != nil {
			rt.Fatal(err)
		}
		tm := raw["spec"].(map[string]any)["template"].(map[string]any)
		tm["$patch"] = "replace"
		patch, err := json.Marshal(map[string]any{"spec": map[string]any{"template": tm}})
		if err != nil {
			rt.Fatal(err)
		}
		if ok, err := daemon.Match(ds, &appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: patch}}); err != nil || !ok {
			rt.Fatalf("upstream Match: %v %v", ok, err)
		}
		doc, err := json.Marshal(ds)
		if err != nil {
			rt.Fatal(err)
		}
		in := `{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}}` + "\n---\n" + string(doc) + "\n---\n" + revisionYAML(t, "x-rev", "rev7", "DaemonSet", "o1", patch)
		r := manifest.NewReader()
		if err := r.Read("d.yaml", strings.NewReader(in)); err != nil {
			rt.Fatalf("read: %v", err)
		}
		c, err := manifest.NewCluster(r.Objects(), r.Report(), manifest.Options{ExpandWorkloads: true})
		if err != nil {
			rt.Fatal(err)
		}
		pods := c.Pending
		for _, rj := range c.Report.Rejected {
			pods = append(pods, rj.Pod)
		}
		if len(pods) != 1 {
			rt.Fatalf("%d pods", len(pods))
		}
		if got := pods[0].Labels["controller-revision-hash"]; got != "rev7" {
			rt.Fatalf("controller-revision-hash %s, want the revision's rev7", got)
		}
		checked++
	})
	if checked == 0 {
		t.Error("nothing checked")
	}
}

// TestStatefulSetCurrentRevision: a StatefulSet in a rolling update with
// partition 1, its current revision's ControllerRevision as the
// controller writes it and `kubectl get -o yaml` shows it: schedkit makes
// ordinal 0 from the template upstream's ApplyRevision restores, labelled
// with the current revision, and ordinal 1 from the set's template,
// labelled with the update revision upstream names.
func TestStatefulSetCurrentRevision(t *testing.T) {
	checked := 0
	rapid.Check(t, func(rt *rapid.T) {
		oldTpl, newTpl := randomTemplate(t, rt, "old"), randomTemplate(t, rt, "new")
		two, one := int32(2), int32(1)
		set := &appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
			ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "default", UID: "o1", ResourceVersion: "9"},
			Spec: appsv1.StatefulSetSpec{Replicas: &two, ServiceName: "xs", PodManagementPolicy: appsv1.ParallelPodManagement,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, Template: *oldTpl,
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
					RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: &one}}},
			Status: appsv1.StatefulSetStatus{CurrentRevision: "x-cur"}}
		patch := upstreamSetPatch(t, set)
		set.Spec.Template = *newTpl
		updateName := upstreamRevisionName(t, set)
		if updateName == "x-cur" {
			return
		}
		if bytes.Equal(upstreamSetPatch(t, set), patch) {
			// The same template: getStatefulSetRevisions finds the
			// current revision equal (history.EqualRevision: same
			// data) and, it being the latest, makes it the update
			// revision too.
			updateName = "x-cur"
		}
		cur, err := statefulset.ApplyRevision(set, &appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: patch}})
		if err != nil {
			rt.Fatal(err)
		}
		doc, err := json.Marshal(set)
		if err != nil {
			rt.Fatal(err)
		}
		in := string(doc) + "\n---\n" + revisionYAML(t, "x-cur", "x-cur", "StatefulSet", "o1", patch)
		r := manifest.NewReader()
		if err := r.Read("s.yaml", strings.NewReader(in)); err != nil {
			rt.Fatalf("read: %v", err)
		}
		c, err := manifest.NewCluster(r.Objects(), r.Report(), manifest.Options{ExpandWorkloads: true})
		if err != nil {
			rt.Fatal(err)
		}
		for _, w := range c.Report.Warnings {
			if strings.Contains(w.Message, "revision") {
				rt.Fatalf("warning: %s", w.Message)
			}
		}
		byName := map[string]*api.Pod{}
		for _, p := range c.Pending {
			byName[p.Name] = p
		}
		for _, rj := range c.Report.Rejected {
			byName[rj.Pod.Name] = rj.Pod
		}
		check := func(name, ord, rev string, tpl *corev1.PodTemplateSpec) {
			p := byName[name]
			if p == nil {
				rt.Fatalf("no pod %s among %v", name, byName)
			}
			want := map[string]string{}
			for k, v := range tpl.Labels {
				want[k] = v
			}
			want["controller-revision-hash"], want["statefulset.kubernetes.io/pod-name"], want["apps.kubernetes.io/pod-index"] = rev, name, ord
			if diff := cmp.Diff(want, p.Labels); diff != "" {
				rt.Fatalf("%s labels (-upstream +schedkit):\n%s", name, diff)
			}
			var images, wantImages []string
			for _, ct := range p.Spec.Containers {
				images = append(images, ct.Name+"="+ct.Image)
			}
			for _, ct := range tpl.Spec.Containers {
				wantImages = append(wantImages, ct.Name+"="+ct.Image)
			}
			if diff := cmp.Diff(wantImages, images); diff != "" {
				rt.Fatalf("%s containers (-upstream +schedkit):\n%s", name, diff)
			}
		}
		check("x-0", "0", "x-cur", &cur.Spec.Template)
		check("x-1", "1", updateName, newTpl)
		checked++
	})
	if checked == 0 {
		t.Error("nothing checked")
	}
}
