package nodevolumelimits

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// The plugin keeps each node's attached volumes across cycles; after
// every change a cycle can see (a pod assumed or removed, a claim, a
// volume or an attachment added, a NodeInfo cloned and changed as
// preemption's dry run does) its Filter is the plain function's.
func TestNodeVolumeLimitsCacheFollowsChanges(t *testing.T) {
	const ebs = predicates.CSIDriverAWSEBS
	var objs []any
	for i := range 6 {
		n := fmt.Sprintf("c-%d", i)
		c := claim(n)
		c.Spec.VolumeName = n
		objs = append(objs, csiPV(n, ebs, n), c)
	}
	objs = append(objs, csiNodeOf("n", map[string]int32{ebs: 3}), csiNodeOf("m", map[string]int32{ebs: 3}))
	s := storageSnap(t, []*api.Node{testNode("n", nil), testNode("m", nil)}, nil, objs...)
	p, _ := New(nil, storageHandle{s})
	check := func(step string, pod *api.Pod) {
		t.Helper()
		for _, node := range []string{"n", "m"} {
			_, got := runFilter(t, p, s, pod, node)
			ni, _ := s.Get(node)
			want := predicates.NodeVolumeLimits(s.Objects(), pod, ni)
			if got.Code() != want.Code() || got.Message() != want.Message() {
				t.Fatalf("%s, node %s: Filter %v, the plain function %v", step, node, got, want)
			}
		}
	}
	incoming := volPod("in", "", pvcVol("c-5"))
	check("empty", incoming)
	for i := range 4 {
		pod := volPod(fmt.Sprintf("p-%d", i), "", pvcVol(fmt.Sprintf("c-%d", i)))
		if err := s.AssumePod(pod, "n"); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("after %d assumed", i+1), incoming)
	}
	if err := s.RemovePod(volPod("p-3", "n")); err != nil {
		t.Fatal(err)
	}
	check("after a removal", incoming)
	// A claim of a pod on m that did not exist, then exists.
	if err := s.AssumePod(volPod("late", "", pvcVol("late")), "m"); err != nil {
		t.Fatal(err)
	}
	check("claim missing", incoming)
	late := claim("late")
	late.Spec.VolumeName = "late"
	if err := s.AddObjects(csiPV("late", ebs, "late"), late); err != nil {
		t.Fatal(err)
	}
	check("claim added", incoming)
	if err := s.AddObjects(attachment("va", "m", ebs, strptr("c-4")), csiPV("va-pv", ebs, "h-va"),
		attachment("va-2", "m", ebs, strptr("va-pv"))); err != nil {
		t.Fatal(err)
	}
	check("attachments added", incoming)
	// A clone with a pod removed, as preemption's dry run filters it.
	ni, _ := s.Get("n")
	c := ni.Clone()
	if err := c.RemovePod(volPod("p-0", "n")); err != nil {
		t.Fatal(err)
	}
	state := framework.NewCycleState()
	if _, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, incoming, s.Nodes()); st != nil {
		t.Fatal(st)
	}
	c2 := c.Clone()
	c2.AddPod(cluster.NewPodInfo(volPod("p-4", "n", pvcVol("c-4"))))
	for i, step := range []*cluster.NodeInfo{c, ni, c, c2, ni, c2, c2} {
		if i == 6 {
			// changed in place after a Filter
			if err := c2.RemovePod(volPod("p-4", "n")); err != nil {
				t.Fatal(err)
			}
		}
		got := p.(framework.FilterPlugin).Filter(context.Background(), state, incoming, step)
		want := predicates.NodeVolumeLimits(s.Objects(), incoming, step)
		if got.Code() != want.Code() || got.Message() != want.Message() {
			t.Fatalf("%d pods: Filter %v, the plain function %v", len(step.Pods), got, want)
		}
	}
}
