package volumebinding

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

func pvs(bs ...vbPV) []*api.PersistentVolume {
	out := make([]*api.PersistentVolume, len(bs))
	for i, b := range bs {
		out[i] = b.PersistentVolume
	}
	return out
}

func pvcs(bs ...vbPVC) []*api.PersistentVolumeClaim {
	out := make([]*api.PersistentVolumeClaim, len(bs))
	for i, b := range bs {
		out[i] = b.PersistentVolumeClaim
	}
	return out
}

func nodes(bs ...vbNode) []*api.Node {
	out := make([]*api.Node, len(bs))
	for i, b := range bs {
		out[i] = b.Node
	}
	return out
}

func unresolvable(reasons ...string) *framework.Status {
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, reasons...)
}

func zoneNodes() []*api.Node {
	var out []*api.Node
	for _, z := range []string{"a", "b", "c"} {
		for _, n := range []string{"a", "b"} {
			out = append(out, makeVBNode("zone-"+z+"-node-"+n).label(vbRegion, "region-"+z).label(vbZone, "zone-"+z).Node)
		}
	}
	return out
}

func zonePVs() []*api.PersistentVolume {
	return pvs(
		makePV("pv-a-0", waitSC.Name).available().capacity("200Gi").affinity(vbRegion, "region-a", vbZone, "zone-a"),
		makePV("pv-a-1", waitSC.Name).available().capacity("200Gi").affinity(vbRegion, "region-a", vbZone, "zone-a"),
		makePV("pv-b-0", waitSC.Name).available().capacity("100Gi").affinity(vbRegion, "region-b", vbZone, "zone-b"),
		makePV("pv-b-1", waitSC.Name).available().capacity("100Gi").affinity(vbRegion, "region-b", vbZone, "zone-b"),
	)
}

func hostNodes(names ...string) []*api.Node {
	var out []*api.Node
	for _, n := range names {
		out = append(out, makeVBNode(n).label(vbNodeKey, n).Node)
	}
	return out
}

