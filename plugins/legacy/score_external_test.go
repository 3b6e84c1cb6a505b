package legacy_test

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/legacy"
	"github.com/schedkit/schedkit/priorities"
)

// upstream (v1.21): nodelabel TestNodeLabelScore, every row, node labels
// foo and bar; the plugin is built from the row's args.
func TestNodeLabelScore(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "machine1", Labels: map[string]string{"foo": "", "bar": ""}}}
	tests := []struct {
		name string
		args string
		want int64
	}{
		{"one present label match", `{"presentLabelsPreference": ["foo"]}`, framework.MaxNodeScore},
		{"one present label mismatch", `{"presentLabelsPreference": ["somelabel"]}`, 0},
		{"two present labels match", `{"presentLabelsPreference": ["foo", "bar"]}`, framework.MaxNodeScore},
		{"two present labels mismatch", `{"presentLabelsPreference": ["somelabel1", "somelabel2"]}`, 0},
		{"two present labels only one matches", `{"presentLabelsPreference": ["foo", "somelabel"]}`, framework.MaxNodeScore / 2},
		{"one absent label match", `{"absentLabelsPreference": ["foo"]}`, 0},
		{"one absent label mismatch", `{"absentLabelsPreference": ["somelabel"]}`, framework.MaxNodeScore},
		{"two absent labels match", `{"absentLabelsPreference": ["foo", "bar"]}`, 0},
		{"two absent labels mismatch", `{"absentLabelsPreference": ["somelabel1", "somelabel2"]}`, framework.MaxNodeScore},
		{"two absent labels only one matches", `{"absentLabelsPreference": ["foo", "somelabel"]}`, framework.MaxNodeScore / 2},
		{"two present labels match, two absent labels mismatch",
			`{"presentLabelsPreference": ["foo", "bar"], "absentLabelsPreference": ["somelabel1", "somelabel2"]}`, framework.MaxNodeScore},
		{"two present labels both mismatch, two absent labels both match",
			`{"presentLabelsPreference": ["somelabel1", "somelabel2"], "absentLabelsPreference": ["foo", "bar"]}`, 0},
		{"two present labels one matches, two absent labels mismatch",
			`{"presentLabelsPreference": ["foo", "somelabel"], "absentLabelsPreference": ["somelabel1", "somelabel2"]}`, 3 * framework.MaxNodeScore / 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, err := legacy.NewNodeLabel([]byte(tc.args), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, st := pl.(framework.ScorePlugin).Score(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(node))
			if st != nil || got != tc.want {
				t.Errorf("score %d %v, want %d", got, st, tc.want)
			}
		})
	}
}

// upstream (v1.21): nodelabel TestNodeLabelScoreWithoutNode, and the same
// for NodePreferAvoidPods and EqualPriority (v1.13's EqualPriorityMap).
func TestLegacyScoresWithoutNode(t *testing.T) {
	for name, f := range map[string]framework.PluginFactory{
		"NodeLabel":           legacy.NewNodeLabel,
		"NodePreferAvoidPods": legacy.NewNodePreferAvoidPods,
		"EqualPriority":       legacy.NewEqualPriority,
	} {
		pl, err := f(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, st := pl.(framework.ScorePlugin).Score(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(nil))
		if st.Code() != framework.Error || st.Message() != "node not found" {
			t.Errorf("%s: status %v, want the error node not found", name, st)
		}
	}
}

// upstream (v1.13): EqualPriorityMap gives every node 1.
func TestEqualPriority(t *testing.T) {
	pl, _ := legacy.NewEqualPriority(nil, nil)
	for _, n := range []string{"a", "b"} {
		got, st := pl.(framework.ScorePlugin).Score(context.Background(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: n}}))
		if got != 1 || st != nil {
			t.Errorf("%s: %d %v", n, got, st)
		}
	}
}

