package priorities_test

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// upstream (v1.21): nodelabel TestNodeLabelScore, node labels foo and bar.
func TestNodeLabelScore(t *testing.T) {
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"foo": "", "bar": ""}}}
	tests := []struct {
		name            string
		present, absent []string
		want            int64
	}{
		{"one present label match", []string{"foo"}, nil, framework.MaxNodeScore},
		{"one present label mismatch", []string{"somelabel"}, nil, 0},
		{"two present labels match", []string{"foo", "bar"}, nil, framework.MaxNodeScore},
		{"two present labels mismatch", []string{"somelabel1", "somelabel2"}, nil, 0},
		{"two present labels only one matches", []string{"foo", "somelabel"}, nil, framework.MaxNodeScore / 2},
		{"one absent label match", nil, []string{"somelabel"}, framework.MaxNodeScore},
		{"one absent label mismatch", nil, []string{"foo"}, 0},
		{"two absent labels match", nil, []string{"somelabel1", "somelabel2"}, framework.MaxNodeScore},
		{"two absent labels mismatch", nil, []string{"foo", "bar"}, 0},
		{"two absent labels only one matches", nil, []string{"foo", "somelabel"}, framework.MaxNodeScore / 2},
		{"two present labels match, two absent labels match", []string{"foo", "bar"}, []string{"somelabel1", "somelabel2"}, framework.MaxNodeScore},
		{"two present labels both mismatch, two absent labels both mismatch", []string{"somelabel1", "somelabel2"}, []string{"foo", "bar"}, 0},
		{"two present labels both match, two absent labels both mismatch", []string{"foo", "bar"}, []string{"foo", "bar"}, framework.MaxNodeScore / 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := priorities.NodeLabelScore(tc.present, tc.absent, node); got != tc.want {
				t.Errorf("score %d, want %d", got, tc.want)
			}
		})
	}
}

// upstream (v1.21): nodepreferavoidpods TestNodePreferAvoidPods.
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
		{"not controlled by the owner", owned("ReplicationController", "abcdef123456", &no), []int64{100, 100, 100}},
		{"pod managed by ReplicaSet should avoid a node, this node get lowest priority score", owned("ReplicaSet", "qwert12345", &yes), []int64{100, 0, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for i, n := range nodes {
				if got := priorities.NodePreferAvoidPods(tc.pod, n); got != tc.want[i] {
					t.Errorf("%s: score %d, want %d", n.Name, got, tc.want[i])
				}
			}
		})
	}
}
