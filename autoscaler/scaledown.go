package autoscaler

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

// The annotations cluster-autoscaler reads.
const (
	// SafeToEvictAnnotation "true" lets a pod move whatever else would
	// block it (no controller, local storage, kube-system); "false" keeps
	// its node.
	SafeToEvictAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict"
	// ScaleDownDisabledAnnotation "true" on a node keeps it.
	ScaleDownDisabledAnnotation = "cluster-autoscaler.kubernetes.io/scale-down-disabled"
	mirrorPodAnnotation         = "kubernetes.io/config.mirror"
)

// podLongTerminatingExtra is how long past its grace period a deleted
// pod is taken to be gone, as cluster-autoscaler takes it.
const podLongTerminatingExtra = 30 * time.Second

// KeptReason says why a node stays, in cluster-autoscaler's names.
type KeptReason string

// Why nodes stay.
const (
	// NotUnderutilized: the node's utilisation is at or above the
	// threshold.
	NotUnderutilized KeptReason = "NotUnderutilized"
	// ScaleDownDisabled: the node has ScaleDownDisabledAnnotation.
	ScaleDownDisabled KeptReason = "ScaleDownDisabledAnnotation"
	// ControllerNotFound: a pod's controller is not in the object store.
	ControllerNotFound KeptReason = "ControllerNotFound"
	// NotReplicated: a pod has no controller.
	NotReplicated KeptReason = "NotReplicated"
	// UnmovableKubeSystemPod: a kube-system pod no budget covers.
	UnmovableKubeSystemPod KeptReason = "UnmovableKubeSystemPod"
	// LocalStorageRequested: a pod has an emptyDir or hostPath volume.
	LocalStorageRequested KeptReason = "LocalStorageRequested"
	// NotSafeToEvictAnnotation: a pod is annotated safe-to-evict "false".
	NotSafeToEvictAnnotation KeptReason = "NotSafeToEvictAnnotation"
	// NotEnoughPdb: moving the pods would exceed a budget's disruptions.
	NotEnoughPdb KeptReason = "NotEnoughPdb"
	// NoPlaceToMovePods: a pod fits no other node.
	NoPlaceToMovePods KeptReason = "NoPlaceToMovePods"
	// UtilizationUnknown: the node has no allocatable cpu or memory.
	UtilizationUnknown KeptReason = "UtilizationUnknown"
)

// ScaleDownOptions are cluster-autoscaler's scale-down settings.
type ScaleDownOptions struct {
	// Nodes are the candidates, in this order when given; empty means
	// every node, the least utilised first (ties by name).
	Nodes []string
	// UtilizationThreshold is --scale-down-utilization-threshold: a node
	// is a candidate when its utilisation is below it. 0 means 0.5, the
	// default.
	UtilizationThreshold float64
	// IgnoreDaemonSetsUtilization and IgnoreMirrorPodsUtilization leave
	// those pods out of the utilisation, as the flags of the same names.
	IgnoreDaemonSetsUtilization bool
	IgnoreMirrorPodsUtilization bool
	// MoveSystemPods and MoveLocalStorage are the opposites of
	// --skip-nodes-with-system-pods and --skip-nodes-with-local-storage
	// (both true by default): kube-system pods without a budget and pods
	// with local storage then move like others.
	MoveSystemPods   bool
	MoveLocalStorage bool
	// Pending are pods waiting for a node: those that fit are placed
	// first, as cluster-autoscaler's filter-out-schedulable step places
	// them in its snapshot before scale-down looks (with preemption off:
	// one that fits only by preempting stays out).
	Pending []*api.Pod
	// Now is the time deleted pods are judged at (a pod deleted longer
	// than its grace period and 30 s ago is gone); zero is time.Now().
	Now time.Time
}

// ScaleDown is cluster-autoscaler's scale-down simulation with
// kube-scheduler's placements: which nodes can be removed, and in what
// order.
type ScaleDown struct {
	// Removed are the removable nodes, in the order they are removed.
	Removed []RemovedNode
	// Kept are the other nodes, by name, each with what keeps it.
	Kept []KeptNode
}

