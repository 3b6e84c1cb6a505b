package controlplane

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
)

// TestStartScheduleStop starts the control plane, creates a node and a
// pod, waits for the pod to be bound, stops, and checks that no
// goroutine is left behind. It is the CI test of the control plane:
// SCHEDKIT_CONTROLPLANE=0 skips it.
func TestStartScheduleStop(t *testing.T) {
	if os.Getenv("SCHEDKIT_CONTROLPLANE") == "0" {
		t.Skip("SCHEDKIT_CONTROLPLANE=0")
	}
	silenceKlog()
	before := runtime.NumGoroutine()
	ctx := context.Background()
	t0 := time.Now()
	cp, err := Start(ctx, Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("start: %v", time.Since(t0))
	stopped := false
	defer func() {
		if !stopped {
			cp.Stop()
		}
	}()
	cs := cp.Client()
	node := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"kubernetes.io/hostname": "n1"}},
		Status: v1.NodeStatus{
			Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("110")},
			Capacity:    v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("110")},
			Conditions:  []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}},
		},
	}
	if _, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "registry.invalid/app:1",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}}}}},
	}
	if _, err := cs.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var bound string
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		bound = p.Spec.NodeName
		return bound != "", nil
	})
	if err != nil || bound != "n1" {
		t.Fatalf("pod bound to %q: %v", bound, err)
	}
	// The recorder saw the cycle: its start, then the Reserve on n1.
	var steps []Cycle
	for _, c := range cp.Cycles() {
		if c.Namespace == "default" && c.Name == "p" {
			steps = append(steps, c)
		}
	}
	if len(steps) != 2 || steps[0].Step != CycleStart || steps[1].Step != CycleReserve || steps[1].Node != "n1" {
		t.Errorf("cycles of default/p: %+v, want a start and a Reserve on n1", steps)
	}
	// A graceful deletion, then the kubelet's final one; the next pod's
	// cycle follows the removal in the record.
	if err := cs.CoreV1().Pods("default").Delete(ctx, "p", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// The API server may already have removed it (seen in CI on a loaded
	// machine): the removal is what the record below asserts, not which
	// call made it.
	zero := int64(0)
	if err := cs.CoreV1().Pods("default").Delete(ctx, "p", metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	pod.Name = "q"
	if _, err := cs.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		p, err := cs.CoreV1().Pods("default").Get(ctx, "q", metav1.GetOptions{})
		return err == nil && p.Spec.NodeName != "", nil
	})
	if err != nil {
		t.Fatalf("pod q not bound: %v", err)
	}
	var order []string
	for _, c := range cp.Cycles() {
		order = append(order, fmt.Sprintf("%d %s", c.Step, c.Name))
	}
	if want := fmt.Sprintf("%d p,%d p,%d p,%d q,%d q", CycleStart, CycleReserve, CycleRemoved, CycleStart, CycleReserve); strings.Join(order, ",") != want {
		t.Errorf("cycles %v, want %s", order, want)
	}
	t1 := time.Now()
	cp.Stop()
	stopped = true
	t.Logf("stop: %v", time.Since(t1))
	checkGoroutines(t, before)
}
