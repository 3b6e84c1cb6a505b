package scheduler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cluster/clustergen"
)

// schedOp is one call on a scheduler, replayable on another; it returns
// what the call answered, for comparing two schedulers.
type schedOp func(s *Scheduler) string

func describeDecision(d Decision, err error) string {
	return fmt.Sprintf("%s %d/%d nominated=%q err=%v", d.Node, d.FeasibleNodes, d.EvaluatedNodes, d.NominatedNode, err)
}

func describePlacements(ps []Placement, err error) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s/%s→%s (%d, %v) ", p.Pod.Namespace, p.Pod.Name, p.Node, p.Attempts, p.Err)
	}
	fmt.Fprintf(&b, "err=%v", err)
	return b.String()
}

// drawSchedOp draws a call: Schedule, Assume, Simulate, RemovePod,
// AddNode, RemoveNode, AddPod, Enqueue and RunQueue.
func drawSchedOp(t *rapid.T, next *int) schedOp {
	nodeNames := []string{"node-0", "node-1", "node-2", "node-3", "node-4"}
	newPod := func() *api.Pod {
		p := clustergen.Pod().Draw(t, "pod")
		p.Name, p.UID = fmt.Sprintf("new-%d", *next), fmt.Sprintf("uid-new-%d", *next)
		*next++
		return p
	}
	existing := func() *api.Pod {
		n := rapid.IntRange(0, *next+8).Draw(t, "which")
		name := fmt.Sprintf("pod-%d", n)
		if n >= 8 {
			name = fmt.Sprintf("new-%d", n-8)
		}
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "", Name: name}}
	}
	switch rapid.IntRange(0, 8).Draw(t, "op") {
	case 0:
		p := newPod()
		return func(s *Scheduler) string { return describeDecision(s.Schedule(context.Background(), p)) }
	case 1:
		p, node := newPod(), rapid.SampledFrom(nodeNames).Draw(t, "node")
		return func(s *Scheduler) string { return fmt.Sprint(s.Assume(p, node)) }
	case 2:
		var pods []*api.Pod
		for range rapid.IntRange(1, 4).Draw(t, "pods") {
			pods = append(pods, newPod())
		}
		return func(s *Scheduler) string { return describePlacements(s.Simulate(context.Background(), pods)) }
	case 3:
		p := existing()
		return func(s *Scheduler) string {
			for _, ns := range clustergen.Namespaces {
				q := *p
				q.Namespace = ns
				if err := s.RemovePod(&q); err == nil {
					return "removed " + ns + "/" + q.Name
				}
			}
			return "not found"
		}
	case 4:
		n := clustergen.Node().Draw(t, "newNode")
		n.Name = rapid.SampledFrom(nodeNames).Draw(t, "node")
		return func(s *Scheduler) string { return fmt.Sprint(s.AddNode(n)) }
	case 5:
		name := rapid.SampledFrom(nodeNames).Draw(t, "node")
		return func(s *Scheduler) string { return fmt.Sprint(s.RemoveNode(name)) }
	case 6:
		p := newPod()
		p.Spec.NodeName = rapid.SampledFrom(nodeNames).Draw(t, "node")
		return func(s *Scheduler) string { return fmt.Sprint(s.AddPod(p)) }
	case 7:
		p := newPod()
		return func(s *Scheduler) string { return fmt.Sprint(s.Enqueue(context.Background(), p)) }
	default:
		return func(s *Scheduler) string {
			ps, err := s.RunQueue(context.Background())
			return describePlacements(ps, err) + fmt.Sprintf(" pending=%d", len(s.Pending()))
		}
	}
}

