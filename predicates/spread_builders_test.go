package predicates

// The PodTopologySpread tables' builders live in internal/testing/testwrap, shared
// with the other half of the plugin.

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
)

var (
	spreadPod  = testwrap.SpreadPod
	spreadNode = testwrap.SpreadNode
	spreadSel  = testwrap.SpreadSel
)

func spreadPtr[T any](v T) *T { return testwrap.Ptr(v) }

var (
	ignorePolicy = api.NodeInclusionPolicyIgnore
	honorPolicy  = api.NodeInclusionPolicyHonor
	fooSelector  = spreadSel().Exists("foo").Obj()
	barSelector  = spreadSel().Exists("bar").Obj()
	taintsUnsch  = []api.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintEffectNoSchedule}}
)
