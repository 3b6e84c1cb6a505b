package cluster

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
)

// Snapshot is the set of nodes the scheduler decides over. (Being
// implemented: this first version is built once by NewSnapshot.)
type Snapshot struct {
	nodes []*NodeInfo
	index map[string]int
}

// NewSnapshot builds a snapshot of nodes with the pods bound to them.
func NewSnapshot(nodes []*api.Node, pods []*api.Pod) (*Snapshot, error) {
	s := &Snapshot{index: make(map[string]int, len(nodes))}
	images := map[string]int{}
	for _, node := range nodes {
		if node == nil || node.Name == "" {
			return nil, fmt.Errorf("%w node: nil or unnamed", ErrInvalid)
		}
		if _, dup := s.index[node.Name]; dup {
			return nil, fmt.Errorf("%w node %q: duplicate name", ErrInvalid, node.Name)
		}
		s.index[node.Name] = len(s.nodes)
		s.nodes = append(s.nodes, NewNodeInfo(node))
		for name := range s.nodes[len(s.nodes)-1].ImageStates {
			images[name]++
		}
	}
	for _, ni := range s.nodes {
		ni.ImageStates = nodeImageStates(ni.node, func(n string) int { return images[n] })
	}
	for _, pod := range pods {
		p, err := NewPodInfoChecked(pod)
		if err != nil {
			return nil, err
		}
		i, ok := s.index[pod.Spec.NodeName]
		if !ok {
			return nil, fmt.Errorf("pod %s: node %q not in snapshot", podName(pod), pod.Spec.NodeName)
		}
		s.nodes[i].AddPod(p)
	}
	return s, nil
}

// Nodes returns the NodeInfos in a stable order.
func (s *Snapshot) Nodes() []*NodeInfo { return s.nodes }

// NumNodes returns the number of nodes.
func (s *Snapshot) NumNodes() int { return len(s.nodes) }

// Get returns the named node.
func (s *Snapshot) Get(name string) (*NodeInfo, bool) {
	i, ok := s.index[name]
	if !ok {
		return nil, false
	}
	return s.nodes[i], true
}
