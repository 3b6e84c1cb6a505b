package preemption

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Messages of upstream's eligibility check and victim selection.
const (
	// NotEligibleNever is the reason of a pod with preemptionPolicy
	// Never.
	NotEligibleNever = "not eligible due to preemptionPolicy=Never."
	// NotEligibleTerminating is the reason of a pod whose nominated node
	// holds a lower-priority pod terminating by preemption.
	NotEligibleTerminating = "not eligible due to a terminating pod on the nominated node."
	// NoVictimsFound is the status of a node without pods of lower
	// priority.
	NoVictimsFound = "No preemption victims found for incoming pod"
)

// noVictims is the status of every node without pods of lower priority,
// unresolvable that of the nodes a dry run did not reach (statuses are
// immutable).
var (
	noVictims    = framework.NewStatus(framework.UnschedulableAndUnresolvable, NoVictimsFound)
	unresolvable = framework.NewStatus(framework.UnschedulableAndUnresolvable)
)

// PodEligibleToPreemptOthers is upstream's check of whether pod may
// preempt: not with preemptionPolicy Never, and not while its nominated
// node (nominated, nil if it has none or the node is gone) holds a pod of
// lower priority terminating by preemption — unless the filters found the
// nominated node UnschedulableAndUnresolvable (nominatedStatus). The
// string is the reason when it may not.
func PodEligibleToPreemptOthers(pod *api.Pod, nominatedStatus *framework.Status, nominated *cluster.NodeInfo) (bool, string) {
	if p := pod.Spec.PreemptionPolicy; p != nil && *p == api.PreemptNever {
		return false, NotEligibleNever
	}
	if pod.Status.NominatedNodeName == "" {
		return true, ""
	}
	if nominatedStatus.Code() == framework.UnschedulableAndUnresolvable {
		return true, ""
	}
	if nominated != nil {
		prio := framework.PodPriority(pod)
		for _, pi := range nominated.Pods {
			if framework.PodPriority(pi.Pod) < prio && PodTerminatingByPreemption(pi.Pod) {
				return false, NotEligibleTerminating
			}
		}
	}
	return true, ""
}

// PodTerminatingByPreemption reports whether pod is being deleted
// because the scheduler preempted it: a deletionTimestamp, and the first
// DisruptionTarget condition True with reason PreemptionByScheduler.
func PodTerminatingByPreemption(pod *api.Pod) bool {
	if pod.DeletionTimestamp == nil {
		return false
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == "DisruptionTarget" {
			return c.Status == api.ConditionTrue && c.Reason == "PreemptionByScheduler"
		}
	}
	return false
}

// victim is a pod that may be preempted, with what ordering it needs.
type victim struct {
	pi       *cluster.PodInfo
	prio     int32
	start    time.Time
	hasStart bool
	idx      int // position on the node: orders pods without a start time
}

func newVictim(pi *cluster.PodInfo, idx int) victim {
	v := victim{pi: pi, prio: pi.Priority(), idx: idx}
	v.readStart()
	return v
}

// readStart fills in the start time, read once a victim is potential.
func (v *victim) readStart() {
	v.start, v.hasStart = v.pi.StartTime()
}

// moreImportant is upstream's MoreImportantVictim for single pods:
// higher priority, then earlier start. A pod without a start time
// started "now", after every pod with one, and pods without one in node
// order (as upstream's successive time.Now calls).
func moreImportant(a, b *victim) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	switch {
	case a.hasStart && b.hasStart:
		return a.start.Before(b.start)
	case a.hasStart:
		return true
	case b.hasStart:
		return false
	}
	return a.idx < b.idx
}

// MoreImportantPod reports whether a is more important than b as a
// victim: higher priority, then earlier status.startTime (a pod without
// one last).
func MoreImportantPod(a, b *api.Pod) bool {
	pa, pb := newVictim(&cluster.PodInfo{Pod: a}, 0), newVictim(&cluster.PodInfo{Pod: b}, 0)
	return moreImportant(&pa, &pb)
}

