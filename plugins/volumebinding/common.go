package volumebinding

import (
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
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

// stateKey is where PreFilter keeps the pod's resolved claims, a
// *predicates.VolumeBindingState, which Score reads too.
const stateKey framework.StateKey = "PreFilter" + config.VolumeBindingName
