package preemption_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/plugins/defaultpreemption"
	"github.com/schedkit/schedkit/preemption"
)

// renderOutcome prints everything an attempt decided: status, result,
// offset and counts, every node tried and its verdict, the candidates,
// the choice, and the status of every node of the snapshot.
func renderOutcome(o *preemption.Outcome, nodes []*cluster.NodeInfo) string {
	var b strings.Builder
	st := func(s *framework.Status) string {
		return fmt.Sprintf("%v/%s/%q", s.Code(), s.Plugin(), s.Reasons())
	}
	fmt.Fprintf(&b, "status %s\n", st(o.Status))
	if r := o.Result; r != nil {
		fmt.Fprintf(&b, "result %q [%s] %d\n", r.NominatedNodeName, names(r.Victims), r.NumPDBViolations)
	}
	fmt.Fprintf(&b, "offset %d num %d potential %d\n", o.Offset, o.NumCandidates, o.NumPotential)
	for _, d := range o.DryRun {
		fmt.Fprintf(&b, "tried %s [%s] %d %s %v\n", d.Node, names(d.Victims), d.NumPDBViolations, st(d.Status), d.Candidate)
	}
	for _, c := range o.Candidates {
		fmt.Fprintf(&b, "candidate %s [%s] %d\n", c.Node, names(c.Victims), c.NumPDBViolations)
	}
	if o.Chosen != nil {
		fmt.Fprintf(&b, "chosen %s\n", o.Chosen.Node)
	}
	if o.NodeStatuses != nil {
		for _, ni := range nodes {
			fmt.Fprintf(&b, "node %s %s\n", ni.Node().Name, st(o.NodeStatuses.Get(ni.Node().Name)))
		}
	}
	return b.String()
}

// TestMemoMatchesPlain: attempts that keep the nodes' verdicts from one
// attempt to the next (AttemptWith in one Memory) decide exactly what
// attempts in fresh memory decide (Attempt, which keeps nothing), on
// generated clusters changed between attempts: pods removed and added,
// nodes tainted, cordoned or relabelled, budgets added, changed and
// removed, pods nominated to nodes, and preemptors of a new or the same
// shape (under another name), some with a spread constraint (an active
// PreFilter extension), a host port or a node selector; the candidate
// search cut short or not, statuses by slot or by name.
func TestMemoMatchesPlain(t *testing.T) {
	var attempts, hits atomic.Int64
	defer func() {
		t.Logf("%d attempts, %d nodes' verdicts read from the memo", attempts.Load(), hits.Load())
		if attempts.Load() > 0 && hits.Load() == 0 {
			t.Error("no attempt read a kept verdict")
		}
	}()
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		apps := []string{"a", "b"}
		for _, p := range w.pods {
			if rapid.Bool().Draw(t, "labelled") {
				p.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "app")}
			}
		}
		// More nodes than genWorld's, and full ones.
		for i := len(w.nodes); i < rapid.IntRange(len(w.nodes), 10).Draw(t, "moreNodes"); i++ {
			name := fmt.Sprintf("n%d", i)
			w.nodes = append(w.nodes, mkNode(name, "1", "64Gi", "8"))
			for j := range rapid.IntRange(1, 4).Draw(t, "morePods") {
				w.pods = append(w.pods, mkPod(fmt.Sprintf("p%d-%d", i, j), on(name), prio(int32(rapid.IntRange(-1, 3).Draw(t, "prio")*100)),
					req([2]string{"250m", "1Gi"}), started(epoch(int64(rapid.IntRange(0, 5).Draw(t, "start")))), label("app", rapid.SampledFrom(apps).Draw(t, "app"))))
			}
		}
		pct := int32(rapid.SampledFrom([]int{0, 10, 50}).Draw(t, "pct"))
		abs := int32(rapid.IntRange(1, 12).Draw(t, "abs"))
		cfg := framework.ProfileConfig{PluginArgs: map[string]any{defaultpreemption.Name: &config.DefaultPreemptionArgs{MinCandidateNodesPercentage: &pct, MinCandidateNodesAbsolute: &abs}}}
		h, err := newHandle(w.nodes, w.pods, nil, w.seed, nil, cfg)
		if err != nil {
			t.Fatal(err)
		}
		plain := &testHandle{snap: h.snap, prof: h.prof, nominated: h.nominated, rng: rand.New(rand.NewPCG(w.seed, w.seed))}
		var mem preemption.Memory
		ctx := context.Background()
		pod := w.preemptor
		serial := 0
		for step := range rapid.IntRange(1, 20).Draw(t, "steps") {
			mutate(t, h, apps, &serial)
			switch rapid.IntRange(0, 3).Draw(t, "preemptor") {
			case 0: // the same shape, another pod
				p := *pod
				serial++
				p.Name, p.UID = fmt.Sprintf("preemptor-%d", serial), fmt.Sprintf("uid-%d", serial)
				pod = &p
			case 1: // a new shape
				p := *pod
				p.Spec.Priority = nil
				prio(int32(rapid.IntRange(0, 4).Draw(t, "pprio") * 100))(&p)
				p.Spec.Containers = []api.Container{{Name: "c"}}
				req([2]string{fmt.Sprintf("%dm", rapid.IntRange(1, 8).Draw(t, "pcpu")*250), "1Gi"})(&p)
				switch rapid.IntRange(0, 3).Draw(t, "extra") {
				case 1:
					p.Labels = map[string]string{"app": "a"}
					p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname",
						WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}}
				case 2:
					p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}}
				case 3:
					p.Spec.NodeSelector = map[string]string{"tier": "x"}
				}
				pod = &p
			}
			state := framework.NewCycleState()
			if _, st, _ := h.prof.RunPreFilterPlugins(ctx, state, pod, h.snap.Nodes()); !st.IsSuccess() {
				continue
			}
			m, fits := failedStatuses(ctx, h, state, pod, rapid.Bool().Draw(t, "bySlot"))
			if fits {
				continue
			}
			record := rapid.Bool().Draw(t, "record")
			before := preemption.MemoHits(&mem)
			got := preemption.AttemptWith(ctx, &mem, h, pct, abs, state, pod, m, record)
			want := preemption.Attempt(ctx, plain, pct, abs, state, pod, m, record)
			nodes := h.snap.Nodes()
			if g, w := renderOutcome(got, nodes), renderOutcome(want, nodes); g != w {
				t.Fatalf("step %d, pod %s: with the memo (%d verdicts read)\n%s\nplain\n%s", step, pod.Name, preemption.MemoHits(&mem)-before, g, w)
			}
			attempts.Add(1)
			hits.Add(int64(preemption.MemoHits(&mem) - before))
			// As the scheduler would: the victims go and the pod takes
			// their place.
			if r := got.Result; r != nil && r.NominatedNodeName != "" && rapid.Bool().Draw(t, "apply") {
				for _, v := range r.Victims {
					if err := h.snap.RemovePod(v); err != nil {
						t.Fatal(err)
					}
				}
				p := *pod
				serial++
				p.Name, p.UID = fmt.Sprintf("placed-%d", serial), fmt.Sprintf("uid-placed-%d", serial)
				if err := h.snap.AssumePod(&p, r.NominatedNodeName); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// failedStatuses runs the filters on every node: the statuses of the
// rejected nodes, by slot or by name, and whether some node fits.
func failedStatuses(ctx context.Context, h *testHandle, state *framework.CycleState, pod *api.Pod, bySlot bool) (*framework.NodeToStatus, bool) {
	view := h.snap.View()
	absent := framework.NewStatus(framework.UnschedulableAndUnresolvable)
	m := framework.NewNodeToStatus(map[string]*framework.Status{}, absent)
	if bySlot {
		m = framework.NewNodeToStatusFor(view, absent)
	}
	for _, ni := range view.Nodes() {
		st := h.prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, h.nominated[ni.Node().Name])
		if st.IsSuccess() {
			return nil, true
		}
		m.SetNode(ni, st)
	}
	return m, false
}

