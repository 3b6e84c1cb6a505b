package predicates

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// storageSnap builds a snapshot of nodes, pods and objects.
func storageSnap(t interface{ Fatal(...any) }, nodes []*api.Node, pods []*api.Pod, objs ...any) *cluster.Snapshot {
	s, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) > 0 {
		if err := s.AddObjects(objs...); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func volPod(name, node string, vols ...api.Volume) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name},
		Spec: api.PodSpec{NodeName: node, Volumes: vols, Containers: []api.Container{{Name: "c"}}}}
}

func pvcVol(claim string) api.Volume {
	return api.Volume{Name: claim, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}}
}

func claim(name string, modes ...api.PersistentVolumeAccessMode) *api.PersistentVolumeClaim {
	return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: modes}}
}

func testNode(name string, labels map[string]string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}}
}

func strptr(s string) *string { return &s }

func csiNodeOf(name string, limits map[string]int32) *api.CSINode {
	n := &api.CSINode{ObjectMeta: api.ObjectMeta{Name: name}}
	for _, d := range slices.Sorted(func(yield func(string) bool) {
		for k := range limits {
			if !yield(k) {
				return
			}
		}
	}) {
		c := limits[d]
		n.Spec.Drivers = append(n.Spec.Drivers, api.CSINodeDriver{Name: d, Allocatable: &api.VolumeNodeResources{Count: &c}})
	}
	return n
}

func csiPV(name, driver, handle string) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: driver, VolumeHandle: handle}}}}
}

// Properties: raising a CSINode allowance never makes a node infeasible
// for NodeVolumeLimits, and the verdict does not depend on the order the
// objects (claims, volumes, VolumeAttachments) are added in.
func TestNodeVolumeLimitsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		drivers := []string{"a.csi", "b.csi"}
		var objs []any
		for i := range 4 {
			objs = append(objs, csiPV(fmt.Sprintf("pv-%d", i), rapid.SampledFrom(drivers).Draw(t, "driver"), fmt.Sprintf("h-%d", rapid.IntRange(0, 2).Draw(t, "handle"))))
			c := claim(fmt.Sprintf("c-%d", i))
			c.Spec.VolumeName = fmt.Sprintf("pv-%d", i)
			objs = append(objs, c)
		}
		// VolumeAttachments of some of the volumes, on the node or not.
		for i := range rapid.IntRange(0, 3).Draw(t, "attachments") {
			objs = append(objs, attachment(fmt.Sprintf("va-%d", i), rapid.SampledFrom([]string{"n", "m"}).Draw(t, "vaNode"),
				rapid.SampledFrom(drivers).Draw(t, "attacher"), strptr(fmt.Sprintf("pv-%d", rapid.IntRange(0, 4).Draw(t, "vaVolume")))))
		}
		vols := func(label string) []api.Volume {
			var out []api.Volume
			for _, i := range rapid.SliceOfNDistinct(rapid.IntRange(0, 4), 0, 3, rapid.ID[int]).Draw(t, label) {
				out = append(out, pvcVol(fmt.Sprintf("c-%d", i)))
			}
			return out
		}
		existing := []*api.Pod{volPod("e1", "n", vols("e1")...), volPod("e2", "n", vols("e2")...)}
		pod := volPod("p", "", vols("pod")...)
		limits := map[string]int32{}
		for _, d := range drivers {
			if rapid.Bool().Draw(t, "limited") {
				limits[d] = rapid.Int32Range(0, 4).Draw(t, "limit")
			}
		}
		verdict := func(objs []any, limits map[string]int32) bool {
			s, err := cluster.NewSnapshot([]*api.Node{testNode("n", nil)}, existing)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.AddObjects(append(slices.Clone(objs), csiNodeOf("n", limits))...); err != nil {
				t.Fatal(err)
			}
			ni, _ := s.Get("n")
			return NodeVolumeLimits(s.Objects(), pod, ni).IsSuccess()
		}
		before := verdict(objs, limits)
		shuffled := slices.Clone(objs)
		for i := len(shuffled) - 1; i > 0; i-- {
			j := rapid.IntRange(0, i).Draw(t, "swap")
			shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
		}
		if verdict(shuffled, limits) != before {
			t.Fatalf("verdict depends on object order")
		}
		raised := map[string]int32{}
		for d, l := range limits {
			raised[d] = l + rapid.Int32Range(0, 2).Draw(t, "raise")
		}
		if before && !verdict(objs, raised) {
			t.Fatalf("raising an allowance made the node infeasible")
		}
	})
}

// Property: a claim bound to a volume without zone labels never makes
// VolumeZone reject a node.
func TestVolumeZoneUnlabelledVolumeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		labels := map[string]string{}
		for _, k := range volumeZoneLabels {
			if rapid.Bool().Draw(t, "has") {
				labels[k] = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "v")
			}
		}
		c := claim("c")
		c.Spec.VolumeName = "pv"
		s := storageSnap(t, []*api.Node{testNode("n", labels)}, nil, c, csiPV("pv", "d", "h"))
		ni, _ := s.Get("n")
		if st := VolumeZone(s.Objects(), volPod("p", "", pvcVol("c")), ni); st != nil {
			t.Fatalf("VolumeZone = %v", st)
		}
	})
}

func ExampleVolumeZone() {
	c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default"}, Spec: api.PersistentVolumeClaimSpec{VolumeName: "pv-a"}}
	pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv-a", Labels: map[string]string{LabelTopologyZone: "zone-a"}}}
	nodes := []*api.Node{
		{ObjectMeta: api.ObjectMeta{Name: "a", Labels: map[string]string{LabelTopologyZone: "zone-a"}}},
		{ObjectMeta: api.ObjectMeta{Name: "b", Labels: map[string]string{LabelTopologyZone: "zone-b"}}},
	}
	snap, _ := cluster.NewSnapshot(nodes, nil)
	_ = snap.AddObjects(c, pv)
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"}, Spec: api.PodSpec{
		Volumes: []api.Volume{{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}}
	for _, name := range []string{"a", "b"} {
		ni, _ := snap.Get(name)
		st := VolumeZone(snap.Objects(), pod, ni)
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s: %v %s", name, st.Code(), st)))
	}
	// Output:
	// a: Success
	// b: UnschedulableAndUnresolvable node(s) had no available volume zone
}

func ExampleRequiredNodeFeatures() {
	no := false
	pod := &api.Pod{Spec: api.PodSpec{HostNetwork: true, HostUsers: &no}}
	fmt.Println(RequiredNodeFeatures(pod))
	// Output: [UserNamespacesHostNetworkSupport]
}

func attachment(name, node, attacher string, pv *string) *api.VolumeAttachment {
	return &api.VolumeAttachment{ObjectMeta: api.ObjectMeta{Name: name},
		Spec: api.VolumeAttachmentSpec{Attacher: attacher, NodeName: node, Source: api.VolumeAttachmentSource{PersistentVolumeName: pv}}}
}
