package scheduler

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/gangscheduling"
	"github.com/schedkit/schedkit/podgroup"
)

// GangError is why a pod of a PodGroup was not placed when the pod
// itself had a node but its group as a whole did not fit: the group's
// status, as kube-scheduler's PodGroup cycle gives it to every such pod
// ("minCount (8) cannot be satisfied: 5 scheduled, 0 remaining", then the
// PodGroupPostFilter's outcome).
type GangError struct {
	// Pod is the pod.
	Pod *api.Pod
	// Group is the pod's PodGroup.
	Group podgroup.Key
	// Message is the group's status message.
	Message string
}

func (e *GangError) Error() string { return e.Message }

// errPodGroupUnschedulable is upstream's error of a group that did not
// fit; its text is what a group status without reasons prints.
var errPodGroupUnschedulable = errors.New("pod group is unschedulable")

// The scheduler's handle lists the pod groups GangScheduling asks about.
var _ podgroup.Lister = handle{}

// PodGroup returns the PodGroup of the snapshot's object store named by k.
func (h handle) PodGroup(k podgroup.Key) (*api.PodGroup, bool) {
	return cluster.GetObject[api.PodGroup](h.s.snapshot.Objects(), k.Namespace, k.Name)
}

// AllPodsCount counts the group's pods in the snapshot and those waiting
// in the queue being run.
func (h handle) AllPodsCount(k podgroup.Key) int { return h.s.scheduledCount(k) + h.s.queuedCount(k) }

// ScheduledPodsCount counts the group's pods in the snapshot: bound, or
// assumed (in a PodGroup cycle, tentatively).
func (h handle) ScheduledPodsCount(k podgroup.Key) int { return h.s.scheduledCount(k) }

// groupOf returns the PodGroup a pod belongs to when GenericWorkload is
// on, as kube-scheduler's queue tells a pod group member.
func (s *Scheduler) groupOf(pod *api.Pod) (podgroup.Key, bool) {
	if !s.gates.GenericWorkload() {
		return podgroup.Key{}, false
	}
	return podgroup.KeyOf(pod)
}

// gangIndex counts the snapshot's pods per group. Each node's members
// are kept in a memo, so that a new generation recounts only the nodes
// that changed since the last count (an assumed or removed pod changes
// one), not every pod of the cluster, and reads no unchanged node.
type gangIndex struct {
	gen    int64
	built  bool
	memo   cluster.NodeMemo[[]groupCount]
	counts map[podgroup.Key]int
}

// groupCount is the number of a node's pods of one group.
type groupCount struct {
	key podgroup.Key
	n   int
}

// sync brings the counts up to the snapshot's current generation.
func (x *gangIndex) sync(snap *cluster.Snapshot) {
	gen := snap.Generation()
	if x.built && x.gen == gen {
		return
	}
	if x.counts == nil {
		x.counts = map[podgroup.Key]int{}
	}
	view := snap.View()
	x.memo.SyncView(view, view.Nodes(), nodeGroupCounts, func(v *[]groupCount, _ *cluster.NodeInfo, sign int64) {
		for _, c := range *v {
			n := x.counts[c.key] + int(sign)*c.n
			if n == 0 {
				delete(x.counts, c.key)
			} else {
				x.counts[c.key] = n
			}
		}
	})
	x.gen, x.built = gen, true
}

// nodeGroupCounts counts ni's pods per group, in the order the groups
// first appear; it reports whether ni holds any group's pod.
func nodeGroupCounts(ni *cluster.NodeInfo, v *[]groupCount) bool {
	var out []groupCount
	for _, pi := range ni.Pods {
		k, ok := podgroup.KeyOf(pi.Pod)
		if !ok {
			continue
		}
		if i := slices.IndexFunc(out, func(c groupCount) bool { return c.key == k }); i >= 0 {
			out[i].n++
		} else {
			out = append(out, groupCount{key: k, n: 1})
		}
	}
	*v = out
	return len(out) > 0
}

// scheduledCount is the number of the snapshot's pods of group k.
func (s *Scheduler) scheduledCount(k podgroup.Key) int {
	s.gangIdx.sync(s.snapshot)
	return s.gangIdx.counts[k]
}

// runQueue is the queue being run: Simulate's own, or the scheduler's.
func (s *Scheduler) runQueue() *queue {
	if s.current != nil {
		return s.current
	}
	return s.q
}

