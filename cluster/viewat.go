package cluster

// NodeAt returns the view's node at position i of Nodes, without listing
// the nodes: a cycle that keeps positions of its own checks them against
// the view this way, in constant time.
func (v *View) NodeAt(i int) *NodeInfo { return v.nodes.at(i) }
