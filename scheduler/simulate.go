package scheduler

import (
	"context"
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
	"github.com/schedkit/schedkit/predicates"
)

// Placement is where a pod went, or why it did not.
type Placement struct {
	// Pod is the pod (with status.nominatedNodeName set if PostFilter
	// nominated a node for it).
	Pod *api.Pod
	// Node is the node the pod was assumed on; empty if it was not.
	Node string
	// Err is why the pod was not placed: a *FitError from its last
	// attempt, a *GatedError, or another error (unknown profile, plugin
	// error).
	Err error
	// Attempts is the number of scheduling cycles the pod went through.
	Attempts int
	// Decision is the last cycle's decision.
	Decision Decision
	// Preemptions are the preemptions the pod's cycles made, in order:
	// each evicted its victims from the snapshot and nominated the pod.
	Preemptions []Preemption
	// PreemptedBy is the pod whose preemption evicted this one after it
	// was placed (Node is then empty); nil if none did.
	PreemptedBy *api.Pod
}

func (e *entry) placement() Placement {
	return Placement{Pod: e.qpi.Pod, Node: e.node, Err: e.err, Attempts: e.qpi.Attempts, Decision: e.result,
		Preemptions: e.preemptions, PreemptedBy: e.preemptedBy}
}

// Assume adds pod to node in the snapshot, as kube-scheduler's assume and
// DefaultBinder do, so that the next decisions see it, and moves parked
// pods that a new pod on a node may help back to the active queue. If
// the pod's profile has VolumeBinding, the volumes and provisioning its
// claims get on the node are assumed too (see assumeVolumes). The pod
// object is not modified.
func (s *Scheduler) Assume(pod *api.Pod, node string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	pod, err := s.admit(pod)
	if err != nil {
		return err
	}
	s.version++
	if err := s.assumeVolumes(pod, node); err != nil {
		return err
	}
	assumed, err := s.assumeClaims(pod, node)
	if err != nil {
		return err
	}
	pod = withExtendedClaimStatus(pod, assumed.ExtendedResourceClaimStatus)
	if err := s.snapshot.AssumePod(pod, node); err != nil {
		return err
	}
	if e, ok := s.q.byKey[keyOf(pod)]; ok && e.where != isPlaced {
		s.q.detach(e)
		e.qpi.Pod = pod
		s.q.placed(e, node, Decision{Node: node})
	}
	s.emit(s.q, assumed.Events...)
	s.q.moveOnEvent(framework.AssignedPodAdd)
	return nil
}

// assumeVolumes is VolumeBinding's Reserve in a simulation: when the
// pod's profile has VolumeBinding, the available volumes chosen for the
// pod's WaitForFirstConsumer claims on node are marked as bound to them
// in the snapshot, and the claims to provision get the selected-node
// annotation (predicates.AssumePodVolumes), so that later pods see them
// taken. A pod without claims costs a pass over its volumes.
func (s *Scheduler) assumeVolumes(pod *api.Pod, node string) error {
	if !predicates.HasPVCs(pod) {
		return nil
	}
	prof, err := s.profileFor(pod)
	if err != nil {
		return nil
	}
	if _, ok := prof.Plugin(config.VolumeBindingName); !ok {
		return nil
	}
	return predicates.AssumePodVolumes(s.snapshot, pod, node)
}

// claimAssumer is DynamicResources' Reserve in a simulation (see
// dynamicresources.AssumeClaims).
type claimAssumer interface {
	AssumeClaims(ctx context.Context, snap *cluster.Snapshot, pod *api.Pod, ni *cluster.NodeInfo) (dynamicresources.Assumed, error)
}

// assumeClaims writes the allocation the pod's claims get on node, and
// the pod in their reservedFor, into the snapshot when the pod's
// profile has DynamicResources, so that later pods see the devices in
// use. The claim made for the pod's extended resources backed by DRA
// is added. It returns what the plugin wrote: the claim events, and the
// pod's status.extendedResourceClaimStatus. A pod without claims in a
// cluster without DeviceClasses costs nothing.
func (s *Scheduler) assumeClaims(pod *api.Pod, node string) (dynamicresources.Assumed, error) {
	var none dynamicresources.Assumed
	if len(pod.Spec.ResourceClaims) == 0 && s.snapshot.NumObjects(cluster.KindDeviceClass) == 0 {
		return none, nil
	}
	prof, err := s.profileFor(pod)
	if err != nil {
		return none, nil
	}
	pl, ok := prof.Plugin(config.DynamicResourcesName)
	if !ok {
		return none, nil
	}
	a, ok := pl.(claimAssumer)
	if !ok {
		return none, nil
	}
	ni, ok := s.snapshot.View().Get(node)
	if !ok {
		return none, fmt.Errorf("scheduler: assume %s/%s: node %q not in the snapshot", pod.Namespace, pod.Name, node)
	}
	return a.AssumeClaims(context.Background(), s.snapshot, pod, ni)
}