// upstream (v1.21): nodepreferavoidpods TestNodePreferAvoidPods, every row.
func TestNodePreferAvoidPods(t *testing.T) {
	annotations1 := map[string]string{priorities.PreferAvoidPodsAnnotationKey: `{
		"preferAvoidPods": [{"podSignature": {"podController": {"apiVersion": "v1", "kind": "ReplicationController",
		  "name": "foo", "uid": "abcdef123456", "controller": true}}, "reason": "some reason", "message": "some message"}]}`}
	annotations2 := map[string]string{priorities.PreferAvoidPodsAnnotationKey: `{
		"preferAvoidPods": [{"podSignature": {"podController": {"apiVersion": "v1", "kind": "ReplicaSet",
		  "name": "foo", "uid": "qwert12345", "controller": true}}, "reason": "some reason", "message": "some message"}]}`}
	nodes := []*api.Node{
		{ObjectMeta: api.ObjectMeta{Name: "machine1", Annotations: annotations1}},
		{ObjectMeta: api.ObjectMeta{Name: "machine2", Annotations: annotations2}},
		{ObjectMeta: api.ObjectMeta{Name: "machine3"}},
	}
	yes, no := true, false
	owned := func(kind, uid string, controller *bool) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", OwnerReferences: []api.OwnerReference{{Kind: kind, Name: "foo", UID: uid, Controller: controller}}}}
	}
	tests := []struct {
		name string
		pod  *api.Pod
		want []int64
	}{
		{"pod managed by ReplicationController should avoid a node, this node get lowest priority score", owned("ReplicationController", "abcdef123456", &yes), []int64{0, 100, 100}},
		{"ownership by random controller should be ignored", owned("RandomController", "abcdef123456", &yes), []int64{100, 100, 100}},
		{"owner without Controller field set should be ignored", owned("ReplicationController", "abcdef123456", nil), []int64{100, 100, 100}},
		{"pod managed by ReplicaSet should avoid a node, this node get lowest priority score", owned("ReplicaSet", "qwert12345", &yes), []int64{100, 0, 100}},
		// schedkit: metav1.GetControllerOf skips owners with controller false.
		{"not controlled by the owner", owned("ReplicationController", "abcdef123456", &no), []int64{100, 100, 100}},
	}
	pl, _ := legacy.NewNodePreferAvoidPods(nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i, n := range nodes {
				got, st := pl.(framework.ScorePlugin).Score(context.Background(), framework.NewCycleState(), tc.pod, cluster.NewNodeInfo(n))
				if st != nil || got != tc.want[i] {
					t.Errorf("%s: score %d %v, want %d", n.Name, got, st, tc.want[i])
				}
			}
		})
	}
}

// schedkit: an annotation that does not decode as core/v1 AvoidPods,
// including a field of the wrong type that names no controller, counts
// as no annotation (upstream: "If we cannot get annotation, assume it's
// schedulable there").
func TestNodePreferAvoidPodsBadAnnotation(t *testing.T) {
	yes := true
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{OwnerReferences: []api.OwnerReference{{Kind: "ReplicaSet", Name: "foo", UID: "u", Controller: &yes}}}}
	entry := `"podSignature": {"podController": {"kind": "ReplicaSet", "name": "foo", "uid": "u", "controller": true}}`
	for _, tc := range []struct {
		name, annotation string
		want             int64
	}{
		{"matching entry", `{"preferAvoidPods": [{` + entry + `}]}`, 0},
		{"not JSON", `{`, 100},
		{"empty", ``, 100},
		{"reason of the wrong type", `{"preferAvoidPods": [{` + entry + `, "reason": 5}]}`, 100},
		{"eviction time not a time", `{"preferAvoidPods": [{` + entry + `, "evictionTime": "yesterday"}]}`, 100},
		// upstream dereferences a missing podController and panics;
		// schedkit skips the entry.
		{"entry without a controller", `{"preferAvoidPods": [{"podSignature": {}}, {` + entry + `}]}`, 0},
	} {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Annotations: map[string]string{priorities.PreferAvoidPodsAnnotationKey: tc.annotation}}}
		if got := priorities.NodePreferAvoidPods(pod, node); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
