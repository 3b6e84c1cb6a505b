package volumebinding

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
	"github.com/schedkit/schedkit/quantity"
)

// vbOutcome is the plugin's verdict on every node: the PreFilter
// status, then per node the Filter status and (if feasible) the score.
func vbOutcome(t *rapid.T, c clustergen.VolumeCase, objs []any) []string {
	snap, err := cluster.NewSnapshot(c.Nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObjects(objs...); err != nil {
		t.Fatal(err)
	}
	h := vbHandle{snap}
	fp, _ := New(nil, h)
	filter := fp.(*VolumeBinding)
	score := filter
	ctx, state := context.Background(), framework.NewCycleState()
	_, st := filter.PreFilter(ctx, state, c.Pod, nil)
	out := []string{fmt.Sprintf("prefilter %v %s", st.Code(), st.Message())}
	if !st.IsSuccess() {
		return out
	}
	score.PreScore(ctx, state, c.Pod, nil)
	for _, n := range c.Nodes {
		ni, _ := snap.Get(n.Name)
		fst := filter.Filter(ctx, state, c.Pod, ni)
		line := fmt.Sprintf("%s %v %s", n.Name, fst.Code(), fst.Message())
		if fst.IsSuccess() {
			s, sst := score.Score(ctx, state, c.Pod, ni)
			line += fmt.Sprintf(" score %d %v", s, sst.Code())
		}
		out = append(out, line)
	}
	return out
}

// Adding to the pod a claim bound to a volume without node affinity
// never rejects a node: every node's verdict is unchanged (upstream's
// bound claims only check node affinity, and bound volumes are not
// scored).
func TestPropertyBoundClaimWithoutAffinityNeverRejects(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.VolumeBindingCase(5).Draw(t, "case")
		before := vbOutcome(t, c, c.Objects)
		pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-anywhere"}, Spec: api.PersistentVolumeSpec{
			StorageClassName: clustergen.VolumeClassLocal, Capacity: api.ResourceList{api.ResourceStorage: quantity.MustParse("1Ti")},
			ClaimRef: &api.ObjectReference{Namespace: "default", Name: "bound-anywhere"}}, Status: api.PersistentVolumeStatus{Phase: api.VolumeBound}}
		class := clustergen.VolumeClassLocal
		pvc := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "bound-anywhere", Namespace: "default",
			Annotations: map[string]string{api.AnnBindCompleted: "yes"}}, Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, VolumeName: "pv-anywhere"}}
		pod := *c.Pod
		pod.Spec.Volumes = append(slices.Clone(pod.Spec.Volumes), api.Volume{Name: "anywhere",
			PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "bound-anywhere"}})
		c2 := c
		c2.Pod = &pod
		after := vbOutcome(t, c2, append(slices.Clone(c.Objects), pv, pvc))
		if len(c.Pod.Spec.Volumes) == 0 || !predicates.HasPVCs(c.Pod) {
			// The pod had no claims: it is now checked, and every node
			// passes with score 0.
			for _, line := range after[1:] {
				if !strings.HasSuffix(line, " Success  score 0 Success") {
					t.Fatalf("node rejected or scored by a bound claim alone: %q", line)
				}
			}
			return
		}
		if !slices.Equal(before, after) {
			t.Fatalf("verdicts changed:\nbefore %q\nafter  %q", before, after)
		}
	})
}

// The verdicts do not depend on the order in which objects were added
// nor on the names (hence the store order) of the volumes: volumes of a
// class have distinct sizes, so the smallest fitting one is unique.
func TestPropertyVolumeBindingOrderIndependent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.VolumeBindingCase(5).Draw(t, "case")
		want := vbOutcome(t, c, c.Objects)
		perm := rapid.Permutation(c.Objects).Draw(t, "order")
		// Rename volumes (and the claims' references to them) by a
		// permutation of their names.
		var names []string
		for _, o := range perm {
			if pv, ok := o.(*api.PersistentVolume); ok {
				names = append(names, pv.Name)
			}
		}
		newNames := rapid.Permutation(names).Draw(t, "names")
		rename := map[string]string{}
		for i, n := range names {
			rename[n] = "x" + newNames[i]
		}
		var objs []any
		for _, o := range perm {
			switch v := o.(type) {
			case *api.PersistentVolume:
				cp := *v
				cp.Name = rename[v.Name]
				objs = append(objs, &cp)
			case *api.PersistentVolumeClaim:
				cp := *v
				if r, ok := rename[v.Spec.VolumeName]; ok {
					cp.Spec.VolumeName = r
				}
				objs = append(objs, &cp)
			default:
				objs = append(objs, o)
			}
		}
		if got := vbOutcome(t, c, objs); !slices.Equal(got, want) {
			t.Fatalf("verdicts depend on object order or volume names:\nwant %q\ngot  %q", want, got)
		}
	})
}

// CheckVolumeBinding agrees with the plugin's PreFilter and Filter, and
// PlanPodVolumes succeeds exactly on the nodes that pass.
func TestPropertyPlainFunctionMatchesPlugin(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := clustergen.VolumeBindingCase(4).Draw(t, "case")
		snap, err := cluster.NewSnapshot(c.Nodes, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := snap.AddObjects(c.Objects...); err != nil {
			t.Fatal(err)
		}
		fp, _ := New(nil, vbHandle{snap})
		pl := fp.(*VolumeBinding)
		ctx, state := context.Background(), framework.NewCycleState()
		_, pre := pl.PreFilter(ctx, state, c.Pod, nil)
		for _, n := range c.Nodes {
			ni, _ := snap.Get(n.Name)
			want := pre
			if pre.IsSkip() {
				want = nil
			} else if pre.IsSuccess() {
				want = pl.Filter(ctx, state, c.Pod, ni)
			}
			got := predicates.CheckVolumeBinding(snap.Objects(), c.Pod, n)
			if !got.Equal(want) {
				t.Fatalf("%s: CheckVolumeBinding %v, plugin %v", n.Name, got, want)
			}
			_, err := predicates.PlanPodVolumes(snap.Objects(), c.Pod, n)
			if (err == nil) != got.IsSuccess() {
				t.Fatalf("%s: PlanPodVolumes error %v, status %v", n.Name, err, got)
			}
		}
	})
}