// mutate changes h's cluster a little: pods removed and added, a node
// tainted, cordoned or relabelled, budgets, nominations.
func mutate(t *rapid.T, h *testHandle, apps []string, serial *int) {
	for range rapid.SampledFrom([]int{0, 0, 1, 1, 2, 3}).Draw(t, "changes") {
		nodes := h.snap.Nodes()
		ni := nodes[rapid.IntRange(0, len(nodes)-1).Draw(t, "node")]
		switch rapid.IntRange(0, 7).Draw(t, "change") {
		case 0: // a pod goes
			if len(ni.Pods) > 0 {
				if err := h.snap.RemovePod(ni.Pods[rapid.IntRange(0, len(ni.Pods)-1).Draw(t, "victim")].Pod); err != nil {
					t.Fatal(err)
				}
			}
		case 1: // a pod comes
			*serial++
			name := fmt.Sprintf("new-%d", *serial)
			p := mkPod(name, on(ni.Node().Name), prio(int32(rapid.IntRange(-1, 3).Draw(t, "prio")*100)),
				req([2]string{"250m", "1Gi"}), started(epoch(int64(rapid.IntRange(0, 5).Draw(t, "start")))), label("app", rapid.SampledFrom(apps).Draw(t, "app")))
			if err := h.snap.AddPod(p); err != nil {
				t.Fatal(err)
			}
		case 2, 3: // the node changes
			n := *ni.Node()
			n.Labels = map[string]string{"kubernetes.io/hostname": n.Name}
			switch rapid.IntRange(0, 2).Draw(t, "nodeChange") {
			case 0:
				n.Spec.Taints = []api.Taint{{Key: "k", Value: "v", Effect: api.TaintEffectNoSchedule}}
			case 1:
				n.Spec.Unschedulable = !n.Spec.Unschedulable
			case 2:
				n.Labels["tier"] = "x"
			}
			if err := h.snap.UpdateNode(&n); err != nil {
				t.Fatal(err)
			}
		case 4: // a budget comes or changes
			b := pdb(fmt.Sprintf("b%d", rapid.IntRange(0, 2).Draw(t, "pdb")), map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "pdbApp")},
				int32(rapid.IntRange(0, 2).Draw(t, "allowed")))
			if _, ok := cluster.GetObject[api.PodDisruptionBudget](h.snap.Objects(), b.Namespace, b.Name); ok {
				if err := h.snap.UpdateObject(b); err != nil {
					t.Fatal(err)
				}
			} else if err := h.snap.AddObject(b); err != nil {
				t.Fatal(err)
			}
		case 5: // a budget goes
			for b := range cluster.AllObjects[api.PodDisruptionBudget](h.snap.Objects()) {
				if err := h.snap.RemoveObject(b); err != nil {
					t.Fatal(err)
				}
				break
			}
		case 6: // a pod is nominated to the node, or its nominations end
			name := ni.Node().Name
			if len(h.nominated[name]) > 0 {
				delete(h.nominated, name)
				break
			}
			p := mkPod(fmt.Sprintf("nominated-%s", name), prio(int32(rapid.IntRange(0, 4).Draw(t, "nprio")*100)), req([2]string{"250m", "1Gi"}), nominated(name))
			h.nominated[name] = []*cluster.PodInfo{cluster.NewPodInfo(p)}
		}
	}
}