// pdbInfo is a PodDisruptionBudget with its selector compiled.
type pdbInfo struct {
	namespace string
	sel       affinity.Selector
	valid     bool
	disrupted map[string]api.Time
	allowed   int32
}

// compilePDBs lists the store's budgets, by namespace and name.
func compilePDBs(objs *cluster.Objects) []pdbInfo {
	var out []pdbInfo
	if objs == nil {
		return nil
	}
	for pdb := range cluster.AllObjects[api.PodDisruptionBudget](objs) {
		out = append(out, newPDBInfo(pdb))
	}
	return out
}

func newPDBInfo(pdb *api.PodDisruptionBudget) pdbInfo {
	sel, err := affinity.CompileLabelSelector(pdb.Spec.Selector)
	ns := pdb.Namespace
	if ns == "" {
		ns = "default"
	}
	return pdbInfo{namespace: ns, sel: sel, valid: err == nil, disrupted: pdb.Status.DisruptedPods, allowed: pdb.Status.DisruptionsAllowed}
}

// CompilePDBs prepares budgets for SelectVictimsOnNode and
// FilterPodsWithPDBViolation, in the order given.
func CompilePDBs(pdbs []*api.PodDisruptionBudget) []PDB {
	out := make([]PDB, len(pdbs))
	for i, p := range pdbs {
		out[i] = PDB{newPDBInfo(p)}
	}
	return out
}

// PDB is a PodDisruptionBudget prepared by CompilePDBs.
type PDB struct{ info pdbInfo }

func unwrap(pdbs []PDB) []pdbInfo {
	out := make([]pdbInfo, len(pdbs))
	for i, p := range pdbs {
		out[i] = p.info
	}
	return out
}

// FilterPodsWithPDBViolation splits pods, in order, into those whose
// eviction (one after the other, in this order) would violate a budget
// and the others, as upstream's FilterVictimsWithPDBViolation.
func FilterPodsWithPDBViolation(pods []*api.Pod, pdbs []PDB) (violating, nonViolating []*api.Pod) {
	vs := make([]victim, len(pods))
	for i, p := range pods {
		vs[i] = newVictim(&cluster.PodInfo{Pod: p}, i)
	}
	bad, good := filterPDBViolation(vs, unwrap(pdbs))
	for _, v := range bad {
		violating = append(violating, v.pi.Pod)
	}
	for _, v := range good {
		nonViolating = append(nonViolating, v.pi.Pod)
	}
	return violating, nonViolating
}

func filterPDBViolation(vs []victim, pdbs []pdbInfo) (violating, nonViolating []victim) {
	return (&scratch{}).filterPDBViolation(vs, pdbs)
}

// filterPDBViolation splits vs in sc's memory: the slices returned are
// valid until the next call.
func (sc *scratch) filterPDBViolation(vs victimList, pdbs []pdbInfo) (violating, nonViolating victimList) {
	if len(pdbs) == 0 {
		return nil, vs
	}
	allowed := sc.allowed[:0]
	for range pdbs {
		allowed = append(allowed, 0)
	}
	sc.allowed = allowed
	for i := range pdbs {
		allowed[i] = pdbs[i].allowed
	}
	isViolating := func(pod *api.Pod) bool {
		if len(pod.Labels) == 0 {
			return false
		}
		ns := pod.Namespace
		if ns == "" {
			ns = "default"
		}
		for i := range pdbs {
			b := &pdbs[i]
			if b.namespace != ns || !b.valid || b.sel.Empty() || !b.sel.Matches(pod.Labels) {
				continue
			}
			if _, ok := b.disrupted[pod.Name]; ok {
				continue
			}
			allowed[i]--
			if allowed[i] < 0 {
				return true
			}
		}
		return false
	}
	violating, nonViolating = sc.violating[:0], sc.nonViolating[:0]
	for _, v := range vs {
		if isViolating(v.pi.Pod) {
			violating = append(violating, v)
		} else {
			nonViolating = append(nonViolating, v)
		}
	}
	sc.violating, sc.nonViolating = violating, nonViolating
	return violating, nonViolating
}

