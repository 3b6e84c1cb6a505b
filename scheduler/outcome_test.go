package scheduler

import (
	"encoding/json"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// TestOutcome pins the one outcome vocabulary of Decision, Explanation and
// Placement, and the summary line that adds up.
func TestOutcome(t *testing.T) {
	gated := &GatedError{Status: framework.NewStatus(framework.UnschedulableAndUnresolvable, "waiting for scheduling gates")}
	fit := &FitError{}
	cases := []struct {
		name string
		got  Outcome
		want Outcome
	}{
		{"decision placed", (&Decision{Node: "n1"}).Outcome(nil), OutcomePlaced},
		{"decision preempting", (&Decision{NominatedNode: "n1"}).Outcome(fit), OutcomePreempting},
		{"decision unschedulable", (&Decision{}).Outcome(fit), OutcomeUnschedulable},
		{"decision gated", (&Decision{}).Outcome(gated), OutcomeGated},
		{"explanation gated", (&Explanation{PreEnqueue: gated.Status}).Outcome(), OutcomeGated},
		{"explanation preempting", (&Explanation{Err: fit, Preemption: &PreemptionExplanation{Result: &framework.PostFilterResult{}, NominatedNode: "n1"}}).Outcome(), OutcomePreempting},
		{"explanation placed", (&Explanation{Decision: Decision{Node: "n1"}}).Outcome(), OutcomePlaced},
		{"placement after preempting", (&Placement{Node: "n1", Preemptions: []Preemption{{Node: "n1", Victims: []*api.Pod{{}}}}}).Outcome(), OutcomePreempting},
		{"placement placed", (&Placement{Node: "n1"}).Outcome(), OutcomePlaced},
		{"placement gated", (&Placement{Err: gated}).Outcome(), OutcomeGated},
		{"placement unschedulable", (&Placement{Err: fit}).Outcome(), OutcomeUnschedulable},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	var s Summary
	for _, o := range []Outcome{OutcomePlaced, OutcomePlaced, OutcomePlaced, OutcomePlaced, OutcomePlaced, OutcomePreempting} {
		s.Add(o, false)
	}
	if got, want := s.String(), "6 pod(s): 5 placed, 1 preempting, 0 unschedulable, 0 gated"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	s.Add(OutcomeGated, true)
	if got, want := s.String(), "7 pod(s): 5 placed, 1 preempting, 0 unschedulable, 1 gated, 1 unverified"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if s.Failed() != 1 || !OutcomePreempting.Failed() || OutcomeGated.Failed() {
		t.Errorf("Failed: %d", s.Failed())
	}
	b, _ := json.Marshal(struct{ O Outcome }{OutcomePreempting})
	if string(b) != `{"O":"preempting"}` {
		t.Errorf("JSON %s", b)
	}
}
