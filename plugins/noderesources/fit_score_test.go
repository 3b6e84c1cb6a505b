package noderesources

import (
	"context"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

var (
	defaultResources    = []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}
	extendedRes         = "abc.com/xyz"
	extendedResourceSet = []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}, {Name: extendedRes, Weight: 1}}
)

type allocatedCase struct {
	name           string
	requestedPod   *api.Pod
	nodes          []*api.Node
	existingPods   []*api.Pod
	expectedScores framework.NodeScoreList
	resources      []config.ResourceSpec
	wantStatusCode framework.Code
}

// runStrategy builds the score half with the strategy as given (without
// the factory's defaulting, as upstream's tests call NewFit with
// undefaulted args) and scores the nodes after PreScore.
func runStrategy(t *testing.T, typ config.ScoringStrategyType, shape []config.UtilizationShapePoint, tc allocatedCase, preScore bool) {
	t.Helper()
	s := &config.ScoringStrategy{Type: typ, Resources: tc.resources}
	if shape != nil {
		s.RequestedToCapacityRatio = &config.RequestedToCapacityRatioParam{Shape: shape}
	}
	pl, err := newFit(nil, nil, s)
	if err != nil {
		t.Fatal(err)
	}
	snap := snapshot(t, tc.nodes, tc.existingPods)
	got, sts := scoreNodes(t, pl, tc.requestedPod, snap, tc.nodes, preScore)
	for _, st := range sts {
		if st.Code() != tc.wantStatusCode {
			t.Errorf("status %v, want code %v", st, tc.wantStatusCode)
		}
	}
	checkScores(t, got, tc.expectedScores)
}

