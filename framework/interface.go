package framework

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// Score bounds, as kube-scheduler's.
const (
	// MaxNodeScore is the highest score a ScorePlugin returns after
	// normalisation.
	MaxNodeScore int64 = 100
	// MinNodeScore is the lowest.
	MinNodeScore int64 = 0
	// MaxTotalScore bounds the weighted sum of all scores.
	MaxTotalScore int64 = 1<<63 - 1
)

// Plugin is anything with a name; it also implements one or more of the
// extension point interfaces below.
type Plugin interface {
	// Name is the plugin's name, such as "NodeResourcesFit".
	Name() string
}

// MultiPointPlugin is a plugin assembled from parts, each implementing
// some extension points (for example a filter from package predicates and
// a score from package priorities under one name). The framework
// registers every part at every extension point it implements.
type MultiPointPlugin interface {
	Plugin
	// Parts returns the pieces.
	Parts() []Plugin
}

// PreEnqueuePlugin decides whether a pod may enter the active queue.
type PreEnqueuePlugin interface {
	Plugin
	// PreEnqueue returns nil to admit the pod.
	PreEnqueue(ctx context.Context, pod *api.Pod) *Status
}

// QueueSortPlugin orders the scheduling queue.
type QueueSortPlugin interface {
	Plugin
	// Less reports whether a must be scheduled before b.
	Less(a, b *QueuedPodInfo) bool
}

// PreFilterResult narrows the nodes to filter; nil NodeNames means all.
type PreFilterResult struct {
	// NodeNames is the set of nodes worth filtering; nil means all.
	NodeNames map[string]struct{}
}

// AllNodes reports whether the result does not narrow the nodes.
func (r *PreFilterResult) AllNodes() bool { return r == nil || r.NodeNames == nil }

// Merge intersects two results.
func (r *PreFilterResult) Merge(in *PreFilterResult) *PreFilterResult {
	if r.AllNodes() && in.AllNodes() {
		return nil
	}
	if r.AllNodes() {
		return in
	}
	if in.AllNodes() {
		return r
	}
	out := &PreFilterResult{NodeNames: map[string]struct{}{}}
	for n := range r.NodeNames {
		if _, ok := in.NodeNames[n]; ok {
			out.NodeNames[n] = struct{}{}
		}
	}
	return out
}

// PreFilterPlugin computes per-pod state once per cycle. Returning Skip
// skips the plugin's Filter for the cycle.
type PreFilterPlugin interface {
	Plugin
	// PreFilter runs once per cycle, before any Filter.
	PreFilter(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) (*PreFilterResult, *Status)
	// PreFilterExtensions returns the incremental hooks, or nil.
	PreFilterExtensions() PreFilterExtensions
}

// PreFilterExtensions update a PreFilter's state when preemption
// simulates adding or removing pods.
type PreFilterExtensions interface {
	// AddPod updates state as if podToAdd ran on nodeInfo.
	AddPod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToAdd *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *Status
	// RemovePod updates state as if podToRemove left nodeInfo.
	RemovePod(ctx context.Context, state *CycleState, podToSchedule *api.Pod, podToRemove *cluster.PodInfo, nodeInfo *cluster.NodeInfo) *Status
}

// FilterPlugin decides whether a pod fits a node. Filter runs
// concurrently for different nodes and must only read the CycleState.
type FilterPlugin interface {
	Plugin
	// Filter returns nil if the pod fits the node.
	Filter(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) *Status
}

// NodeToStatusReader gives the filter status of each node of a failed
// cycle.
type NodeToStatusReader interface {
	// Get returns the status of the named node; nodes not filtered have
	// the absent-nodes status.
	Get(nodeName string) *Status
}

// PostFilterResult is what a PostFilter (preemption) nominates.
type PostFilterResult struct {
	// NominatedNodeName is the node the pod should be retried on.
	NominatedNodeName string
	// Victims are the pods to evict.
	Victims []*api.Pod
	// NumPDBViolations is how many of the victims' evictions violate a
	// PodDisruptionBudget.
	NumPDBViolations int
}

// PostFilterPlugin runs when no node passed Filter.
type PostFilterPlugin interface {
	Plugin
	// PostFilter tries to make the pod schedulable.
	PostFilter(ctx context.Context, state *CycleState, pod *api.Pod, statuses NodeToStatusReader) (*PostFilterResult, *Status)
}

// PreScorePlugin computes per-pod scoring state once per cycle, over the
// feasible nodes. Returning Skip skips the plugin's Score.
type PreScorePlugin interface {
	Plugin
	// PreScore runs once per cycle, before any Score.
	PreScore(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) *Status
}

// ScoreSkipper is a Score plugin that can tell, once per cycle, that
// its Score is 0 on every node for the pod and its NormalizeScore
// leaves them 0: the cycle then leaves it out, as a PreScore Skip
// would, without the plugin being a PreScore plugin. It lets a plugin
// whose upstream counterpart has no PreScore keep the profile's plugin
// sets upstream's while the pods it does not concern stay on the fast
// path. A plugin that is also a PreScore plugin is asked through its
// PreScore only.
type ScoreSkipper interface {
	ScorePlugin
	// SkipScore runs once per cycle where PreScore plugins run, after
	// them, with the cycle's state; true skips the plugin's Score.
	SkipScore(state *CycleState, pod *api.Pod) bool
}

// NodeScore is a node's score from one plugin.
type NodeScore struct {
	// Name of the node.
	Name string
	// Score of the node.
	Score int64
}

// NodeScoreList is the scores of all feasible nodes from one plugin.
type NodeScoreList []NodeScore

// ScoreExtensions normalise a plugin's raw scores.
type ScoreExtensions interface {
	// NormalizeScore rescales scores in place to [MinNodeScore,
	// MaxNodeScore].
	NormalizeScore(ctx context.Context, state *CycleState, pod *api.Pod, scores NodeScoreList) *Status
}

// ScorePlugin ranks feasible nodes. Score runs concurrently for
// different nodes and must only read the CycleState.
type ScorePlugin interface {
	Plugin
	// Score returns the node's raw score.
	Score(ctx context.Context, state *CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *Status)
	// ScoreExtensions returns the normaliser, or nil.
	ScoreExtensions() ScoreExtensions
}

// Handle is what the framework gives plugins at construction: read access
// to the snapshot of the cycle being run.
type Handle interface {
	// Snapshot returns the cluster snapshot plugins read during a cycle.
	Snapshot() *cluster.Snapshot
}

// SharedValues is implemented by the handles of schedulers that share
// values with their forks. A plugin factory asks it for a value that is
// costly to build and safe for concurrent use, such as a compiled
// expression environment, so that a fork reuses its origin's instead of
// building its own: Shared returns the value stored under key, built by
// build on first use (an error is returned and not stored).
type SharedValues interface {
	Shared(key string, build func() (any, error)) (any, error)
}

// PluginFactory builds a plugin from its arguments (nil for defaults).
type PluginFactory func(args any, h Handle) (Plugin, error)

// Registry maps plugin names to factories.
type Registry map[string]PluginFactory
