package live_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/k8s/convert"
	"github.com/schedkit/schedkit/k8s/k8stest"
	"github.com/schedkit/schedkit/k8s/live"
	"github.com/schedkit/schedkit/scheduler"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"pgregory.net/rapid"
)

// tb is what the helpers need of a *testing.T or a *rapid.T.
type tb interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// watchedKinds are the object kinds the property watches besides nodes
// and pods.
var watchedKinds = []cluster.Kind{cluster.KindNamespace, cluster.KindPodDisruptionBudget, cluster.KindPriorityClass}

// newFake returns a fake clientset whose watches report on started once
// they are established: the fake's tracker drops the events of a watch
// not yet started, so a test waits for every informer's watch before it
// changes anything.
func newFake() (*fake.Clientset, chan struct{}) {
	client := fake.NewClientset()
	started := make(chan struct{}, 64)
	client.PrependWatchReactor("*", func(a clienttesting.Action) (bool, watch.Interface, error) {
		var opts metav1.ListOptions
		if w, ok := a.(clienttesting.WatchActionImpl); ok {
			opts = w.ListOptions
		}
		w, err := client.Tracker().Watch(a.GetResource(), a.GetNamespace(), opts)
		if err != nil {
			return false, nil, err
		}
		started <- struct{}{}
		return true, w, nil
	})
	return client, started
}

// startLive starts a live Cluster on client and waits for its informers'
// lists and watches; the returned stop ends them and waits.
func startLive(t tb, client *fake.Clientset, started chan struct{}, kinds []cluster.Kind) (*live.Cluster, func()) {
	c, err := live.NewFromClient(client, live.WithKinds(kinds...))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	c.Start(ctx)
	if err := c.WaitForSync(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	for range 2 + len(kinds) {
		select {
		case <-started:
		case <-ctx.Done():
			cancel()
			t.Fatal("watches not started")
		}
	}
	return c, func() { cancel(); c.Shutdown() }
}

func node(name, zone string, cpu int64, unschedulable bool, taint bool) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name), Labels: map[string]string{
			"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zone,
		}},
		Spec: corev1.NodeSpec{Unschedulable: unschedulable},
	}
	if taint {
		n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule}}
	}
	rl := corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewQuantity(cpu, resource.DecimalSI),
		corev1.ResourceMemory: resource.MustParse("8Gi"),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
	n.Status.Capacity, n.Status.Allocatable = rl, rl.DeepCopy()
	return n
}

func pod(ns, name, app, nodeName string, milliCPU int64, phase corev1.PodPhase, priority string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + ns + "-" + name), Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{
			NodeName: nodeName, SchedulerName: "default-scheduler", PriorityClassName: priority,
			Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: *resource.NewMilliQuantity(milliCPU, resource.DecimalSI)},
			}}},
		},
		Status: corev1.PodStatus{Phase: phase},
	}
}

// op is one change made through the clientset; it reports whether the
// API (the fake's tracker) accepted it, which is when an informer sees
// an event.
type op struct {
	name string
	do   func(ctx context.Context, client *fake.Clientset) error
}

func upsert[T any](ctx context.Context, get func() (T, error), create, update func() error) error {
	if _, err := get(); apierrors.IsNotFound(err) {
		return create()
	} else if err != nil {
		return err
	}
	return update()
}