// queuedCount is the number of pods of group k in the queue being run
// that are not placed (the scheduler's cache holds them as unscheduled
// members).
func (s *Scheduler) queuedCount(k podgroup.Key) int {
	q := s.runQueue()
	n := 0
	for _, e := range q.all {
		if e.where == isPlaced || e.where == isRejected || q.byKey[keyOf(e.qpi.Pod)] != e {
			continue
		}
		if pk, ok := podgroup.KeyOf(e.qpi.Pod); ok && pk == k {
			n++
		}
	}
	return n
}

// recheckGated runs PreEnqueue again for the gated pods of group k, as
// GangScheduling's hint for a new member does: those it admits join the
// active queue.
func (s *Scheduler) recheckGated(ctx context.Context, q *queue, k podgroup.Key) {
	var again []*entry
	for _, e := range q.gated {
		if pk, ok := s.groupOf(e.qpi.Pod); ok && pk == k {
			again = append(again, e)
		}
	}
	for _, e := range again {
		st := e.prof.RunPreEnqueuePlugins(ctx, e.qpi.Pod)
		if !st.IsSuccess() {
			e.err = &GatedError{Pod: e.qpi.Pod, Status: st}
			continue
		}
		q.gated = removeEntry(q.gated, e)
		e.where, e.err = inActive, nil
		q.push(e)
	}
}

// memberResult is one pod's outcome in a PodGroup cycle.
type memberResult struct {
	e      *entry
	res    Decision
	err    error             // the pod's own error (a *FitError when rejected)
	status *framework.Status // nil on success
}

// groupResult is a PodGroup cycle's outcome (upstream's
// podGroupAlgorithmResult for a leaf group).
type groupResult struct {
	status *framework.Status
	// withErr is the status carrying errPodGroupUnschedulable.
	withErr      bool
	pods         []memberResult
	anyScheduled bool
	// revert undoes a successful group's assumptions; a group that did
	// not succeed has none left.
	revert func()
}

// gangOps are the steps of the PodGroup algorithm that touch the
// cluster, so that the algorithm can be tested alone.
type gangOps interface {
	// feasible is the PlacementFeasible extension point.
	feasible(p gangscheduling.Progress) *framework.Status
	// try runs a pod's cycle (no PostFilter) and assumes it where it
	// fits; revert undoes the assumption.
	try(ctx context.Context, e *entry) (res Decision, status *framework.Status, revert func(), err error)
}

// podGroupAlgorithm is upstream's podGroupSchedulingDefaultAlgorithm: the
// members are tried in order, each assumed where it fits so that the next
// see it, and PlacementFeasible stops the cycle once minCount cannot be
// met. A group that does not succeed has its assumptions reverted.
func podGroupAlgorithm(ctx context.Context, ops gangOps, members []*entry, scheduled int) (out groupResult) {
	var reverts []func()
	undo := func() {
		for i := len(reverts) - 1; i >= 0; i-- {
			reverts[i]()
		}
		reverts = nil
	}
	defer func() {
		if !out.status.IsSuccess() {
			undo()
			out.anyScheduled = false
		}
		out.revert = undo
	}()
	progress := gangscheduling.Progress{Remaining: len(members), Scheduled: scheduled}
	st := ops.feasible(progress)
	out.status = st
	if st.IsError() {
		out.status = framework.AsStatus(fmt.Errorf("failed to evaluate placement feasibility: %w", st.AsError()))
		return out
	}
	if st.Code() == framework.Unschedulable {
		out.status, out.withErr = framework.NewStatus(framework.Unschedulable, st.Reasons()...), true
		return out
	}
	anyScheduled := false
	for _, e := range members {
		res, pst, revert, err := ops.try(ctx, e)
		out.pods = append(out.pods, memberResult{e: e, res: res, err: err, status: pst})
		if revert != nil {
			reverts = append(reverts, revert)
		}
		if !pst.IsSuccess() && !pst.IsRejected() {
			out.status = framework.AsStatus(fmt.Errorf("failed to schedule other pod from a pod group: %w", pst.AsError()))
			break
		}
		progress.Remaining--
		if pst.IsSuccess() {
			progress.Scheduled++
		}
		st := ops.feasible(progress)
		if st.IsError() {
			out.status = framework.AsStatus(fmt.Errorf("failed to evaluate placement feasibility: %w", st.AsError()))
			break
		}
		out.status = st
		if st.Code() == framework.Unschedulable {
			break
		}
		anyScheduled = anyScheduled || pst.IsSuccess()
	}
	if out.status.IsWait() {
		out.status, out.withErr = framework.NewStatus(framework.Unschedulable, out.status.Reasons()...), true
	}
	out.anyScheduled = anyScheduled
	if out.status.IsSuccess() && !out.anyScheduled {
		// A group succeeds only with at least one pod scheduled.
		out.status, out.withErr = framework.NewStatus(framework.Unschedulable), true
	}
	return out
}

