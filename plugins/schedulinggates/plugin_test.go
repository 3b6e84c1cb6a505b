package schedulinggates

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// Ported from upstream schedulinggates TestPreEnqueue.
func TestSchedulingGatesPreEnqueue(t *testing.T) {
	if st := (SchedulingGates{}).PreEnqueue(context.Background(), &api.Pod{}); st != nil {
		t.Errorf("pod without gates: %v", st)
	}
	p := &api.Pod{Spec: api.PodSpec{SchedulingGates: []api.PodSchedulingGate{{Name: "foo"}, {Name: "bar"}}}}
	st := (SchedulingGates{}).PreEnqueue(context.Background(), p)
	if st.Code() != framework.UnschedulableAndUnresolvable || st.Message() != "waiting for scheduling gates: [foo bar]" {
		t.Errorf("status %v %q", st.Code(), st.Message())
	}
}