// SelectVictimsOnNode is upstream's victim selection on one node:
// nodeInfo and state are the caller's copies, which it modifies; prof's
// PreFilter extensions and filters decide whether pod fits, with the pods
// nominated to the node (nominated) of at least pod's priority. It
// returns the victims, most important first, and how many violate a
// budget; a status that is not Success says why the node cannot help.
func SelectVictimsOnNode(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo, nominated []*cluster.PodInfo, pdbs []PDB) ([]*api.Pod, int, *framework.Status) {
	return selectVictimsOnNode(ctx, prof, state, pod, nodeInfo, nominated, unwrap(pdbs))
}

// scratch is memory selectVictims reuses from node to node.
type scratch struct {
	potential, victims, violating, nonViolating victimList
	allowed                                     []int32
	// slab holds the victims returned, carved into slices of their own
	// capacity, so that a dry run allocates them in a few blocks.
	slab []*api.Pod
	// slabSize is the least size of a slab's block.
	slabSize int
	// podList, withAffinity and withAntiAffinity lend their memory to
	// the node's lists of pods when a reprieve adds to an empty one (see
	// lend).
	podList, withAffinity, withAntiAffinity []*cluster.PodInfo
	// node is the copy of the node being tried (copyNode).
	node cluster.NodeInfo
	// pos and at follow the pods of the node being tried: pos[k] is
	// where the pod first at position k is now, at[i] which pod is at
	// position i (see track).
	pos, at []int32
	// scores and violatingScores are the candidate lists' scores,
	// candScores those of the candidates in order; tied is pickOne's.
	scores, violatingScores, candScores []candidateScore
	tied                                []int
	// plain removes victims with RemovePod, searching by UID: the
	// reference the tracked removal is checked against.
	plain bool
}

// track starts following the n pods of the node being tried by their
// positions. A pod removed is replaced by the last one, as RemovePod
// does, and a pod added back goes last: so the dry run knows where
// each victim is without searching for it.
func (sc *scratch) track(n int) {
	if cap(sc.pos) < n {
		sc.pos, sc.at = make([]int32, n, n+n/2), make([]int32, n, n+n/2)
	}
	sc.pos, sc.at = sc.pos[:n], sc.at[:n]
	for i := range n {
		sc.pos[i], sc.at[i] = int32(i), int32(i)
	}
}

// removeTracked removes v's pod from ni as ni.RemovePod(v.pi.Pod) does.
func (sc *scratch) removeTracked(ni *cluster.NodeInfo, v *victim) error {
	if sc.plain {
		return ni.RemovePod(v.pi.Pod)
	}
	i, last := sc.pos[v.idx], int32(len(ni.Pods)-1)
	ni.RemovePodAt(int(i))
	if i != last {
		moved := sc.at[last]
		sc.at[i], sc.pos[moved] = moved, i
	}
	return nil
}

// addTracked adds v's pod back to ni, last.
func (sc *scratch) addTracked(ni *cluster.NodeInfo, v *victim) {
	ni.AddPod(v.pi)
	if !sc.plain {
		last := int32(len(ni.Pods) - 1)
		sc.at[last], sc.pos[v.idx] = int32(v.idx), last
	}
}

// hasLowerPriority reports whether ni holds a pod of lower priority
// than prio: a potential victim.
func hasLowerPriority(ni *cluster.NodeInfo, prio int32) bool {
	for _, pi := range ni.Pods {
		if pi.Priority() < prio {
			return true
		}
	}
	return false
}