// withExtendedClaimStatus returns pod with st as its
// status.extendedResourceClaimStatus, as DynamicResources' PreBind
// patches it: a copy when st is not nil, pod itself otherwise.
func withExtendedClaimStatus(pod *api.Pod, st *api.PodExtendedResourceClaimStatus) *api.Pod {
	if st == nil {
		return pod
	}
	cp := *pod
	cp.Status.ExtendedResourceClaimStatus = st
	return &cp
}

// AddNode adds a node to the snapshot and requeues the parked pods a new
// node may help.
func (s *Scheduler) AddNode(node *api.Node) error {
	return s.change(framework.NodeAdd, func() error { return s.snapshot.AddNode(node) })
}

// UpdateNode replaces a node of the snapshot and requeues the parked pods
// a node change may help.
func (s *Scheduler) UpdateNode(node *api.Node) error {
	return s.change(framework.NodeUpdate, func() error { return s.snapshot.UpdateNode(node) })
}

// RemoveNode removes a node from the snapshot.
func (s *Scheduler) RemoveNode(name string) error {
	return s.change(framework.NodeDelete, func() error { return s.snapshot.RemoveNode(name) })
}

// AddPod adds a pod bound to pod.Spec.NodeName to the snapshot.
func (s *Scheduler) AddPod(pod *api.Pod) error {
	return s.change(framework.AssignedPodAdd, func() error { return s.snapshot.AddPod(pod) })
}

// RemovePod removes a bound or assumed pod from the snapshot and requeues
// the parked pods the freed room may help. The claims reserved for the
// pod are released as the resourceclaim controller releases them (see
// releaseClaims), and the parked pods the freed devices may help are
// requeued too.
func (s *Scheduler) RemovePod(pod *api.Pod) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	if err := s.snapshot.RemovePod(pod); err != nil {
		return err
	}
	events, err := s.releaseClaims(pod)
	if err != nil {
		return err
	}
	s.emit(s.q, events...)
	s.q.moveOnEvent(framework.AssignedPodDelete)
	return nil
}

func (s *Scheduler) change(ev framework.ClusterEvent, f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	if err := f(); err != nil {
		return err
	}
	s.q.moveOnEvent(ev)
	return nil
}

// Enqueue adds pods to the scheduler's queue. A pod with the name of a
// queued, unplaced pod replaces it (that is how a pod whose scheduling
// gates were removed is admitted). Pods a PreEnqueue plugin rejects wait
// aside; pods of an unknown profile are reported by Pending.
func (s *Scheduler) Enqueue(ctx context.Context, pods ...*api.Pod) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range pods {
		if p == nil {
			return errors.New("scheduler: nil pod")
		}
	}
	s.version++
	for _, p := range pods {
		p, err := s.admit(p)
		if err != nil {
			return err
		}
		s.q.add(ctx, s, p)
	}
	return nil
}

// RunQueue schedules the queue's active pods one by one in queue order,
// assuming each placement, until the active queue is empty; parked pods
// that a placement may help are retried. It returns the placements made,
// in order. Pods left unschedulable or gated wait in the queue for
// cluster changes (AddNode, UpdateNode, RemovePod, ...) or Enqueue.
func (s *Scheduler) RunQueue(ctx context.Context) ([]Placement, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	placed, err := s.run(ctx, s.q)
	out := make([]Placement, len(placed))
	for i, e := range placed {
		out[i] = e.placement()
	}
	return out, err
}

// Pending returns the pods of the scheduler's queue that are not placed,
// with the reason of their last failure (nil for pods still active).
func (s *Scheduler) Pending() []Placement {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Placement
	for _, e := range s.q.all {
		if e.where != isPlaced && e.where != 0 {
			out = append(out, e.placement())
		}
	}
	return out
}

