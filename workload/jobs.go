package workload

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/schedkit/schedkit/api"
)

// Job condition types the Job controller sets (batch/v1).
const (
	jobComplete           = "Complete"
	jobFailed             = "Failed"
	jobFailureTarget      = "FailureTarget"
	jobSuccessCriteriaMet = "SuccessCriteriaMet"
)

// jobHasCondition reports a condition of the type with status True.
func jobHasCondition(j *api.Job, types ...string) bool {
	for _, c := range j.Status.Conditions {
		if c.Status == api.ConditionTrue && slices.Contains(types, c.Type) {
			return true
		}
	}
	return false
}

// jobBackoffLimit is spec.backoffLimit as the API server defaults it: 6,
// or MaxInt32 with backoffLimitPerIndex.
func jobBackoffLimit(j *api.Job) int32 {
	switch {
	case j.Spec.BackoffLimit != nil:
		return *j.Spec.BackoffLimit
	case j.Spec.BackoffLimitPerIndex != nil:
		return math.MaxInt32
	}
	return 6
}

// isPodFailedForJob is the Job controller's isPodFailed: a Failed pod, or,
// unless the Job replaces failed pods only, one being deleted that has
// not succeeded.
func isPodFailedForJob(p *api.Pod, onlyFailed bool) bool {
	if p.Status.Phase == api.PodFailed {
		return true
	}
	return !onlyFailed && p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded
}

// matchPodFailurePolicy is the Job controller's matchPodFailurePolicy: the
// action of the first rule a failed pod matches ("" when none does), and
// for FailJob the controller's message.
func matchPodFailurePolicy(policy *api.PodFailurePolicy, p *api.Pod) (action, msg string) {
	if policy == nil {
		return "", ""
	}
	for i, r := range policy.Rules {
		switch {
		case r.OnExitCodes != nil:
			cs := matchOnExitCodes(&p.Status, r.OnExitCodes)
			if cs == nil {
				continue
			}
			switch r.Action {
			case "Ignore", "FailIndex", "Count":
				return r.Action, ""
			case "FailJob":
				return r.Action, fmt.Sprintf("Container %s for pod %s/%s failed with exit code %d matching FailJob rule at index %d", cs.Name, p.Namespace, p.Name, cs.State.Terminated.ExitCode, i)
			}
		case r.OnPodConditions != nil:
			c := matchOnPodConditions(&p.Status, r.OnPodConditions)
			if c == nil {
				continue
			}
			switch r.Action {
			case "Ignore", "FailIndex", "Count":
				return r.Action, ""
			case "FailJob":
				return r.Action, fmt.Sprintf("Pod %s/%s has condition %s matching FailJob rule at index %d", p.Namespace, p.Name, c.Type, i)
			}
		}
	}
	return "", ""
}

// matchOnExitCodes is the first terminated container (containers, then
// init containers) with a non-zero exit code the requirement matches.
func matchOnExitCodes(st *api.PodStatus, req *api.PodFailurePolicyOnExitCodesRequirement) *api.ContainerStatus {
	for _, list := range [][]api.ContainerStatus{st.ContainerStatuses, st.InitContainerStatuses} {
		for i := range list {
			cs := &list[i]
			t := cs.State.Terminated
			if t == nil || t.ExitCode == 0 || (req.ContainerName != nil && *req.ContainerName != cs.Name) {
				continue
			}
			in := slices.Contains(req.Values, t.ExitCode)
			if req.Operator == "In" && in || req.Operator == "NotIn" && !in {
				return cs
			}
		}
	}
	return nil
}

// matchOnPodConditions is the first pod condition a pattern matches.
func matchOnPodConditions(st *api.PodStatus, patterns []api.PodFailurePolicyOnPodConditionsPattern) *api.PodCondition {
	for i := range st.Conditions {
		for _, pat := range patterns {
			if st.Conditions[i].Type == pat.Type && st.Conditions[i].Status == pat.Status {
				return &st.Conditions[i]
			}
		}
	}
	return nil
}

// pastBackoffLimitOnFailure is the Job controller's test for a Job whose
// pods restart in place (restartPolicy OnFailure): the restarts of its
// running and pending pods' containers reach the backoff limit (any
// restart, with limit 0).
func pastBackoffLimitOnFailure(j *api.Job, pods []*api.Pod, limit int32) bool {
	if j.Spec.Template.Spec.RestartPolicy != "OnFailure" {
		return false
	}
	var n int32
	for _, p := range pods {
		if p.Status.Phase != api.PodRunning && p.Status.Phase != api.PodPending {
			continue
		}
		for _, cs := range p.Status.InitContainerStatuses {
			n += cs.RestartCount
		}
		for _, cs := range p.Status.ContainerStatuses {
			n += cs.RestartCount
		}
	}
	if limit == 0 {
		return n > 0
	}
	return n >= limit
}