// copyNode is the dry run's copy of ni, in the scratch's memory: the
// copy of the node tried before is overwritten. The lists a reprieve
// emptied get their memory back first.
func (sc *scratch) copyNode(ni *cluster.NodeInfo) *cluster.NodeInfo {
	c := &sc.node
	lend(&c.Pods, &sc.podList)
	lend(&c.PodsWithAffinity, &sc.withAffinity)
	lend(&c.PodsWithRequiredAntiAffinity, &sc.withAntiAffinity)
	ni.CopyInto(c)
	reclaim(c.Pods, &sc.podList)
	reclaim(c.PodsWithAffinity, &sc.withAffinity)
	reclaim(c.PodsWithRequiredAntiAffinity, &sc.withAntiAffinity)
	return c
}

// lend gives an emptied list of the dry run's own NodeInfo copy the
// scratch's memory, so that reprieving pods does not grow a new list on
// every node (cluster drops the memory of a list it empties). The copy
// is dropped before the next node reuses the memory; a caller's copy
// (SelectVictimsOnNode) keeps memory its scratch no longer uses.
func lend(list *[]*cluster.PodInfo, buf *[]*cluster.PodInfo) {
	if len(*list) == 0 {
		clear((*buf)[:cap(*buf)])
		*list = (*buf)[:0]
	}
}

// reclaim keeps the memory a list grew into for the next node.
func reclaim(list []*cluster.PodInfo, buf *[]*cluster.PodInfo) {
	if cap(list) > cap(*buf) {
		*buf = list[:0]
	}
}

// pods returns n fresh elements of the slab, with capacity n.
func (sc *scratch) pods(n int) []*api.Pod {
	if cap(sc.slab)-len(sc.slab) < n {
		sc.slab = make([]*api.Pod, 0, max(n, sc.slabSize, 256))
	}
	l := len(sc.slab)
	sc.slab = sc.slab[:l+n]
	return sc.slab[l : l+n : l+n]
}

// victimList sorts victims with moreImportant. sort.Sort runs the same
// algorithm as upstream's sort.Slice, so equally important victims end
// in the same order.
type victimList []victim

func (l victimList) Len() int           { return len(l) }
func (l victimList) Less(i, j int) bool { return moreImportant(&l[i], &l[j]) }
func (l victimList) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }

func selectVictimsOnNode(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo, nominated []*cluster.PodInfo, pdbs []pdbInfo) ([]*api.Pod, int, *framework.Status) {
	return (&scratch{}).selectVictims(ctx, newFitter(prof, state), state, pod, nodeInfo, nominated, pdbs)
}

