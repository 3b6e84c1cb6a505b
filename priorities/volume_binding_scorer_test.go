package priorities

import (
	"testing"

	"github.com/schedkit/schedkit/framework/config"
)

// upstream: volumebinding TestScore (every case of its three tests)
func TestVolumeCapacityScorerUpstream(t *testing.T) {
	const hdd, ssd = "hdd", "ssd"
	type scoreCase struct {
		classes []ClassStorage
		score   int64
	}
	// classes builds one ClassStorage per class (hdd first) of capacity
	// 100 from the requests.
	classes := func(requested ...int64) []ClassStorage {
		var out []ClassStorage
		for i, r := range requested {
			out = append(out, ClassStorage{Class: []string{hdd, ssd}[i], Requested: r, Capacity: 100})
		}
		return out
	}
	tests := []struct {
		name  string
		shape []config.UtilizationShapePoint
		cases []scoreCase
	}{
		{name: "default shape, single class", shape: config.DefaultVolumeBindingShape(), cases: []scoreCase{
			{classes(0), 100}, {classes(30), 70}, {classes(50), 50}, {classes(100), 0},
		}},
		{name: "default shape, multiple classes", shape: config.DefaultVolumeBindingShape(), cases: []scoreCase{
			{classes(0, 0), 100}, {classes(0, 30), 85}, {classes(30, 30), 70}, {classes(30, 60), 55},
			{classes(50, 50), 50}, {classes(50, 100), 25}, {classes(100, 100), 0},
		}},
		// Upstream's shape is in node-score units (0, 30, 50); the args
		// shape is in 0..10 units.
		{name: "custom shape, multiple classes", shape: []config.UtilizationShapePoint{{Utilization: 50, Score: 0}, {Utilization: 80, Score: 3}, {Utilization: 100, Score: 5}},
			cases: []scoreCase{
				{classes(0, 0), 0}, {classes(0, 30), 0}, {classes(30, 30), 0}, {classes(30, 60), 5},
				{classes(50, 100), 25}, {classes(90, 90), 40}, {classes(100, 100), 50},
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc := NewVolumeCapacityScorer(tc.shape)
			for _, c := range tc.cases {
				if got := sc.Score(c.classes); got != c.score {
					t.Errorf("%+v: score %d, want %d", c.classes, got, c.score)
				}
			}
		})
	}
}