// RemovedNode is a node removed, with where its pods went.
type RemovedNode struct {
	Node        string
	Utilization float64
	// Moves are its pods' replacements and their nodes, in the order
	// they were scheduled. DaemonSet and mirror pods go with the node.
	Moves []Move
}

// Move is an evicted pod and the node the scheduling cycle chose for
// its replacement.
type Move struct {
	Pod *api.Pod
	To  string
}

// KeptNode is a node that stays and why.
type KeptNode struct {
	Node        string
	Utilization float64
	Reason      KeptReason
	// Pod is the pod that keeps the node, nil when the node itself does
	// (NotUnderutilized, ScaleDownDisabled, UtilizationUnknown).
	Pod *api.Pod
	// Message is cluster-autoscaler's text for the reason.
	Message string
}

// Utilization is cluster-autoscaler's utilisation of a node: the higher
// of the cpu and memory requested by its pods over its allocatable
// (pods deleted long ago left out; DaemonSet and mirror pods too when
// asked). It fails when the node has no allocatable cpu or memory.
func Utilization(ni *cluster.NodeInfo, opt ScaleDownOptions) (float64, error) {
	now := opt.now()
	var cpu, mem int64
	for _, pi := range ni.Pods {
		p := pi.Pod
		if opt.IgnoreDaemonSetsUtilization && isDaemonSetPod(p) || opt.IgnoreMirrorPodsUtilization && isMirrorPod(p) || longTerminating(p, now) {
			continue
		}
		cpu += pi.Requests.MilliCPU
		mem += pi.Requests.Memory
	}
	if ni.Allocatable.MilliCPU == 0 {
		return 0, fmt.Errorf("cpu is 0")
	}
	if ni.Allocatable.Memory == 0 {
		return 0, fmt.Errorf("memory is 0")
	}
	return max(float64(cpu)/float64(ni.Allocatable.MilliCPU), float64(mem)/float64(ni.Allocatable.Memory)), nil
}

func (o ScaleDownOptions) now() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

