package scheduler

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// matchLabelKeys takes effect through admission: admission.Admit merges
// the key's value into the selector as the API server does, and the
// InterPodAffinity filter then reads the merged selector only. A pod that
// never went through admission keeps its plain selector.
func TestInterPodAffinityMatchLabelKeysThroughAdmission(t *testing.T) {
	node := func(name string) *api.Node {
		n := benchNodes(1)[0]
		n.Name = name
		n.Labels = map[string]string{"kubernetes.io/hostname": name}
		return n
	}
	old := benchPods(1)[0]
	old.Name, old.UID = "web-old", "web-old"
	old.Labels = map[string]string{"app": "web", "pod-template-hash": "v1"}
	old.Spec.NodeName = "n1"
	snap, err := cluster.NewSnapshot([]*api.Node{node("n1")}, []*api.Pod{old})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	pod := benchPods(1)[0]
	pod.Name, pod.UID = "web-new", "web-new"
	pod.Labels = map[string]string{"app": "web", "pod-template-hash": "v2"}
	pod.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector:  &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		TopologyKey:    "kubernetes.io/hostname",
		MatchLabelKeys: []string{"pod-template-hash"},
	}}}}
	// As written: the selector is app=web alone, and the old replica
	// blocks the only node.
	if _, err := s.Schedule(context.Background(), pod); err == nil {
		t.Fatal("the unadmitted pod fits beside a pod its plain selector matches")
	}
	admitted, err := admission.Admit(pod, admission.Policies{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Schedule(context.Background(), admitted)
	if err != nil || res.Node != "n1" {
		t.Fatalf("admitted pod (selector app=web, pod-template-hash in (v2)): %v, %v; want n1", res.Node, err)
	}
}