// TestPropForkTransactions: whatever calls are made on a fork and on its
// origin, each answers what a scheduler that never forked answers after
// the same calls (its own history replayed on a new scheduler); after
// Revert the fork decides as its origin does; after Commit the origin
// decides as if the fork's calls had been made on it; Commit fails with
// ErrForkConflict, changing nothing, when the origin changed since.
func TestPropForkTransactions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.Cluster(rapid.IntRange(1, 4).Draw(t, "nodes"), 8).Draw(t, "cluster")
		fresh := func(log []schedOp) *Scheduler {
			snap, err := cluster.NewSnapshot(c.Nodes, c.Pods)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(snap, WithParallelism(1))
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range log {
				op(s)
			}
			return s
		}
		origin := fresh(nil)
		defer origin.Close()
		var fork *Scheduler
		var logO, logF, logBase []schedOp
		originChanged := false
		next := 0
		same := func(t *rapid.T, what string, s *Scheduler, log []schedOp, op schedOp) {
			twin := fresh(log)
			defer twin.Close()
			if got, want := op(s), op(twin); got != want {
				t.Fatalf("%s answers\n%s\nnever forked:\n%s", what, got, want)
			}
		}
		t.Repeat(map[string]func(*rapid.T){
			"origin": func(t *rapid.T) {
				op := drawSchedOp(t, &next)
				same(t, "origin", origin, logO, op)
				logO = append(slices.Clip(logO), op)
				originChanged = true
			},
			"fork": func(t *rapid.T) {
				if fork != nil {
					fork.Close()
				}
				var err error
				if fork, err = origin.Fork(); err != nil {
					t.Fatal(err)
				}
				logF, logBase, originChanged = slices.Clip(logO), slices.Clip(logO), false
			},
			"onFork": func(t *rapid.T) {
				if fork == nil {
					t.Skip("no fork")
				}
				op := drawSchedOp(t, &next)
				same(t, "fork", fork, logF, op)
				logF = append(slices.Clip(logF), op)
			},
			"revert": func(t *rapid.T) {
				if fork == nil {
					t.Skip("no fork")
				}
				if err := fork.Revert(); err != nil {
					t.Fatal(err)
				}
				logF, logBase, originChanged = slices.Clip(logO), slices.Clip(logO), false
			},
			"commit": func(t *rapid.T) {
				if fork == nil {
					t.Skip("no fork")
				}
				err := fork.Commit()
				// A commit loses nothing: it fails when the origin's state
				// moved, may fail after calls on the origin that moved
				// nothing, and succeeds when no call was made on it.
				then, now := fresh(logBase), fresh(logO)
				moved := stateOf(then) != stateOf(now)
				then.Close()
				now.Close()
				switch {
				case moved && !errors.Is(err, ErrForkConflict):
					t.Fatalf("Commit after the origin changed: %v, want ErrForkConflict", err)
				case errors.Is(err, ErrForkConflict) && originChanged:
					return
				case err != nil:
					t.Fatalf("Commit: %v", err)
				}
				logO, logBase = slices.Clip(logF), slices.Clip(logF)
			},
			"": func(t *rapid.T) {
				if origin.Snapshot().NumPods() != fresh(logO).Snapshot().NumPods() {
					t.Fatalf("origin holds %d pods, never forked %d", origin.Snapshot().NumPods(), fresh(logO).Snapshot().NumPods())
				}
			},
		})
		// A last call on each compares the queues and the rest too.
		probe := func(s *Scheduler) string {
			ps, err := s.RunQueue(context.Background())
			return describePlacements(ps, err) + describePlacements(s.Pending(), nil)
		}
		same(t, "origin at the end", origin, logO, probe)
		if fork != nil {
			same(t, "fork at the end", fork, logF, probe)
			fork.Close()
		}
	})
}

// stateOf describes what decides a scheduler's next calls: the pods on
// each node, the queue, the start index and the tie-break source.
func stateOf(s *Scheduler) string {
	var b strings.Builder
	for _, ni := range s.Snapshot().Nodes() {
		var pods []string
		for _, p := range ni.Pods {
			pods = append(pods, p.Pod.Namespace+"/"+p.Pod.Name)
		}
		slices.Sort(pods)
		fmt.Fprintf(&b, "%s %v %v; ", ni.Name(), pods, ni.Node().Labels)
	}
	for _, e := range s.q.all {
		fmt.Fprintf(&b, "%s/%s %d %s; ", e.qpi.Pod.Namespace, e.qpi.Pod.Name, e.where, e.node)
	}
	fmt.Fprintf(&b, "pods=%d start=%d pcg=%v", s.Snapshot().NumPods(), s.nextStartNodeIndex, *s.pcg)
	return b.String()
}

