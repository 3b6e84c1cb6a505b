package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/conformance/internal/controlplane"
	"github.com/schedkit/schedkit/k8s/dump"
	"github.com/schedkit/schedkit/k8s/k8stest"
	"github.com/schedkit/schedkit/k8s/live"
	"github.com/schedkit/schedkit/resource"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// TestLiveAgainstAPIServer runs the k8s module against a real API server
// (the in-process control plane): a live snapshot fed by informers
// decides as a snapshot loaded from a dump of the same objects, before and
// after the objects change, and kubectl-schedkit prints what schedkit
// prints on the dump it saved. SCHEDKIT_CONTROLPLANE=0 skips it.
func TestLiveAgainstAPIServer(t *testing.T) {
	if os.Getenv("SCHEDKIT_CONTROLPLANE") == "0" {
		t.Skip("SCHEDKIT_CONTROLPLANE=0")
	}
	ctx := context.Background()
	cp, err := controlplane.Start(ctx, controlplane.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Stop()
	cs := cp.Client()
	if err := cp.WaitForServiceAccount(ctx, "default"); err != nil {
		t.Fatal(err)
	}

	// Nodes in two zones and pods bound to them (created bound: the
	// control plane's scheduler leaves them as they are, so nothing moves
	// between the live read and the dump).
	for i, zone := range []string{"z0", "z0", "z1"} {
		mustCreate(t, func() error {
			_, err := cs.CoreV1().Nodes().Create(ctx, apiServerNode(nodeNames[i], zone, "4"), metav1.CreateOptions{})
			return err
		})
	}
	for i, cpu := range []string{"3", "1", "500m", "2"} {
		p := apiServerPod("web-"+string(rune('a'+i)), nodeNames[i%3], cpu)
		mustCreate(t, func() error { _, err := cs.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); return err })
	}
	minAvail := intstr.FromInt32(1)
	mustCreate(t, func() error {
		_, err := cs.PolicyV1().PodDisruptionBudgets("default").Create(ctx, &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "web"},
			Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &minAvail, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		}, metav1.CreateOptions{})
		return err
	})

	lc, err := live.NewFromClient(cs)
	if err != nil {
		t.Fatal(err)
	}
	lctx, cancel := context.WithCancel(ctx)
	defer func() { cancel(); lc.Shutdown() }()
	lc.Start(lctx)
	if err := lc.WaitForSync(lctx); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	probes := apiServerProbes()
	converge(t, cs, lc, probes, dir, "initial objects")

	// Changes: a node cordoned, a pod deleted, a node added.
	n, err := cs.CoreV1().Nodes().Get(ctx, nodeNames[0], metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n.Spec.Unschedulable = true
	mustCreate(t, func() error { _, err := cs.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); return err })
	mustCreate(t, func() error { return cs.CoreV1().Pods("default").Delete(ctx, "web-b", metav1.DeleteOptions{}) })
	mustCreate(t, func() error {
		_, err := cs.CoreV1().Nodes().Create(ctx, apiServerNode("n4", "z1", "8"), metav1.CreateOptions{})
		return err
	})
	converge(t, cs, lc, probes, dir, "after changes")
	if st := lc.Stats(); st.Failed > 0 {
		t.Errorf("%d events failed, last: %v", st.Failed, st.LastError)
	}

	// kubectl-schedkit against the API server equals schedkit on its dump.
	bins, err := k8stest.Build(dir)
	if err != nil {
		t.Skip(err)
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := k8stest.WriteKubeconfig(cp.RESTConfig(), kubeconfig); err != nil {
		t.Fatal(err)
	}
	commands := pluginCommands(t, dir)
	comparePlugin(t, bins, kubeconfig, dir, commands, "")

	// Pages of one object: the dump still holds every pod the API lists.
	saved := filepath.Join(dir, "paged.json")
	if out, err := k8stest.Run(bins.Plugin, "simulate", "-A", "--page-size", "1", "--kubeconfig", kubeconfig, "--save-dump", saved); err != nil || out.Code == 2 {
		t.Fatalf("simulate --page-size 1: %v %+v", err, out)
	}
	pods, err := cs.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := countKind(t, saved, "Pod"); got != len(pods.Items) {
		t.Errorf("--page-size 1 saved %d pods, the API lists %d", got, len(pods.Items))
	}

	// While objects change: a writer creates and deletes pods and cordons
	// and uncordons a node as the plugin reads. Each answer is still the
	// answer on the dump that run saved: the plugin decides on what it
	// read, nothing else.
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name := fmt.Sprintf("churn-%d", i)
			cs.CoreV1().Pods("default").Create(ctx, apiServerPod(name, nodeNames[i%3], "100m"), metav1.CreateOptions{})
			if i > 0 {
				cs.CoreV1().Pods("default").Delete(ctx, fmt.Sprintf("churn-%d", i-1), metav1.DeleteOptions{})
			}
			if n, err := cs.CoreV1().Nodes().Get(ctx, nodeNames[2], metav1.GetOptions{}); err == nil {
				n.Spec.Unschedulable = i%2 == 0
				cs.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{})
			}
		}
	}()
	comparePlugin(t, bins, kubeconfig, dir, commands, "while objects change")
	close(stop)
	<-done
}