// PlanScaleDown finds the nodes cluster-autoscaler could remove from s's
// cluster: each candidate below the utilisation threshold, in turn, if
// no pod blocks it (cluster-autoscaler's drain rules: no controller,
// controller missing, local storage, safe-to-evict "false", kube-system
// without a budget; DaemonSet and mirror pods ignored), the budgets
// allow its pods' evictions (counting those of nodes removed before),
// and every pod's replacement is placed on another node by
// kube-scheduler's cycle without preempting. A removal is made in a fork
// of s and committed to the next candidates' fork, so later candidates
// see the pods moved; s itself is not changed.
func PlanScaleDown(ctx context.Context, s *scheduler.Scheduler, opt ScaleDownOptions) (*ScaleDown, error) {
	threshold := opt.UtilizationThreshold
	if threshold == 0 {
		threshold = 0.5
	}
	now := opt.now()
	state, err := s.Fork()
	if err != nil {
		return nil, err
	}
	defer state.Close()
	if len(opt.Pending) > 0 {
		sim := make([]*api.Pod, len(opt.Pending))
		for i, p := range opt.Pending {
			sim[i] = noPreemption(p)
		}
		if _, err := state.Simulate(ctx, sim); err != nil {
			return nil, err
		}
	}
	try, err := state.Fork()
	if err != nil {
		return nil, err
	}
	defer try.Close()
	budgets := newBudgets(s.DisruptionBudgets())
	objs := s.Snapshot().Objects()

	type candidate struct {
		name string
		util float64
	}
	out := &ScaleDown{}
	var cands []candidate
	view := state.Snapshot().View()
	names := opt.Nodes
	if len(names) == 0 {
		for _, ni := range view.Nodes() {
			names = append(names, ni.Name())
		}
		slices.Sort(names)
	}
	for _, name := range names {
		ni, ok := view.Get(name)
		if !ok {
			return nil, fmt.Errorf("node %q is not in the cluster", name)
		}
		u, err := Utilization(ni, opt)
		switch {
		case err != nil:
			out.Kept = append(out.Kept, KeptNode{Node: name, Reason: UtilizationUnknown, Message: "failed to calculate utilization: " + err.Error()})
		case ni.Node().Annotations[ScaleDownDisabledAnnotation] == "true":
			out.Kept = append(out.Kept, KeptNode{Node: name, Utilization: u, Reason: ScaleDownDisabled, Message: "scale down disabled by annotation"})
		case u >= threshold:
			out.Kept = append(out.Kept, KeptNode{Node: name, Utilization: u, Reason: NotUnderutilized,
				Message: fmt.Sprintf("node utilization %.2f is not below the threshold %.2f", u, threshold)})
		default:
			cands = append(cands, candidate{name, u})
		}
	}
	if len(opt.Nodes) == 0 {
		slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(a.util, b.util) })
	}
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ni, _ := try.Snapshot().Get(c.name)
		keep := func(r KeptReason, p *api.Pod, msg string) {
			out.Kept = append(out.Kept, KeptNode{Node: c.name, Utilization: c.util, Reason: r, Pod: p, Message: msg})
		}
		var move, gone []*api.Pod
		var blocked bool
		for _, pi := range ni.Pods {
			p := pi.Pod
			r, msg, skip := drainable(p, objs, budgets, opt, now)
			if r != "" {
				keep(r, p, msg)
				blocked = true
				break
			}
			if skip {
				gone = append(gone, p)
			} else {
				move = append(move, p)
			}
		}
		if blocked {
			continue
		}
		if p := budgets.exceeded(move); p != nil {
			keep(NotEnoughPdb, p, fmt.Sprintf("not enough pod disruption budget to move %s/%s", p.Namespace, p.Name))
			continue
		}
		moves, stuck, msg, err := removeNode(ctx, try, c.name, move, gone)
		if err != nil {
			return nil, err
		}
		if stuck != nil {
			keep(NoPlaceToMovePods, stuck, msg)
			if err := try.Revert(); err != nil {
				return nil, err
			}
			continue
		}
		if err := try.Commit(); err != nil {
			return nil, err
		}
		budgets.take(move)
		out.Removed = append(out.Removed, RemovedNode{Node: c.name, Utilization: c.util, Moves: moves})
	}
	slices.SortStableFunc(out.Kept, func(a, b KeptNode) int { return cmp.Compare(a.Node, b.Node) })
	return out, nil
}

// removeNode removes the node and its pods from f and schedules the
// replacements of move. It returns the moves, or the first pod that
// found no place (or whose placement preempted) and why. With
// GenericWorkload on, the replacements of a PodGroup's pods join their
// group as new pods do and run one PodGroup cycle: placed as a unit or
// not at all, so a node is kept when a gang's replacements cannot be
// placed together.
func removeNode(ctx context.Context, f *scheduler.Scheduler, node string, move, gone []*api.Pod) ([]Move, *api.Pod, string, error) {
	for _, p := range append(slices.Clip(move), gone...) {
		if err := f.RemovePod(p); err != nil {
			return nil, nil, "", err
		}
	}
	if err := f.RemoveNode(node); err != nil {
		return nil, nil, "", err
	}
	repl := make([]*api.Pod, len(move))
	for i, p := range move {
		repl[i] = replacement(p)
		if gangMember(f, p) {
			// The group's scheduled members keep their policy; a
			// replacement that preempts is refused below.
			repl[i] = p.DeepCopy()
			repl[i].Spec.NodeName, repl[i].Status, repl[i].DeletionTimestamp = "", api.PodStatus{Phase: api.PodPending}, nil
		}
	}
	placed, err := f.Simulate(ctx, repl)
	if err != nil {
		return nil, nil, "", err
	}
	moves := make([]Move, 0, len(placed))
	for i, pl := range placed {
		switch {
		case pl.Node == "" || pl.PreemptedBy != nil:
			msg := "no node fits"
			if pl.Err != nil {
				msg = pl.Err.Error()
			}
			return nil, move[i], fmt.Sprintf("failed to find place for %s/%s: %s", move[i].Namespace, move[i].Name, msg), nil
		case len(pl.Preemptions) > 0:
			return nil, move[i], fmt.Sprintf("failed to find place for %s/%s: it fits only by preempting on %s", move[i].Namespace, move[i].Name, pl.Node), nil
		}
		moves = append(moves, Move{Pod: move[i], To: pl.Node})
	}
	return moves, nil, "", nil
}