// Pins upstream volume_binding_test.go TestVolumeBinding (the rows with
// StorageCapacityScoring enabled, its v1.37 default): PreFilter, Filter
// per node, PreScore and Score per node of the combined plugin.
func TestVolumeBinding(t *testing.T) {
	noBind := unresolvable(predicates.ErrReasonBindConflict)
	tests := []struct {
		name          string
		pod           *api.Pod
		nodes         []*api.Node
		pvcs          []*api.PersistentVolumeClaim
		pvs           []*api.PersistentVolume
		capacities    []*api.CSIStorageCapacity
		args          *config.VolumeBindingArgs
		wantPreFilter *framework.Status
		wantFilter    []*framework.Status
		wantPreScore  *framework.Status
		wantScores    []int64
	}{
		{
			// upstream: "pod has not pvcs" (upstream's row runs with
			// StorageCapacityScoring off, so its PreScore skips; on, as in
			// v1.37, every node scores 0)
			name: "pod has not pvcs", pod: makeVBPod("pod-a").Pod, nodes: nodes(makeVBNode("node-a")),
			wantPreFilter: framework.NewStatus(framework.Skip),
		},
		{
			// upstream: "all bound" (with StorageCapacityScoring on, PreScore
			// does not skip and every node scores 0)
			name: "all bound", pod: makeVBPod("pod-a").pvc("pvc-a").Pod, nodes: nodes(makeVBNode("node-a")),
			pvcs:       pvcs(makePVC("pvc-a", waitSC.Name).boundTo("pv-a")),
			pvs:        pvs(makePV("pv-a", waitSC.Name).available()),
			wantFilter: []*framework.Status{nil}, wantScores: []int64{0},
		},
		{
			// upstream: "PVC does not exist"
			name: "PVC does not exist", pod: makeVBPod("pod-a").pvc("pvc-a").Pod, nodes: nodes(makeVBNode("node-a")),
			wantPreFilter: unresolvable(`persistentvolumeclaim "pvc-a" not found`),
		},
		{
			// upstream: "Part of PVCs do not exist"
			name: "Part of PVCs do not exist", pod: makeVBPod("pod-a").pvc("pvc-a").pvc("pvc-b").Pod, nodes: nodes(makeVBNode("node-a")),
			pvcs:          pvcs(makePVC("pvc-a", waitSC.Name).boundTo("pv-a")),
			wantPreFilter: unresolvable(`persistentvolumeclaim "pvc-b" not found`),
		},
		{
			// upstream: "immediate claims not bound"
			name: "immediate claims not bound", pod: makeVBPod("pod-a").pvc("pvc-a").Pod, nodes: nodes(makeVBNode("node-a")),
			pvcs:          pvcs(makePVC("pvc-a", immediateSC.Name)),
			wantPreFilter: unresolvable(predicates.ErrReasonUnboundImmediateClaims),
		},
		{
			// upstream: "unbound claims no matches"
			name: "unbound claims no matches", pod: makeVBPod("pod-a").pvc("pvc-a").Pod, nodes: nodes(makeVBNode("node-a")),
			pvcs:       pvcs(makePVC("pvc-a", waitSC.Name)),
			wantFilter: []*framework.Status{noBind},
		},
		{
			// upstream: "bound and unbound unsatisfied"
			name: "bound and unbound unsatisfied", pod: makeVBPod("pod-a").pvc("pvc-a").pvc("pvc-b").Pod,
			nodes:      nodes(makeVBNode("node-a").label("foo", "barbar")),
			pvcs:       pvcs(makePVC("pvc-a", waitSC.Name).boundTo("pv-a"), makePVC("pvc-b", waitSC.Name)),
			pvs:        pvs(makePV("pv-a", waitSC.Name).available().affinity("foo", "bar")),
			wantFilter: []*framework.Status{unresolvable(predicates.ErrReasonNodeConflict, predicates.ErrReasonBindConflict)},
		},
		{
			// upstream: "pv not found"
			name: "pv not found", pod: makeVBPod("pod-a").pvc("pvc-a").Pod, nodes: nodes(makeVBNode("node-a")),
			pvcs:       pvcs(makePVC("pvc-a", waitSC.Name).boundTo("pv-a")),
			wantFilter: []*framework.Status{unresolvable(predicates.ErrReasonPVNotExist)},
		},
		{
			// upstream: "pv not found claim lost"
			name: "pv not found claim lost", pod: makeVBPod("pod-a").pvc("pvc-a").Pod, nodes: nodes(makeVBNode("node-a")),
			pvcs:          pvcs(makePVC("pvc-a", waitSC.Name).boundTo("pv-a").phase(api.ClaimLost)),
			wantPreFilter: unresolvable(`persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"`),
		},
		{
			// upstream: "local volumes with close capacity are preferred"
			name: "local volumes with close capacity are preferred", pod: makeVBPod("pod-a").pvc("pvc-a").Pod,
			nodes: nodes(makeVBNode("node-a"), makeVBNode("node-b"), makeVBNode("node-c")),
			pvcs:  pvcs(makePVC("pvc-a", waitSC.Name).request("50Gi")),
			pvs: pvs(
				makePV("pv-a-0", waitSC.Name).available().capacity("200Gi").affinity(vbHostname, "node-a"),
				makePV("pv-a-1", waitSC.Name).available().capacity("200Gi").affinity(vbHostname, "node-a"),
				makePV("pv-b-0", waitSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-b"),
				makePV("pv-b-1", waitSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-b"),
			),
			wantFilter: []*framework.Status{nil, nil, noBind},
			wantScores: []int64{75, 50, 0},
		},
		{
			// upstream: "local volumes with close capacity are preferred (multiple pvcs)"
			name: "local volumes with close capacity are preferred (multiple pvcs)", pod: makeVBPod("pod-a").pvc("pvc-0").pvc("pvc-1").Pod,
			nodes: nodes(makeVBNode("node-a"), makeVBNode("node-b"), makeVBNode("node-c")),
			pvcs:  pvcs(makePVC("pvc-0", waitSC.Name).request("50Gi"), makePVC("pvc-1", waitHDDSC.Name).request("100Gi")),
			pvs: pvs(
				makePV("pv-a-0", waitSC.Name).available().capacity("200Gi").affinity(vbHostname, "node-a"),
				makePV("pv-a-1", waitSC.Name).available().capacity("200Gi").affinity(vbHostname, "node-a"),
				makePV("pv-a-2", waitHDDSC.Name).available().capacity("200Gi").affinity(vbHostname, "node-a"),
				makePV("pv-a-3", waitHDDSC.Name).available().capacity("200Gi").affinity(vbHostname, "node-a"),
				makePV("pv-b-0", waitSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-b"),
				makePV("pv-b-1", waitSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-b"),
				makePV("pv-b-2", waitHDDSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-b"),
				makePV("pv-b-3", waitHDDSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-b"),
			),
			wantFilter: []*framework.Status{nil, nil, noBind},
			wantScores: []int64{63, 25, 0},
		},
		{
			// upstream: "zonal volumes with close capacity are preferred"
			name: "zonal volumes with close capacity are preferred", pod: makeVBPod("pod-a").pvc("pvc-a").Pod,
			nodes:      zoneNodes(),
			pvcs:       pvcs(makePVC("pvc-a", waitSC.Name).request("50Gi")),
			pvs:        zonePVs(),
			wantFilter: []*framework.Status{nil, nil, nil, nil, noBind, noBind},
			wantScores: []int64{75, 75, 50, 50, 0, 0},
		},
		{
			// upstream: "zonal volumes with close capacity are preferred (custom shape)"
			name: "zonal volumes with close capacity are preferred (custom shape)", pod: makeVBPod("pod-a").pvc("pvc-a").Pod,
			nodes: zoneNodes(),
			pvcs:  pvcs(makePVC("pvc-a", waitSC.Name).request("50Gi")),
			pvs:   zonePVs(),
			args: &config.VolumeBindingArgs{Shape: []config.UtilizationShapePoint{
				{Utilization: 0, Score: 0}, {Utilization: 50, Score: 3}, {Utilization: 100, Score: 5}}},
			wantFilter: []*framework.Status{nil, nil, nil, nil, noBind, noBind},
			wantScores: []int64{15, 15, 30, 30, 0, 0},
		},
		{
			// upstream: "storage capacity score"
			name: "storage capacity score", pod: makeVBPod("pod-a").pvc("pvc-dynamic").Pod,
			nodes: hostNodes("node-a", "node-b", "node-c"),
			pvcs:  pvcs(makePVC("pvc-dynamic", waitSCWithCap.Name).request("10Gi")),
			capacities: []*api.CSIStorageCapacity{
				makeCapacity("node-a", waitSCWithCap.Name, "node-a", "100Gi", ""),
				makeCapacity("node-b", waitSCWithCap.Name, "node-b", "50Gi", ""),
				makeCapacity("node-c", waitSCWithCap.Name, "node-c", "10Gi", ""),
			},
			wantFilter: []*framework.Status{nil, nil, nil},
			wantScores: []int64{90, 80, 0},
		},
		{
			// upstream: "storage capacity score with static binds"
			name: "storage capacity score with static binds", pod: makeVBPod("pod-a").pvc("pvc-dynamic").pvc("pvc-static").Pod,
			nodes: hostNodes("node-a", "node-b", "node-c"),
			pvcs:  pvcs(makePVC("pvc-dynamic", waitSCWithCap.Name).request("10Gi"), makePVC("pvc-static", waitSC.Name).request("50Gi")),
			pvs: pvs(
				makePV("pv-static-a", waitSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-a"),
				makePV("pv-static-b", waitSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-b"),
				makePV("pv-static-c", waitSC.Name).available().capacity("100Gi").affinity(vbHostname, "node-c"),
			),
			capacities: []*api.CSIStorageCapacity{
				makeCapacity("node-a", waitSCWithCap.Name, "node-a", "100Gi", ""),
				makeCapacity("node-b", waitSCWithCap.Name, "node-b", "50Gi", ""),
				makeCapacity("node-c", waitSCWithCap.Name, "node-c", "10Gi", ""),
			},
			wantFilter: []*framework.Status{nil, nil, nil},
			wantScores: []int64{50, 50, 50},
		},
		{
			// upstream: "dynamic provisioning with multiple PVCs of the same StorageClass"
			name: "dynamic provisioning with multiple PVCs of the same StorageClass", pod: makeVBPod("pod-a").pvc("pvc-dynamic-0").pvc("pvc-dynamic-1").Pod,
			nodes:      hostNodes("node-a"),
			pvcs:       pvcs(makePVC("pvc-dynamic-0", waitSCWithCap.Name).request("50Gi"), makePVC("pvc-dynamic-1", waitSCWithCap.Name).request("50Gi")),
			capacities: []*api.CSIStorageCapacity{makeCapacity("node-a", waitSCWithCap.Name, "node-a", "100Gi", "")},
			wantFilter: []*framework.Status{nil},
			wantScores: []int64{0},
		},
		{
			// upstream: "prefer node with least allocatable"
			name: "prefer node with least allocatable", pod: makeVBPod("pod-a").pvc("pvc-dynamic").Pod,
			nodes: hostNodes("node-a", "node-b", "node-c"),
			pvcs:  pvcs(makePVC("pvc-dynamic", waitSCWithCap.Name).request("10Gi")),
			capacities: []*api.CSIStorageCapacity{
				makeCapacity("node-a", waitSCWithCap.Name, "node-a", "100Gi", ""),
				makeCapacity("node-b", waitSCWithCap.Name, "node-b", "20Gi", ""),
				makeCapacity("node-c", waitSCWithCap.Name, "node-c", "10Gi", ""),
			},
			args: &config.VolumeBindingArgs{BindTimeoutSeconds: i64(300), Shape: []config.UtilizationShapePoint{
				{Utilization: 0, Score: 0}, {Utilization: 100, Score: 10}}},
			wantFilter: []*framework.Status{nil, nil, nil},
			wantScores: []int64{10, 50, 100},
		},
		{
			// upstream: "prefer node with maximum allocatable"
			name: "prefer node with maximum allocatable", pod: makeVBPod("pod-a").pvc("pvc-dynamic").Pod,
			nodes: hostNodes("node-a", "node-b", "node-c"),
			pvcs:  pvcs(makePVC("pvc-dynamic", waitSCWithCap.Name).request("10Gi")),
			capacities: []*api.CSIStorageCapacity{
				makeCapacity("node-a", waitSCWithCap.Name, "node-a", "100Gi", ""),
				makeCapacity("node-b", waitSCWithCap.Name, "node-b", "20Gi", ""),
				makeCapacity("node-c", waitSCWithCap.Name, "node-c", "10Gi", ""),
			},
			args:       &config.VolumeBindingArgs{BindTimeoutSeconds: i64(300), Shape: config.DefaultVolumeBindingShape()},
			wantFilter: []*framework.Status{nil, nil, nil},
			wantScores: []int64{90, 50, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var objs []any
			for _, o := range tc.pvcs {
				objs = append(objs, o)
			}
			for _, o := range tc.pvs {
				objs = append(objs, o)
			}
			for _, o := range tc.capacities {
				objs = append(objs, o)
			}
			snap, err := vbSnapshot(tc.nodes, objs...)
			if err != nil {
				t.Fatal(err)
			}
			h := vbHandle{snap}
			var args any
			if tc.args != nil {
				args = tc.args
			}
			fp, err := New(args, h)
			if err != nil {
				t.Fatal(err)
			}
			filter := fp.(*VolumeBinding)
			score := filter
			ctx := context.Background()
			state := framework.NewCycleState()
			// In the table's node order.
			infos := make([]*cluster.NodeInfo, len(tc.nodes))
			for i, n := range tc.nodes {
				infos[i], _ = snap.Get(n.Name)
			}
			_, st := filter.PreFilter(ctx, state, tc.pod, infos)
			if !st.Equal(tc.wantPreFilter) {
				t.Fatalf("PreFilter %v, want %v", st, tc.wantPreFilter)
			}
			if !st.IsSuccess() {
				// A rejected pod goes no further; a skipped one is not
				// filtered, but scores 0 everywhere.
				if st.IsSkip() {
					if ps := score.PreScore(ctx, state, tc.pod, infos); !ps.IsSuccess() {
						t.Errorf("PreScore %v, want success", ps)
					}
					for _, ni := range infos {
						if got, st := score.Score(ctx, state, tc.pod, ni); got != 0 || !st.IsSuccess() {
							t.Errorf("Score(%s) %d %v, want 0", ni.Node().Name, got, st)
						}
					}
				}
				return
			}
			for i, ni := range infos {
				if got := filter.Filter(ctx, state, tc.pod, ni); !got.Equal(tc.wantFilter[i]) {
					t.Errorf("Filter(%s) %v, want %v", ni.Node().Name, got, tc.wantFilter[i])
				}
			}
			if ps := score.PreScore(ctx, state, tc.pod, infos); !ps.Equal(tc.wantPreScore) {
				t.Fatalf("PreScore %v, want %v", ps, tc.wantPreScore)
			}
			for i, ni := range infos {
				if tc.wantFilter[i] != nil {
					continue // not feasible: never scored
				}
				got, st := score.Score(ctx, state, tc.pod, ni)
				if !st.IsSuccess() || got != tc.wantScores[i] {
					t.Errorf("Score(%s) %d %v, want %d", ni.Node().Name, got, st, tc.wantScores[i])
				}
			}
		})
	}
}

func i64(v int64) *int64 { return &v }
