package nodevolumelimits

import (
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

var skipStatus = framework.NewStatus(framework.Skip)

// objectsOf returns the object store of h's snapshot, nil without one.
func objectsOf(h framework.Handle) *cluster.Objects {
	if h == nil {
		return nil
	}
	s := h.Snapshot()
	if s == nil {
		return nil
	}
	return s.View().Objects()
}
