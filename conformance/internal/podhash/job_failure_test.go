package podhash

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/schedkit/schedkit/manifest"
)

// TestJobFailureVerdicts: for random Jobs with failed pods (exit codes,
// pod conditions, with and without the tracking finalizer), running pods
// with restarts, pod failure policies, backoff limits, active deadlines,
// success policies and FailureTarget conditions, schedkit's expansion
// creates as many pods as upstream's Job controller creates in its sync:
// none when the controller fails or succeeds the Job. The failures are
// long past, so the pod failure backoff (which schedkit does not model)
// does not delay creations.
func TestJobFailureVerdicts(t *testing.T) {
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	defer klog.LogToStderr(true)
	verdicts := map[string]int{}
	rapid.Check(t, func(rt *rapid.T) {
		indexed := rapid.Bool().Draw(rt, "indexed")
		completions := rapid.IntRange(1, 5).Draw(rt, "completions")
		parallelism := rapid.IntRange(1, 4).Draw(rt, "parallelism")
		mode := batchv1.NonIndexedCompletion
		if indexed {
			mode = batchv1.IndexedCompletion
		}
		restart := corev1.RestartPolicyNever
		var policy *batchv1.PodFailurePolicy
		if rapid.Bool().Draw(rt, "policy") {
			all := []batchv1.PodFailurePolicyRule{
				{Action: batchv1.PodFailurePolicyActionFailJob, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{42}}},
				{Action: batchv1.PodFailurePolicyActionIgnore, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{7}}},
				{Action: batchv1.PodFailurePolicyActionCount, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpNotIn, Values: []int32{7, 42}}},
				{Action: batchv1.PodFailurePolicyActionFailJob, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{ContainerName: ptrTo("other"), Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{1}}},
				{Action: batchv1.PodFailurePolicyActionIgnore, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}}},
				{Action: batchv1.PodFailurePolicyActionFailJob, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: "ConfigIssue", Status: corev1.ConditionTrue}}},
			}
			policy = &batchv1.PodFailurePolicy{}
			for i := range all {
				if rapid.Bool().Draw(rt, "rule"+strconv.Itoa(i)) {
					policy.Rules = append(policy.Rules, all[i])
				}
			}
		} else if rapid.Bool().Draw(rt, "onFailure") {
			restart = corev1.RestartPolicyOnFailure
		}
		replacement := batchv1.TerminatingOrFailed
		if policy != nil {
			replacement = batchv1.Failed
		}
		now := time.Now()
		j := &batchv1.Job{
			TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
			ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "default", UID: "j1", ResourceVersion: "1"},
			Spec: batchv1.JobSpec{
				Parallelism: ptrTo(int32(parallelism)), Completions: ptrTo(int32(completions)), CompletionMode: &mode,
				BackoffLimit: ptrTo(int32(rapid.IntRange(0, 3).Draw(rt, "backoffLimit"))), Suspend: ptrTo(false), ManualSelector: ptrTo(false),
				PodReplacementPolicy: &replacement, PodFailurePolicy: policy,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/controller-uid": "j1"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"batch.kubernetes.io/controller-uid": "j1", "batch.kubernetes.io/job-name": "j", "controller-uid": "j1", "job-name": "j"}},
					Spec:       corev1.PodSpec{RestartPolicy: restart, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
				},
			},
			Status: batchv1.JobStatus{Failed: int32(rapid.IntRange(0, 2).Draw(rt, "statusFailed")), StartTime: &metav1.Time{Time: now.Add(-30 * time.Second)}},
		}
		if rapid.Bool().Draw(rt, "deadline") {
			j.Spec.ActiveDeadlineSeconds = ptrTo(int64([]int{10, 3600}[rapid.IntRange(0, 1).Draw(rt, "seconds")]))
		}
		if indexed && rapid.Bool().Draw(rt, "successPolicy") {
			j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededIndexes: ptrTo("0")}}}
			if rapid.Bool().Draw(rt, "index0done") {
				j.Status.CompletedIndexes = "0"
			}
		}
		if rapid.IntRange(0, 5).Draw(rt, "failureTarget") == 0 {
			j.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue}}
		}
		yes := true
		long := metav1.Time{Time: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
		var pods []*corev1.Pod
		used := map[int]bool{}
		for i := range rapid.IntRange(0, 4).Draw(rt, "pods") {
			p := &corev1.Pod{
				TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
				ObjectMeta: metav1.ObjectMeta{Name: "p" + strconv.Itoa(i), Namespace: "default", UID: types.UID("u" + strconv.Itoa(i)), ResourceVersion: "1",
					CreationTimestamp: long, Labels: map[string]string{"batch.kubernetes.io/controller-uid": "j1"},
					OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "j", UID: "j1", Controller: &yes}}},
				Spec: corev1.PodSpec{NodeName: "n1", RestartPolicy: restart, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
			}
			running := rapid.Bool().Draw(rt, "running")
			if indexed {
				ix := rapid.IntRange(0, completions-1).Draw(rt, "index")
				if running && used[ix] {
					running = false // a repeated active index is deleted first
				}
				if running {
					used[ix] = true
				}
				p.Annotations = map[string]string{"batch.kubernetes.io/job-completion-index": strconv.Itoa(ix)}
				p.Labels["batch.kubernetes.io/job-completion-index"] = strconv.Itoa(ix)
			}
			if running {
				p.Status = corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{Name: "c", Ready: true,
					RestartCount: int32(rapid.IntRange(0, 2).Draw(rt, "restarts")), State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: long}}}}}
				p.Finalizers = []string{batchv1.JobTrackingFinalizer}
			} else {
				exit := []int32{1, 7, 42}[rapid.IntRange(0, 2).Draw(rt, "exit")]
				p.Status = corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{{Name: "c",
					State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: exit, StartedAt: long, FinishedAt: long}}}}}
				if c := rapid.IntRange(0, 2).Draw(rt, "condition"); c > 0 {
					p.Status.Conditions = []corev1.PodCondition{{Type: []corev1.PodConditionType{corev1.DisruptionTarget, "ConfigIssue"}[c-1], Status: corev1.ConditionTrue, LastTransitionTime: long}}
				}
				if rapid.Bool().Draw(rt, "finalizer") {
					p.Finalizers = []string{batchv1.JobTrackingFinalizer}
				}
			}
			pods = append(pods, p)
		}
		up := jobSync(rt, j, pods)

		c := expandJob(rt, j, pods, manifest.Options{ExpandWorkloads: true, Now: time.Now()})
		got := 0
		for _, p := range c.Pending {
			if p.Spec.NodeName == "" && strings.HasPrefix(p.Name, "j-") {
				got++
			}
		}
		for _, rj := range c.Report.Rejected {
			if strings.HasPrefix(rj.Pod.Name, "j-") {
				got++
			}
		}
		if got != len(up) {
			rt.Fatalf("schedkit creates %d pods, upstream %d", got, len(up))
		}
		if len(up) == 0 {
			verdicts["none"]++
		} else {
			verdicts["some"]++
		}
	})
	t.Logf("Jobs creating no pods / some: %d / %d", verdicts["none"], verdicts["some"])
}
