package noderesources

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

// Pins upstream noderesources/balanced_allocation_test.go
// TestNodeResourcesBalancedAllocation (the cases without DRA), including
// its per-node comments (balance without → with the pod).
func TestNodeResourcesBalancedAllocation(t *testing.T) {
	cpuMemGpu := []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}, {Name: "nvidia.com/gpu", Weight: 1}}
	tests := []struct {
		name         string
		pod          *api.Pod
		nodes        []*api.Node
		existing     []*api.Pod
		want         []int64
		resources    []config.ResourceSpec
		runPreScore  bool
		wantPreScore framework.Code
	}{
		{
			name:         "nothing scheduled, nothing requested, skip in PreScore",
			pod:          makePod().Obj(),
			nodes:        []*api.Node{makeNodeMilli("node1", 4000, 10000, nil), makeNodeMilli("node2", 4000, 10000, nil)},
			runPreScore:  true,
			wantPreScore: framework.Skip,
		},
		{
			// node1: cpu 0→75%, memory 0→50%: 100→87, 68; node2: 50%/50%: 75.
			name:        "nothing scheduled, resources requested, differently sized nodes",
			pod:         makePod().req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			nodes:       []*api.Node{makeNodeMilli("node1", 4000, 10000, nil), makeNodeMilli("node2", 6000, 10000, nil)},
			want:        []int64{68, 75},
			runPreScore: true,
		},
		{
			// node1: 85→82, 73; node2: 97→95, 74.
			name:  "resources requested, pods scheduled with resources",
			pod:   makePod().req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			nodes: []*api.Node{makeNodeMilli("node1", 10000, 20000, nil), makeNodeMilli("node2", 10000, 20000, nil)},
			existing: []*api.Pod{
				makePod().node("node1").req(cpuOnly("1000m")).req(cpuOnly("2000m")).Obj(),
				makePod().node("node2").req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			},
			want:        []int64{73, 74},
			runPreScore: true,
		},
		{
			// node2: memory 10% → 20% of 50000: 90→80, 70.
			name:  "resources requested, pods scheduled with resources, differently sized nodes",
			pod:   makePod().req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			nodes: []*api.Node{makeNodeMilli("node1", 10000, 20000, nil), makeNodeMilli("node2", 10000, 50000, nil)},
			existing: []*api.Pod{
				makePod().node("node1").req(cpuOnly("1000m")).req(cpuOnly("2000m")).Obj(),
				makePod().node("node2").req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			},
			want:        []int64{73, 70},
			runPreScore: true,
		},
		{
			// node1: 50→100, 100; node2: 100→50, 50.
			name:        "resources requested, pods scheduled with resources, nodes to reach min/max score",
			pod:         makePod().req(map[string]string{"memory": "2000"}).req(map[string]string{"memory": "3000"}).Obj(),
			nodes:       []*api.Node{makeNodeMilli("node1", 3000, 5000, nil), makeNodeMilli("node2", 3000, 5000, nil)},
			existing:    []*api.Pod{makePod().node("node1").req(cpuOnly("1000m")).req(cpuOnly("2000m")).Obj()},
			want:        []int64{100, 50},
			runPreScore: true,
		},
		{
			// node1: 75→50, 62; node2: 100→75, 62.
			name:  "requested resources at node capacity",
			pod:   makePod().req(cpuOnly("1000m")).req(cpuOnly("2000m")).Obj(),
			nodes: []*api.Node{makeNodeMilli("node1", 6000, 10000, nil), makeNodeMilli("node2", 6000, 10000, nil)},
			existing: []*api.Pod{
				makePod().node("node1").req(cpuOnly("1000m")).req(cpuOnly("2000m")).Obj(),
				makePod().node("node2").req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			},
			want:        []int64{62, 62},
			runPreScore: true,
		},
		{
			// Three resources: standard deviation. node1: 69→70, 75;
			// node2: 62→65, 76.
			name:  "scalar resource is included in the score computation if pod requests the scalar resource",
			pod:   makePod().req(cpuAndMemoryAndGpu("0", "0", "1")).Obj(),
			nodes: []*api.Node{makeNodeMilli("node1", 3500, 40000, gpu(8)), makeNodeMilli("node2", 3500, 40000, gpu(8))},
			existing: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("1000m", "2000")).req(cpuAndMemoryAndGpu("2000m", "3000", "3")).Obj(),
				makePod().node("node2").req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			},
			want:        []int64{75, 76},
			resources:   cpuMemGpu,
			runPreScore: true,
		},
		{
			// The gpu is left out when the pod does not request it: 100→63,
			// 56 on both.
			name:        "scalar resource is not included in the score computation if pod doesn't request the scalar resource",
			pod:         makePod().req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			nodes:       []*api.Node{makeNodeMilli("node1", 3500, 40000, gpu(8)), makeNodeMilli("node2", 3500, 40000, nil)},
			want:        []int64{56, 56},
			resources:   cpuMemGpu,
			runPreScore: true,
		},
		{
			name:  "resources requested, pods scheduled with resources if PreScore not called",
			pod:   makePod().req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			nodes: []*api.Node{makeNodeMilli("node1", 10000, 20000, nil), makeNodeMilli("node2", 10000, 20000, nil)},
			existing: []*api.Pod{
				makePod().node("node1").req(cpuOnly("1000m")).req(cpuOnly("2000m")).Obj(),
				makePod().node("node2").req(cpuAndMemory("1000m", "2000")).req(cpuAndMemory("2000m", "3000")).Obj(),
			},
			want: []int64{73, 74},
		},
		// Beyond upstream's table: without PreScore a pod requesting nothing
		// scores 0.
		{
			name:  "nothing requested without PreScore",
			pod:   makePod().Obj(),
			nodes: []*api.Node{makeNodeMilli("node1", 4000, 10000, nil)},
			want:  []int64{0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewBalancedAllocation(&config.NodeResourcesBalancedAllocationArgs{Resources: tc.resources}, nil)
			if err != nil {
				t.Fatal(err)
			}
			snap := snapshot(t, tc.nodes, tc.existing)
			if tc.runPreScore {
				st := p.(framework.PreScorePlugin).PreScore(t.Context(), framework.NewCycleState(), tc.pod, snap.Nodes())
				if st.Code() != tc.wantPreScore {
					t.Fatalf("PreScore: %v, want %v", st, tc.wantPreScore)
				}
				if st.IsSkip() {
					return
				}
			}
			got, sts := scoreNodes(t, p, tc.pod, snap, tc.nodes, tc.runPreScore)
			for i := range tc.nodes {
				if !sts[i].IsSuccess() {
					t.Error(sts[i])
				}
				if got[i].Score != tc.want[i] {
					t.Errorf("%s: score %d, want %d", tc.nodes[i].Name, got[i].Score, tc.want[i])
				}
				ni, _ := snap.Get(tc.nodes[i].Name)
				if plain := priorities.BalancedAllocation(tc.pod, ni, tc.resources); plain != tc.want[i] {
					t.Errorf("%s: BalancedAllocation %d, want %d", tc.nodes[i].Name, plain, tc.want[i])
				}
			}
		})
	}
}