// selectVictims is SelectVictimsOnNode with f's plugins; state and
// nodeInfo are modified.
func (sc *scratch) selectVictims(ctx context.Context, f *fitter, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo, nominated []*cluster.PodInfo, pdbs []pdbInfo) ([]*api.Pod, int, *framework.Status) {
	remove := func(v *victim) *framework.Status {
		if err := sc.removeTracked(nodeInfo, v); err != nil {
			return framework.AsStatus(err)
		}
		return f.removePod(ctx, state, pod, v.pi, nodeInfo)
	}
	lent := false
	add := func(v *victim) *framework.Status {
		lent = true
		lend(&nodeInfo.Pods, &sc.podList)
		lend(&nodeInfo.PodsWithAffinity, &sc.withAffinity)
		lend(&nodeInfo.PodsWithRequiredAntiAffinity, &sc.withAntiAffinity)
		sc.addTracked(nodeInfo, v)
		return f.addPod(ctx, state, pod, v.pi, nodeInfo)
	}
	defer func() {
		if lent {
			reclaim(nodeInfo.Pods, &sc.podList)
			reclaim(nodeInfo.PodsWithAffinity, &sc.withAffinity)
			reclaim(nodeInfo.PodsWithRequiredAntiAffinity, &sc.withAntiAffinity)
		}
	}()
	prio := framework.PodPriority(pod)
	sc.potential = sc.potential[:0]
	for i, pi := range nodeInfo.Pods {
		if pi.Priority() < prio {
			sc.potential = append(sc.potential, victim{pi: pi, prio: pi.Priority(), idx: i})
		}
	}
	potential := sc.potential
	if len(potential) == 0 {
		return nil, 0, noVictims
	}
	sc.track(len(nodeInfo.Pods))
	for i := range potential {
		if st := remove(&potential[i]); !st.IsSuccess() {
			return nil, 0, st
		}
	}
	if st := f.filter(ctx, state, pod, nodeInfo, nominated); !st.IsSuccess() {
		return nil, 0, st
	}
	// The start times order the victims and score the node
	// (scoreOfVictims). Sorted through a pointer: a victimList in an
	// interface would be allocated per node.
	for i := range potential {
		potential[i].readStart()
	}
	sort.Sort(&sc.potential)
	violatingV, nonViolatingV := sc.filterPDBViolation(potential, pdbs)

	sc.victims = sc.victims[:0]
	reprieve := func(v *victim) (bool, *framework.Status) {
		if st := add(v); !st.IsSuccess() {
			return false, st
		}
		fits := f.fits(ctx, state, pod, nodeInfo, nominated)
		if !fits {
			if st := remove(v); !st.IsSuccess() {
				return false, st
			}
			sc.victims = append(sc.victims, *v)
		}
		return fits, nil
	}
	numViolating := 0
	for i := range violatingV {
		fits, st := reprieve(&violatingV[i])
		if st != nil {
			return nil, 0, framework.AsStatus(st.AsError())
		}
		if !fits {
			numViolating++
		}
	}
	for i := range nonViolatingV {
		if _, st := reprieve(&nonViolatingV[i]); st != nil {
			return nil, 0, framework.AsStatus(st.AsError())
		}
	}
	if len(violatingV) != 0 && len(nonViolatingV) != 0 {
		sort.Sort(&sc.victims)
	}
	out := sc.pods(len(sc.victims))
	for i := range sc.victims {
		out[i] = sc.victims[i].pi.Pod
	}
	return out, numViolating, nil
}

// candidateScore is what PickOneNodeForPreemption compares of a
// candidate, rule by rule, higher first.
type candidateScore [5]int64

// scoreOf is the score of a candidate with victims, most important
// first, of which violations violate a budget.
func scoreOf(victims []*api.Pod, violations int) candidateScore {
	var s candidateScore
	s[0] = -int64(violations)
	if len(victims) > 0 {
		s[1] = -int64(framework.PodPriority(victims[0]))
	}
	var sum int64
	for _, p := range victims {
		sum += int64(framework.PodPriority(p)) + int64(math.MaxInt32+1)
	}
	s[2] = -sum
	s[3] = -int64(len(victims))
	s[4] = latestStart(victims)
	return s
}

// scoreOfVictims is scoreOf of the pods of vs, read from vs: a dry run
// scores a node from the victims it just chose, whose priorities and
// start times it holds, rather than from their pod objects again.
func scoreOfVictims(vs []victim, violations int) candidateScore {
	var s candidateScore
	s[0] = -int64(violations)
	if len(vs) == 0 {
		s[4] = math.MinInt64
		return s
	}
	s[1] = -int64(vs[0].prio)
	var sum int64
	maxPrio := vs[0].prio
	earliest := int64(math.MaxInt64)
	for i := range vs {
		v := &vs[i]
		sum += int64(v.prio) + int64(math.MaxInt32+1)
		if v.prio > maxPrio {
			maxPrio, earliest = v.prio, int64(math.MaxInt64)
		}
		if v.prio == maxPrio && v.hasStart && v.start.UnixNano() < earliest {
			earliest = v.start.UnixNano()
		}
	}
	s[2] = -sum
	s[3] = -int64(len(vs))
	s[4] = earliest
	return s
}

