package preemption_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/scheduler"
)

// world is a generated cluster: nodes full of pods of mixed priority,
// and a preemptor.
type world struct {
	nodes     []*api.Node
	pods      []*api.Pod
	preemptor *api.Pod
	seed      uint64
}

func genWorld(t *rapid.T) world {
	var w world
	nn := rapid.IntRange(1, 6).Draw(t, "nodes")
	for i := range nn {
		cpu := rapid.IntRange(1, 4).Draw(t, "cpu")
		w.nodes = append(w.nodes, mkNode(fmt.Sprintf("n%d", i), fmt.Sprint(cpu), "64Gi", "8"))
		free := cpu * 1000
		np := rapid.IntRange(0, 6).Draw(t, "pods")
		for j := range np {
			m := rapid.IntRange(1, 4).Draw(t, "m") * 250
			if m > free {
				break
			}
			free -= m
			p := mkPod(fmt.Sprintf("p%d-%d", i, j), on(w.nodes[i].Name), prio(int32(rapid.IntRange(-1, 3).Draw(t, "prio")*100)),
				req([2]string{fmt.Sprintf("%dm", m), "1Gi"}), started(epoch(int64(rapid.IntRange(0, 5).Draw(t, "start")))))
			w.pods = append(w.pods, p)
		}
	}
	w.preemptor = mkPod("preemptor", prio(int32(rapid.IntRange(0, 4).Draw(t, "pprio")*100)),
		req([2]string{fmt.Sprintf("%dm", rapid.IntRange(1, 12).Draw(t, "pcpu")*250), "1Gi"}))
	w.seed = rapid.Uint64().Draw(t, "seed")
	return w
}

func (w world) schedule(t *rapid.T, nodes []*api.Node, pods []*api.Pod, pod *api.Pod) (scheduler.Decision, error) {
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scheduler.New(snap, scheduler.WithSeed(w.seed))
	if err != nil {
		t.Fatal(err)
	}
	return s.Schedule(context.Background(), pod)
}

func without(pods []*api.Pod, drop []*api.Pod, keep *api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if p == keep || !slices.Contains(drop, p) {
			out = append(out, p)
		}
	}
	return out
}

// Properties of a preemption: victims all have lower priority; without
// them the preemptor fits its nominated node; no victim could have been
// spared; a Never pod preempts nobody; the answer does not depend on the
// order of the nodes.
func TestPreemptionProperties(t *testing.T) {
	var preempted, total atomic.Int64
	defer func() { t.Logf("%d of %d cases preempted", preempted.Load(), total.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		total.Add(1)
		w := genWorld(t)
		res, err := w.schedule(t, w.nodes, w.pods, w.preemptor)
		var fe *scheduler.FitError
		if err == nil || !errors.As(err, &fe) {
			return
		}
		r := res.PostFilterResult
		if r == nil || r.NominatedNodeName == "" {
			if r != nil && len(r.Victims) != 0 {
				t.Fatalf("victims without a node: %v", names(r.Victims))
			}
			return
		}
		preempted.Add(1)
		if len(r.Victims) == 0 {
			t.Fatalf("nominated %s without victims", r.NominatedNodeName)
		}
		pp := *w.preemptor.Spec.Priority
		for _, v := range r.Victims {
			if *v.Spec.Priority >= pp || v.Spec.NodeName != r.NominatedNodeName {
				t.Fatalf("victim %s (priority %d, node %s) for a priority-%d pod nominated to %s", v.Name, *v.Spec.Priority, v.Spec.NodeName, pp, r.NominatedNodeName)
			}
		}
		nominatedPod := mkPod("preemptor", prio(pp), nominated(r.NominatedNodeName))
		nominatedPod.Spec.Containers = w.preemptor.Spec.Containers
		after, err := w.schedule(t, w.nodes, without(w.pods, r.Victims, nil), nominatedPod)
		if err != nil || after.Node != r.NominatedNodeName {
			t.Fatalf("without the victims %s: %v %v", names(r.Victims), after.Node, err)
		}
		for _, v := range r.Victims {
			spared, err := w.schedule(t, w.nodes, without(w.pods, r.Victims, v), nominatedPod)
			if err == nil && spared.Node == r.NominatedNodeName {
				t.Fatalf("victim %s could be spared", v.Name)
			}
		}

		never := *w.preemptor
		p := api.PreemptNever
		never.Spec.PreemptionPolicy = &p
		if res, _ := w.schedule(t, w.nodes, w.pods, &never); res.PostFilterResult != nil {
			t.Fatalf("a Never pod preempted: %+v", res.PostFilterResult)
		}

		perm := rapid.Permutation(w.nodes).Draw(t, "order")
		res2, _ := w.schedule(t, perm, w.pods, w.preemptor)
		r2 := res2.PostFilterResult
		if r2 == nil || r2.NominatedNodeName != r.NominatedNodeName || names(r2.Victims) != names(r.Victims) {
			t.Fatalf("node order changed the answer: %+v vs %+v", r2, r)
		}
	})
}
