package scheduler

import "github.com/schedkit/schedkit/api"

// DisruptionBudgets returns the snapshot's PodDisruptionBudgets as the
// eviction API reads them: a budget whose status the disruption
// controller never wrote (observedGeneration 0 and no counts) comes with
// the status it would compute from the snapshot's pods, as Drain takes
// it. The budgets are shared or copies: do not modify them.
func (s *Scheduler) DisruptionBudgets() []*api.PodDisruptionBudget {
	return s.drainBudgets(s.snapshot.Objects())
}
