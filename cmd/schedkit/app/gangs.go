package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/plugins/gangscheduling"
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/scheduler"
)

// simGang is one PodGroup of simulate's output: how its pods fared.
type simGang struct {
	PodGroup string `json:"podGroup"`
	MinCount int    `json:"minCount"`
	// Pods are the group's pending pods simulated; Placed those placed.
	Pods   int      `json:"pods"`
	Placed int      `json:"placed"`
	Nodes  []string `json:"nodes"`
	// Waiting is how many more pods the gang needs before the queue
	// admits it (GangScheduling's PreEnqueue).
	Waiting int    `json:"waiting"`
	Message string `json:"message"`
}

// gangSummaries groups simulate's placements by PodGroup when
// GenericWorkload is on: each gang's line says where it fits, how many
// members it still waits for, or why it does not fit.
func gangSummaries(s *scheduler.Scheduler, placements []scheduler.Placement) []simGang {
	if !s.FeatureGates().GenericWorkload() {
		return nil
	}
	var order []podgroup.Key
	byKey := map[podgroup.Key][]scheduler.Placement{}
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
	out := make([]simGang, 0, len(order))
	for _, k := range order {
		pls := byKey[k]
		g := simGang{PodGroup: k.Namespace + "/" + k.Name, Pods: len(pls), Nodes: []string{}}
		pg, ok := cluster.GetObject[api.PodGroup](s.Snapshot().Objects(), k.Namespace, k.Name)
		if ok {
			g.MinCount = pg.MinCount()
		}
		var firstErr, groupErr error
		var firstPod *api.Pod
		for _, pl := range pls {
			var ge *scheduler.GangError
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
		var gated *scheduler.GatedError
		switch {
		case !ok:
			g.Message = fmt.Sprintf("PodGroup %s not found: its pods wait for it", g.PodGroup)
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
			g.Message = fmt.Sprintf("does not fit: %v; the first pod that fits nowhere: %s: %v", groupErr, podName(firstPod), firstErr)
		case groupErr != nil:
			g.Message = "does not fit: " + groupErr.Error()
		case firstErr != nil:
			g.Message = "does not fit: " + firstErr.Error()
		}
		out = append(out, g)
	}
	return out
}

// gangNote is explain's note on a gang member: the rows above judge the
// pod alone; the note says what its group's cycle would decide now.
func gangNote(s *scheduler.Scheduler, p *api.Pod, k podgroup.Key) string {
	head := fmt.Sprintf("member of PodGroup %s/%s (explain judges the pod alone; simulate places the gang as one unit)", k.Namespace, k.Name)
	ex, err := s.ExplainGroup(context.Background(), p)
	if err != nil {
		return head + ": " + err.Error()
	}
	var fit []string
	var fails string
	for _, m := range ex.Members {
		if m.Node != "" {
			fit = append(fit, podName(m.Pod)+" → "+m.Node)
		} else if fails == "" && m.Err != nil {
			fails = fmt.Sprintf("; the first member that fits nowhere: %s: %v", podName(m.Pod), m.Err)
		}
	}
	b := head + fmt.Sprintf(": the gang's cycle (minCount %d) tries %d pod(s)", ex.MinCount, len(ex.Members)+len(ex.Untried))
	if len(fit) > 0 {
		b += "; fit: " + strings.Join(fit, ", ")
	}
	b += fails
	if ex.Fits {
		return b + "; the gang fits"
	}
	return b + "; the gang does not fit: " + ex.Message
}
