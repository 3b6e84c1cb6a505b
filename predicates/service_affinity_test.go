package predicates

import (
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
)

// upstream (v1.22): serviceaffinity TestPreFilterStateClone.
func TestServiceAffinityStateClone(t *testing.T) {
	src := &ServiceAffinityState{peers: []servicePeer{{pod: saPod("pod1", "", "", nil)}, {pod: saPod("pod2", "", "", nil)}}, hasServices: true}
	c := src.Clone().(*ServiceAffinityState)
	if c == src || !slices.Equal(peerNames(c), peerNames(src)) || !c.hasServices {
		t.Fatalf("clone %+v", c)
	}
	c.peers = append(c.peers[:0], c.peers[1:]...)
	if len(src.peers) != 2 || src.peers[0].pod.Name != "pod1" {
		t.Errorf("modifying the clone changed the source: %v", peerNames(src))
	}
}

func saPod(name, ns, node string, labels map[string]string) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: labels}, Spec: api.PodSpec{NodeName: node}}
}

func peerNames(s *ServiceAffinityState) []string {
	var out []string
	for _, p := range s.peers {
		out = append(out, p.pod.Name+"@"+p.node)
	}
	slices.Sort(out)
	return out
}