// message is the group status's message as upstream's Status prints it:
// a status carrying errPodGroupUnschedulable lists its text first.
func (g *groupResult) message() string {
	if g.status.IsError() {
		return g.status.AsError().Error()
	}
	reasons := g.status.Reasons()
	if g.withErr {
		reasons = append([]string{errPodGroupUnschedulable.Error()}, reasons...)
	}
	return strings.Join(reasons, ", ")
}

// schedOps are gangOps on the scheduler.
type schedOps struct {
	s    *Scheduler
	q    *queue
	pg   *api.PodGroup
	gang bool // the profile has GangScheduling
	// queued: the members passed PreEnqueue on joining the queue, so
	// that try does not run it again.
	queued bool
}

func (o schedOps) feasible(p gangscheduling.Progress) *framework.Status {
	if !o.gang {
		return nil
	}
	return gangscheduling.PlacementFeasible(o.pg, p)
}

func (o schedOps) try(ctx context.Context, e *entry) (Decision, *framework.Status, func(), error) {
	s, pod := o.s, e.qpi.Pod
	var res Decision
	var err error
	if prof := e.prof; o.queued && prof != nil {
		res, err = s.scheduleQueued(ctx, prof, pod, false)
	} else {
		res, err = s.scheduleOne(ctx, pod, false)
	}
	if err != nil {
		var fe *FitError
		if errors.As(err, &fe) || errors.Is(err, ErrNoNodesAvailable) {
			return res, framework.NewStatus(framework.Unschedulable).WithError(err), nil, err
		}
		return res, framework.AsStatus(err), nil, err
	}
	restore := s.claimsBefore(pod)
	// The claim events wait: the placement is tentative, and the
	// group's pods go back to the queue together.
	assumed, err := s.assumeClaims(pod, res.Node)
	if err != nil {
		restore()
		return Decision{}, framework.AsStatus(err), nil, err
	}
	pod = withExtendedClaimStatus(pod, assumed.ExtendedResourceClaimStatus)
	if err := s.snapshot.AssumePod(pod, res.Node); err != nil {
		restore()
		return Decision{}, framework.AsStatus(err), nil, err
	}
	// An assumed pod leaves the nominator (assume's
	// DeleteNominatedPodIfExists); the revert nominates it again.
	pi := e.pi
	if pi != nil && o.q != nil {
		o.q.nominated.remove(pi)
	}
	return res, nil, func() {
		_ = s.snapshot.RemovePod(pod)
		if pi != nil && o.q != nil {
			o.q.nominated.add(pi)
		}
		restore()
	}, nil
}

// claimsBefore returns a function that puts the ResourceClaims of pod's
// namespace back as they are now, for a pod whose claims are assumed
// tentatively.
func (s *Scheduler) claimsBefore(pod *api.Pod) func() {
	if len(pod.Spec.ResourceClaims) == 0 {
		return func() {}
	}
	before := slices.Clone(cluster.ListObjects[api.ResourceClaim](s.snapshot.Objects(), pod.Namespace))
	return func() {
		now := cluster.ListObjects[api.ResourceClaim](s.snapshot.Objects(), pod.Namespace)
		for _, c := range before {
			changed := true
			for _, n := range now {
				if n == c {
					changed = false
					break
				}
			}
			if changed {
				_ = s.snapshot.UpdateObject(c)
			}
		}
	}
}