func drawOp(t *rapid.T) op {
	opts := metav1.CreateOptions{}
	uopts := metav1.UpdateOptions{}
	switch rapid.IntRange(0, 9).Draw(t, "op") {
	case 0, 1: // a node, new or changed
		name := fmt.Sprintf("n%d", rapid.IntRange(0, 3).Draw(t, "node"))
		n := node(name, rapid.SampledFrom([]string{"z0", "z1"}).Draw(t, "zone"), rapid.Int64Range(1, 4).Draw(t, "cpu"),
			rapid.IntRange(0, 5).Draw(t, "cordon") == 0, rapid.IntRange(0, 4).Draw(t, "taint") == 0)
		return op{"upsert node " + name, func(ctx context.Context, c *fake.Clientset) error {
			nodes := c.CoreV1().Nodes()
			return upsert(ctx, func() (*corev1.Node, error) { return nodes.Get(ctx, name, metav1.GetOptions{}) },
				func() error { _, err := nodes.Create(ctx, n, opts); return err },
				func() error { _, err := nodes.Update(ctx, n, uopts); return err })
		}}
	case 2:
		name := fmt.Sprintf("n%d", rapid.IntRange(0, 3).Draw(t, "node"))
		return op{"delete node " + name, func(ctx context.Context, c *fake.Clientset) error {
			return c.CoreV1().Nodes().Delete(ctx, name, metav1.DeleteOptions{})
		}}
	case 3, 4, 5: // a pod, new or changed: pending, bound (n4 never exists), finished
		ns := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns")
		name := fmt.Sprintf("p%d", rapid.IntRange(0, 7).Draw(t, "pod"))
		nodeName := rapid.SampledFrom([]string{"", "n0", "n1", "n2", "n3", "n4"}).Draw(t, "bound")
		phase := rapid.SampledFrom([]corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodRunning, corev1.PodSucceeded}).Draw(t, "phase")
		p := pod(ns, name, rapid.SampledFrom([]string{"x", "y"}).Draw(t, "app"), nodeName,
			rapid.Int64Range(1, 20).Draw(t, "mcpu")*100, phase, rapid.SampledFrom([]string{"", "high"}).Draw(t, "prio"))
		return op{"upsert pod " + ns + "/" + name + " on " + nodeName, func(ctx context.Context, c *fake.Clientset) error {
			pods := c.CoreV1().Pods(ns)
			return upsert(ctx, func() (*corev1.Pod, error) { return pods.Get(ctx, name, metav1.GetOptions{}) },
				func() error { _, err := pods.Create(ctx, p, opts); return err },
				func() error { _, err := pods.Update(ctx, p, uopts); return err })
		}}
	case 6:
		ns := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns")
		name := fmt.Sprintf("p%d", rapid.IntRange(0, 7).Draw(t, "pod"))
		return op{"delete pod " + ns + "/" + name, func(ctx context.Context, c *fake.Clientset) error {
			return c.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{})
		}}
	case 7: // a namespace with labels
		ns := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns")
		o := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{"team": rapid.SampledFrom([]string{"red", "blue"}).Draw(t, "team")}}}
		del := rapid.Bool().Draw(t, "delete")
		return op{"namespace " + ns, func(ctx context.Context, c *fake.Clientset) error {
			nss := c.CoreV1().Namespaces()
			if del {
				return nss.Delete(ctx, ns, metav1.DeleteOptions{})
			}
			return upsert(ctx, func() (*corev1.Namespace, error) { return nss.Get(ctx, ns, metav1.GetOptions{}) },
				func() error { _, err := nss.Create(ctx, o, opts); return err },
				func() error { _, err := nss.Update(ctx, o, uopts); return err })
		}}
	case 8: // a PodDisruptionBudget over app=x
		ns := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns")
		minAvail := intstr.FromInt32(rapid.Int32Range(0, 3).Draw(t, "minAvailable"))
		o := &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "pdb"},
			Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &minAvail, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}},
			Status:     policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: rapid.Int32Range(0, 2).Draw(t, "allowed")},
		}
		del := rapid.Bool().Draw(t, "delete")
		return op{"pdb " + ns, func(ctx context.Context, c *fake.Clientset) error {
			pdbs := c.PolicyV1().PodDisruptionBudgets(ns)
			if del {
				return pdbs.Delete(ctx, "pdb", metav1.DeleteOptions{})
			}
			return upsert(ctx, func() (*policyv1.PodDisruptionBudget, error) { return pdbs.Get(ctx, "pdb", metav1.GetOptions{}) },
				func() error { _, err := pdbs.Create(ctx, o, opts); return err },
				func() error { _, err := pdbs.Update(ctx, o, uopts); return err })
		}}
	default: // the PriorityClass "high"
		o := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: rapid.Int32Range(0, 2000).Draw(t, "value")}
		del := rapid.Bool().Draw(t, "delete")
		return op{"priorityclass", func(ctx context.Context, c *fake.Clientset) error {
			pcs := c.SchedulingV1().PriorityClasses()
			if del {
				return pcs.Delete(ctx, "high", metav1.DeleteOptions{})
			}
			return upsert(ctx, func() (*schedulingv1.PriorityClass, error) { return pcs.Get(ctx, "high", metav1.GetOptions{}) },
				func() error { _, err := pcs.Create(ctx, o, opts); return err },
				func() error { _, err := pcs.Update(ctx, o, uopts); return err })
		}}
	}
}

// probes are the pods each decision is asked about.
func probes() []*api.Pod {
	mk := func(name string, milli int64) *api.Pod {
		k := pod("a", name, "x", "", milli, corev1.PodPending, "")
		p, err := convert.PodToAPI(k)
		if err != nil {
			panic(err)
		}
		return p
	}
	plain := mk("probe-plain", 500)
	zoned := mk("probe-zone", 1000)
	zoned.Spec.NodeSelector = map[string]string{"topology.kubernetes.io/zone": "z1"}
	anti := mk("probe-anti", 100)
	anti.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: "kubernetes.io/hostname",
		}},
	}}
	tolerant := mk("probe-tolerant", 3000)
	tolerant.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
	return []*api.Pod{plain, zoned, anti, tolerant}
}

