package interpodaffinity

import (
	"fmt"

	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.InterPodAffinityName

// InterPodAffinity is the InterPodAffinity plugin.
//
// Filter checks the incoming pod's required pod affinity and
// anti-affinity, and the existing pods' required anti-affinity against
// the incoming pod, per topology domain. PreFilter does the work that
// depends on the cluster's pods once per cycle. Filter then looks up one
// count per term and node.
//
// Score sums, per node, the weights of the incoming pod's preferred
// affinity terms, less those of its preferred anti-affinity terms, for
// each existing pod in the node's domain that a term matches. It adds
// the weights of existing pods' preferred terms that the incoming pod
// matches, their required affinity terms weighing hardPodAffinityWeight.
// NormalizeScore scales the sums between the lowest and the highest to
// [0, 100].
//
// It models kube-scheduler v1.37.2 with its alpha feature gates
// InterPodAffinityHostnameFastPath and
// InPlacePodVerticalScalingSchedulerPreemption off, as they are by
// default.
type InterPodAffinity struct {
	handle         framework.Handle
	hardWeight     int32
	ignoreExisting bool

	// cache holds both halves' counts of the last incoming pods (see
	// cache.go).
	cache affinityCache
}

var (
	_ framework.PreFilterPlugin     = (*InterPodAffinity)(nil)
	_ framework.PreFilterExtensions = (*InterPodAffinity)(nil)
	_ framework.FilterPlugin        = (*InterPodAffinity)(nil)
	_ framework.PreScorePlugin      = (*InterPodAffinity)(nil)
	_ framework.ScorePlugin         = (*InterPodAffinity)(nil)
	_ framework.ScoreExtensions     = (*InterPodAffinity)(nil)
	_ framework.FastPathPlugin      = (*InterPodAffinity)(nil)
	_ framework.EnqueueExtensions   = (*InterPodAffinity)(nil)
)

// New is the InterPodAffinity factory. args is nil, a
// config.InterPodAffinityArgs or a pointer to one. It is defaulted and
// validated. h must give a snapshot: PreFilter lists the nodes with pods
// with required anti-affinity from it and reads the Namespace objects,
// and PreScore reads every node's pods, not only the feasible nodes', as
// upstream.
func New(args any, h framework.Handle) (framework.Plugin, error) {
	if h == nil || h.Snapshot() == nil {
		return nil, fmt.Errorf("SnapshotSharedlister is nil")
	}
	a, err := config.InterPodAffinityArgsFrom(args)
	if err != nil {
		return nil, err
	}
	return &InterPodAffinity{handle: h, hardWeight: a.Weight(), ignoreExisting: a.IgnorePreferredTermsOfExistingPods}, nil
}

// Name returns Name.
func (pl *InterPodAffinity) Name() string { return Name }

// FastPath offers FilterNodes, ScoreNodes and NormalizeNodes. PreScore
// reads every node of the snapshot, or every node with pods with
// affinity, never the node list it is given, so the plugin could also
// promise ScoresAnyNodes. It
// does not, because PreScore would then run before Filter in every
// cycle, and for a plain pod, which it skips, its walk over the nodes
// would come ahead of filtering instead of after it (about 15 µs CPU
// more per 5,000-node decision). NormalizeScore is by the lowest and the
// highest sums, not by max: the scheduler runs it (NormalizeNodes) over
// the whole row of scored nodes.
func (pl *InterPodAffinity) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, ScoreNodes: pl.ScoreNodes, NormalizeNodes: pl.NormalizeNodes}
}

// EventsToRegister returns NodeAdd, NodeUpdate and the three assigned-pod
// events. A new node or a node's new labels may open a topology domain,
// and an existing pod that comes, changes labels or goes changes the
// counts the terms match.
func (pl *InterPodAffinity) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.NodeUpdate | framework.AssignedPodAdd | framework.AssignedPodUpdate | framework.AssignedPodDelete
}
