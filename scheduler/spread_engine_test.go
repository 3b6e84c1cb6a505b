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

// spreadGenPod draws a pod of app a0..a2 with up to two spread
// constraints over zone or hostname, either action, or none (a pod of
// the Service then gets the system default constraints).
func spreadGenPod(rt *rapid.T, label string) *api.Pod {
	app := rapid.SampledFrom([]string{"a0", "a1", "a2"}).Draw(rt, label+"app")
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Labels: map[string]string{"app": app}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(rapid.SampledFrom([]string{"100m", "1"}).Draw(rt, label+"cpu"))}}}}}}
	for i := range rapid.IntRange(0, 2).Draw(rt, label+"constraints") {
		when := rapid.SampledFrom([]api.UnsatisfiableConstraintAction{api.ScheduleAnyway, api.ScheduleAnyway, api.DoNotSchedule}).Draw(rt, fmt.Sprint(label, "when", i))
		key := rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname"}).Draw(rt, fmt.Sprint(label, "key", i))
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
			MaxSkew: int32(rapid.IntRange(1, 3).Draw(rt, fmt.Sprint(label, "skew", i))), TopologyKey: key, WhenUnsatisfiable: when,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}})
	}
	return p
}

// With PodTopologySpread scored eagerly when every node fits
// (FastPath.ScoresIfAllFit), the engine decides as the plain cycle does
// on streams of spread pods, each assumed before the next: same node,
// counts and start index, at every parallelism, in cycles where every
// node fits and in cycles where a taint or a full node rejects some,
// and WithEngineCheck finds no difference at any cycle.
func TestPropertySpreadEngineMatchesPlain(t *testing.T) {
	placed := 0
	defer func() {
		if placed == 0 {
			t.Error("no pod placed: the property checks nothing")
		}
	}()
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(2, 300).Draw(rt, "nodes")
		zones := rapid.IntRange(1, 4).Draw(rt, "zones")
		rejecting := rapid.Bool().Draw(rt, "rejecting") // some node tainted or small
		var nodes []*api.Node
		for i := range n {
			name := fmt.Sprintf("n%03d", i)
			cpu := "4"
			if rejecting && rapid.IntRange(0, 3).Draw(rt, "small") == 0 {
				cpu = "1"
			}
			alloc := api.ResourceList{api.ResourcePods: quantity.MustParse("110"), api.ResourceCPU: quantity.MustParse(cpu)}
			labels := map[string]string{"kubernetes.io/hostname": name}
			if rapid.IntRange(0, 9).Draw(rt, "zoned") > 0 {
				labels["zone"] = fmt.Sprint("z", i%zones)
			}
			nd := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}, Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}}
			if rejecting && rapid.IntRange(0, 9).Draw(rt, "tainted") == 0 {
				nd.Spec.Taints = []api.Taint{{Key: "k", Value: "v", Effect: api.TaintEffectNoSchedule}}
			}
			nodes = append(nodes, nd)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 60).Draw(rt, "pods") {
			p := spreadGenPod(rt, "existing")
			p.Name, p.UID = fmt.Sprint("p", i), fmt.Sprint("p", i)
			p.Spec.NodeName = nodes[rapid.IntRange(0, n-1).Draw(rt, "node")].Name
			pods = append(pods, p)
		}
		incoming := make([]*api.Pod, rapid.IntRange(1, 6).Draw(rt, "incoming"))
		for i := range incoming {
			incoming[i] = spreadGenPod(rt, "incoming")
			incoming[i].Name, incoming[i].UID = fmt.Sprint("in", i), fmt.Sprint("in", i)
		}
		percentage := rapid.SampledFrom([]int32{0, 30, 100}).Draw(rt, "percentage")
		seed := rapid.Uint64().Draw(rt, "seed")
		minParallel := rapid.SampledFrom([]int{1, 100}).Draw(rt, "minParallel")
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: "default", UID: "svc"},
			Spec: api.ServiceSpec{Selector: map[string]string{"app": "a0"}}}
		run := func(par int, plain, check bool) []cycleOutcome {
			snap, err := cluster.NewSnapshot(nodes, pods)
			if err != nil {
				rt.Fatal(err)
			}
			if err := snap.AddObjects(svc); err != nil {
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
			for _, p := range incoming {
				s.plain = plain
				res, err := s.Schedule(context.Background(), p)
				o := cycleOutcome{node: res.Node, evaluated: res.EvaluatedNodes, feasible: res.FeasibleNodes, next: s.nextStartNodeIndex}
				var fe *FitError
				switch {
				case errors.As(err, &fe):
					o.err = "fit"
				case err != nil:
					rt.Fatalf("par %d: %v", par, err)
				default:
					if err := s.Assume(p, res.Node); err != nil {
						rt.Fatal(err)
					}
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
		for _, par := range []int{1, 2} {
			if got := run(par, false, false); !reflect.DeepEqual(got, want) {
				rt.Fatalf("engine at parallelism %d:\n%+v\nplain cycle:\n%+v", par, got, want)
			}
		}
		if got := run(2, false, true); !reflect.DeepEqual(got, want) {
			rt.Fatalf("checked engine:\n%+v\nplain cycle:\n%+v", got, want)
		}
	})
}
