package app

// The decision of which answers are unverified is the library's
// (scheduler.Decision.Unverified); this file only hands it the fields the
// manifest reader did not model and words the run's warnings.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
)

// antiAffinityNotice is the run's word about bound pods whose required
// anti-affinity no plugin checks new pods against.
func antiAffinityNotice(notEvaluated []string, boundWithAntiAffinity int) string {
	if boundWithAntiAffinity == 0 || !slices.Contains(notEvaluated, "InterPodAffinity") {
		return ""
	}
	return fmt.Sprintf("%d node(s) hold pods with required podAntiAffinity; pending pods are not checked against it (InterPodAffinity not implemented)", boundWithAntiAffinity)
}

// notEvaluatedWarning warns, once per run, when some pending pod uses what
// a plugin this build lacks reads: its decision is marked unverified
// (scheduler.Scheduler.Unverified decides). It says nothing when no pod
// does.
func (e *env) notEvaluatedWarning(o *options, s *scheduler.Scheduler, notEvaluated []string, c *manifest.Cluster) {
	if len(notEvaluated) == 0 {
		return
	}
	n := 0
	for _, p := range c.Pending {
		if len(s.Unverified(p)) > 0 {
			n++
		}
	}
	if n > 0 {
		e.warnf(o, "%d pending pod(s) use what schedkit does not model (plugins not in this build: %s): their decisions are marked unverified", n, strings.Join(notEvaluated, ", "))
	}
}

// unmodelledFields is the scheduler option that hands it the fields of
// c's pods read without being modelled, by namespace and name.
func unmodelledFields(c *manifest.Cluster) scheduler.Option {
	byName := map[string][]string{}
	for _, p := range c.Objects.Pods {
		if f := c.Objects.UnmodelledFields(p); f != nil {
			byName[podName(p)] = f
		}
	}
	return scheduler.WithUnmodelledFields(func(p *api.Pod) []string { return byName[podName(p)] })
}
