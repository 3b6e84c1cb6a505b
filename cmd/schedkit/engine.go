package main

// This file is the only one that knows how a scheduling cycle is
// explained. It builds an explanation from scheduler.ScheduleWithDiagnosis
// and the profile's Filter plugins; when the engine's Explain lands in
// package scheduler, explainPod becomes a translation of its Explanation.

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
	// NotEvaluated are the profile's plugins this build lacks.
	NotEvaluated []string
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
}

// pluginScore is one score plugin's normalised score and weight.
type pluginScore struct {
	Plugin             string
	Normalized, Weight int64
}

// explainPod runs one cycle for pod (nothing is assumed) and explains it.
func explainPod(ctx context.Context, s *scheduler.Scheduler, pod *api.Pod) (*explanation, error) {
	prof, ok := s.Profile(pod.Spec.SchedulerName)
	if !ok {
		return nil, errors.New("pod " + podName(pod) + ": no profile has schedulerName " + pod.Spec.SchedulerName)
	}
	res, err := s.ScheduleWithDiagnosis(ctx, pod)
	ex := &explanation{Pod: pod, NotEvaluated: prof.NotEvaluated(), Node: res.Node, Err: err,
		Evaluated: res.EvaluatedNodes, Feasible: res.FeasibleNodes, Nominated: res.NominatedNode}
	if pf := res.PostFilterResult; pf != nil {
		ex.Nominated, ex.Victims = pf.NominatedNodeName, pf.Victims
	}
	view := s.Snapshot().View()
	nodes := view.Nodes()
	ex.Nodes = make([]nodeVerdict, len(nodes))
	for i, ni := range nodes {
		ex.Nodes[i].Name = ni.Node().Name
	}
	var gated *scheduler.GatedError
	var fit *scheduler.FitError
	switch {
	case errors.As(err, &gated):
		for i := range ex.Nodes {
			ex.Nodes[i].Status = gated.Status
		}
		return ex, nil
	case errors.As(err, &fit):
		ex.Evaluated = fit.NumAllNodes
		for i := range ex.Nodes {
			ex.Nodes[i].Evaluated = true
			ex.Nodes[i].Status = fit.Diagnosis.NodeToStatus.Get(ex.Nodes[i].Name)
		}
		return ex, nil
	case err != nil:
		return ex, nil
	}

	// The pod fits: the cycle kept no status for the nodes it rejected,
	// so filter every node again with a fresh cycle state.
	state := framework.NewCycleState()
	pre, preSt, _ := prof.RunPreFilterPlugins(ctx, state, pod, nodes)
	scores := make(map[string]*framework.NodePluginScores, len(res.Scores))
	n := 0
	for i := range res.Scores {
		scores[res.Scores[i].Name] = &res.Scores[i]
		n += len(res.Scores[i].NormalizedScores)
	}
	// One array holds every node's scores (a node's slice is capped, so
	// nothing appends into the next one's).
	all := make([]pluginScore, 0, n)
	var best int64
	for i, ni := range nodes {
		nv := &ex.Nodes[i]
		sc := scores[nv.Name]
		switch {
		case sc != nil || nv.Name == res.Node:
			nv.Feasible, nv.Evaluated = true, true
		case !preSt.IsSuccess():
			nv.Status, nv.Evaluated = preSt, true
		case !pre.AllNodes() && !inSet(pre.NodeNames, nv.Name):
			nv.Status, nv.Evaluated = framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) PreFilter result"), true
		default:
			nv.Status = prof.RunFilterPlugins(ctx, state, pod, ni)
			// A node that passes now but was not among the feasible ones
			// was not evaluated (the sampling target was met first).
			nv.Evaluated = !nv.Status.IsSuccess()
		}
		if sc == nil {
			continue
		}
		nv.Scored, nv.Total = true, sc.TotalScore
		start := len(all)
		for j := range sc.NormalizedScores {
			p := sc.NormalizedScores[j].Name
			all = append(all, pluginScore{Plugin: p, Normalized: sc.NormalizedScores[j].Score, Weight: prof.ScoreWeight(p)})
		}
		if len(all) > start {
			nv.Scores = all[start:len(all):len(all)]
		}
		if len(ex.Tied) == 0 || sc.TotalScore > best {
			best, ex.Tied = sc.TotalScore, ex.Tied[:0]
		}
		if sc.TotalScore == best {
			ex.Tied = append(ex.Tied, nv.Name)
		}
	}
	if len(res.Scores) == 0 && res.Node != "" {
		ex.Tied = []string{res.Node}
	}
	// Tied in filtering order is what the cycle saw; keep snapshot order,
	// which is stable, and name the pick.
	if !slices.Contains(ex.Tied, res.Node) {
		ex.Tied = append(ex.Tied, res.Node)
	}
	return ex, nil
}

func inSet(set map[string]struct{}, name string) bool {
	_, ok := set[name]
	return ok
}