// Pins upstream noderesources/least_allocated_test.go
// TestLeastAllocatedScoringStrategy (the weight-validation cases are in
// TestStrategyArgsErrors and package config).
func TestLeastAllocatedScoringStrategy(t *testing.T) {
	tests := []allocatedCase{
		{
			name:           "nothing scheduled, nothing requested",
			requestedPod:   makePod().Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("4000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: framework.MaxNodeScore}, {Name: "node2", Score: framework.MaxNodeScore}},
			resources:      defaultResources,
		},
		{
			name:           "nothing scheduled, resources requested, differently sized nodes",
			requestedPod:   makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 37}, {Name: "node2", Score: 50}},
			resources:      defaultResources,
		},
		{
			name:           "Resources not set, pods scheduled with error",
			requestedPod:   makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: framework.MinNodeScore}, {Name: "node2", Score: framework.MinNodeScore}},
			resources:      nil,
			wantStatusCode: framework.Error,
		},
		{
			name:           "no resources requested, pods scheduled",
			requestedPod:   makePod().Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("4000", "10000"))},
			existingPods:   []*api.Pod{makePod().node("node1").Obj(), makePod().node("node1").Obj(), makePod().node("node2").Obj(), makePod().node("node2").Obj()},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: framework.MaxNodeScore}, {Name: "node2", Score: framework.MaxNodeScore}},
			resources:      defaultResources,
		},
		{
			name:         "no resources requested, pods scheduled with resources",
			requestedPod: makePod().Obj(),
			nodes:        []*api.Node{makeNode("node1", cpuAndMemory("10000", "20000")), makeNode("node2", cpuAndMemory("10000", "20000"))},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 70}, {Name: "node2", Score: 57}},
			resources:      defaultResources,
		},
		{
			name:         "resources requested, pods scheduled with resources",
			requestedPod: makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:        []*api.Node{makeNode("node1", cpuAndMemory("10000", "20000")), makeNode("node2", cpuAndMemory("10000", "20000"))},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 57}, {Name: "node2", Score: 45}},
			resources:      defaultResources,
		},
		{
			name:         "resources requested, pods scheduled with resources, differently sized nodes",
			requestedPod: makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:        []*api.Node{makeNode("node1", cpuAndMemory("10000", "20000")), makeNode("node2", cpuAndMemory("10000", "50000"))},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 57}, {Name: "node2", Score: 60}},
			resources:      defaultResources,
		},
		{
			name:         "requested resources exceed node capacity",
			requestedPod: makePod().req(cpuAndMemory("3000", "0")).Obj(),
			nodes:        []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("4000", "10000"))},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 50}, {Name: "node2", Score: 25}},
			resources:      defaultResources,
		},
		{
			name:         "zero node resources, pods scheduled with resources",
			requestedPod: makePod().Obj(),
			nodes:        []*api.Node{makeNode("node1", nil), makeNode("node2", nil)},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: framework.MinNodeScore}, {Name: "node2", Score: framework.MinNodeScore}},
			resources:      defaultResources,
		},
		{
			name:           "nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes",
			requestedPod:   makePod().node("node1").req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 41}, {Name: "node2", Score: 50}},
			resources:      []config.ResourceSpec{{Name: "memory", Weight: 2}, {Name: "cpu", Weight: 1}},
		},
		{
			name:         "bypass extended resource if the pod does not request",
			requestedPod: makePod().node("node1").req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes: []*api.Node{makeNode("node1", cpuAndMemory("6000", "10000")),
				makeNode("node2", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "4"})},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 50}, {Name: "node2", Score: 50}},
			resources:      extendedResourceSet,
		},
		{
			name:         "honor extended resource if the pod requests",
			requestedPod: makePod().node("node1").req(map[string]string{"cpu": "3000", "memory": "5000", extendedRes: "2"}).Obj(),
			nodes: []*api.Node{makeNode("node1", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "4"}),
				makeNode("node2", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "10"})},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 50}, {Name: "node2", Score: 60}},
			resources:      extendedResourceSet,
		},
		{
			name:         "if the node doesn't have a resource",
			requestedPod: makePod().node("node1").req(cpuAndMemory("3000", "4000")).Obj(),
			nodes: []*api.Node{makeNode("node1", cpuAndMemory("6000", "10000")),
				makeNode("node2", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "4"})},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 55}, {Name: "node2", Score: 55}},
			resources:      []config.ResourceSpec{{Name: extendedRes, Weight: 2}, {Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runStrategy(t, config.LeastAllocated, nil, tc, true) })
	}
}