// pluginCommands are the plugin's commands the tests compare, every verb,
// with the files capacity and compare read written to dir.
func pluginCommands(t *testing.T, dir string) [][]string {
	shape := filepath.Join(dir, "shape.yaml")
	config := filepath.Join(dir, "most-allocated.yaml")
	for path, content := range map[string]string{
		shape: `apiVersion: v1
kind: Pod
metadata: {name: shape, namespace: default}
spec:
  containers:
  - {name: c, image: registry.invalid/web:1, resources: {requests: {cpu: 500m}}}
`,
		config: `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`,
	} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return [][]string{
		{"simulate", "-A", "--page-size", "2"}, {"describe", "-A", "--page-size=3"}, {"drain", "n2"}, {"explain", "-A", "-o", "json"},
		{"capacity", "--pod", shape}, {"compare", "--config", config, "--all"},
	}
}

// comparePlugin runs each command with kubectl-schedkit against the API
// server and checks its output is schedkit's on the dump it saved.
func comparePlugin(t *testing.T, bins k8stest.Binaries, kubeconfig, dir string, commands [][]string, what string) {
	t.Helper()
	for _, args := range commands {
		livOut, offOut, err := k8stest.ComparePlugin(bins, kubeconfig, dir, args...)
		if err != nil {
			t.Fatalf("%s %v: %v", what, args, err)
		}
		if livOut.Stdout == "" {
			t.Errorf("%s %v: kubectl-schedkit printed nothing (exit %d): %s", what, args, livOut.Code, livOut.Stderr)
		}
		if livOut.Code != offOut.Code || livOut.Stdout != offOut.Stdout {
			t.Errorf("%s %v: kubectl-schedkit exit %d\n%s\nschedkit -f dump exit %d\n%s", what, args, livOut.Code, livOut.Stdout, offOut.Code, offOut.Stdout)
		}
	}
}

// countKind counts the items of kind in the List file path.
func countKind(t *testing.T, path, kind string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var l struct {
		Items []struct {
			Kind string `json:"kind"`
		} `json:"items"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range l.Items {
		if it.Kind == kind {
			n++
		}
	}
	return n
}

var nodeNames = []string{"n1", "n2", "n3"}

// converge waits until the live snapshot decides as a snapshot loaded
// from a fresh dump: events arrive after the API calls return, so the two
// agree once the informers caught up.
func converge(t *testing.T, cs kubernetes.Interface, lc *live.Cluster, probes []*api.Pod, dir, what string) {
	t.Helper()
	ctx := context.Background()
	var got, want string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		f, err := os.CreateTemp(dir, "dump-*.json")
		if err != nil {
			return false, err
		}
		defer f.Close()
		if err := dump.Write(ctx, cs, f, dump.Options{}); err != nil {
			return false, err
		}
		c, err := k8stest.LoadDump(ctx, f.Name())
		if err != nil {
			return false, err
		}
		if want, err = k8stest.Decisions(c.Snapshot, probes); err != nil {
			return false, err
		}
		if got, err = k8stest.Decisions(lc.Snapshot(), probes); err != nil {
			return false, err
		}
		return got == want, nil
	})
	if err != nil {
		t.Fatalf("%s: the live snapshot decides\n%s\nthe dump decides\n%s\n(%v)", what, got, want, err)
	}
}

func mustCreate(t *testing.T, f func() error) {
	t.Helper()
	if err := f(); err != nil {
		t.Fatal(err)
	}
}

func apiServerNode(name, zone, cpu string) *v1.Node {
	rl := v1.ResourceList{v1.ResourceCPU: k8sresource.MustParse(cpu), v1.ResourceMemory: k8sresource.MustParse("8Gi"), v1.ResourcePods: k8sresource.MustParse("110")}
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zone}},
		Status:     v1.NodeStatus{Capacity: rl, Allocatable: rl, Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}},
	}
}

func apiServerPod(name, node, cpu string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: v1.PodSpec{NodeName: node, Containers: []v1.Container{{Name: "c", Image: "registry.invalid/web:1",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: k8sresource.MustParse(cpu)}}}}},
	}
}

func apiServerProbes() []*api.Pod {
	mk := func(name, cpu string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"}}}
		p.Spec.SchedulerName = "default-scheduler"
		p.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": resource.MustParse(cpu)}}}}
		return p
	}
	plain, big := mk("probe", "1"), mk("probe-big", "3500m")
	spread := mk("probe-spread", "100m")
	spread.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: "kubernetes.io/hostname",
		}},
	}}
	return []*api.Pod{plain, big, spread}
}