// podGroupMemberLess orders a group's pods as upstream's
// PodGroupMemberPodsOrderingFunc: priority, then attempts (more first),
// then arrival, then name.
func podGroupMemberLess(a, b *entry) int {
	pa, pb := framework.PodPriority(a.qpi.Pod), framework.PodPriority(b.qpi.Pod)
	switch {
	case pa != pb:
		if pa > pb {
			return -1
		}
		return 1
	case a.qpi.Attempts != b.qpi.Attempts:
		if a.qpi.Attempts > b.qpi.Attempts {
			return -1
		}
		return 1
	case !a.qpi.Timestamp.Equal(b.qpi.Timestamp):
		if a.qpi.Timestamp.Before(b.qpi.Timestamp) {
			return -1
		}
		return 1
	}
	return strings.Compare(a.qpi.Pod.Name, b.qpi.Pod.Name)
}

func preemptionPolicyOf(pod *api.Pod) api.PreemptionPolicy {
	if pod.Spec.PreemptionPolicy != nil {
		return *pod.Spec.PreemptionPolicy
	}
	return api.PreemptLowerPriority
}

// validatePodGroup is upstream's validatePodGroup with
// PodGroupPreemptionPolicy off: one scheduler name, the group's priority
// and one preemption policy across the queued and the scheduled pods,
// and a profile for the scheduler name.
func (s *Scheduler) validatePodGroup(pg *api.PodGroup, k podgroup.Key, members []*entry) error {
	if len(members) == 0 {
		return errors.New("no pods to evaluate")
	}
	name := members[0].qpi.Pod.Spec.SchedulerName
	prio := pg.PriorityValue()
	var policy api.PreemptionPolicy
	check := func(pod *api.Pod) error {
		if pod.Spec.SchedulerName != name {
			return fmt.Errorf("all pods in a single pod group should have the same .spec.schedulerName set, got: %q and %q", pod.Spec.SchedulerName, name)
		}
		if p := framework.PodPriority(pod); p != prio {
			return fmt.Errorf("all pods in a single pod group should have the same priority as the pod group's priority, got %d and %d", p, prio)
		}
		pp := preemptionPolicyOf(pod)
		if policy == "" {
			policy = pp
		} else if pp != policy {
			return fmt.Errorf("all pods in a single pod group should have the same preemption policy, got %v and %v", pp, policy)
		}
		return nil
	}
	for _, e := range members {
		if err := check(e.qpi.Pod); err != nil {
			return err
		}
	}
	if s.scheduledCount(k) > 0 {
		// Only a group with pods in the snapshot has more to check.
		for _, ni := range s.snapshot.View().Nodes() {
			for _, pi := range ni.Pods {
				if pk, ok := podgroup.KeyOf(pi.Pod); ok && pk == k {
					if err := check(pi.Pod); err != nil {
						return err
					}
				}
			}
		}
	}
	if _, ok := s.profiles[profileName(name)]; !ok {
		return fmt.Errorf("profile not found for scheduler name %q", name)
	}
	return nil
}

// takeGroup removes from q the pods of group k waiting in the active
// queue or among the unschedulable pods, as the group's queued entity
// holds them, and returns them with first.
func (q *queue) takeGroup(s *Scheduler, first *entry, k podgroup.Key) []*entry {
	members := []*entry{first}
	var pulled []*entry
	for _, e := range q.active {
		if pk, ok := s.groupOf(e.qpi.Pod); ok && pk == k {
			pulled = append(pulled, e)
		}
	}
	for _, e := range q.parked {
		if pk, ok := s.groupOf(e.qpi.Pod); ok && pk == k {
			pulled = append(pulled, e)
		}
	}
	for _, e := range pulled {
		q.take(e)
		e.qpi.Attempts++
		members = append(members, e)
	}
	return members
}

// take removes e from the active queue or the unschedulable pods,
// keeping its nomination.
func (q *queue) take(e *entry) {
	switch e.where {
	case inActive:
		q.removeActive(e)
	case inUnschedulable:
		q.parked = removeEntry(q.parked, e)
	}
	e.where = 0
}

// gatedMember returns a gated pod of group k, nil if none is.
func (q *queue) gatedMember(s *Scheduler, k podgroup.Key) *entry {
	for _, e := range q.gated {
		if pk, ok := s.groupOf(e.qpi.Pod); ok && pk == k {
			return e
		}
	}
	return nil
}

