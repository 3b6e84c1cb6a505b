package interpodaffinity

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

const scoreStateKey framework.StateKey = "PreScore" + config.InterPodAffinityName

var scoreStateMissing = framework.AsStatus(fmt.Errorf("failed to read %q from cycleState: not found", scoreStateKey))

// topologyScore is the score of one topology key's domains: label value
// → summed weight.
type topologyScore struct {
	key    string
	values map[string]int64
}

// interPodAffinityScoreState is what PreScore computes for Score: each
// topology key's domain scores, one entry per key (upstream's scoreMap).
//
// The sums take one of two shapes. Plain: each key's values map holds
// them. Cold: the maps are nil and dense holds them (the first sync of
// a cache entry, see score_cache.go). Keys are valid in both shapes;
// values reads a key's map, only in the plain shape. dense, when set,
// is the same sums by domain id, and Score reads it first.
type interPodAffinityScoreState struct {
	scores []topologyScore
	// dense is scores by the view's domain ids (newDenseScores), nil
	// when they could not be indexed. It is never nil while cold.
	dense []denseScore
	// cold: the maps are nil, dense holds the sums.
	cold bool
}

// values returns the sums of key i by label value. Cold sums have no
// maps: reading them is a bug of the caller, and it panics.
func (s *interPodAffinityScoreState) values(i int) map[string]int64 {
	if s.cold {
		panic("interpodaffinity: score maps read while the sums are cold")
	}
	return s.scores[i].values
}

// Clone returns s: the state is never modified after PreScore.
func (s *interPodAffinityScoreState) Clone() framework.StateData { return s }

// PreScore sums, per topology domain, the weights of every term that
// pairs an existing pod with the incoming pod. It returns Skip when no
// term pairs any (nothing to score), and at once when
// ignorePreferredTermsOfExistingPods is set and the pod has no preferred
// pod (anti-)affinity. Existing pods are read from the snapshot: all of
// them when the pod has preferred terms, else only those with pod
// (anti-)affinity; a node without labels contributes nothing.
func (pl *InterPodAffinity) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	a := pod.Spec.Affinity
	hasPreferred := a != nil && ((a.PodAffinity != nil && len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0) ||
		(a.PodAntiAffinity != nil && len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0))
	if pl.ignoreExisting && !hasPreferred {
		return skipStatus
	}
	view := pl.handle.Snapshot().View()
	sc, err := pl.newScorer(pod, hasPreferred, view)
	if err != nil {
		return framework.AsStatus(fmt.Errorf("failed to parse pod: %w", err))
	}
	totals := pl.cache.scores(&sc, view)
	if totals == nil || totals.matched == 0 {
		return skipStatus
	}
	state.Write(scoreStateKey, &totals.scores)
	return nil
}

// newScorer compiles pod's preferred terms, their namespace selectors
// resolved over view's namespaces.
func (pl *InterPodAffinity) newScorer(pod *api.Pod, hasPreferred bool, view *cluster.View) (scorer, error) {
	c, err := affinity.CompilePodAffinity(pod)
	if err != nil {
		return scorer{}, err
	}
	ns := objectNamespaces{view.Objects()}
	resolveWeighted(ns, c.PreferredAffinity)
	resolveWeighted(ns, c.PreferredAntiAffinity)
	return scorer{pod: pod, pref: c.PreferredAffinity, prefAnti: c.PreferredAntiAffinity, hasPreferred: hasPreferred,
		nsLabels: namespaceLabels(ns, pod.Namespace), hardWeight: pl.hardWeight, view: view}, nil
}

// scorer computes what each node adds to PreScore's sums: for each
// topology key, the weight its pods add to the node's domain.
type scorer struct {
	pod            *api.Pod
	pref, prefAnti []affinity.WeightedAffinityTerm
	hasPreferred   bool
	nsLabels       map[string]string
	hardWeight     int32
	// view is the cycle's; topos the Topologies of the keys hasKey saw.
	view  *cluster.View
	topos []*cluster.Topology
	// cand, during a first sync, is each node's pods that the
	// preferred terms may match (nil: every pod is read).
	cand *cluster.PodCandidates
	// counts, during a first sync, is each node's number of pods that
	// each preferred term matches, pref's then prefAnti's (nil: the
	// pods are read).
	counts *cluster.PodCounts
	// ownIdx, during a first sync, is each node's matches and weights
	// of the existing pods' own terms, per key (nil: the pods are
	// read).
	ownIdx *cluster.TermCounts
}

