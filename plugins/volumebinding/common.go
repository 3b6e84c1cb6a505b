package volumebinding

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// stateKey is where PreFilter keeps the pod's resolved claims, a
// *predicates.VolumeBindingState, which Score reads too.
const stateKey framework.StateKey = "PreFilter" + config.VolumeBindingName
