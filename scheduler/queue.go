package scheduler

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/podgroup"
)

// nominator maps node names to the queued pods nominated to them
// (pod.Status.NominatedNodeName), which Filter counts when they have at
// least the priority of the pod being scheduled.
type nominator map[string][]*cluster.PodInfo

func (n nominator) add(pi *cluster.PodInfo) {
	if node := pi.Pod.Status.NominatedNodeName; node != "" {
		n[node] = append(n[node], pi)
	}
}

func (n nominator) remove(pi *cluster.PodInfo) {
	node := pi.Pod.Status.NominatedNodeName
	list := n[node]
	for i, x := range list {
		if x == pi {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(n, node)
	} else {
		n[node] = list
	}
}

type podKey struct{ namespace, name string }

func keyOf(pod *api.Pod) podKey {
	ns := pod.Namespace
	if ns == "" {
		ns = "default"
	}
	return podKey{ns, pod.Name}
}

// Where a queued pod is.
const (
	inActive = iota + 1
	inUnschedulable
	inGated
	isPlaced
	isRejected // no profile: never schedulable
)

// entry is a pod known to a queue.
type entry struct {
	qpi     framework.QueuedPodInfo
	prof    *framework.Profile
	pi      *cluster.PodInfo // for the nominator, when nominated
	where   int
	heapIdx int
	order   int // arrival order in the queue
	node    string
	err     error
	result  Decision
	// preemptions are the preemptions the pod's cycles made;
	// preemptedBy is the pod whose preemption evicted this one.
	preemptions []Preemption
	preemptedBy *api.Pod
	// backoff marks a PodGroup member parked by its group's failed
	// cycle: it waits out the group's backoff, not a cluster event;
	// backoffAt is q.events when it failed, and failures counts its
	// group's failed cycles (upstream's unschedulable count, which
	// sets the backoff's length).
	backoff   bool
	backoffAt int64
	failures  int
}

// queue is kube-scheduler's scheduling queue without time: an active
// queue ordered by the profiles' QueueSort, the unschedulable pods parked
// until a cluster event one of their rejecting plugins registered for,
// and the pods PreEnqueue plugins (scheduling gates) hold back. A logical
// clock stamps arrivals and failures, so order is deterministic.
type queue struct {
	active    activeHeap
	parked    []*entry
	gated     []*entry
	byKey     map[podKey]*entry
	all       []*entry
	nominated nominator
	clock     int64
	// events counts the cluster events the queue saw (moveOnEvent): a
	// group backing off is retried only after one.
	events int64
}

func newQueue() *queue {
	return &queue{byKey: map[podKey]*entry{}, nominated: nominator{}}
}

var epoch = time.Unix(0, 0).UTC()

func (q *queue) tick() time.Time {
	q.clock++
	return epoch.Add(time.Duration(q.clock))
}

// add puts a pod in the queue, replacing a pod of the same name that is
// not placed yet, and runs the profile's PreEnqueue plugins.
func (q *queue) add(ctx context.Context, s *Scheduler, pod *api.Pod) *entry {
	k := keyOf(pod)
	if old, ok := q.byKey[k]; ok && old.where != isPlaced {
		q.detach(old)
	}
	now := q.tick()
	e := &entry{
		qpi:   framework.QueuedPodInfo{Pod: pod, Timestamp: now, InitialAttemptTimestamp: now},
		order: len(q.all),
	}
	q.byKey[k] = e
	q.all = append(q.all, e)
	if pod.DeletionTimestamp != nil {
		// As kube-scheduler's skipPodSchedule.
		e.where, e.err = isRejected, fmt.Errorf("skip schedule deleting pod: %v/%v", pod.Namespace, pod.Name)
		return e
	}
	prof, err := s.profileFor(pod)
	if err != nil {
		e.where, e.err = isRejected, err
		return e
	}
	e.prof = prof
	if pod.Status.NominatedNodeName != "" {
		e.pi = cluster.NewPodInfo(pod)
		q.nominated.add(e.pi)
	}
	if st := prof.RunPreEnqueuePlugins(ctx, pod); !st.IsSuccess() {
		e.where, e.err = inGated, &GatedError{Pod: pod, Status: st}
		q.gated = append(q.gated, e)
	} else {
		e.where = inActive
		heap.Push(&q.active, e)
	}
	if k, ok := s.groupOf(pod); ok {
		// A new member may complete its gang's quorum.
		s.recheckGated(ctx, q, k)
	}
	return e
}

// push adds e to the active queue.
func (q *queue) push(e *entry) { heap.Push(&q.active, e) }

// removeActive removes e from the active queue.
func (q *queue) removeActive(e *entry) { heap.Remove(&q.active, e.heapIdx) }

// detach removes a pod that is not placed from wherever it waits.
func (q *queue) detach(e *entry) {
	switch e.where {
	case inActive:
		heap.Remove(&q.active, e.heapIdx)
	case inUnschedulable:
		q.parked = removeEntry(q.parked, e)
	case inGated:
		q.gated = removeEntry(q.gated, e)
	}
	if e.pi != nil {
		q.nominated.remove(e.pi)
		e.pi = nil
	}
	e.where = 0
}

func removeEntry(s []*entry, e *entry) []*entry {
	for i, x := range s {
		if x == e {
			return append(s[:i], s[i+1:]...)
		}
	}
	return s
}

// pop returns the first pod of the active queue, nil if it is empty.
func (q *queue) pop() *entry {
	if q.active.Len() == 0 {
		return nil
	}
	e := heap.Pop(&q.active).(*entry)
	e.where = 0
	e.qpi.Attempts++
	return e
}

// placed records that e went to node.
func (q *queue) placed(e *entry, node string, res Decision) {
	if e.pi != nil {
		q.nominated.remove(e.pi)
		e.pi = nil
	}
	e.where, e.node, e.err, e.result = isPlaced, node, nil, res
}

// park puts a pod that could not be scheduled among the unschedulable
// pods, with the plugins that rejected it; its timestamp is refreshed as
// kube-scheduler does when a pod comes back to the queue.
func (q *queue) park(e *entry, plugins map[string]struct{}, err error, res Decision) {
	e.backoff = false
	e.qpi.UnschedulablePlugins = plugins
	e.qpi.Timestamp = q.tick()
	e.err, e.result = err, res
	e.where = inUnschedulable
	q.parked = append(q.parked, e)
}

// nominate records a node PostFilter nominated for a parked pod.
func (q *queue) nominate(e *entry, node string) {
	if e.pi != nil {
		q.nominated.remove(e.pi)
	}
	pod := *e.qpi.Pod
	pod.Status.NominatedNodeName = node
	e.qpi.Pod = &pod
	e.pi = nil
	if node != "" {
		e.pi = cluster.NewPodInfo(&pod)
		q.nominated.add(e.pi)
	}
}

// moveOnEvent moves the parked pods that ev may make schedulable back to
// the active queue: those rejected by a plugin that registered ev, and
// those that failed with an error (no rejecting plugin).
func (q *queue) moveOnEvent(ev framework.ClusterEvent) int {
	return q.moveOn(framework.Event{Kind: ev})
}

// moveOn is moveOnEvent for an event with its objects: a rejecting
// plugin that registered the event and has queueing hints decides from
// them, as kube-scheduler's isPodWorthRequeuing.
func (q *queue) moveOn(ev framework.Event) int {
	q.events++
	moved := 0
	kept := q.parked[:0]
	for _, e := range q.parked {
		if e.backoff || !interested(e, ev) {
			kept = append(kept, e)
			continue
		}
		e.where = inActive
		heap.Push(&q.active, e)
		moved++
	}
	clear(q.parked[len(kept):])
	q.parked = kept
	return moved + q.regate(ev)
}

// regate runs the PreEnqueue plugins again for the pods a PreEnqueue
// plugin holds back that registered ev and whose hint queues them (such
// as DynamicResources for a pod whose claim was just created), and moves
// those now admitted to the active queue. PodGroup members wait for
// their group instead (recheckGated).
func (q *queue) regate(ev framework.Event) int {
	if len(q.gated) == 0 || ev.Kind&(framework.NodeAdd|framework.NodeUpdate|framework.NodeDelete|
		framework.AssignedPodAdd|framework.AssignedPodUpdate|framework.AssignedPodDelete) != 0 {
		// Gated pods wait for object events only: no in-tree
		// PreEnqueue plugin registers node or assigned-pod events.
		return 0
	}
	moved := 0
	kept := q.gated[:0]
	for _, e := range q.gated {
		var ge *GatedError
		if !errors.As(e.err, &ge) || ge.Status == nil || !e.wantsAgain(ge.Status.Plugin(), ev) {
			kept = append(kept, e)
			continue
		}
		st := e.prof.RunPreEnqueuePlugins(context.Background(), e.qpi.Pod)
		if !st.IsSuccess() {
			e.err = &GatedError{Pod: e.qpi.Pod, Status: st}
			kept = append(kept, e)
			continue
		}
		e.where, e.err = inActive, nil
		heap.Push(&q.active, e)
		moved++
	}
	clear(q.gated[len(kept):])
	q.gated = kept
	return moved
}

// parkBackoff parks a member of a PodGroup whose cycle failed, as
// upstream's AddAttemptedPodGroupIfNeeded puts a rejected or failed group
// in the backoff queue rather than among the unschedulable entities:
// PodGroups have no queueing hints in v1.37, so no event moves it; its
// backoff does (flushBackoff).
func (q *queue) parkBackoff(e *entry, err error, res Decision) {
	q.park(e, nil, err, res)
	e.backoff, e.backoffAt = true, q.events
	e.failures++
}

// flushBackoff moves the members of the next PodGroup to leave the
// backoff queue back to the active queue, and returns how many it moved.
// It is called once the active queue is empty, when
// SchedulerPopFromBackoffQ pops the backoff queue's head whether or not
// its backoff is over: the group whose backoff ends first on the
// simulated clock (backoffBefore), its members tried together. A group
// retried with nothing changed since its failure fails the same way, so
// only groups that failed before the last cluster event leave; the
// others stay unschedulable.
func (q *queue) flushBackoff() int {
	var next *entry
	for _, e := range q.parked {
		if e.backoff && e.backoffAt != q.events && (next == nil || q.backoffBefore(e, next)) {
			next = e
		}
	}
	if next == nil {
		return 0
	}
	k, _ := podgroup.KeyOf(next.qpi.Pod)
	moved := 0
	kept := q.parked[:0]
	for _, e := range q.parked {
		if pk, ok := podgroup.KeyOf(e.qpi.Pod); !e.backoff || e.backoffAt == q.events || !ok || pk != k {
			kept = append(kept, e)
			continue
		}
		e.backoff = false
		e.where = inActive
		heap.Push(&q.active, e)
		moved++
	}
	clear(q.parked[len(kept):])
	q.parked = kept
	return moved
}

// wantsAgain reports whether the PreEnqueue plugin that holds e back
// registered ev and its hint queues e.
func (e *entry) wantsAgain(plugin string, ev framework.Event) bool {
	if e.prof == nil || plugin == "" || plugin == config.GangSchedulingName {
		return false
	}
	return eventsOf(e.prof, plugin)&ev.Kind != 0 && e.prof.QueueingHint(plugin, e.qpi.Pod, ev) == framework.Queue
}

func interested(e *entry, ev framework.Event) bool {
	if len(e.qpi.UnschedulablePlugins) == 0 {
		return true
	}
	for pl := range e.qpi.UnschedulablePlugins {
		if eventsOf(e.prof, pl)&ev.Kind != 0 && e.prof.QueueingHint(pl, e.qpi.Pod, ev) == framework.Queue {
			return true
		}
	}
	return false
}

// activeHeap orders entries with their profile's QueueSort (profiles of
// one scheduler share it); arrival order breaks exact ties.
type activeHeap []*entry

func (h activeHeap) Len() int { return len(h) }
func (h activeHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.prof.Less(&a.qpi, &b.qpi) {
		return true
	}
	if b.prof.Less(&b.qpi, &a.qpi) {
		return false
	}
	return a.order < b.order
}
func (h activeHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIdx, h[j].heapIdx = i, j
}
func (h *activeHeap) Push(x any) {
	e := x.(*entry)
	e.heapIdx = len(*h)
	*h = append(*h, e)
}
func (h *activeHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	e.heapIdx = -1
	return e
}