// Pins upstream noderesources/most_allocated_test.go
// TestMostAllocatedScoringStrategy.
func TestMostAllocatedScoringStrategy(t *testing.T) {
	tests := []allocatedCase{
		{
			name:           "nothing scheduled, nothing requested",
			requestedPod:   makePod().Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("4000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: framework.MinNodeScore}, {Name: "node2", Score: framework.MinNodeScore}},
			resources:      defaultResources,
		},
		{
			name:           "nothing scheduled, resources requested, differently sized nodes",
			requestedPod:   makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 62}, {Name: "node2", Score: 50}},
			resources:      defaultResources,
		},
		{
			name:           "Resources not set, pods scheduled with error",
			requestedPod:   makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: framework.MinNodeScore}, {Name: "node2", Score: framework.MinNodeScore}},
			wantStatusCode: framework.Error,
		},
		{
			name:         "no resources requested, pods scheduled with resources",
			requestedPod: makePod().Obj(),
			nodes:        []*api.Node{makeNode("node1", cpuAndMemory("10000", "20000")), makeNode("node2", cpuAndMemory("10000", "20000"))},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 30}, {Name: "node2", Score: 42}},
			resources:      defaultResources,
		},
		{
			name:         "resources requested, pods scheduled with resources",
			requestedPod: makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:        []*api.Node{makeNode("node1", cpuAndMemory("10000", "20000")), makeNode("node2", cpuAndMemory("10000", "20000"))},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "0")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 42}, {Name: "node2", Score: 55}},
			resources:      defaultResources,
		},
		{
			name:           "resources requested equal node capacity",
			requestedPod:   makePod().req(cpuAndMemory("2000", "4000")).req(cpuAndMemory("3000", "5000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("5000", "10000")), makeNode("node2", cpuAndMemory("10000", "9000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 95}, {Name: "node2", Score: 75}},
			resources:      defaultResources,
		},
		{
			name:           "nothing scheduled, resources requested, differently sized nodes (weights)",
			requestedPod:   makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 58}, {Name: "node2", Score: 50}},
			resources:      []config.ResourceSpec{{Name: "memory", Weight: 2}, {Name: "cpu", Weight: 1}},
		},
		{
			name:           "no resources requested, pods scheduled, nonzero request for resource",
			requestedPod:   makePod().container("container").Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("250m", "1000Mi")), makeNode("node2", cpuAndMemory("250m", "1000Mi"))},
			existingPods:   []*api.Pod{makePod().node("node1").container("container").Obj(), makePod().node("node1").container("container").Obj()},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 80}, {Name: "node2", Score: 30}},
			resources:      defaultResources,
		},
		{
			name:         "bypass extended resource if the pod does not request",
			requestedPod: makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes: []*api.Node{makeNode("node1", cpuAndMemory("6000", "10000")),
				makeNode("node2", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "4"})},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 50}, {Name: "node2", Score: 50}},
			resources:      extendedResourceSet,
		},
		{
			name:         "honor extended resource if the pod request",
			requestedPod: makePod().node("node1").req(map[string]string{"cpu": "3000", "memory": "5000", extendedRes: "2"}).Obj(),
			nodes: []*api.Node{makeNode("node1", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "4"}),
				makeNode("node2", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "10"})},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 50}, {Name: "node2", Score: 40}},
			resources:      extendedResourceSet,
		},
		{
			name:         "if the node doesn't have a resource",
			requestedPod: makePod().node("node1").req(cpuAndMemory("3000", "4000")).Obj(),
			nodes: []*api.Node{makeNode("node1", cpuAndMemory("6000", "10000")),
				makeNode("node2", map[string]string{"cpu": "6000", "memory": "10000", extendedRes: "4"})},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 45}, {Name: "node2", Score: 45}},
			resources:      []config.ResourceSpec{{Name: extendedRes, Weight: 2}, {Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runStrategy(t, config.MostAllocated, nil, tc, true) })
	}
}

// The weight cases of upstream's least/most allocated tests, through the
// factory: negative and too-large weights are rejected with upstream's
// field path; a zero weight is defaulted to 1 by the factory (upstream's
// tests call NewFit without defaulting and so see an error; config's
// Validate still rejects 0, see package config).
func TestStrategyArgsErrors(t *testing.T) {
	for _, typ := range []config.ScoringStrategyType{config.LeastAllocated, config.MostAllocated} {
		for _, tc := range []struct {
			resources []config.ResourceSpec
			want      string
		}{
			{[]config.ResourceSpec{{Name: "memory", Weight: -1}, {Name: "cpu", Weight: 1}}, "scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of memory not in valid range (0, 100]"},
			{[]config.ResourceSpec{{Name: "memory", Weight: 1}, {Name: "cpu", Weight: 101}}, "scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]"},
		} {
			_, err := NewFit(&config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: typ, Resources: tc.resources}}, nil)
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: got %v, want %s", typ, err, tc.want)
			}
		}
		if _, err := NewFit(&config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: typ,
			Resources: []config.ResourceSpec{{Name: "memory", Weight: 1}, {Name: "cpu", Weight: 0}}}}, nil); err != nil {
			t.Errorf("%s: zero weight after defaulting: %v", typ, err)
		}
	}
	if _, err := NewFit(1, nil); err == nil || err.Error() != "want args to be of type NodeResourcesFitArgs, got int" {
		t.Errorf("wrong args type: %v", err)
	}
}

