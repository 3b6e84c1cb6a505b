package customplugin

import "github.com/schedkit/schedkit/cluster"

// lifecycle returns the node's Lifecycle label, "" without a node.
func lifecycle(n *cluster.NodeInfo) string {
	if node := n.Node(); node != nil {
		return node.Labels[Lifecycle]
	}
	return ""
}