// matchSuccessPolicy is the Job controller's matchSuccessPolicy for an
// Indexed Job with these succeeded indexes: a rule whose
// succeededIndexes (those below completions) all succeeded, or at least
// succeededCount of them; or, without succeededIndexes, succeededCount
// indexes succeeded in all. A rule whose succeededIndexes list none is
// skipped.
func matchSuccessPolicy(policy *api.SuccessPolicy, completions int, succeeded map[int]bool) bool {
	if policy == nil || len(succeeded) == 0 {
		return false
	}
	for _, r := range policy.Rules {
		if r.SucceededIndexes != nil {
			want := map[int]bool{}
			parseIndexes(*r.SucceededIndexes, completions, want)
			if len(want) == 0 {
				continue
			}
			have := 0
			for i := range want {
				if succeeded[i] {
					have++
				}
			}
			if have == len(want) || r.SucceededCount != nil && have >= int(*r.SucceededCount) {
				return true
			}
		} else if r.SucceededCount != nil && len(succeeded) >= int(*r.SucceededCount) {
			return true
		}
	}
	return false
}

// jobFailure is why the Job controller fails a Job in this sync, before
// it manages pods (syncJob's failure scenarios, in its order): a pod
// failure policy FailJob rule a failed pod matches; failed pods (status
// and those still holding the tracking finalizer, less those a policy
// Ignores) beyond the backoff limit, or restarts reaching it with
// restartPolicy OnFailure; the active deadline past (against the
// expander's time reference; this machine's clock, with a warning, when
// there is none). "" when none.
func (e *expander) jobFailure(j *api.Job, object string, claimed []*api.Pod, onlyFailed, indexed bool, completions int) string {
	policy := j.Spec.PodFailurePolicy
	for _, p := range claimed {
		if isPodFailedForJob(p, onlyFailed) {
			if action, msg := matchPodFailurePolicy(policy, p); action == "FailJob" {
				return "PodFailurePolicy: " + msg
			}
		}
	}
	failed := j.Status.Failed
	for _, p := range claimed {
		if !hasFinalizer(&p.ObjectMeta, jobTrackingFinalizer) || !isPodFailedForJob(p, onlyFailed) {
			continue
		}
		if i := completionIndex(p); indexed && (i < 0 || i >= completions) {
			continue
		}
		if action, _ := matchPodFailurePolicy(policy, p); action != "Ignore" {
			failed++
		}
	}
	limit := jobBackoffLimit(j)
	if failed > limit || pastBackoffLimitOnFailure(j, claimed, limit) {
		return "BackoffLimitExceeded: Job has reached the specified backoff limit"
	}
	if d := j.Spec.ActiveDeadlineSeconds; d != nil && j.Status.StartTime != nil {
		now := e.now
		if now.IsZero() {
			now = time.Now()
			e.warn(j, object, "spec.activeDeadlineSeconds judged against this machine's clock (no time reference given)")
		}
		if now.Sub(j.Status.StartTime.Time) >= time.Duration(*d)*time.Second {
			return "DeadlineExceeded: Job was active longer than specified deadline"
		}
	}
	return ""
}

// maxJobPodFailureBackOff is the Job controller's longest pod failure
// backoff (MaxJobPodFailureBackOff).
const maxJobPodFailureBackOff = 10 * time.Minute

// podFinishedTime is the Job controller's getFinishedTime: the latest
// finishedAt of the containers when all have terminated with one, else
// the Ready=False condition's transition time, else the deletion time
// less the grace period, else the creation time. (Upstream also waits
// for restartable init containers; schedkit takes containers only.)
func podFinishedTime(p *api.Pod) time.Time {
	var latest time.Time
	all := len(p.Status.ContainerStatuses) > 0
	for _, cs := range p.Status.ContainerStatuses {
		t := cs.State.Terminated
		if t == nil || t.FinishedAt.IsZero() {
			all = false
			break
		}
		if t.FinishedAt.After(latest) {
			latest = t.FinishedAt.Time
		}
	}
	if all {
		return latest
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			if c.Status == api.ConditionFalse && !c.LastTransitionTime.IsZero() {
				return c.LastTransitionTime.Time
			}
			break
		}
	}
	if p.DeletionTimestamp != nil {
		grace := int64(0)
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.Add(-time.Duration(grace) * time.Second)
	}
	return p.CreationTimestamp.Time
}

// warnBackoff warns that the Job controller may hold back the pods
// created here: its pod failure backoff (10s doubling per failure since
// the last success, up to 10 minutes) is kept in the controller's
// memory, so a dump cannot say how long; it matters only while the last
// failure is less than 10 minutes old.
func (e *expander) warnBackoff(j *api.Job, object string, claimed []*api.Pod, onlyFailed bool) {
	if j.Spec.BackoffLimitPerIndex != nil {
		return
	}
	var last time.Time
	for _, p := range claimed {
		if isPodFailedForJob(p, onlyFailed) {
			if t := podFinishedTime(p); t.After(last) {
				last = t
			}
		}
	}
	if last.IsZero() {
		return
	}
	now := e.now
	if now.IsZero() {
		now = time.Now()
	}
	if now.Sub(last) < maxJobPodFailureBackOff {
		e.warn(j, object, "a pod failed at %s: the Job controller may hold back the pods created here for its pod failure backoff (up to %v), which a dump does not show", last.UTC().Format(time.RFC3339), maxJobPodFailureBackOff)
	}
}
