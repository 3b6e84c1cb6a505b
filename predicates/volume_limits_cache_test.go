package predicates

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

// Property: after any sequence of pods assumed, forgotten (an assumed
// pod removed) and removed, and attachments added, the per-node counts
// a VolumeLimitsCache keeps (each node's CSINode, attached volumes,
// attachment volumes and per-driver use) equal a from-scratch recount,
// and the cached Filter's verdict is the plain function's on every
// node.
func TestVolumeLimitsCacheMatchesRecount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		drivers := []string{"a", "b"}
		var objs []any
		for i := range 6 {
			n := fmt.Sprintf("c-%d", i)
			c := claim(n)
			c.Spec.VolumeName = n
			objs = append(objs, csiPV(n, rapid.SampledFrom(drivers).Draw(t, "driver"), fmt.Sprintf("h-%d", rapid.IntRange(0, 3).Draw(t, "handle"))), c)
		}
		nodes := []*api.Node{testNode("n0", nil), testNode("n1", nil), testNode("n2", nil)}
		for _, n := range nodes[:2] {
			limits := map[string]int32{}
			for _, d := range drivers {
				if rapid.Bool().Draw(t, "limited") {
					limits[d] = rapid.Int32Range(0, 3).Draw(t, "limit")
				}
			}
			objs = append(objs, csiNodeOf(n.Name, limits))
		}
		s := storageSnap(t, nodes, nil, objs...)
		claimsOf := func(label string) []api.Volume {
			var vols []api.Volume
			for _, i := range rapid.SliceOfNDistinct(rapid.IntRange(0, 6), 0, 2, rapid.ID[int]).Draw(t, label) {
				vols = append(vols, pvcVol(fmt.Sprintf("c-%d", i))) // c-6 does not exist
			}
			return vols
		}
		incoming := volPod("in", "", claimsOf("incoming")...)
		var cache VolumeLimitsCache
		var live, assumed []*api.Pod
		nodeNames := []string{"n0", "n1", "n2"}
		for step := range rapid.IntRange(1, 12).Draw(t, "steps") {
			switch op := rapid.SampledFrom([]string{"assume", "forget", "remove", "attach"}).Draw(t, "op"); op {
			case "assume":
				p := volPod(fmt.Sprintf("p-%d", step), "", claimsOf("claims")...)
				if err := s.AssumePod(p, rapid.SampledFrom(nodeNames).Draw(t, "node")); err != nil {
					t.Fatal(err)
				}
				live, assumed = append(live, p), append(assumed, p)
			case "forget", "remove":
				pods := live
				if op == "forget" {
					pods = assumed
				}
				if len(pods) == 0 {
					continue
				}
				p := pods[len(pods)-1]
				if op == "remove" {
					p = rapid.SampledFrom(pods).Draw(t, "pod")
				}
				if err := s.RemovePod(p); err != nil {
					t.Fatal(err)
				}
				live = slices.DeleteFunc(live, func(q *api.Pod) bool { return q == p })
				assumed = slices.DeleteFunc(assumed, func(q *api.Pod) bool { return q == p })
			case "attach":
				if err := s.AddObjects(attachment(fmt.Sprintf("va-%d", step), rapid.SampledFrom(nodeNames).Draw(t, "vaNode"),
					rapid.SampledFrom(drivers).Draw(t, "attacher"), strptr(fmt.Sprintf("c-%d", rapid.IntRange(0, 5).Draw(t, "vaVolume"))))); err != nil {
					t.Fatal(err)
				}
			}
			state := NewCachedVolumeLimitsState(s.Objects(), incoming, &cache)
			plain := NewVolumeLimitsState(s.Objects(), incoming)
			for _, ni := range s.Nodes() {
				got, want := state.Filter(ni), plain.Filter(ni)
				if got.Code() != want.Code() || got.Message() != want.Message() {
					t.Fatalf("step %d, node %s: cached Filter %v, plain %v", step, ni.Node().Name, got, want)
				}
				e, _ := cache.lookup(ni, state.objGen)
				if e == nil {
					t.Fatalf("step %d, node %s: no cache entry after Filter", step, ni.Node().Name)
				}
				var fresh attachedVolumes
				fresh.compute(s.Objects(), ni, nil, nil)
				if e.csiNode != fresh.csiNode || e.limited != fresh.limited || e.mask != fresh.mask || e.status.Message() != fresh.status.Message() ||
					!slices.Equal(e.attached, fresh.attached) || !slices.Equal(e.vaVols, fresh.vaVols) || !slices.Equal(e.uses, fresh.uses) {
					t.Fatalf("step %d, node %s: kept %+v, recount %+v", step, ni.Node().Name, e, &fresh)
				}
			}
		}
	})
}