// decisions is k8stest.Decisions on the probes.
func decisions(t tb, snap *cluster.Snapshot) string {
	d, err := k8stest.Decisions(snap, probes())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// rebuild makes a snapshot from scratch from the clientset's objects, as
// a program that lists them once would.
func rebuild(t tb, client *fake.Clientset) (*cluster.Snapshot, []string) {
	ctx := context.Background()
	nl, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []*api.Node
	for i := range nl.Items {
		n, err := convert.NodeToAPI(&nl.Items[i])
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, n)
	}
	pl, err := client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var pods []*api.Pod
	var pending []string
	for i := range pl.Items {
		p, err := convert.PodToAPI(&pl.Items[i])
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case live.Assigned(p):
			pods = append(pods, p)
		case p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed:
			pending = append(pending, p.Namespace+"/"+p.Name)
		}
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	var objs []any
	nsl, _ := client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	for i := range nsl.Items {
		o, _ := convert.NamespaceToAPI(&nsl.Items[i])
		objs = append(objs, o)
	}
	pdbl, _ := client.PolicyV1().PodDisruptionBudgets("").List(ctx, metav1.ListOptions{})
	for i := range pdbl.Items {
		o, _ := convert.PodDisruptionBudgetToAPI(&pdbl.Items[i])
		objs = append(objs, o)
	}
	pcl, _ := client.SchedulingV1().PriorityClasses().List(ctx, metav1.ListOptions{})
	for i := range pcl.Items {
		o, _ := convert.PriorityClassToAPI(&pcl.Items[i])
		objs = append(objs, o)
	}
	if err := snap.AddObjects(objs...); err != nil {
		t.Fatal(err)
	}
	slices.Sort(pending)
	return snap, pending
}

// objectsJSON prints the watched kinds' objects of o.
func objectsJSON(t tb, o *cluster.Objects) string {
	var b strings.Builder
	add := func(v any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	for v := range cluster.AllObjects[api.Namespace](o) {
		add(v)
	}
	for v := range cluster.AllObjects[api.PodDisruptionBudget](o) {
		add(v)
	}
	for v := range cluster.AllObjects[api.PriorityClass](o) {
		add(v)
	}
	return b.String()
}

// waitEvents waits until c has handled n events.
func waitEvents(t tb, c *live.Cluster, n int64) {
	deadline := time.Now().Add(30 * time.Second)
	for c.Stats().Events < n {
		if time.Now().After(deadline) {
			t.Fatalf("handled %d events of %d", c.Stats().Events, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestEventsMatchRebuild: random changes made through the API, applied
// by the informers' handlers while a scheduler keeps deciding on the live
// snapshot, leave a snapshot that decides as one rebuilt from scratch
// from the final objects, and the same pending pods. Run it with -race:
// the concurrent decisions read views while the handlers write.
func TestEventsMatchRebuild(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		client, started := newFake()
		c, stop := startLive(rt, client, started, watchedKinds)
		defer stop()

		// A reader deciding on the live snapshot while events arrive.
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := scheduler.New(c.Snapshot(), scheduler.WithSeed(1))
			if err != nil {
				panic(err)
			}
			defer s.Close()
			p := probes()[0]
			for {
				select {
				case <-done:
					return
				default:
				}
				_, _ = s.Schedule(context.Background(), p)
				_ = c.View().Objects()
			}
		}()

		n := rapid.IntRange(0, 40).Draw(rt, "ops")
		var applied int64
		ctx := context.Background()
		for range n {
			o := drawOp(rt)
			if err := o.do(ctx, client); err == nil {
				applied++
				rt.Logf("%s", o.name)
			}
		}
		waitEvents(rt, c, applied)
		close(done)
		wg.Wait()
		if st := c.Stats(); st.Failed > 0 {
			rt.Fatalf("%d events failed, last: %v", st.Failed, st.LastError)
		}

		fresh, pending := rebuild(rt, client)
		if got, want := decisions(rt, c.Snapshot()), decisions(rt, fresh); got != want {
			rt.Fatalf("live snapshot decides\n%s\nrebuilt snapshot decides\n%s", got, want)
		}
		var gotPending []string
		for _, p := range c.Pending() {
			gotPending = append(gotPending, p.Namespace+"/"+p.Name)
		}
		if !slices.Equal(gotPending, pending) {
			rt.Fatalf("pending %v, rebuilt %v", gotPending, pending)
		}
		if got, want := objectsJSON(rt, c.View().Objects()), objectsJSON(rt, fresh.View().Objects()); got != want {
			rt.Fatalf("live objects\n%s\nrebuilt objects\n%s", got, want)
		}
		if c.Snapshot().NumPods() != fresh.NumPods() || c.Snapshot().NumNodes() != fresh.NumNodes() {
			rt.Fatalf("live %d nodes %d pods, rebuilt %d nodes %d pods", c.Snapshot().NumNodes(), c.Snapshot().NumPods(), fresh.NumNodes(), fresh.NumPods())
		}
	})
}