// Pins upstream noderesources/requested_to_capacity_ratio_test.go
// TestRequestedToCapacityRatioScoringStrategy.
func TestRequestedToCapacityRatioScoringStrategy(t *testing.T) {
	shape := []config.UtilizationShapePoint{{Utilization: 0, Score: 10}, {Utilization: 100, Score: 0}}
	tests := []allocatedCase{
		{
			name:           "nothing scheduled, nothing requested (default - least requested nodes have priority)",
			requestedPod:   makePod().Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("4000", "10000"))},
			existingPods:   []*api.Pod{makePod().node("node1").Obj(), makePod().node("node1").Obj()},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: framework.MaxNodeScore}, {Name: "node2", Score: framework.MaxNodeScore}},
			resources:      defaultResources,
		},
		{
			name:           "nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)",
			requestedPod:   makePod().req(cpuAndMemory("1000", "2000")).req(cpuAndMemory("2000", "3000")).Obj(),
			nodes:          []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			existingPods:   []*api.Pod{makePod().node("node1").Obj(), makePod().node("node1").Obj()},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 38}, {Name: "node2", Score: 50}},
			resources:      defaultResources,
		},
		{
			name:         "no resources requested, pods scheduled with resources (default - least requested nodes have priority)",
			requestedPod: makePod().Obj(),
			nodes:        []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory("6000", "10000"))},
			existingPods: []*api.Pod{
				makePod().node("node1").req(cpuAndMemory("3000", "5000")).Obj(),
				makePod().node("node2").req(cpuAndMemory("3000", "5000")).Obj(),
			},
			expectedScores: framework.NodeScoreList{{Name: "node1", Score: 38}, {Name: "node2", Score: 50}},
			resources:      defaultResources,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runStrategy(t, config.RequestedToCapacityRatio, shape, tc, true) })
	}
}

func binPackingArgs(resources []config.ResourceSpec) *config.ScoringStrategy {
	return &config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: resources,
		RequestedToCapacityRatio: &config.RequestedToCapacityRatioParam{Shape: []config.UtilizationShapePoint{{Utilization: 0, Score: 0}, {Utilization: 100, Score: 1}}}}
}

// Pins upstream TestResourceBinPackingSingleExtended.
func TestResourceBinPackingSingleExtended(t *testing.T) {
	ext1, ext2 := map[string]int64{"intel.com/foo": 4}, map[string]int64{"intel.com/foo": 8}
	ext3, ext4 := map[string]string{"intel.com/foo": "2"}, map[string]string{"intel.com/foo": "4"}
	nodes := func() []*api.Node {
		return []*api.Node{makeNodeMilli("node1", 4000, 10000*1024*1024, ext2), makeNodeMilli("node2", 4000, 10000*1024*1024, ext1)}
	}
	tests := []struct {
		name string
		pod  *api.Pod
		pods []*api.Pod
		want framework.NodeScoreList
	}{
		{"nothing scheduled, nothing requested", makePod().Obj(), nil, framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 0}}},
		{"resources requested, pods scheduled with less resources", makePod().req(ext3).Obj(), []*api.Pod{makePod().Obj()},
			framework.NodeScoreList{{Name: "node1", Score: 2}, {Name: "node2", Score: 5}}},
		{"resources requested, pods scheduled with resources, on node with existing pod running ", makePod().req(ext3).Obj(),
			[]*api.Pod{makePod().req(ext3).node("node2").Obj()}, framework.NodeScoreList{{Name: "node1", Score: 2}, {Name: "node2", Score: 10}}},
		{"resources requested, pods scheduled with more resources", makePod().req(ext4).Obj(), []*api.Pod{makePod().Obj()},
			framework.NodeScoreList{{Name: "node1", Score: 5}, {Name: "node2", Score: 10}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, err := newFit(nil, nil, binPackingArgs([]config.ResourceSpec{{Name: "intel.com/foo", Weight: 1}}))
			if err != nil {
				t.Fatal(err)
			}
			ns := nodes()
			got, _ := scoreNodes(t, pl, tc.pod, snapshot(t, ns, tc.pods), ns, true)
			checkScores(t, got, tc.want)
		})
	}
}

