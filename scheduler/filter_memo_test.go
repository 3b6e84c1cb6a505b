package scheduler

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// A stream of pods of a few shapes, many fitting nowhere, with nodes
// changing between cycles (pods assumed and removed, nodes relabelled,
// tainted, cordoned, added): the engine, which keeps the Filter verdicts
// of unchanged nodes from one cycle of a shape to the next, decides what
// the plain cycle decides at every step (the node, the counts, the start
// index, the FitError's message, every node's status and the
// unschedulable plugins: WithEngineCheck compares them at each cycle), at
// every parallelism, and the memo is read.
func TestPropertyFilterMemoMatchesPlain(t *testing.T) {
	var hits int64
	defer func() {
		if hits == 0 {
			t.Error("no verdict read from the memo: the property checks nothing")
		}
	}()
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 300).Draw(rt, "nodes")
		node := func(i int, rt *rapid.T) *api.Node {
			name := fmt.Sprintf("n%03d", i)
			cpu := rapid.SampledFrom([]string{"1", "2", "4"}).Draw(rt, "cpu")
			alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("4")}
			nd := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "zone": fmt.Sprint("z", i%3)}}}
			nd.Status = api.NodeStatus{Capacity: alloc, Allocatable: alloc}
			if rapid.IntRange(0, 4).Draw(rt, "tainted") == 0 {
				nd.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
			}
			nd.Spec.Unschedulable = rapid.IntRange(0, 9).Draw(rt, "cordoned") == 0
			return nd
		}
		var nodes []*api.Node
		for i := range n {
			nodes = append(nodes, node(i, rt))
		}
		shape := func(k int) *api.Pod {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Labels: map[string]string{"app": fmt.Sprint("s", k)}}}
			cpu := []string{"500m", "1", "3", "8"}[k%4]
			p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}}}}
			if k%3 == 1 {
				p.Spec.NodeSelector = map[string]string{"zone": "z1"}
			}
			if k%5 == 2 {
				p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
			}
			return p
		}
		shapes := rapid.IntRange(1, 6).Draw(rt, "shapes")
		type step struct {
			kind, shape, node int
		}
		steps := rapid.SliceOfN(rapid.Custom(func(rt *rapid.T) step {
			return step{kind: rapid.IntRange(0, 9).Draw(rt, "kind"), shape: rapid.IntRange(0, shapes-1).Draw(rt, "shape"), node: rapid.IntRange(0, 1<<20).Draw(rt, "node")}
		}), 1, 30).Draw(rt, "steps")
		// The nodes updated or added by the steps, drawn once for every run.
		changed := make([]*api.Node, len(steps))
		for i, st := range steps {
			if st.kind >= 7 {
				changed[i] = node(st.node%(n+3), rt)
			}
		}
		percentage := rapid.SampledFrom([]int32{0, 30, 100}).Draw(rt, "percentage")
		seed := rapid.Uint64().Draw(rt, "seed")
		minParallel := rapid.SampledFrom([]int{1, 64, 100}).Draw(rt, "minParallel")
		run := func(par int, plain, check bool) ([]cycleOutcome, int64) {
			snap, err := cluster.NewSnapshot(nodes, nil)
			if err != nil {
				rt.Fatal(err)
			}
			s, err := New(snap, WithParallelism(par), WithSeed(seed), WithPercentageOfNodesToScore(percentage), WithEngineCheck(check))
			if err != nil {
				rt.Fatal(err)
			}
			defer s.Close()
			s.engine.MinParallelNodes, s.engine.MinParallelFilter = minParallel, minParallel
			s.engine.SetMinParallelPieces(minParallel)
			s.plain = plain
			var out []cycleOutcome
			var placed []*api.Pod
			for i, st := range steps {
				switch {
				case st.kind == 6 && len(placed) > 0:
					k := st.node % len(placed)
					if err := s.RemovePod(placed[k]); err != nil {
						rt.Fatal(err)
					}
					placed = append(placed[:k], placed[k+1:]...)
					continue
				case st.kind >= 7:
					nd := changed[i]
					if _, ok := s.Snapshot().View().Get(nd.Name); ok {
						err = s.UpdateNode(nd)
					} else {
						err = s.AddNode(nd)
					}
					if err != nil {
						rt.Fatal(err)
					}
					continue
				}
				p := shape(st.shape)
				p.Name, p.UID = fmt.Sprint("p", i), fmt.Sprint("p", i)
				res, err := s.Schedule(context.Background(), p)
				o := cycleOutcome{node: res.Node, evaluated: res.EvaluatedNodes, feasible: res.FeasibleNodes, next: s.nextStartNodeIndex}
				var fe *FitError
				switch {
				case errors.As(err, &fe):
					o.err = err.Error()
				case err != nil:
					rt.Fatalf("par %d: step %d: %v", par, i, err)
				default:
					q := p.DeepCopy()
					q.Spec.NodeName = res.Node
					if err := s.Assume(p, res.Node); err != nil {
						rt.Fatal(err)
					}
					placed = append(placed, q)
				}
				out = append(out, o)
			}
			return out, s.engine.MemoHits()
		}
		want, _ := run(1, true, false)
		for _, par := range []int{1, 2, 3} {
			got, h := run(par, false, false)
			if !reflect.DeepEqual(got, want) {
				rt.Fatalf("engine at parallelism %d:\n%+v\nplain cycle:\n%+v", par, got, want)
			}
			hits += h
		}
		if got, _ := run(2, false, true); !reflect.DeepEqual(got, want) {
			rt.Fatalf("checked engine:\n%+v\nplain cycle:\n%+v", got, want)
		}
	})
}

