package scheduler

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
	"github.com/schedkit/schedkit/quantity"
)

// With InterPodAffinity in the default profile, whose Score normalises
// by the lowest and the highest sums (not by max), the engine's general
// scoring decides as the plain cycle does: same node, counts and start
// index, at every parallelism, chunks shared with helpers from the first
// node, and WithEngineCheck finds no difference at any cycle.
func TestPropertyInterPodAffinityEngineMatchesPlain(t *testing.T) {
	placed := 0
	defer func() {
		if placed == 0 {
			t.Error("no pod placed: the property checks nothing")
		}
	}()
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 400).Draw(rt, "nodes")
		var nodes []*api.Node
		alloc := api.ResourceList{api.ResourcePods: quantity.MustParse("110")}
		for i := range n {
			name := fmt.Sprintf("n%03d", i)
			labels := map[string]string{"kubernetes.io/hostname": name, "zone": fmt.Sprint("z", i%rapid.IntRange(1, 4).Draw(rt, "zones"))}
			if rapid.Bool().Draw(rt, "rack") {
				labels["rack"] = rapid.SampledFrom([]string{"r1", "r2"}).Draw(rt, "rackValue")
			}
			nd := testwrap.IPANode(name, labels)
			nd.Status = api.NodeStatus{Capacity: alloc, Allocatable: alloc}
			nodes = append(nodes, nd)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 40).Draw(rt, "pods") {
			p := testwrap.IPAPodGen(rapid.Bool().Draw(rt, "plain")).Draw(rt, "pod")
			p.Name = fmt.Sprintf("p%d", i)
			p.Spec.NodeName = nodes[rapid.IntRange(0, n-1).Draw(rt, "node")].Name
			pods = append(pods, p)
		}
		ns := testwrap.FakeNamespaces{{ObjectMeta: api.ObjectMeta{Name: "default", Labels: map[string]string{"env": "prod"}}}, {ObjectMeta: api.ObjectMeta{Name: "team-a"}}}
		incoming := rapid.SliceOfN(testwrap.IPAPodGen(false), 1, 4).Draw(rt, "incoming")
		percentage := rapid.SampledFrom([]int32{0, 30, 100}).Draw(rt, "percentage")
		seed := rapid.Uint64().Draw(rt, "seed")
		minParallel := rapid.SampledFrom([]int{1, 100}).Draw(rt, "minParallel")
		run := func(par int, plain, check bool) []cycleOutcome {
			snap, err := testwrap.IPASnapshot(nodes, pods, ns)
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
			var out []cycleOutcome
			for i, p := range incoming {
				q := *p
				q.Name, q.UID = fmt.Sprint("in", i), fmt.Sprint("in", i)
				p = &q
				s.plain = plain
				res, err := s.Schedule(context.Background(), p)
				o := cycleOutcome{node: res.Node, evaluated: res.EvaluatedNodes, feasible: res.FeasibleNodes, next: s.nextStartNodeIndex}
				var fe *FitError
				switch {
				case errors.As(err, &fe):
					o.err = "fit"
				case err != nil:
					rt.Fatalf("par %d: %v", par, err)
				}
				out = append(out, o)
			}
			return out
		}
		want := run(1, true, false)
		for _, o := range want {
			if o.err == "" {
				placed++
			}
		}
		for _, par := range []int{1, 2, 3} {
			if got := run(par, false, false); !reflect.DeepEqual(got, want) {
				rt.Fatalf("engine at parallelism %d:\n%+v\nplain cycle:\n%+v", par, got, want)
			}
		}
		if got := run(2, false, true); !reflect.DeepEqual(got, want) {
			rt.Fatalf("checked engine:\n%+v\nplain cycle:\n%+v", got, want)
		}
	})
}