// replacement is the pod a controller creates in place of p, as the
// simulation schedules it: its spec without a node, a fresh status, the
// same name, and preemption off (noPreemption).
func replacement(p *api.Pod) *api.Pod {
	r := *p
	r.Spec.NodeName = ""
	r.Status = api.PodStatus{Phase: api.PodPending}
	r.DeletionTimestamp = nil
	return noPreemption(&r)
}

// noPreemption returns p with preemptionPolicy Never. cluster-autoscaler
// counts a pod that fits only by preempting as not placed; scheduling it
// with preemption off makes the same cycle's decision, node for node,
// without the preemption dry run a failed cycle would run over every
// node (the placement is the same: the policy is read by PostFilter
// only).
func noPreemption(p *api.Pod) *api.Pod {
	if pp := p.Spec.PreemptionPolicy; pp != nil && *pp == api.PreemptNever {
		return p
	}
	c := *p
	never := api.PreemptNever
	c.Spec.PreemptionPolicy = &never
	return &c
}

// drainable applies cluster-autoscaler's drain rules to a pod of a
// candidate: the reason and text that block the node, or whether the
// pod goes with the node (skip: DaemonSet, mirror, long terminating and
// finished pods) rather than moving.
func drainable(p *api.Pod, objs *cluster.Objects, b *budgets, opt ScaleDownOptions, now time.Time) (KeptReason, string, bool) {
	if isMirrorPod(p) || longTerminating(p, now) {
		return "", "", true
	}
	ref := api.GetControllerOf(&p.ObjectMeta)
	replicated := false
	if ref != nil {
		if missing, what := controllerMissing(objs, p.Namespace, ref); missing {
			return ControllerNotFound, fmt.Sprintf("owner %s for %s/%s is not available, err: %s", ref.Kind, p.Namespace, p.Name, what), false
		}
		replicated = true
	}
	if isDaemonSetPod(p) {
		return "", "", true
	}
	terminal := terminal(p)
	if p.Annotations[SafeToEvictAnnotation] == "true" || terminal {
		return "", "", terminal
	}
	switch {
	case !replicated:
		return NotReplicated, fmt.Sprintf("%s/%s is not replicated", p.Namespace, p.Name), false
	case p.Namespace == "kube-system" && !opt.MoveSystemPods && !b.coversKubeSystem(p):
		return UnmovableKubeSystemPod, "non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: " + p.Name, false
	case hasLocalStorage(p) && !opt.MoveLocalStorage:
		return LocalStorageRequested, "pod with local storage present: " + p.Name, false
	case p.Annotations[SafeToEvictAnnotation] == "false":
		return NotSafeToEvictAnnotation, "pod annotated as not safe to evict present: " + p.Name, false
	}
	return "", "", false
}

// controllerMissing reports whether the object store, holding objects
// of the controller's kind, lacks it (a store without that kind is an
// input that left them out), and the lister's text.
func controllerMissing(objs *cluster.Objects, ns string, ref *api.OwnerReference) (bool, string) {
	if objs == nil {
		return false, ""
	}
	check := func(k cluster.Kind, found bool, resource string) (bool, string) {
		if objs.Len(k) == 0 || found {
			return false, ""
		}
		return true, fmt.Sprintf("%s %q not found", resource, ref.Name)
	}
	switch ref.Kind {
	case "ReplicaSet":
		_, ok := cluster.GetObject[api.ReplicaSet](objs, ns, ref.Name)
		return check(cluster.KindReplicaSet, ok, "replicasets.apps")
	case "StatefulSet":
		_, ok := cluster.GetObject[api.StatefulSet](objs, ns, ref.Name)
		return check(cluster.KindStatefulSet, ok, "statefulsets.apps")
	case "DaemonSet":
		_, ok := cluster.GetObject[api.DaemonSet](objs, ns, ref.Name)
		return check(cluster.KindDaemonSet, ok, "daemonsets.apps")
	case "Job":
		_, ok := cluster.GetObject[api.Job](objs, ns, ref.Name)
		return check(cluster.KindJob, ok, "jobs.batch")
	case "ReplicationController":
		_, ok := cluster.GetObject[api.ReplicationController](objs, ns, ref.Name)
		return check(cluster.KindReplicationController, ok, "replicationcontrollers")
	}
	return false, ""
}

