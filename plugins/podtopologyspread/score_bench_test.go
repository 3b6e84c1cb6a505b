package podtopologyspread

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// spreadBenchCluster is DefaultTopologySpreading's cluster at n nodes:
// three zones, n other pods round robin, and a Service selecting
// app=web; pod is one of its pods, with no constraints of its own.
func spreadBenchCluster(b *testing.B, n int) (*cluster.Snapshot, *api.Pod) {
	var nodes []*api.Node
	var pods []*api.Pod
	for i := range n {
		name := fmt.Sprintf("node-%05d", i)
		nodes = append(nodes, spreadNode().Name(name).Label("kubernetes.io/hostname", name).Label("topology.kubernetes.io/zone", fmt.Sprintf("z%d", i%3)).Obj())
		pods = append(pods, spreadPod().Name(fmt.Sprintf("init-%05d", i)).Namespace("ns").Label("app", "init").Node(name).Obj())
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		b.Fatal(err)
	}
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}}}
	if err := snap.AddObjects(svc); err != nil {
		b.Fatal(err)
	}
	return snap, spreadPod().Name("web-0").Namespace("ns").Label("app", "web").Obj()
}

// BenchmarkSpreadPreScore times PreScore and ScoreNodes over every node
// of a 5,000-node cluster under the system default constraints: first
// by a new plugin (a first decision), then by a kept one after one pod
// of the shape is assumed (a stream's cycle).
func BenchmarkSpreadPreScore(b *testing.B) {
	snap, pod := spreadBenchCluster(b, 5000)
	ctx := context.Background()
	// The nodes are listed and scored into reused memory, as the
	// scheduler does: the allocations are the plugin's.
	var list cluster.NodeList
	scores := make([]int64, 5000)
	cycle := func(pl *PodTopologySpread) {
		nodes := list.Update(snap.View())
		state := framework.NewCycleState()
		if st := pl.PreScore(ctx, state, pod, nodes); !st.IsSuccess() {
			b.Fatal(st)
		}
		pl.ScoreNodes(ctx, state, pod, nodes, scores)
	}
	b.Run("first", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			pl, _ := New(nil, testHandle{snap})
			cycle(pl.(*PodTopologySpread))
		}
	})
	b.Run("stream", func(b *testing.B) {
		pl, _ := New(nil, testHandle{snap})
		p := pl.(*PodTopologySpread)
		cycle(p)
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			np := spreadPod().Name(fmt.Sprintf("web-%d", i)).Namespace("ns").Label("app", "web").Obj()
			if err := snap.AssumePod(np, fmt.Sprintf("node-%05d", i*7%5000)); err != nil {
				b.Fatal(err)
			}
			i++
			cycle(p)
		}
	})
}