// keyWeight is a weight under a topology key.
type keyWeight struct {
	key string
	w   int64
}

// nodeScore is what one node adds: under its own label values, the
// weights per key, and matched terms matched with the key present
// (upstream's scoreMap entries, made even for a weight of 0). The first
// keys' weights are held inline (weights[:n]), any others in more, so
// that computing a node's score allocates nothing in the common case.
type nodeScore struct {
	node    *api.Node
	matched int64
	n       int
	weights [1]keyWeight
	more    []keyWeight
}

// numWeights returns the number of keys with a weight.
func (ns *nodeScore) numWeights() int { return ns.n + len(ns.more) }

// weightAt returns the i-th key's weight.
func (ns *nodeScore) weightAt(i int) *keyWeight {
	if i < ns.n {
		return &ns.weights[i]
	}
	return &ns.more[i-ns.n]
}

// hasKey reports whether the node of ni has the label key, by the view's
// Topology of the key: two slice reads for a NodeInfo of the view, where
// a lookup in the node's labels would read its label map (scattered in
// memory, a cache miss or more per node on a first pass over a cluster).
// The scorer keeps the Topologies of the keys it has seen.
func (sc *scorer) hasKey(ni *cluster.NodeInfo, key string) bool {
	for _, t := range sc.topos {
		if t.Key() == key {
			return t.ID(ni) != cluster.NoDomain
		}
	}
	t := sc.view.Topology(key)
	sc.topos = append(sc.topos, t)
	return t.ID(ni) != cluster.NoDomain
}

// term adds weight*sign to the weight of ns (ni's contribution) for t's
// key when pod matches t and the node has the key.
func (sc *scorer) term(ns *nodeScore, ni *cluster.NodeInfo, t *affinity.AffinityTerm, weight, sign int32, pod *api.Pod, nsLabels map[string]string) {
	if !t.Matches(pod, nsLabels) {
		return
	}
	sc.termN(ns, ni, t.TopologyKey, weight, sign, 1)
}

// termN adds k matches of a term of key and weight*sign to ns (ni's
// contribution) when the node has the key.
func (sc *scorer) termN(ns *nodeScore, ni *cluster.NodeInfo, key string, weight, sign, k int32) {
	if !sc.hasKey(ni, key) {
		return
	}
	ns.add(key, k, int64(weight*sign)*int64(k))
}

// add adds k matched terms of key with weight w in all.
func (ns *nodeScore) add(key string, k int32, w int64) {
	ns.matched += int64(k)
	for i := range ns.numWeights() {
		if kw := ns.weightAt(i); kw.key == key {
			kw.w += w
			return
		}
	}
	if ns.n < len(ns.weights) {
		ns.weights[ns.n] = keyWeight{key, w}
		ns.n++
		return
	}
	ns.more = append(ns.more, keyWeight{key, w})
}

// node computes ni's contribution into ns (which holds the zero value):
// upstream's processExistingPod for each of its pods (all of them when
// the incoming pod has preferred terms, else those with pod
// (anti-)affinity); nothing for a node without labels. It reports
// whether the contribution adds anything (a matched term).
func (sc *scorer) node(ni *cluster.NodeInfo, ns *nodeScore) bool {
	pods := ni.PodsWithAffinity
	if sc.hasPreferred {
		pods = ni.Pods
	}
	// The pods first: most nodes have none to read, and their Node is
	// then not read at all.
	if len(pods) == 0 {
		return false
	}
	node := ni.Node()
	if node == nil || len(node.Labels) == 0 {
		return false
	}
	ns.node = node
	if sc.hasPreferred && !sc.counted(ni, ns) {
		// The incoming pod's terms over the pods they may match.
		if cand, ok := sc.cand.Pods(ni); ok {
			pods = cand
		}
		for _, p := range pods {
			sc.incoming(p, ni, ns)
		}
	}
	if sc.ownIdx.Has(ni) {
		for k, key := range sc.ownIdx.Keys {
			if n, w, _ := sc.ownIdx.At(k, ni); n != 0 && sc.hasKey(ni, key) {
				ns.add(key, n, w)
			}
		}
		return ns.matched != 0
	}
	for _, p := range ni.PodsWithAffinity {
		sc.own(p, ni, ns)
	}
	return ns.matched != 0
}