func isMirrorPod(p *api.Pod) bool {
	_, ok := p.Annotations[mirrorPodAnnotation]
	return ok
}

func isDaemonSetPod(p *api.Pod) bool {
	c := api.GetControllerOf(&p.ObjectMeta)
	return c != nil && c.Kind == "DaemonSet"
}

// terminal is cluster-autoscaler's: the pod will not run again.
func terminal(p *api.Pod) bool {
	switch {
	case p.Status.Phase == api.PodFailed:
		return true
	case p.Status.Phase == api.PodSucceeded:
		return p.Spec.RestartPolicy == api.RestartPolicyNever || p.Spec.RestartPolicy == api.RestartPolicyOnFailure
	}
	return false
}

// longTerminating reports a pod deleted longer ago than its grace
// period and 30 s.
func longTerminating(p *api.Pod, now time.Time) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	grace := int64(30)
	if p.Spec.TerminationGracePeriodSeconds != nil {
		grace = *p.Spec.TerminationGracePeriodSeconds
	}
	return p.DeletionTimestamp.Add(time.Duration(grace)*time.Second + podLongTerminatingExtra).Before(now)
}

func hasLocalStorage(p *api.Pod) bool {
	for i := range p.Spec.Volumes {
		if v := &p.Spec.Volumes[i]; v.HostPath != nil || v.EmptyDir != nil {
			return true
		}
	}
	return false
}

// budgets tracks the disruptions each PodDisruptionBudget still allows
// as nodes are removed.
type budgets struct {
	pdbs []*api.PodDisruptionBudget
	sels []affinity.Selector
	left []int32
}

func newBudgets(pdbs []*api.PodDisruptionBudget) *budgets {
	b := &budgets{pdbs: pdbs, sels: make([]affinity.Selector, len(pdbs)), left: make([]int32, len(pdbs))}
	for i, pdb := range pdbs {
		sel, err := affinity.CompileLabelSelector(pdb.Spec.Selector)
		if err != nil || pdb.Spec.Selector == nil {
			sel = affinity.Nothing()
		}
		b.sels[i], b.left[i] = sel, pdb.Status.DisruptionsAllowed
	}
	return b
}

func (b *budgets) covers(i int, p *api.Pod) bool {
	return b.pdbs[i].Namespace == p.Namespace && b.sels[i].Matches(p.Labels)
}

// coversKubeSystem reports whether a kube-system budget selects p.
func (b *budgets) coversKubeSystem(p *api.Pod) bool {
	for i := range b.pdbs {
		if b.pdbs[i].Namespace == "kube-system" && b.covers(i, p) {
			return true
		}
	}
	return false
}

// exceeded returns the first pod whose eviction a budget no longer
// allows, counting the pods before it; nil when all may go.
func (b *budgets) exceeded(pods []*api.Pod) *api.Pod {
	used := make([]int32, len(b.pdbs))
	for _, p := range pods {
		for i := range b.pdbs {
			if b.covers(i, p) {
				used[i]++
				if used[i] > b.left[i] {
					return p
				}
			}
		}
	}
	return nil
}

// take spends the pods' evictions.
func (b *budgets) take(pods []*api.Pod) {
	for _, p := range pods {
		for i := range b.pdbs {
			if b.covers(i, p) {
				b.left[i]--
			}
		}
	}
}
