package scheduler

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
)

// volumeStreamCluster is scheduler_perf's SchedulingCSIPVs (csi: a CSI
// volume per pod, CSINodes allowing 39) or SchedulingInTreePVs (an AWS
// EBS volume per pod, nodes without CSINode) at n nodes: n initial pods
// bound round robin, each with a bound claim, and the claims and volumes
// of measured pods "measured-<i>" for i < measured.
func volumeStreamCluster(t testing.TB, n, measured int, csi bool) *cluster.Snapshot {
	nodes := perfNodes(n, nil)
	var objs []any
	limit := int32(39)
	if csi {
		for _, nd := range nodes {
			objs = append(objs, &api.CSINode{ObjectMeta: api.ObjectMeta{Name: nd.Name, UID: "uid-csinode-" + nd.Name},
				Spec: api.CSINodeSpec{Drivers: []api.CSINodeDriver{{Name: "ebs.csi.aws.com", NodeID: nd.Name, Allocatable: &api.VolumeNodeResources{Count: &limit}}}}})
		}
	}
	claimed := func(name, ns string) *api.Pod {
		p := perfPod(name, ns, "none", nil)
		claim, vol := "pvc-"+ns+"-"+name, "pv-"+ns+"-"+name
		p.Spec.Volumes = []api.Volume{{Name: "vol", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claim}}}
		src := api.PersistentVolumeSource{AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: vol}}
		if csi {
			src = api.PersistentVolumeSource{CSI: &api.CSIPersistentVolumeSource{Driver: "ebs.csi.aws.com", VolumeHandle: vol}}
		}
		size := api.ResourceList{api.ResourceStorage: quantity.MustParse("1Gi")}
		objs = append(objs,
			&api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: vol, UID: "uid-" + vol},
				Spec: api.PersistentVolumeSpec{Capacity: size, PersistentVolumeSource: src, AccessModes: []api.PersistentVolumeAccessMode{api.ReadOnlyMany},
					ClaimRef: &api.ObjectReference{Kind: "PersistentVolumeClaim", Namespace: ns, Name: claim, APIVersion: "v1"}},
				Status: api.PersistentVolumeStatus{Phase: api.VolumeBound}},
			&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: claim, Namespace: ns, UID: "uid-" + claim,
				Annotations: map[string]string{"pv.kubernetes.io/bind-completed": "true"}},
				Spec: api.PersistentVolumeClaimSpec{AccessModes: []api.PersistentVolumeAccessMode{api.ReadOnlyMany},
					Resources: api.VolumeResourceRequirements{Requests: size}, VolumeName: vol},
				Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound}})
		return p
	}
	pods := make([]*api.Pod, n)
	for i := range pods {
		pods[i] = claimed(fmt.Sprintf("init-%05d", i), "init")
		pods[i].Spec.NodeName = nodes[i].Name
	}
	for i := range measured {
		claimed(fmt.Sprintf("measured-%05d", i), "measure")
	}
	snap, err := cluster.NewSnapshot(nodes, pods)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObjects(objs...); err != nil {
		t.Fatal(err)
	}
	return snap
}

// The allocations of a streamed volume pod (scheduled with every node
// scored, then assumed) do not grow with the node count: the per-node
// volume state is kept and only the assumed node's is derived again.
// CSIPVs and InTreePVs at 500 and 5,000 nodes, after a first pod that
// fills the kept state (whose own allocations grow by pages, not by
// nodes).
func TestVolumeStreamAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector")
	}
	if testing.Short() {
		t.Skip("builds 5,000 nodes")
	}
	const runs = 40
	for _, csi := range []bool{true, false} {
		perPod, first := map[int]float64{}, map[int]float64{}
		for _, n := range []int{500, 5000} {
			snap := volumeStreamCluster(t, n, runs+2, csi)
			s, err := New(snap, WithPercentageOfNodesToScore(100), WithParallelism(2), WithSeed(1))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			i := 0
			place := func() {
				p := perfPod(fmt.Sprintf("measured-%05d", i), "measure", "none", nil)
				p.Spec.Volumes = []api.Volume{{Name: "vol", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "pvc-measure-" + p.Name}}}
				i++
				if node := streamPlace(ctx, t, s, p); node == "" {
					t.Fatalf("%s fits nowhere", p.Name)
				}
			}
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			place()
			runtime.ReadMemStats(&m1)
			first[n] = float64(m1.Mallocs - m0.Mallocs)
			perPod[n] = testing.AllocsPerRun(runs, place)
			s.Close()
		}
		name := map[bool]string{true: "CSIPVs", false: "InTreePVs"}[csi]
		t.Logf("%s: %.1f allocations a pod at 500 nodes, %.1f at 5,000 (the first pod: %.0f, %.0f)", name, perPod[500], perPod[5000], first[500], first[5000])
		if perPod[5000] > perPod[500]+3 {
			t.Errorf("%s: %.1f allocations a pod at 5,000 nodes, %.1f at 500: it allocates per node", name, perPod[5000], perPod[500])
		}
		// The first pod fills the kept state in pages: 4,500 more nodes
		// cost a few dozen allocations, not one or more each.
		if first[5000] > first[500]+200 {
			t.Errorf("%s: the first pod allocates %.0f times at 5,000 nodes, %.0f at 500", name, first[5000], first[500])
		}
	}
}