// counted adds to ns the preferred terms' matches on ni that sc.counts
// counts. It reports false, adding nothing, when there are no counts
// for ni.
func (sc *scorer) counted(ni *cluster.NodeInfo, ns *nodeScore) bool {
	if _, ok := sc.counts.Count(0, ni); sc.counts == nil || !ok {
		return false
	}
	q := 0
	for _, terms := range [2][]affinity.WeightedAffinityTerm{sc.pref, sc.prefAnti} {
		sign := int32(1)
		if q >= len(sc.pref) {
			sign = -1
		}
		for i := range terms {
			if k, _ := sc.counts.Count(q, ni); k != 0 {
				sc.termN(ns, ni, terms[i].TopologyKey, terms[i].Weight, sign, k)
			}
			q++
		}
	}
	return true
}

// ownCounts counts through the view's index of the pods' terms, per
// node and key, the existing pods' terms that match the incoming pod,
// with the weights own gives them: one match per group of equal terms.
func (sc *scorer) ownCounts() (*cluster.TermCounts, bool) {
	if sc.view == nil {
		return nil, false
	}
	return sc.view.CountTerms(func(kind cluster.TermKind, t *affinity.AffinityTerm, w int32) (int64, bool) {
		switch kind {
		case cluster.RequiredAffinity:
			w = sc.hardWeight
			if w <= 0 {
				return 0, false
			}
		case cluster.PreferredAntiAffinity:
			w = -w
		case cluster.RequiredAntiAffinity:
			return 0, false
		}
		return int64(w), t.Matches(sc.pod, sc.nsLabels)
	})
}

// preferredCounts counts through the view's pod index the pods each
// preferred term matches, for a first sync.
func (sc *scorer) preferredCounts() (*cluster.PodCounts, bool) {
	qs, ok := sc.preferredQueries()
	if !ok {
		return nil, false
	}
	return sc.view.CountPods(qs)
}

// preferredCandidates finds through the view's pod index the pods the
// incoming pod's preferred terms may match, for a first sync.
func (sc *scorer) preferredCandidates() (*cluster.PodCandidates, bool) {
	qs, ok := sc.preferredQueries()
	if !ok {
		return nil, false
	}
	return sc.view.PodCandidates(qs)
}

// preferredQueries are the index queries of the incoming pod's preferred
// terms, affinity then anti-affinity; false when there is no view, no
// preferred term, or a term the index cannot answer.
func (sc *scorer) preferredQueries() ([]cluster.PodQuery, bool) {
	if !sc.hasPreferred || sc.view == nil || len(sc.pref)+len(sc.prefAnti) == 0 {
		return nil, false
	}
	qs := make([]cluster.PodQuery, 0, len(sc.pref)+len(sc.prefAnti))
	for _, terms := range [][]affinity.WeightedAffinityTerm{sc.pref, sc.prefAnti} {
		for i := range terms {
			q, ok := termQuery(&terms[i].AffinityTerm)
			if !ok {
				return nil, false
			}
			qs = append(qs, q)
		}
	}
	return qs, true
}

// incoming and own are upstream's processExistingPod for existing pod p
// on the node of ni, into ns, in two parts: incoming matches the
// incoming pod's preferred terms against p, own p's terms against the
// incoming pod.
func (sc *scorer) incoming(p *cluster.PodInfo, ni *cluster.NodeInfo, ns *nodeScore) {
	for i := range sc.pref {
		sc.term(ns, ni, &sc.pref[i].AffinityTerm, sc.pref[i].Weight, 1, p.Pod, nil)
	}
	for i := range sc.prefAnti {
		sc.term(ns, ni, &sc.prefAnti[i].AffinityTerm, sc.prefAnti[i].Weight, -1, p.Pod, nil)
	}
}

func (sc *scorer) own(p *cluster.PodInfo, ni *cluster.NodeInfo, ns *nodeScore) {
	if sc.hardWeight > 0 {
		for i := range p.RequiredAffinityTerms {
			sc.term(ns, ni, &p.RequiredAffinityTerms[i], sc.hardWeight, 1, sc.pod, sc.nsLabels)
		}
	}
	for i := range p.PreferredAffinityTerms {
		t := &p.PreferredAffinityTerms[i]
		sc.term(ns, ni, &t.AffinityTerm, t.Weight, 1, sc.pod, sc.nsLabels)
	}
	for i := range p.PreferredAntiAffinityTerms {
		t := &p.PreferredAntiAffinityTerms[i]
		sc.term(ns, ni, &t.AffinityTerm, t.Weight, -1, sc.pod, sc.nsLabels)
	}
}