// latestStart is the earliest start time among the highest-priority
// victims, in Unix nanoseconds; a victim without a start time counts as
// started after all others (math.MaxInt64).
func latestStart(pods []*api.Pod) int64 {
	if len(pods) == 0 {
		return math.MinInt64
	}
	maxPrio := framework.PodPriority(pods[0])
	earliest := int64(math.MaxInt64)
	for _, p := range pods {
		pr := framework.PodPriority(p)
		if pr > maxPrio {
			maxPrio, earliest = pr, int64(math.MaxInt64)
		}
		if pr == maxPrio {
			if st := p.Status.StartTime; st != nil && st.UnixNano() < earliest {
				earliest = st.UnixNano()
			}
		}
	}
	return earliest
}

// PickOneNodeForPreemption chooses among candidates as upstream's
// pickOneNodeForPreemption does: fewest PDB violations, then the lowest
// priority of the most important victim, the smallest sum of victims'
// priorities, the fewest victims, and the latest start time of the
// highest-priority victims. Candidates still tied are sorted by node
// name and pick(n) (which returns a number in [0, n)) chooses one;
// upstream takes the first in map order. It returns nil for no
// candidates and does not call pick for one.
func PickOneNodeForPreemption(candidates []Candidate, pick func(n int) int) *Candidate {
	scores := make([]candidateScore, len(candidates))
	for i := range candidates {
		scores[i] = scoreOf(candidates[i].Victims, candidates[i].NumPDBViolations)
	}
	return (&scratch{}).pickOne(candidates, scores, pick)
}

// pickOne is PickOneNodeForPreemption given each candidate's score, in
// sc's memory.
func (sc *scratch) pickOne(candidates []Candidate, scores []candidateScore, pick func(n int) int) *Candidate {
	if len(candidates) == 0 {
		return nil
	}
	if len(candidates) == 1 {
		return &candidates[0]
	}
	tied := sc.tied[:0]
	for i := range candidates {
		tied = append(tied, i)
	}
	sc.tied = tied
	for rule := range len(candidateScore{}) {
		best := int64(math.MinInt64)
		for _, i := range tied {
			best = max(best, scores[i][rule])
		}
		// Keep the best in place, in order.
		k := 0
		for _, i := range tied {
			if scores[i][rule] == best {
				tied[k] = i
				k++
			}
		}
		tied = tied[:k]
		if len(tied) == 1 {
			return &candidates[tied[0]]
		}
	}
	k := pick(len(tied))
	if k < 0 || k >= len(tied) {
		k = 0
	}
	return &candidates[nthByName(candidates, tied, k)]
}

// nthByName returns the candidate of tied that is k-th in the order of
// node names (unique: any sort orders them alike), by selection in
// place rather than sorting them all.
func nthByName(candidates []Candidate, tied []int, k int) int {
	less := func(a, b int) bool { return candidates[a].Node < candidates[b].Node }
	lo, hi := 0, len(tied)-1
	for lo < hi {
		// Median of three, moved to hi, as the pivot.
		mid := lo + (hi-lo)/2
		if less(tied[mid], tied[lo]) {
			tied[mid], tied[lo] = tied[lo], tied[mid]
		}
		if less(tied[hi], tied[lo]) {
			tied[hi], tied[lo] = tied[lo], tied[hi]
		}
		if less(tied[mid], tied[hi]) {
			tied[mid], tied[hi] = tied[hi], tied[mid]
		}
		p := lo
		for i := lo; i < hi; i++ {
			if less(tied[i], tied[hi]) {
				tied[i], tied[p] = tied[p], tied[i]
				p++
			}
		}
		tied[p], tied[hi] = tied[hi], tied[p]
		switch {
		case k == p:
			return tied[p]
		case k < p:
			hi = p - 1
		default:
			lo = p + 1
		}
	}
	return tied[k]
}
