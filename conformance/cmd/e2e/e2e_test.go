package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	kconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
)

func TestBlankPodName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`pods "web-85c4fdb97b-sfq7z" is forbidden: exceeded quota: pods`, `pods "*" is forbidden: exceeded quota: pods`},
		{`no pod name here`, `no pod name here`},
		{`pods "unterminated`, `pods "unterminated`},
	} {
		if got := blankPodName(tc.in); got != tc.want {
			t.Errorf("blankPodName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOrderedPhases(t *testing.T) {
	mk := func(kind, node string) *object {
		u := &unstructured.Unstructured{Object: map[string]any{"kind": kind, "apiVersion": "v1", "metadata": map[string]any{"name": kind}}}
		if node != "" {
			u.Object["spec"] = map[string]any{"nodeName": node}
		}
		return &object{u: u}
	}
	stored := mk("Pod", "n2")
	stored.u.SetUID("0b0c")
	in := []*object{mk("Pod", ""), mk("Deployment", ""), mk("Pod", "n1"), mk("Node", ""), mk("Service", ""),
		mk("LimitRange", ""), stored, mk("StorageClass", ""), mk("Namespace", "")}
	var got []string
	for _, o := range ordered(in) {
		k := o.kind()
		if nodeName(o) != "" {
			k += "(bound)"
		}
		if storedPod(o) {
			k += "(stored)"
		}
		got = append(got, k)
	}
	want := "Namespace StorageClass Pod(bound)(stored) LimitRange Service Pod(bound) Node Deployment Pod"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
}

func TestCompareKnown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.known")
	if err := os.WriteFile(path, []byte("# comment\n\nPod a/b: spec.priority:\nReplicaSet a/c: exists:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := func(subject, field string) disagreement {
		return disagreement{subject: subject, field: field, upstream: "1", schedkit: "2"}
	}
	var out bytes.Buffer
	if code := compareKnown(path, []disagreement{d("Pod a/b", "spec.priority"), d("ReplicaSet a/c", "exists")}, &out, &out); code != 0 {
		t.Errorf("same list: exit %d: %s", code, out.String())
	}
	out.Reset()
	code := compareKnown(path, []disagreement{d("Pod a/b", "spec.priority"), d("Pod a/z", "placement")}, &out, &out)
	if code != 1 || !strings.Contains(out.String(), "new disagreement: Pod a/z: placement:") ||
		!strings.Contains(out.String(), "fixed (remove from") {
		t.Errorf("changed list: exit %d: %s", code, out.String())
	}
}

func TestReadObjectsLists(t *testing.T) {
	dir := t.TempDir()
	doc := "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: a}}\n- {apiVersion: v1, kind: Node, metadata: {name: b}}\n---\n{\"apiVersion\": \"v1\", \"kind\": \"Namespace\", \"metadata\": {\"name\": \"x\"}}\n"
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a manifest"), 0o644); err != nil {
		t.Fatal(err)
	}
	objs, err := readObjects([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, o := range objs {
		keys = append(keys, o.key())
	}
	if got := strings.Join(keys, ", "); got != "Node a, Node b, Namespace x" {
		t.Errorf("objects %s", got)
	}
}

func TestScoresAll(t *testing.T) {
	p := func(v int32) *int32 { return &v }
	for _, tc := range []struct {
		name string
		cfg  *kconfig.KubeSchedulerConfiguration
		want bool
	}{
		{"no config", nil, false},
		{"global 100", &kconfig.KubeSchedulerConfiguration{PercentageOfNodesToScore: p(100), Profiles: []kconfig.KubeSchedulerProfile{{}}}, true},
		{"global 50", &kconfig.KubeSchedulerConfiguration{PercentageOfNodesToScore: p(50), Profiles: []kconfig.KubeSchedulerProfile{{}}}, false},
		{"profile overrides", &kconfig.KubeSchedulerConfiguration{PercentageOfNodesToScore: p(100),
			Profiles: []kconfig.KubeSchedulerProfile{{}, {PercentageOfNodesToScore: p(30)}}}, false},
		{"profiles 100", &kconfig.KubeSchedulerConfiguration{Profiles: []kconfig.KubeSchedulerProfile{{PercentageOfNodesToScore: p(100)}}}, true},
	} {
		if got := scoresAll(tc.cfg); got != tc.want {
			t.Errorf("%s: scoresAll = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRemapUIDs: a claim's owner reference and reservedFor entries that
// name a created pod by its input uid get the pod's new uid; others stay.
func TestRemapUIDs(t *testing.T) {
	a := &applier{uids: map[types.UID]types.UID{"old-pod": "new-pod"}}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
		"metadata": map[string]any{"name": "c", "ownerReferences": []any{
			map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "old-pod", "controller": true},
			map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "q", "uid": "other"},
		}},
		"status": map[string]any{"reservedFor": []any{
			map[string]any{"resource": "pods", "name": "p", "uid": "old-pod"},
			map[string]any{"resource": "pods", "name": "q", "uid": "other"},
		}},
	}}
	a.remapUIDs(u)
	refs := u.GetOwnerReferences()
	if refs[0].UID != "new-pod" || refs[1].UID != "other" {
		t.Errorf("owner references %+v", refs)
	}
	rf, _, _ := unstructured.NestedSlice(u.Object, "status", "reservedFor")
	if rf[0].(map[string]any)["uid"] != "new-pod" || rf[1].(map[string]any)["uid"] != "other" {
		t.Errorf("reservedFor %v", rf)
	}
}