// Simulate schedules pods as kube-scheduler would if they were created at
// once, in order: in queue order (priority, then arrival), assuming each
// placement in the snapshot, and retrying parked pods when a placement may
// help them. It returns one Placement per pod, in the order of pods. The
// result is deterministic for a seed. The scheduler's own queue is not
// used, but its parked pods see the placements as cluster changes.
func (s *Scheduler) Simulate(ctx context.Context, pods []*api.Pod) ([]Placement, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.version++
	seen := map[podKey]bool{}
	if s.admission != nil {
		admitted := make([]*api.Pod, len(pods))
		for i, p := range pods {
			a, err := s.admit(p)
			if err != nil {
				return nil, err
			}
			admitted[i] = a
		}
		pods = admitted
	}
	for i, p := range pods {
		if p == nil {
			return nil, fmt.Errorf("scheduler: pod %d is nil", i)
		}
		k := keyOf(p)
		if seen[k] {
			return nil, fmt.Errorf("scheduler: pod %s/%s is listed twice", k.namespace, k.name)
		}
		seen[k] = true
	}
	q := newQueue()
	s.nominated, s.current = q.nominated, q
	defer func() { s.nominated, s.current = s.q.nominated, nil }()
	for _, p := range pods {
		q.add(ctx, s, p)
	}
	_, err := s.run(ctx, q)
	out := make([]Placement, len(pods))
	for i, e := range q.all {
		out[i] = e.placement()
	}
	return out, err
}

// run pops and schedules pods from q until its active queue is empty.
func (s *Scheduler) run(ctx context.Context, q *queue) ([]*entry, error) {
	var placed []*entry
	for {
		if err := ctx.Err(); err != nil {
			return placed, err
		}
		e := q.pop()
		if e == nil && q.flushBackoff() > 0 {
			e = q.pop()
		}
		if e == nil {
			return placed, nil
		}
		pod := e.qpi.Pod
		if k, ok := s.groupOf(pod); ok {
			if pg, ok := (handle{s}).PodGroup(k); ok {
				got, err := s.runGroup(ctx, q, e, k, pg)
				placed = append(placed, got...)
				if err != nil {
					return placed, err
				}
				continue
			}
			// The queue holds a pod whose PodGroup does not exist
			// aside until the group appears.
			st := framework.NewStatus(framework.UnschedulableAndUnresolvable, fmt.Sprintf("waiting for pods's pod group %q to appear in scheduling queue", k.Name))
			e.where, e.err = inGated, &GatedError{Pod: pod, Status: st.WithPlugin(config.GangSchedulingName)}
			q.gated = append(q.gated, e)
			continue
		}
		res, err := s.schedule(ctx, pod)
		if err == nil {
			err = s.assumeVolumes(pod, res.Node)
		}
		var assumed dynamicresources.Assumed
		if err == nil {
			assumed, err = s.assumeClaims(pod, res.Node)
		}
		if err == nil {
			pod = withExtendedClaimStatus(pod, assumed.ExtendedResourceClaimStatus)
			err = s.snapshot.AssumePod(pod, res.Node)
		}
		if err == nil {
			e.qpi.Pod = pod
			q.placed(e, res.Node, res)
			placed = append(placed, e)
			s.emit(q, assumed.Events...)
			q.moveOnEvent(framework.AssignedPodAdd)
			if q != s.q {
				s.q.moveOnEvent(framework.AssignedPodAdd)
			}
			continue
		}
		if ctx.Err() != nil {
			q.park(e, nil, err, res)
			return placed, ctx.Err()
		}
		var plugins map[string]struct{}
		var fe *FitError
		if errors.As(err, &fe) {
			plugins = union(fe.Diagnosis.UnschedulablePlugins, fe.Diagnosis.PendingPlugins)
			if len(plugins) == 0 {
				// Rejected, but by no plugin in particular (for instance
				// no node in a PreFilterResult): wait for any change.
				plugins = nil
			}
		}
		q.park(e, plugins, err, res)
		// The claims PostFilter freed reach the queue as the API
		// server's events would, the pod's own queue among them.
		s.emit(q, takeEvents(e.prof)...)
		p, perr := s.preempt(q, e, res.PostFilterResult)
		if perr != nil {
			return placed, perr
		}
		if p != nil {
			e.preemptions = append(e.preemptions, *p)
		}
	}
}

func union(a, b map[string]struct{}) map[string]struct{} {
	if len(b) == 0 {
		return a
	}
	out := make(map[string]struct{}, len(a)+len(b))
	for k := range a {
		out[k] = struct{}{}
	}
	for k := range b {
		out[k] = struct{}{}
	}
	return out
}
