package podtopologyspread

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
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

// testHandle is a framework.Handle over a fixed snapshot.
type testHandle struct{ s *cluster.Snapshot }

func (h testHandle) Snapshot() *cluster.Snapshot { return h.s }

func statusString(s *framework.Status) string {
	if s == nil {
		return "Success"
	}
	return s.Code().String() + ": " + s.Message()
}
