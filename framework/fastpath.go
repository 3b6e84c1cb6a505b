package framework

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// FastPathPlugin is the one optional interface through which a plugin
// joins schedkit's fast path. A plugin that does not implement it is
// still run exactly: the scheduler then takes the plain way for the
// parts of a cycle the plugin is active in (it may be slower, never
// different). A plugin that returns Skip from PreFilter or PreScore for
// a pod does not count for that pod's cycle, opted in or not.
//
// FastPath is called once per profile, when a scheduler first runs it;
// what it returns must not change afterwards. Every field is optional;
// the zero FastPath promises nothing. The guarantees, field by field:
//
//   - FilterNodes (a Filter plugin): FilterNodes(ctx, state, pod, nodes,
//     statuses) sets statuses[i] to exactly what Filter returns for
//     nodes[i], for every i (statuses has len(nodes) entries, all nil on
//     entry). Like Filter it runs concurrently for different nodes and
//     only reads state.
//   - ScoreNodes (a Score plugin): ScoreNodes(ctx, state, pod, nodes,
//     scores) sets scores[i] to what Score returns for nodes[i] and
//     returns -1 and nil; if Score fails for some node, it returns the
//     index of the first such node and Score's status for it (the
//     scores are then unspecified). It runs concurrently and only reads
//     state.
//   - NormalizeByMax (a Score plugin whose ScoreExtensions is not nil):
//     the plugin's NormalizeScore sets each node's score from that raw
//     score and the cycle's highest raw score alone (as
//     priorities.DefaultNormalizeScore does, not from the lowest score
//     or the number of nodes). NormalizeByMax(scores, highest) rescales
//     some of the cycle's raw scores in place, given highest, the highest
//     of 0 and every node's raw score, exactly as NormalizeScore would.
//     It lets the scheduler normalise chunks of nodes on the goroutines
//     that scored them. A normalising plugin without it (one that
//     normalises by the lowest score too, as InterPodAffinity) is run
//     exactly the same: its NormalizeScore once per cycle over a
//     NodeScoreList of every scored node, in node order, after every
//     Score; the cycle's other plugins keep their fast forms.
//   - NormalizeNodes (a Score plugin whose ScoreExtensions is not nil and
//     that is not by max): NormalizeNodes(ctx, state, pod, nodes, scores)
//     sets scores[i] to what NormalizeScore sets for nodes[i], given a
//     NodeScoreList of the nodes' names and scores in that order, and
//     returns NormalizeScore's status. It lets the scheduler normalise a
//     cycle's row of raw scores without building that list (a read of
//     every node's name).
//   - ScoresAnyNodes (a PreScore and/or Score plugin): PreScore's status
//     and everything it writes to the CycleState are the same for every
//     non-empty list of nodes it is given; PreScore and Score do not
//     depend on which nodes passed Filter; and PreScore and Score read
//     from the CycleState only what the plugin's own PreScore wrote
//     (not PreFilter's state, nor another plugin's). It lets the
//     scheduler run PreScore before Filter, into a state of its own
//     while other goroutines filter, and score each chunk of nodes as
//     soon as it passes Filter, while the nodes' data is in the CPU's
//     cache, when every node is to be scored. A Score plugin without it,
//     whose PreScore does not skip for the pod, makes that cycle score
//     after Filter.
//   - ScoresIfAllFit (a PreScore and/or Score plugin): ScoresAnyNodes
//     for the cycles in which every node filtered passes Filter.
//     PreScore given those nodes (in any order) writes what it writes
//     given the feasible nodes then, and Score reads only what the
//     plugin's own PreScore wrote. It suits a plugin whose PreScore
//     depends on the set of feasible nodes (PodTopologySpread weighs a
//     constraint by the domains of the scored nodes): the scheduler may
//     score such a cycle as nodes pass Filter, and drops that work and
//     scores after Filter when some node did not pass.
//   - NodeLocalFilter (a Filter plugin, with its PreFilter if it has
//     one): the status Filter returns for a node, through whatever the
//     plugin's PreFilter wrote to the CycleState, is a function of the
//     pod, the node's NodeInfo (its node and its pods, which its
//     Generation versions) and the snapshot's objects (View.Objects)
//     alone; PreFilter's status and result are functions of the pod and
//     the objects. Neither changes with the other nodes or pods, the
//     clock, or the pod's name, generateName, UID, resourceVersion,
//     generation, creationTimestamp or status.nominatedNodeName (a
//     PreFilter may still keep answers by topology domain, which are
//     each node's own). It lets DefaultPreemption's dry run keep each
//     node's verdict for the next preemptor of the same shape while the
//     node and the objects stay the same (package preemption, "Cost").
//
// A template for a plugin joining the fast path (see the package
// documentation, "Joining the fast path"):
//
//	func (pl *MyScore) FastPath() framework.FastPath {
//		return framework.FastPath{
//			ScoreNodes:     pl.ScoreNodes,     // optional: Score for many nodes
//			NormalizeByMax: pl.NormalizeByMax, // only if NormalizeScore is by-max
//			ScoresAnyNodes: true,              // only if PreScore ignores the node list
//		}
//	}
type FastPathPlugin interface {
	Plugin
	// FastPath returns what the plugin guarantees; see FastPathPlugin.
	FastPath() FastPath
}

// FastPath is what a FastPathPlugin guarantees; see FastPathPlugin for
// each field's contract.
type FastPath struct {
	// FilterNodes is Filter over many nodes at once; nil if not offered.
	FilterNodes func(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, statuses []*Status)
	// ScoreNodes is Score over many nodes at once; nil if not offered.
	ScoreNodes func(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *Status)
	// NormalizeByMax is NormalizeScore given the cycle's highest raw
	// score; nil if NormalizeScore is not by-max.
	NormalizeByMax func(scores []int64, highest int64)
	// NormalizeNodes is NormalizeScore over the raw scores of nodes, in
	// place; nil if not offered.
	NormalizeNodes func(ctx context.Context, state *CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) *Status
	// ScoresAnyNodes promises that PreScore and Score do not depend on
	// the nodes Filter passed.
	ScoresAnyNodes bool
	// ScoresIfAllFit promises ScoresAnyNodes for the cycles in which
	// every node filtered passes Filter.
	ScoresIfAllFit bool
	// NodeLocalFilter promises that Filter's verdict on a node depends
	// on the pod's shape, the node and the snapshot's objects alone.
	NodeLocalFilter bool
}

// FastPathOf returns pl's FastPath, the zero FastPath if pl is not a
// FastPathPlugin.
func FastPathOf(pl Plugin) FastPath {
	if f, ok := pl.(FastPathPlugin); ok {
		return f.FastPath()
	}
	return FastPath{}
}
