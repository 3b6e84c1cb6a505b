package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/cmd/schedkit/app"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

func testNode(name string) *corev1.Node {
	rl := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("8Gi"), corev1.ResourcePods: resource.MustParse("110")}
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: corev1.NodeStatus{Capacity: rl, Allocatable: rl}}
}

func testPod(ns, name, nodeName, cpu string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID("uid-" + metaName(ns, name))},
		Spec: corev1.PodSpec{NodeName: nodeName, SchedulerName: "default-scheduler", Containers: []corev1.Container{{
			Name: "c", Image: "nginx", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}},
		}}},
		Status: corev1.PodStatus{Phase: map[bool]corev1.PodPhase{true: corev1.PodRunning, false: corev1.PodPending}[nodeName != ""]},
	}
}

func metaName(ns, name string) string { return ns + "-" + name }

// paginate makes the fake's pod lists honour limit and continue, as the
// API server does (the fake ignores both), and records each call's limit.
func paginate(client *fake.Clientset, limits *[]int64) {
	client.PrependReactor("list", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		opts := a.(clienttesting.ListActionImpl).ListOptions
		*limits = append(*limits, opts.Limit)
		all, err := client.Tracker().List(corev1.SchemeGroupVersion.WithResource("pods"), corev1.SchemeGroupVersion.WithKind("Pod"), "")
		if err != nil {
			return true, nil, err
		}
		items := all.(*corev1.PodList).Items
		slices.SortFunc(items, func(a, b corev1.Pod) int { return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name) })
		start := 0
		if opts.Continue != "" {
			start, _ = strconv.Atoi(opts.Continue)
		}
		end := len(items)
		if opts.Limit > 0 && start+int(opts.Limit) < end {
			end = start + int(opts.Limit)
		}
		page := &corev1.PodList{Items: items[start:end]}
		if end < len(items) {
			page.Continue = strconv.Itoa(end)
		}
		return true, page, nil
	})
}

// captured is a schedkit stand-in that records what it was given.
type captured struct {
	args []string
	dump []byte
}

func (c *captured) run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c.args = args
	c.dump, _ = io.ReadAll(stdin)
	return 0
}

type listDoc struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Items      []json.RawMessage `json:"items"`
}

type itemHead struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Namespace, Name string
	} `json:"metadata"`
}

func items(t *testing.T, dump []byte) []string {
	t.Helper()
	var l listDoc
	if err := json.Unmarshal(dump, &l); err != nil {
		t.Fatalf("dump is not JSON: %v\n%s", err, dump)
	}
	if l.APIVersion != "v1" || l.Kind != "List" {
		t.Fatalf("dump is %s %s, not a v1 List", l.APIVersion, l.Kind)
	}
	var out []string
	for _, raw := range l.Items {
		var h itemHead
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatal(err)
		}
		if h.APIVersion == "" || h.Kind == "" {
			t.Fatalf("item without apiVersion or kind: %s", raw)
		}
		out = append(out, h.Kind+" "+h.Metadata.Namespace+"/"+h.Metadata.Name)
	}
	return out
}

func fakeDeps(client kubernetes.Interface, c *captured, ns string) deps {
	return deps{
		client:   func(string, string) (kubernetes.Interface, string, error) { return client, ns, nil },
		schedkit: c.run,
	}
}

// TestPaginatedList: 1,234 pods are read in pages of --page-size, every
// one of them written once, with its apiVersion and kind, and only list
// calls are made.
func TestPaginatedList(t *testing.T) {
	var objs []runtime.Object
	objs = append(objs, testNode("n1"), testNode("n2"))
	for i := range 1234 {
		objs = append(objs, testPod("shop", fmt.Sprintf("p%04d", i), "n1", "1m"))
	}
	client := fake.NewClientset(objs...)
	var limits []int64
	paginate(client, &limits)
	var c captured
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"simulate", "--page-size", "100", "-A"}, io.Discard, &stderr, fakeDeps(client, &c, "default"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := 13; len(limits) != want {
		t.Errorf("%d pod list calls, want %d", len(limits), want)
	}
	for _, l := range limits {
		if l != 100 {
			t.Errorf("list limit %d, want 100", l)
		}
	}
	got := items(t, c.dump)
	pods := 0
	for _, it := range got {
		if strings.HasPrefix(it, "Pod ") {
			pods++
		}
	}
	if pods != 1234 {
		t.Errorf("%d pods in the dump, want 1234", pods)
	}
	if !slices.Equal(c.args, []string{"simulate", "-f", "-"}) {
		t.Errorf("schedkit args %q", c.args)
	}
	for _, a := range client.Actions() {
		if a.GetVerb() != "list" && a.GetVerb() != "watch" {
			t.Errorf("a %s of %s: the plugin must only read", a.GetVerb(), a.GetResource().Resource)
		}
	}
}

