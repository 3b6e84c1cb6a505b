package podtopologyspread

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/testwrap"
)

// A long-lived plugin scoring a stream of pods, each cycle given every
// node of the view in order (the class path, score_class.go) over more
// nodes than a chunk of classes holds, scores exactly as a plugin reading
// every pod afresh after random assumed, added and removed pods and
// node changes; and a state of an earlier cycle still scores as it did
// after later cycles changed the kept classes.
func TestPropertySpreadScoreStream(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var nodes []*api.Node
		var names []string
		for i := range rapid.IntRange(classLen-2, 2*classLen+3).Draw(t, "nodes") {
			name := fmt.Sprintf("n%d", i)
			nodes, names = append(nodes, testwrap.SpreadNodeGen(name).Draw(t, "node")), append(names, name)
		}
		var pods []*api.Pod
		for i := range rapid.IntRange(0, 60).Draw(t, "pods") {
			pods = append(pods, testwrap.SpreadExistingPodGen(fmt.Sprintf("p%d", i), names).Draw(t, "pod"))
		}
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			t.Fatal(err)
		}
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc", Namespace: "default"}, Spec: api.ServiceSpec{Selector: map[string]string{"foo": ""}}}
		if err := snap.AddObjects(svc); err != nil {
			t.Fatal(err)
		}
		pl, _ := New(nil, testHandle{snap})
		cached := pl.(*PodTopologySpread)
		var incoming []*api.Pod
		for i := range 3 {
			p := testwrap.SpreadIncomingGen(i, api.ScheduleAnyway).Draw(t, "incoming")
			if rapid.IntRange(0, 2).Draw(t, "systemDefaults") == 0 {
				p.Spec.TopologySpreadConstraints = nil
			}
			incoming = append(incoming, p)
		}
		type kept struct {
			state *framework.CycleState
			pod   *api.Pod
			nodes []*cluster.NodeInfo
			want  []int64
		}
		var prev []kept
		extra := 0
		for step := range rapid.IntRange(1, 15).Draw(t, "steps") {
			for c := range rapid.IntRange(1, 3).Draw(t, "changes") {
				pods, _ = testwrap.ChurnSpread(t, snap, pods, 3*step+c, &extra, "zone", "topology.kubernetes.io/zone")
			}
			pod := rapid.SampledFrom(incoming).Draw(t, "pod")
			all := snap.View().Nodes()
			given := all
			if rapid.IntRange(0, 3).Draw(t, "rotated") == 0 {
				start := rapid.IntRange(0, len(all)-1).Draw(t, "start")
				given = append(append([]*cluster.NodeInfo(nil), all[start:]...), all[:start]...)
			}
			cut := rapid.IntRange(0, len(given)).Draw(t, "cut")
			got := spreadScoreCycle(t, cached, pod, all, given, cut)
			plain, _ := New(nil, testHandle{snap})
			plain.(*PodTopologySpread).cache.noIndex = true
			if want := spreadScoreCycle(t, plain.(*PodTopologySpread), pod, all, given, cut); !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d: cached plugin %v, plugin reading every pod %v", step, got, want)
			}
			for _, k := range prev {
				if g := scoreAll(t, cached, k.state, k.pod, k.nodes); !reflect.DeepEqual(g, k.want) {
					t.Fatalf("step %d: an earlier state scores %v, then %v", step, g, k.want)
				}
			}
			state := framework.NewCycleState()
			if st := cached.PreScore(context.Background(), state, pod, given); st.IsSkip() {
				continue
			}
			prev = append(prev, kept{state, pod, given, scoreAll(t, cached, state, pod, given)})
		}
	})
}

// scoreAll is ScoreNodes over nodes.
func scoreAll(t *rapid.T, p *PodTopologySpread, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo) []int64 {
	out := make([]int64, len(nodes))
	if i, st := p.ScoreNodes(context.Background(), state, pod, nodes, out); i >= 0 || st != nil {
		t.Fatalf("ScoreNodes: %d %v", i, st)
	}
	return out
}