// The memo holds a shape's first pod without copying it
// (framework.PodShape.Refer): a caller that changes that pod in place
// and schedules it again gets what the plain cycle decides, in that
// cycle and in the next ones of either shape, which read the memo.
func TestFilterMemoPodChangedInPlace(t *testing.T) {
	var nodes []*api.Node
	for i := range 12 {
		name := fmt.Sprintf("n%02d", i)
		alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse("4"), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("10")}
		nd := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "zone": fmt.Sprint("z", i%3)}}}
		nd.Status = api.NodeStatus{Capacity: alloc, Allocatable: alloc}
		if i%2 == 0 {
			nd.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
		}
		nodes = append(nodes, nd)
	}
	tolerating := func(name string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: name, Namespace: "default"}}
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse("1")}}}}
		p.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
		return p
	}
	run := func(par int, plain bool) ([]cycleOutcome, int64) {
		snap, err := cluster.NewSnapshot(nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(snap, WithParallelism(par), WithSeed(1), WithPercentageOfNodesToScore(100))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.plain = plain
		var out []cycleOutcome
		decide := func(p *api.Pod) {
			res, err := s.Schedule(context.Background(), p)
			o := cycleOutcome{node: res.Node, evaluated: res.EvaluatedNodes, feasible: res.FeasibleNodes, next: s.nextStartNodeIndex}
			if err != nil {
				o.err = err.Error()
			}
			out = append(out, o)
		}
		// Changes in place below edit the pod's own map and list, which
		// a shape held without a copy shares.
		p := tolerating("p0")
		p.Spec.NodeSelector = map[string]string{"zone": "z0"}
		decide(p) // the shape's first cycle: held without a copy
		// It no longer tolerates the taint and asks for zone z1.
		p.Spec.Tolerations[0].Key = "other"
		p.Spec.NodeSelector["zone"] = "z1"
		decide(p) // its second cycle: verdicts kept, under a copy
		for i := range 2 {
			q := p.DeepCopy()
			q.Name, q.UID = fmt.Sprint("q", i), fmt.Sprint("q", i)
			decide(q)
		}
		// Changed in place again after verdicts were kept for it: zone
		// z2, where the verdicts kept for z1 do not hold.
		p.Spec.NodeSelector["zone"] = "z2"
		decide(p)
		decide(p)
		for i := range 3 {
			decide(tolerating(fmt.Sprint("r", i)))
		}
		return out, s.engine.MemoHits()
	}
	want, _ := run(1, true)
	for _, par := range []int{1, 2} {
		got, hits := run(par, false)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("engine at parallelism %d:\n%+v\nplain cycle:\n%+v", par, got, want)
		}
		if hits == 0 {
			t.Errorf("parallelism %d: no verdict read from the memo", par)
		}
	}
}