// runGroup runs the PodGroup cycle of the group whose pod first was
// popped, as schedule_one_podgroup.go runs it, and returns the pods it
// placed.
func (s *Scheduler) runGroup(ctx context.Context, q *queue, first *entry, k podgroup.Key, pg *api.PodGroup) ([]*entry, error) {
	members := q.takeGroup(s, first, k)
	if g := q.gatedMember(s, k); g != nil {
		// A group with a gated pod is gated as a whole.
		var st *framework.Status
		var ge *GatedError
		if errors.As(g.err, &ge) {
			st = ge.Status
		}
		for _, e := range members {
			e.where, e.err = inGated, &GatedError{Pod: e.qpi.Pod, Status: st}
			q.gated = append(q.gated, e)
		}
		return nil, nil
	}
	slices.SortStableFunc(members, podGroupMemberLess)
	if err := s.validatePodGroup(pg, k, members); err != nil {
		for _, e := range members {
			q.parkBackoff(e, err, Decision{})
		}
		s.setGroupCondition(pg, api.ConditionFalse, api.PodGroupReasonSchedulerError, err.Error())
		return nil, nil
	}
	prof, _ := s.profileFor(members[0].qpi.Pod)
	_, gang := prof.Plugin(config.GangSchedulingName)
	ops := schedOps{s: s, q: q, pg: pg, gang: gang, queued: true}
	out := podGroupAlgorithm(ctx, ops, members, s.scheduledCount(k))
	if err := ctx.Err(); err != nil {
		for _, e := range members {
			q.park(e, nil, err, Decision{})
		}
		return nil, err
	}
	// The pods the cycle did not reach get the group's status as it is
	// before PodGroupPostFilter adds its outcome.
	before := out.message()
	var pre *groupPreemption
	if out.status.Code() == framework.Unschedulable {
		var st *framework.Status
		st, pre = s.podGroupPostFilter(ctx, q, prof, pg, k, members)
		out.status = framework.NewStatus(framework.Unschedulable, append(out.status.Reasons(), st.Message())...)
	}
	return s.submitGroup(q, pg, k, members, out, before, pre)
}

// submitGroup acts on a PodGroup cycle's outcome as upstream's
// submitPodGroupAlgorithmResult and AddAttemptedPodGroupIfNeeded: on
// success the placed pods stay assumed (their volumes too) and pass
// Permit, and the pods that did not fit go back to the active queue; on
// failure every pod backs off (parkBackoff), with its own fit error when
// it had one, else with the group's status.
func (s *Scheduler) submitGroup(q *queue, pg *api.PodGroup, k podgroup.Key, members []*entry, out groupResult, untried string, pre *groupPreemption) ([]*entry, error) {
	results := make(map[*entry]memberResult, len(out.pods))
	for _, r := range out.pods {
		results[r.e] = r
	}
	var placed []*entry
	for _, e := range members {
		r, tried := results[e]
		switch {
		case out.status.IsError():
			err := out.status.AsError()
			if tried && r.status.IsError() {
				err = r.err
			}
			q.parkBackoff(e, err, r.res)
		case tried && r.status.IsSuccess() && out.status.IsSuccess():
			pod := e.qpi.Pod
			if err := s.assumeVolumes(pod, r.res.Node); err != nil {
				return placed, err
			}
			q.placed(e, r.res.Node, r.res)
			placed = append(placed, e)
		case tried && !r.status.IsSuccess() && out.status.IsSuccess():
			// The group succeeded without it: upstream requeues the
			// group's remaining pods to the active queue at once, their
			// timestamp kept.
			e.qpi.UnschedulablePlugins = rejectors(r.err)
			e.err, e.result, e.backoff = r.err, r.res, false
			e.where = inActive
			q.push(e)
		case tried && !r.status.IsSuccess():
			q.parkBackoff(e, r.err, r.res)
		case tried && pre != nil:
			// It fitted, its group waits for the preemption.
			q.parkBackoff(e, &GangError{Pod: e.qpi.Pod, Group: k, Message: out.message()}, r.res)
		case tried:
			// It fitted, its group did not.
			msg := errPodGroupUnschedulable.Error() + ", " + out.message()
			q.parkBackoff(e, &GangError{Pod: e.qpi.Pod, Group: k, Message: msg}, r.res)
		default:
			q.parkBackoff(e, &GangError{Pod: e.qpi.Pod, Group: k, Message: untried}, r.res)
		}
	}
	for range placed {
		q.moveOnEvent(framework.AssignedPodAdd)
		if q != s.q {
			s.q.moveOnEvent(framework.AssignedPodAdd)
		}
	}
	if pre != nil {
		s.actuateGroupPreemption(q, members, pre)
	}
	switch {
	case out.status.IsSuccess():
		s.setGroupCondition(pg, api.ConditionTrue, "Scheduled", out.status.Message())
	case out.status.IsError():
		s.setGroupCondition(pg, api.ConditionFalse, api.PodGroupReasonSchedulerError, out.status.AsError().Error())
	default:
		s.setGroupCondition(pg, api.ConditionFalse, api.PodGroupReasonUnschedulable, out.message())
	}
	return placed, nil
}