// Pins upstream TestResourceBinPackingMultipleExtended.
func TestResourceBinPackingMultipleExtended(t *testing.T) {
	ext1 := map[string]int64{"intel.com/foo": 4, "intel.com/bar": 8}
	ext2 := map[string]int64{"intel.com/foo": 8, "intel.com/bar": 4}
	pod1 := map[string]string{"intel.com/foo": "2", "intel.com/bar": "2"}
	pod2 := map[string]string{"intel.com/foo": "4", "intel.com/bar": "2"}
	nodes := func() []*api.Node {
		return []*api.Node{makeNodeMilli("node1", 4000, 10000*1024*1024, ext2), makeNodeMilli("node2", 4000, 10000*1024*1024, ext1)}
	}
	tests := []struct {
		name string
		pod  *api.Pod
		pods []*api.Pod
		want framework.NodeScoreList
	}{
		{"nothing scheduled, nothing requested", makePod().Obj(), nil, framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 0}}},
		{"resources requested, pods scheduled with less resources", makePod().req(pod1).Obj(), []*api.Pod{makePod().Obj()},
			framework.NodeScoreList{{Name: "node1", Score: 4}, {Name: "node2", Score: 3}}},
		{"resources requested, pods scheduled with resources, on node with existing pod running ", makePod().req(pod1).Obj(),
			[]*api.Pod{makePod().req(pod2).node("node2").Obj()}, framework.NodeScoreList{{Name: "node1", Score: 4}, {Name: "node2", Score: 7}}},
		{"resources requested, pods scheduled with more resources", makePod().req(pod2).Obj(), []*api.Pod{makePod().Obj()},
			framework.NodeScoreList{{Name: "node1", Score: 5}, {Name: "node2", Score: 5}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl, err := newFit(nil, nil, binPackingArgs([]config.ResourceSpec{{Name: "intel.com/foo", Weight: 3}, {Name: "intel.com/bar", Weight: 5}}))
			if err != nil {
				t.Fatal(err)
			}
			ns := nodes()
			got, _ := scoreNodes(t, pl, tc.pod, snapshot(t, ns, tc.pods), ns, true)
			checkScores(t, got, tc.want)
		})
	}
}