// TestForkNotForked: Commit and Revert need a fork.
func TestForkNotForked(t *testing.T) {
	s := benchScheduler(t, benchNodes(3))
	defer s.Close()
	if err := s.Commit(); !errors.Is(err, ErrNotForked) {
		t.Fatalf("Commit: %v", err)
	}
	if err := s.Revert(); !errors.Is(err, ErrNotForked) {
		t.Fatalf("Revert: %v", err)
	}
	f, err := s.Fork()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Origin() != s || s.Origin() != nil {
		t.Fatal("Origin")
	}
}

// TestForkConcurrent: forks of one loaded scheduler, each placing its own
// pods on its own goroutine (run with -race), decide what each decides
// alone, and the origin is untouched.
func TestForkConcurrent(t *testing.T) {
	nodes := benchNodes(300)
	bound := benchPods(3000)
	for i, p := range bound {
		p.Name, p.UID = fmt.Sprintf("bound-%05d", i), fmt.Sprintf("bound-%05d", i)
		p.Spec.NodeName = nodes[i%len(nodes)].Name
	}
	snap, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pods := benchPods(200)
	const workers = 4
	run := func(f *Scheduler, w int) string {
		mine := pods[w*50 : (w+1)*50]
		ps, err := f.Simulate(context.Background(), mine)
		out := describePlacements(ps, err)
		for _, p := range bound[w*10 : w*10+10] {
			if err := f.RemovePod(p); err != nil {
				return err.Error()
			}
		}
		if err := f.RemoveNode(nodes[w].Name); err != nil {
			return err.Error()
		}
		d, err := f.Schedule(context.Background(), pods[199])
		return out + describeDecision(d, err)
	}
	want := make([]string, workers)
	for w := range workers {
		f, err := s.Fork()
		if err != nil {
			t.Fatal(err)
		}
		want[w] = run(f, w)
		f.Close()
	}
	got := make([]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		f, err := s.Fork()
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer f.Close()
			got[w] = run(f, w)
		}()
	}
	wg.Wait()
	for w := range workers {
		if got[w] != want[w] {
			t.Fatalf("fork %d on its goroutine decided\n%s\nalone:\n%s", w, got[w], want[w])
		}
	}
	if s.Snapshot().NumPods() != len(bound) || s.Snapshot().NumNodes() != len(nodes) {
		t.Fatalf("origin changed: %d pods, %d nodes", s.Snapshot().NumPods(), s.Snapshot().NumNodes())
	}
}

// BenchmarkForkPlaceRevert forks a scheduler of 5,000 nodes running
// 150,000 pods, places 100 pods on the fork and reverts it. "assume"
// places each pod on a node given (the transaction's own cost);
// "schedule" runs a scheduling cycle for each first (100 cycles of the
// default profile: most of the time). "fork" makes a new fork each time
// and closes it; "revert" reuses one fork, whose plugin caches stay
// warm. cpu-ns/op is the CPU time (all threads), the measure on a
// loaded machine.
func BenchmarkForkPlaceRevert(b *testing.B) {
	const numNodes, perNode = 5000, 30
	nodes := benchNodes(numNodes)
	bound := benchPods(numNodes * perNode)
	for i, p := range bound {
		p.Name = fmt.Sprintf("bound-%06d", i)
		p.UID = p.Name
		p.Spec.NodeName = nodes[i%numNodes].Name
	}
	snap, err := cluster.NewSnapshot(nodes, bound)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(snap)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	pods := benchPods(100)
	ctx := context.Background()
	for _, schedule := range []bool{false, true} {
		for _, reuse := range []bool{false, true} {
			name := map[bool]string{false: "assume", true: "schedule"}[schedule] + "/" + map[bool]string{false: "fork", true: "revert"}[reuse]
			b.Run(name, func(b *testing.B) {
				var kept *Scheduler
				if reuse {
					if kept, err = s.Fork(); err != nil {
						b.Fatal(err)
					}
					defer kept.Close()
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					f := kept
					if f == nil {
						if f, err = s.Fork(); err != nil {
							b.Fatal(err)
						}
					}
					for j, p := range pods {
						node := nodes[(i*100+j)%numNodes].Name
						if schedule {
							d, err := f.Schedule(ctx, p)
							if err != nil {
								b.Fatal(err)
							}
							node = d.Node
						}
						if err := f.Assume(p, node); err != nil {
							b.Fatal(err)
						}
					}
					if err := f.Revert(); err != nil {
						b.Fatal(err)
					}
					if kept == nil {
						f.Close()
					}
				}
				b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
