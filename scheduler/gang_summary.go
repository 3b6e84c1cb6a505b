package scheduler

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/plugins/gangscheduling"
	"github.com/schedkit/schedkit/podgroup"
)

// GangSummary is how one PodGroup's pending pods fared in Simulate.
type GangSummary struct {
	// PodGroup is the group's namespace/name; MinCount its minCount (0
	// when the PodGroup is not in the snapshot).
	PodGroup string `json:"podGroup"`
	MinCount int    `json:"minCount"`
	// Pods are the group's pending pods simulated; Placed those placed.
	Pods   int      `json:"pods"`
	Placed int      `json:"placed"`
	Nodes  []string `json:"nodes"`
	// Waiting is how many more pods the gang needs before the queue
	// admits it (GangScheduling's PreEnqueue).
	Waiting int `json:"waiting"`
	// Message is the summary's sentence, as simulate prints it.
	Message string `json:"message"`
	// Condition is the PodGroupInitiallyScheduled condition the
	// PodGroup cycles wrote on the group, as kube-scheduler patches
	// status.conditions; nil when no cycle ran for it.
	Condition *api.Condition `json:"condition,omitempty"`
}

// Gangs groups Simulate's placements by PodGroup, in the order of their
// first pod, when GenericWorkload is on (nil otherwise): each summary says
// where the gang fits, how many members it still waits for, or why it
// does not fit.
func (s *Scheduler) Gangs(placements []Placement) []GangSummary {
	if !s.FeatureGates().GenericWorkload() {
		return nil
	}
	var order []podgroup.Key
	byKey := map[podgroup.Key][]Placement{}
	for _, pl := range placements {
		k, ok := podgroup.KeyOf(pl.Pod)
		if !ok {
			continue
		}
		if _, seen := byKey[k]; !seen {
			order = append(order, k)
		}
		byKey[k] = append(byKey[k], pl)
	}
	inSnapshot := map[podgroup.Key]int{}
	for _, ni := range s.Snapshot().View().Nodes() {
		for _, pi := range ni.Pods {
			if k, ok := podgroup.KeyOf(pi.Pod); ok {
				inSnapshot[k]++
			}
		}
	}
	out := make([]GangSummary, 0, len(order))
	for _, k := range order {
		pls := byKey[k]
		g := GangSummary{PodGroup: k.Namespace + "/" + k.Name, Pods: len(pls), Nodes: []string{}}
		pg, ok := cluster.GetObject[api.PodGroup](s.Snapshot().Objects(), k.Namespace, k.Name)
		if ok {
			g.MinCount = pg.MinCount()
			for _, c := range pg.Status.Conditions {
				if c.Type == api.PodGroupInitiallyScheduled {
					g.Condition = &c
				}
			}
		}
		var firstErr, groupErr error
		var firstPod *api.Pod
		for _, pl := range pls {
			var ge *GangError
			switch {
			case pl.Node != "":
				g.Placed++
				if !slices.Contains(g.Nodes, pl.Node) {
					g.Nodes = append(g.Nodes, pl.Node)
				}
			case errors.As(pl.Err, &ge):
				if groupErr == nil {
					groupErr = pl.Err
				}
			case firstErr == nil:
				firstErr, firstPod = pl.Err, pl.Pod
			}
		}
		slices.Sort(g.Nodes)
		var gated *GatedError
		switch {
		case !ok:
			g.Message = fmt.Sprintf("PodGroup %s not found: its pods wait for it", g.PodGroup)
		case g.Placed > 0 && inSnapshot[k] > g.Placed:
			// New pods joining a group already scheduled.
			g.Message = fmt.Sprintf("%d pod(s) join the gang's %d scheduled on nodes %s", g.Placed, inSnapshot[k]-g.Placed, strings.Join(g.Nodes, ", "))
			if left := g.Pods - g.Placed; left > 0 {
				g.Message += fmt.Sprintf("; %d pod(s) left pending", left)
			}
		case g.Placed > 0:
			g.Message = fmt.Sprintf("gang of %d fits on nodes %s", g.Placed, strings.Join(g.Nodes, ", "))
			if left := g.Pods - g.Placed; left > 0 {
				g.Message += fmt.Sprintf("; %d pod(s) left pending", left)
			}
		case errors.As(firstErr, &gated) && gated.Status.Message() == gangscheduling.ReasonWaitingForPods:
			// The pods known are those simulated and those already bound.
			known := g.Pods + inSnapshot[k]
			g.Waiting = g.MinCount - known
			members := "members"
			if g.Waiting == 1 {
				members = "member"
			}
			g.Message = fmt.Sprintf("waiting for %d more %s (%d of minCount %d)", g.Waiting, members, known, g.MinCount)
		case groupErr != nil && firstErr != nil:
			g.Message = fmt.Sprintf("does not fit: %v; the first pod that fits nowhere: %s: %v", groupErr, firstPod.Namespace+"/"+firstPod.Name, firstErr)
		case groupErr != nil:
			g.Message = "does not fit: " + groupErr.Error()
		case firstErr != nil:
			g.Message = "does not fit: " + firstErr.Error()
		}
		out = append(out, g)
	}
	return out
}
