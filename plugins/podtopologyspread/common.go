package podtopologyspread

import (
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// generation is ni's Generation, 0 for a nil NodeInfo (which holds no
// node and counts nothing).
func generation(ni *cluster.NodeInfo) int64 {
	if ni == nil {
		return 0
	}
	return ni.Generation
}

var skipStatus = framework.NewStatus(framework.Skip)