// setGroupCondition writes the PodGroupInitiallyScheduled condition on
// the snapshot's PodGroup, as kube-scheduler patches it after each
// PodGroup cycle. A condition already True stays: a later cycle for
// extra pods does not regress it. The transition time is left unset,
// since a simulation has no clock.
func (s *Scheduler) setGroupCondition(pg *api.PodGroup, status api.ConditionStatus, reason, message string) {
	cur, ok := handle{s}.PodGroup(podgroup.Key{Namespace: pg.Namespace, Name: pg.Name})
	if !ok {
		return
	}
	i := slices.IndexFunc(cur.Status.Conditions, func(c api.Condition) bool { return c.Type == api.PodGroupInitiallyScheduled })
	c := api.Condition{Type: api.PodGroupInitiallyScheduled, Status: status, ObservedGeneration: cur.Generation, Reason: reason, Message: message}
	if i >= 0 {
		old := cur.Status.Conditions[i]
		if old.Status == api.ConditionTrue && status != api.ConditionTrue {
			return
		}
		c.LastTransitionTime = old.LastTransitionTime
		if old == c {
			return
		}
	}
	upd := cur.DeepCopy()
	if i >= 0 {
		upd.Status.Conditions[i] = c
	} else {
		upd.Status.Conditions = append(upd.Status.Conditions, c)
	}
	_ = s.snapshot.UpdateObject(upd)
}

// rejectors are the plugins a pod's fit error names, nil for any change.
func rejectors(err error) map[string]struct{} {
	var fe *FitError
	if !errors.As(err, &fe) {
		return nil
	}
	plugins := union(fe.Diagnosis.UnschedulablePlugins, fe.Diagnosis.PendingPlugins)
	if len(plugins) == 0 {
		return nil
	}
	return plugins
}

// The backoff queue's defaults (podInitialBackoffSeconds,
// podMaxBackoffSeconds); schedkit's queue does not read other values.
const (
	podInitialBackoff = time.Second
	podMaxBackoff     = 10 * time.Second
	// backoffWindow is the backoff queue's ordering window: backoff
	// ends are truncated to it, and those in one window leave in the
	// active queue's order.
	backoffWindow = time.Second
)

// groupBackoff is upstream's calculateBackoffDuration for an entity of
// size pods that failed failures times: the initial backoff doubled per
// failure after the first, at most the maximum times the square root of
// the size.
func groupBackoff(failures, size int) time.Duration {
	if failures == 0 {
		return 0
	}
	limit := podMaxBackoff
	if size > 1 {
		limit = time.Duration(float64(limit) * math.Sqrt(float64(size)))
	}
	shift := failures - 1
	if shift >= 63 || podInitialBackoff > limit>>shift {
		return limit
	}
	return podInitialBackoff << shift
}

// backoffEnd is when the backoff of e's group ends on the simulated
// clock (the queue's logical one): its last failure plus the group's
// backoff, truncated to the ordering window.
func (q *queue) backoffEnd(e *entry) time.Time {
	size := 0
	k, _ := podgroup.KeyOf(e.qpi.Pod)
	for _, o := range q.parked {
		if pk, ok := podgroup.KeyOf(o.qpi.Pod); ok && pk == k && o.backoff {
			size++
		}
	}
	return e.qpi.Timestamp.Add(groupBackoff(e.failures, size)).Truncate(backoffWindow)
}

// backoffBefore orders the backoff queue as upstream's
// lessBackoffCompletedWithPriority: the earlier backoff end first, then
// the active queue's order.
func (q *queue) backoffBefore(a, b *entry) bool {
	if ea, eb := q.backoffEnd(a), q.backoffEnd(b); !ea.Equal(eb) {
		return ea.Before(eb)
	}
	return activeHeap{a, b}.Less(0, 1)
}
