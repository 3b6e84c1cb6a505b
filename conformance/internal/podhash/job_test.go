package podhash

import (
	"context"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/job"

	"github.com/schedkit/schedkit/manifest"
)

// jobSync runs upstream's Job controller on the Job and pods until its
// first status write, and returns the pods it created before.
func jobSync(t *rapid.T, j *batchv1.Job, pods []*corev1.Pod) []*corev1.Pod {
	objs := []runtime.Object{j}
	for _, p := range pods {
		objs = append(objs, p)
	}
	client := fake.NewClientset(objs...)
	// The fake tracker does not generate names; the API server would.
	n := 0
	client.PrependReactor("create", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if p := a.(clienttesting.CreateAction).GetObject().(*corev1.Pod); p.Name == "" {
			n++
			p.Name = p.GenerateName + strconv.Itoa(n)
		}
		return false, nil, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	f := informers.NewSharedInformerFactory(client, 0)
	// Stop the controller and the informers, then wait for the informers.
	defer f.Shutdown()
	defer cancel()
	jc, err := job.NewController(ctx, client, f.Core().V1().Pods(), f.Batch().V1().Jobs(), f.Scheduling().V1beta1().Workloads(), f.Scheduling().V1beta1().PodGroups())
	if err != nil {
		t.Fatal(err)
	}
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	go jc.Run(ctx, 1)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var created []*corev1.Pod
		for _, a := range client.Actions() {
			if a.GetResource().Resource == "jobs" && (a.GetVerb() == "update" || a.GetVerb() == "patch") {
				return created
			}
			if c, ok := a.(clienttesting.CreateAction); ok && a.GetResource().Resource == "pods" {
				created = append(created, c.GetObject().(*corev1.Pod))
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the Job controller wrote no status")
	return nil
}

// TestIndexedJobIndexes: for random Indexed Jobs (completions,
// parallelism, status.completedIndexes, active pods by index, succeeded
// pods with the tracking finalizer), schedkit's expansion creates the pods
// upstream's Job controller creates in its sync: the same completion
// indexes, annotation and label, hostname, finalizer and name prefix.
func TestIndexedJobIndexes(t *testing.T) {
	// The controller logs every sync; keep the test's output readable.
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	defer klog.LogToStderr(true)
	created := 0
	rapid.Check(t, func(rt *rapid.T) {
		completions := rapid.IntRange(1, 10).Draw(rt, "completions")
		parallelism := rapid.IntRange(1, 10).Draw(rt, "parallelism")
		var done []string
		for i := range completions + 2 {
			if rapid.IntRange(0, 3).Draw(rt, "done"+strconv.Itoa(i)) == 0 {
				done = append(done, strconv.Itoa(i))
			}
		}
		mode := batchv1.IndexedCompletion
		j := &batchv1.Job{
			TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
			ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "default", UID: "j1", ResourceVersion: "1"},
			Spec: batchv1.JobSpec{
				Parallelism: ptrTo(int32(parallelism)), Completions: ptrTo(int32(completions)), CompletionMode: &mode,
				BackoffLimit: ptrTo(int32(6)), Suspend: ptrTo(false), ManualSelector: ptrTo(false),
				PodReplacementPolicy: ptrTo(batchv1.TerminatingOrFailed),
				Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/controller-uid": "j1"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"batch.kubernetes.io/controller-uid": "j1", "batch.kubernetes.io/job-name": "j", "controller-uid": "j1", "job-name": "j"}},
					Spec:       corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
				},
			},
			Status: batchv1.JobStatus{CompletedIndexes: strings.Join(done, ",")},
		}
		yes := true
		var pods []*corev1.Pod
		nPods := rapid.IntRange(0, 5).Draw(rt, "pods")
		if rapid.Bool().Draw(rt, "replaceFailed") {
			j.Spec.PodReplacementPolicy = ptrTo(batchv1.Failed)
		}
		if rapid.Bool().Draw(rt, "perIndex") {
			j.Spec.BackoffLimitPerIndex = ptrTo(int32(1))
			j.Spec.PodReplacementPolicy = ptrTo(batchv1.Failed) // required with it
			var failed []string
			for i := range completions {
				if rapid.IntRange(0, 4).Draw(rt, "failed"+strconv.Itoa(i)) == 0 {
					failed = append(failed, strconv.Itoa(i))
				}
			}
			j.Status.FailedIndexes = ptrTo(strings.Join(failed, ","))
		}
		for i := range nPods {
			// Repeated and out-of-range indexes included.
			ix := rapid.IntRange(0, completions).Draw(rt, "index")
			phase := []corev1.PodPhase{corev1.PodRunning, corev1.PodPending, corev1.PodSucceeded, corev1.PodFailed}[rapid.IntRange(0, 3).Draw(rt, "phase")]
			p := &corev1.Pod{
				TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
				ObjectMeta: metav1.ObjectMeta{Name: "p" + strconv.Itoa(i), Namespace: "default", UID: types.UID("u" + strconv.Itoa(i)), ResourceVersion: "1",
					Labels:          map[string]string{"batch.kubernetes.io/controller-uid": "j1", "batch.kubernetes.io/job-completion-index": strconv.Itoa(ix)},
					Annotations:     map[string]string{"batch.kubernetes.io/job-completion-index": strconv.Itoa(ix)},
					OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "j", UID: "j1", Controller: &yes}}},
				Spec:   corev1.PodSpec{NodeName: "n1", RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
				Status: corev1.PodStatus{Phase: phase},
			}
			if phase == corev1.PodSucceeded && rapid.Bool().Draw(rt, "finalizer") {
				p.Finalizers = []string{batchv1.JobTrackingFinalizer}
			}
			// A terminating pod counts as failed under the default
			// podReplacementPolicy, and a new failure delays creations by
			// the pod failure backoff, which schedkit does not model:
			// terminating pods only with podReplacementPolicy Failed.
			if phase == corev1.PodRunning && *j.Spec.PodReplacementPolicy == batchv1.Failed && rapid.IntRange(0, 3).Draw(rt, "terminating") == 0 {
				p.DeletionTimestamp = &metav1.Time{Time: time.Now()}
				p.Finalizers = []string{batchv1.JobTrackingFinalizer}
			}
			pods = append(pods, p)
		}
		up := jobSync(rt, j, pods)
		type made struct {
			Index, Label, Hostname, Prefix string
			Finalizers                     []string
		}
		var want []made
		for _, p := range up {
			want = append(want, made{p.Annotations["batch.kubernetes.io/job-completion-index"], p.Labels["batch.kubernetes.io/job-completion-index"], p.Spec.Hostname, p.GenerateName, p.Finalizers})
		}
		c := expandJob(rt, j, pods, manifest.Options{ExpandWorkloads: true})
		var got []made
		for _, p := range c.Pending {
			if p.Spec.NodeName != "" || !strings.HasPrefix(p.Name, "j-") {
				continue
			}
			ix := p.Annotations["batch.kubernetes.io/job-completion-index"]
			got = append(got, made{ix, p.Labels["batch.kubernetes.io/job-completion-index"], p.Spec.Hostname, "j-" + ix + "-", p.Finalizers})
		}
		for _, l := range [][]made{want, got} {
			sort.Slice(l, func(a, b int) bool { return l[a].Index < l[b].Index })
		}
		if diff := cmp.Diff(want, got); diff != "" {
			rt.Fatalf("created (-upstream +schedkit):\n%s", diff)
		}
		created += len(got)
	})
	t.Logf("%d pods created in all", created)
}

func ptrTo[T any](v T) *T { return &v }

// expandJob reads j and pods as one JSON stream and expands the workloads
// with opts.
func expandJob(rt *rapid.T, j *batchv1.Job, pods []*corev1.Pod, opts manifest.Options) *manifest.Cluster {
	docs := make([]string, 0, 1+len(pods))
	b, _ := json.Marshal(j)
	docs = append(docs, string(b))
	for _, p := range pods {
		b, _ := json.Marshal(p)
		docs = append(docs, string(b))
	}
	r := manifest.NewReader()
	if err := r.Read("j", strings.NewReader(strings.Join(docs, "\n"))); err != nil {
		rt.Fatal(err)
	}
	c, err := manifest.NewCluster(r.Objects(), r.Report(), opts)
	if err != nil {
		rt.Fatal(err)
	}
	return c
}
