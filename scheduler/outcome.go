package scheduler

import (
	"errors"
	"fmt"
	"strings"
)

// Outcome is what became of a pod in one vocabulary for every result:
// placed, placed by preempting, unschedulable or gated. Whether a
// decision is unverified is a separate mark (Summary.Unverified) because
// any outcome may be.
type Outcome int

const (
	// OutcomeUnschedulable: the pod fits no node and preemption does not
	// help, or the cycle failed.
	OutcomeUnschedulable Outcome = iota
	// OutcomePlaced: the pod fits a node as the cluster is.
	OutcomePlaced
	// OutcomePreempting: the pod fits only once victims are evicted
	// from the nominated node.
	OutcomePreempting
	// OutcomeGated: a PreEnqueue plugin (scheduling gates) holds the pod
	// back, so no cycle runs.
	OutcomeGated
)

// String is the outcome's word: placed, preempting, unschedulable, gated.
func (o Outcome) String() string {
	switch o {
	case OutcomePlaced:
		return "placed"
	case OutcomePreempting:
		return "preempting"
	case OutcomeGated:
		return "gated"
	}
	return "unschedulable"
}

// MarshalText writes the outcome's word, so JSON and YAML carry it.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Failed reports whether the outcome is one a gate should stop on: the
// pod is unschedulable or fits only by evicting others.
func (o Outcome) Failed() bool { return o == OutcomeUnschedulable || o == OutcomePreempting }

// outcomeOf is the outcome of a cycle that chose node (or failed with
// err) and whose PostFilter nominated nominated.
func outcomeOf(node, nominated string, err error) Outcome {
	var gated *GatedError
	switch {
	case node != "":
		return OutcomePlaced
	case errors.As(err, &gated):
		return OutcomeGated
	case nominated != "":
		return OutcomePreempting
	}
	return OutcomeUnschedulable
}

// Outcome is the outcome of the cycle Schedule ran: err is the error it
// returned with the decision.
func (d *Decision) Outcome(err error) Outcome { return outcomeOf(d.Node, d.NominatedNode, err) }

// Outcome is the outcome of the explained cycle: gated when a PreEnqueue
// plugin holds the pod back, preempting when the preemption dry run
// nominates a node.
func (ex *Explanation) Outcome() Outcome {
	if ex.PreEnqueue != nil {
		return OutcomeGated
	}
	nominated := ""
	if pe := ex.Preemption; pe != nil && pe.Result != nil {
		nominated = pe.NominatedNode
	}
	return outcomeOf(ex.Node, nominated, ex.Err)
}

// Outcome is the outcome of the pod's run through the queue: placed after
// a preemption of its own counts as preempting, since the placement
// evicts other pods.
func (p *Placement) Outcome() Outcome {
	var gated *GatedError
	switch {
	case p.Node != "" && len(p.Preemptions) > 0:
		return OutcomePreempting
	case p.Node != "":
		return OutcomePlaced
	case errors.As(p.Err, &gated):
		return OutcomeGated
	case len(p.Preemptions) > 0:
		return OutcomePreempting
	}
	return OutcomeUnschedulable
}

// Summary counts outcomes. Its String is the line every report ends with,
// so that explain, simulate, compare and drain read the same.
type Summary struct {
	Pods          int `json:"pods"`
	Placed        int `json:"placed"`
	Preempting    int `json:"preempting"`
	Unschedulable int `json:"unschedulable"`
	Gated         int `json:"gated"`
	// Unverified counts the pods, of any outcome, whose decision was made
	// without a plugin this build lacks.
	Unverified int `json:"unverified"`
}

// Add counts one pod.
func (s *Summary) Add(o Outcome, unverified bool) {
	s.Pods++
	switch o {
	case OutcomePlaced:
		s.Placed++
	case OutcomePreempting:
		s.Preempting++
	case OutcomeGated:
		s.Gated++
	default:
		s.Unschedulable++
	}
	if unverified {
		s.Unverified++
	}
}

// Failed counts the pods whose outcome Failed reports.
func (s Summary) Failed() int { return s.Unschedulable + s.Preempting }

// String is "6 pod(s): 5 placed, 1 preempting, 0 unschedulable, 0 gated",
// with ", N unverified" when N is not 0. The four outcomes add up to the
// pods.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d pod(s): %d placed, %d preempting, %d unschedulable, %d gated", s.Pods, s.Placed, s.Preempting, s.Unschedulable, s.Gated)
	if s.Unverified > 0 {
		fmt.Fprintf(&b, ", %d unverified", s.Unverified)
	}
	return b.String()
}

// Summary counts the outcomes of the pods the drain scheduled: the
// replacements of the evicted or deleted pods a controller recreates,
// then the other pending pods (DrainOptions.Pending).
func (r *DrainReport) Summary() Summary {
	var s Summary
	for i := range r.Pods {
		if p := &r.Pods[i]; (p.Outcome == DrainEvicted || p.Outcome == DrainDeleted) && p.Replaced {
			s.Add(p.Placement.Outcome(), false)
		}
	}
	for i := range r.Pending {
		s.Add(r.Pending[i].Outcome(), false)
	}
	return s
}

// UnmarshalText reads an outcome's word back.
func (o *Outcome) UnmarshalText(b []byte) error {
	for _, c := range []Outcome{OutcomePlaced, OutcomePreempting, OutcomeUnschedulable, OutcomeGated} {
		if string(b) == c.String() {
			*o = c
			return nil
		}
	}
	return fmt.Errorf("outcome %q: want placed, preempting, unschedulable or gated", b)
}