// TestNamespaceScope: -n keeps the namespace's pending pods and
// workloads, and the bound pods of every namespace; explain pod/NAME
// becomes --pod NS/NAME and keeps every pending pod in the queue.
func TestNamespaceScope(t *testing.T) {
	client := fake.NewClientset(
		testNode("n1"),
		testPod("shop", "web", "", "100m"),
		testPod("shop", "db", "n1", "1"),
		testPod("other", "batch", "", "100m"),
		testPod("other", "api", "n1", "1"),
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "d"}},
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "d"}},
	)
	var c captured
	if code := run(context.Background(), []string{"simulate", "-n", "shop"}, io.Discard, io.Discard, fakeDeps(client, &c, "default")); code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := []string{"Node /n1", "Pod other/api", "Pod shop/db", "Pod shop/web", "Deployment shop/d"}
	if got := items(t, c.dump); !sameSet(got, want) {
		t.Errorf("simulate -n shop read %v, want %v", got, want)
	}

	if code := run(context.Background(), []string{"explain", "pod/web", "-n", "shop", "-o", "json"}, io.Discard, io.Discard, fakeDeps(client, &c, "default")); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if want := []string{"explain", "-f", "-", "-o", "json", "--pod", "shop/web"}; !slices.Equal(c.args, want) {
		t.Errorf("schedkit args %q, want %q", c.args, want)
	}
	if got := items(t, c.dump); !slices.Contains(got, "Pod other/batch") {
		t.Errorf("explain pod/web dropped other namespaces' pending pods: %v", got)
	}

	// The context's namespace when -n is not given.
	if code := run(context.Background(), []string{"explain", "pod/batch"}, io.Discard, io.Discard, fakeDeps(client, &c, "other")); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got := c.args[len(c.args)-1]; got != "other/batch" {
		t.Errorf("--pod %s, want other/batch", got)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}

// TestUsage: --help says the plugin is read-only; bad usage is exit 2.
func TestUsage(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, &out, io.Discard, deps{}); code != 0 || !strings.Contains(out.String(), "read-only") {
		t.Errorf("--help: exit %d\n%s", code, out.String())
	}
	for _, args := range [][]string{{"nonsense"}, {"explain", "-f", "x.yaml"}, {"simulate", "-n", "a", "-A"}, {"explain", "pod/a", "pod/b"}, {"simulate", "--page-size", "0"}} {
		var stderr bytes.Buffer
		if code := run(context.Background(), args, io.Discard, &stderr, deps{}); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, stderr.String())
		}
	}
}

// TestSameAsDump runs the plugin on a fake cluster with --save-dump for
// every command, and checks that its output and exit code are schedkit's
// on the saved dump (schedkit COMMAND -f dump, run in process as well).
func TestSameAsDump(t *testing.T) {
	dir := t.TempDir()
	shape := filepath.Join(dir, "shape.yaml")
	writeFile(t, shape, `apiVersion: v1
kind: Pod
metadata: {name: shape, namespace: shop}
spec:
  containers:
  - name: c
    image: nginx
    resources: {requests: {cpu: "1"}}
`)
	config := filepath.Join(dir, "most-allocated.yaml")
	writeFile(t, config, `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`)
	client := fake.NewClientset(
		testNode("n1"), testNode("n2"),
		testPod("shop", "db", "n1", "3"),
		testPod("shop", "web", "", "2"),
		testPod("shop", "big", "", "5"),
	)
	dump := filepath.Join(dir, "dump.json")
	for _, args := range [][]string{
		{"explain"}, {"explain", "-o", "json"}, {"simulate"}, {"describe"}, {"drain", "n1"},
		{"capacity", "--pod", shape}, {"compare", "--config", config, "--all"},
	} {
		var live, offline, stderr, offErr bytes.Buffer
		d := deps{client: func(string, string) (kubernetes.Interface, string, error) { return client, "shop", nil }}
		code := run(context.Background(), append(slices.Clone(args), "--save-dump", dump), &live, &stderr, d)
		if code == 2 {
			t.Fatalf("%q: exit 2: %s", args, stderr.String())
		}
		if live.Len() == 0 {
			t.Errorf("%q: the plugin printed nothing (exit %d): %s", args, code, stderr.String())
		}
		offCode := app.Run(append([]string{args[0], "-f", dump}, args[1:]...), strings.NewReader(""), &offline, &offErr)
		if code != offCode || live.String() != offline.String() {
			t.Errorf("%q: plugin exit %d\n%s\nschedkit -f dump exit %d\n%s", args, code, live.String(), offCode, offline.String())
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