// resolveWeighted replaces each term's namespace selector by the
// namespaces it selects, as upstream's mergeAffinityTermNamespacesIfNotEmpty.
func resolveWeighted(l namespaceLister, terms []affinity.WeightedAffinityTerm) {
	var all []*api.Namespace
	listed := false
	for i := range terms {
		if terms[i].NamespaceSelector.Empty() {
			continue
		}
		if !listed {
			all, listed = l.Namespaces(), true
		}
		terms[i].AffinityTerm = terms[i].AffinityTerm.ResolveNamespaceSelector(all)
	}
}

func readInterPodAffinityScoreState(state *framework.CycleState) (*interPodAffinityScoreState, *framework.Status) {
	d, ok := state.Read(scoreStateKey)
	if !ok {
		return nil, scoreStateMissing
	}
	s, ok := d.(*interPodAffinityScoreState)
	if !ok {
		return nil, framework.AsStatus(fmt.Errorf("%+v  convert to interpodaffinity.preScoreState error", d))
	}
	return s, nil
}

// Score returns the sum of the scores of the node's domains: positive
// for affinity, negative for anti-affinity. Without PreScore state it
// returns an Error status, as upstream.
func (pl *InterPodAffinity) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	s, st := readInterPodAffinityScoreState(state)
	if st != nil {
		return 0, st
	}
	return s.scoreNode(nodeInfo), nil
}

// ScoreNodes is Score for each node, reading the state once.
func (pl *InterPodAffinity) ScoreNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	s, st := readInterPodAffinityScoreState(state)
	if st != nil {
		if len(nodes) == 0 {
			return -1, nil
		}
		return 0, st
	}
	if s.dense != nil {
		for i, ni := range nodes {
			scores[i] = s.scoreNode(ni)
		}
		return -1, nil
	}
	if len(s.scores) != 1 || len(s.values(0)) != 1 {
		for i, ni := range nodes {
			scores[i] = s.score(ni.Node())
		}
		return -1, nil
	}
	// One key with one domain (as when a workload's pods share a zone):
	// the node's label is compared with that domain's value, without a
	// map lookup.
	key := s.scores[0].key
	var one string
	var w int64
	for v, n := range s.values(0) {
		one, w = v, n
	}
	for i, ni := range nodes {
		scores[i] = 0
		if v, ok := ni.Node().Labels[key]; ok && v == one {
			scores[i] = w
		}
	}
	return -1, nil
}

func (s *interPodAffinityScoreState) score(node *api.Node) int64 {
	var sum int64
	for i := range s.scores {
		if v, ok := node.Labels[s.scores[i].key]; ok {
			sum += s.values(i)[v]
		}
	}
	return sum
}

// ScoreExtensions returns the plugin, which normalizes.
func (pl *InterPodAffinity) ScoreExtensions() framework.ScoreExtensions { return pl }

// NormalizeScore maps the lowest sum to 0 and the highest to 100,
// linearly, truncating as upstream does (float64 arithmetic, then
// int64); when all sums are equal every score becomes 0.
func (pl *InterPodAffinity) NormalizeScore(_ context.Context, state *framework.CycleState, _ *api.Pod, scores framework.NodeScoreList) *framework.Status {
	ok, st := normalizes(state)
	if ok {
		priorities.NormalizeMinMax(scores)
	}
	return st
}

// NormalizeNodes is NormalizeScore over the raw scores of nodes, in
// place: it reads no node, so a cycle's list of names is not built.
func (pl *InterPodAffinity) NormalizeNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, _ []*cluster.NodeInfo, scores []int64) *framework.Status {
	ok, st := normalizes(state)
	if ok {
		priorities.NormalizeMinMaxScores(scores)
	}
	return st
}

// normalizes reports whether the cycle's scores are normalised: not when
// PreScore kept no topology score (the raw scores then stand, as
// upstream leaves them), nor when its state is missing (the error).
func normalizes(state *framework.CycleState) (bool, *framework.Status) {
	s, st := readInterPodAffinityScoreState(state)
	if st != nil {
		return false, st
	}
	return len(s.scores) > 0, nil
}