// Pins upstream noderesources/fit_test.go TestFitScore (the cases without
// DRA), with and without PreScore.
func TestFitScore(t *testing.T) {
	twoNodes := func(cpu2 string) []*api.Node {
		return []*api.Node{makeNode("node1", cpuAndMemory("4000", "10000")), makeNode("node2", cpuAndMemory(cpu2, "10000"))}
	}
	existing := func() []*api.Pod {
		return []*api.Pod{
			makePod().node("node1").req(cpuAndMemory("2000", "4000")).Obj(),
			makePod().node("node2").req(cpuAndMemory("1000", "2000")).Obj(),
		}
	}
	withSidecar := func() []*api.Pod {
		return []*api.Pod{
			makePod().node("node1").req(cpuAndMemory("1000", "2000")).sidecarReq(cpuAndMemory("1000", "2000")).Obj(),
			makePod().node("node2").req(cpuAndMemory("1000", "2000")).Obj(),
		}
	}
	rtcr := func(shape ...config.UtilizationShapePoint) config.NodeResourcesFitArgs {
		return config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: defaultResources,
			RequestedToCapacityRatio: &config.RequestedToCapacityRatioParam{Shape: shape}}}
	}
	typed := func(t config.ScoringStrategyType) config.NodeResourcesFitArgs {
		return config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: t, Resources: defaultResources}}
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		nodes    []*api.Node
		existing []*api.Pod
		want     framework.NodeScoreList
		args     config.NodeResourcesFitArgs
	}{
		{"test case for ScoringStrategy RequestedToCapacityRatio case1", makePod().req(cpuAndMemory("3000", "5000")).Obj(), twoNodes("6000"), existing(),
			framework.NodeScoreList{{Name: "node1", Score: 10}, {Name: "node2", Score: 32}}, rtcr(config.UtilizationShapePoint{Utilization: 0, Score: 10}, config.UtilizationShapePoint{Utilization: 100, Score: 0})},
		{"test case for ScoringStrategy RequestedToCapacityRatio case2", makePod().req(cpuAndMemory("3000", "5000")).Obj(), twoNodes("6000"), existing(),
			framework.NodeScoreList{{Name: "node1", Score: 95}, {Name: "node2", Score: 68}}, rtcr(config.UtilizationShapePoint{Utilization: 0, Score: 0}, config.UtilizationShapePoint{Utilization: 100, Score: 10})},
		{"test case for ScoringStrategy MostAllocated", makePod().req(cpuAndMemory("1000", "2000")).Obj(), twoNodes("6000"), existing(),
			framework.NodeScoreList{{Name: "node1", Score: 67}, {Name: "node2", Score: 36}}, typed(config.MostAllocated)},
		{"test case for ScoringStrategy LeastAllocated", makePod().req(cpuAndMemory("1000", "2000")).Obj(), twoNodes("6000"), existing(),
			framework.NodeScoreList{{Name: "node1", Score: 32}, {Name: "node2", Score: 63}}, typed(config.LeastAllocated)},
		{"test case for ScoringStrategy MostAllocated with sidecar container", makePod().req(cpuAndMemory("1000", "2000")).Obj(), twoNodes("4000"), withSidecar(),
			framework.NodeScoreList{{Name: "node1", Score: 67}, {Name: "node2", Score: 45}}, typed(config.MostAllocated)},
		{"test case for ScoringStrategy LeastAllocated with sidecar container", makePod().req(cpuAndMemory("1000", "2000")).Obj(), twoNodes("4000"), withSidecar(),
			framework.NodeScoreList{{Name: "node1", Score: 32}, {Name: "node2", Score: 55}}, typed(config.LeastAllocated)},
	}
	for _, tc := range tests {
		for _, pre := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/prescore=%v", tc.name, pre), func(t *testing.T) {
				p, err := NewFit(&tc.args, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, sts := scoreNodes(t, p, tc.pod, snapshot(t, tc.nodes, tc.existing), tc.nodes, pre)
				for _, st := range sts {
					if !st.IsSuccess() {
						t.Error(st)
					}
				}
				checkScores(t, got, tc.want)
				// The plain functions agree with the plugin.
				s := tc.args.ScoringStrategy
				snap := snapshot(t, tc.nodes, tc.existing)
				for i, n := range tc.nodes {
					ni, _ := snap.Get(n.Name)
					var plain int64
					switch s.Type {
					case config.LeastAllocated:
						plain = priorities.LeastAllocated(tc.pod, ni, s.Resources)
					case config.MostAllocated:
						plain = priorities.MostAllocated(tc.pod, ni, s.Resources)
					default:
						plain = priorities.RequestedToCapacityRatio(tc.pod, ni, s.Resources, s.RequestedToCapacityRatio.Shape)
					}
					if plain != tc.want[i].Score {
						t.Errorf("plain function on %s: %d, want %d", n.Name, plain, tc.want[i].Score)
					}
				}
			})
		}
	}
}

func TestResourcesNotFound(t *testing.T) {
	pl, _ := newFit(nil, nil, &config.ScoringStrategy{Type: config.LeastAllocated})
	_, st := pl.Score(context.Background(), framework.NewCycleState(), makePod().Obj(), cluster.NewNodeInfo(makeNode("n", nil)))
	if st.Code() != framework.Error || st.Message() != "resources not found" {
		t.Errorf("got %v", st)
	}
}
