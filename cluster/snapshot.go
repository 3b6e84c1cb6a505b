package cluster

// Snapshot is the set of nodes the scheduler decides over. (Skeleton —
// being implemented.)
type Snapshot struct {
	nodes []*NodeInfo
}

// Nodes returns the NodeInfos in a stable order.
func (s *Snapshot) Nodes() []*NodeInfo { return s.nodes }
