package app

// This file translates scheduler.Explanation, the library's account of a
// scheduling cycle, into the command's explanation: nodes in snapshot
// order, scores only where kube-scheduler scored, the tied set in
// snapshot order, and the preemption outcome.

import (
	"context"
	"errors"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/scheduler"
)

// explanation is what one cycle decided about a pod, for every node.
type explanation struct {
	Pod *api.Pod
	// Outcome is the library's outcome of the cycle.
	Outcome scheduler.Outcome
	// NotEvaluated are the profile's plugins this build lacks;
	// Unverified the library's marks of the decision.
	NotEvaluated, Unverified []string
	// Nodes are every node of the snapshot, in snapshot order.
	Nodes []nodeVerdict
	// Evaluated and Feasible are the cycle's counts.
	Evaluated, Feasible int
	// Tied are the feasible nodes of the best total; Node is the pick.
	Tied []string
	Node string
	// Err is the cycle's error: *scheduler.FitError, *scheduler.GatedError
	// or another.
	Err error
	// Nominated is the node preemption nominated ("" if none ran) and
	// Victims the pods it would evict there.
	Nominated string
	Victims   []*api.Pod
	// LeaveOneOut is the library's leave-one-out of the score plugins,
	// for a pod placed after scoring; WhyNot the smallest verified
	// changes per node, for a pod that fits nowhere under --why-not.
	LeaveOneOut []scheduler.PluginInfluence
	WhyNot      *scheduler.WhyNot
}

// nodeVerdict is one node's part of an explanation.
type nodeVerdict struct {
	Name string
	// Status is nil for a node that passes Filter.
	Status *framework.Status
	// Evaluated is false for a node the cycle did not filter (sampling).
	Evaluated bool
	// Feasible nodes competed; Scored ones have Scores and Total.
	Feasible, Scored bool
	Scores           []pluginScore
	Total            int64
	// Preemption is the preemption dry run's verdict on the node, for a
	// pod that fits nowhere; nil otherwise.
	Preemption *scheduler.NodePreemption
	// Devices is DynamicResources' verdict and the claims' devices on
	// the node, for a pod with claims; nil otherwise.
	Devices *scheduler.NodeDevices
}

// pluginScore is one score plugin's normalised score and weight.
type pluginScore struct {
	Plugin             string
	Normalized, Weight int64
}

// explainPodWhyNot runs one cycle for pod with scheduler.Explain
// (nothing is assumed; the rotating start index and the random source
// move on as a scheduler's do) and translates its Explanation, with
// scheduler.ExplainWhyNot's suggestions when whyNot is set, and the leave-one-out of the score
// plugins only when loo is set (the tables do not print it; it ranks
// every node again for each plugin).
func explainPodWhyNot(ctx context.Context, s *scheduler.Scheduler, pod *api.Pod, whyNot, loo bool) (*explanation, error) {
	explain := s.Explain
	if whyNot {
		explain = s.ExplainWhyNot
	}
	sx, err := explain(ctx, pod)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, errors.New("pod " + podName(pod) + ": no profile has schedulerName " + pod.Spec.SchedulerName)
	}
	ex := &explanation{Pod: pod, Outcome: sx.Outcome(), NotEvaluated: sx.NotEvaluated, Unverified: sx.Unverified,
		WhyNot: sx.WhyNot}
	if loo {
		ex.LeaveOneOut = sx.LeaveOneOut()
	}
	// Each node's explanation by its position in the view.
	view := s.Snapshot().View()
	nodes := view.Nodes()
	byPos := make([]*scheduler.NodeExplanation, len(nodes))
	for i := range sx.Nodes {
		if j, ok := view.Index(sx.Nodes[i].Name); ok {
			byPos[j] = &sx.Nodes[i]
		}
	}
	ex.Nodes = make([]nodeVerdict, len(nodes))
	for i, ni := range nodes {
		ex.Nodes[i].Name = ni.Node().Name
	}
	if sx.PreEnqueue != nil {
		// Gated: the pod is not admitted, no cycle runs; every node
		// carries the PreEnqueue status.
		ex.Err = &scheduler.GatedError{Pod: pod, Status: sx.PreEnqueue}
		for i := range ex.Nodes {
			ex.Nodes[i].Status = sx.PreEnqueue
		}
		return ex, nil
	}
	ex.Node, ex.Err, ex.Evaluated, ex.Feasible = sx.Node, sx.Err, sx.EvaluatedNodes, sx.FeasibleNodes
	if pe := sx.Preemption; pe != nil && pe.Result != nil {
		ex.Nominated, ex.Victims = pe.NominatedNode, pe.Victims
	}
	var fit *scheduler.FitError
	if errors.As(sx.Err, &fit) {
		ex.Evaluated = fit.NumAllNodes
	}

	// One array holds every node's scores (a node's slice is capped, so
	// nothing appends into the next one's).
	n := 0
	for i := range sx.Nodes {
		n += len(sx.Nodes[i].Scores)
	}
	all := make([]pluginScore, 0, n)
	var best int64
	for i := range ex.Nodes {
		nv := &ex.Nodes[i]
		ne := byPos[i]
		if ne == nil {
			continue
		}
		nv.Status, nv.Evaluated, nv.Feasible, nv.Preemption, nv.Devices = ne.Status, ne.Evaluated, ne.Feasible, ne.Preemption, ne.Devices
		if fit != nil {
			nv.Evaluated = true
		}
		// kube-scheduler scores nothing when one node is feasible: the
		// scores Explain computes for its report are not shown.
		if !ne.Feasible || sx.ScoredForReport || len(ne.Scores) == 0 {
			continue
		}
		nv.Scored, nv.Total = true, ne.Total
		start := len(all)
		for _, ps := range ne.Scores {
			all = append(all, pluginScore{Plugin: ps.Plugin, Normalized: ps.Normalized, Weight: ps.Weight})
		}
		nv.Scores = all[start:len(all):len(all)]
		if len(ex.Tied) == 0 || ne.Total > best {
			best, ex.Tied = ne.Total, ex.Tied[:0]
		}
		if ne.Total == best {
			ex.Tied = append(ex.Tied, nv.Name)
		}
	}
	if ex.Node == "" {
		return ex, nil
	}
	// Tied in filtering order is what the cycle saw; keep snapshot order,
	// which is stable, and name the pick.
	if !slices.Contains(ex.Tied, ex.Node) {
		ex.Tied = append(ex.Tied, ex.Node)
	}
	return ex, nil
}
