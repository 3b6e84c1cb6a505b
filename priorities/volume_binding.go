package priorities

import (
	"math"

	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// ClassStorage is the storage a pod would use on a node in one storage
// class: the sum of its claims' requests and the capacity they draw on,
// in bytes.
type ClassStorage struct {
	// Class is the storage class name.
	Class string
	// Requested is the storage the pod's claims of the class request.
	Requested int64
	// Capacity is the storage available to them.
	Capacity int64
}

// VolumeCapacityScorer scores a node by the utilisation of the storage
// the pod would use there, as upstream's volumeCapacityScorer
// (StorageCapacityScoring).
type VolumeCapacityScorer struct {
	shape FunctionShape
}

// NewVolumeCapacityScorer builds the scorer of a VolumeBindingArgs shape
// (scores 0..10 scaled to 0..100). The shape must not be empty; use a
// validated config.VolumeBindingArgs.
func NewVolumeCapacityScorer(shape []config.UtilizationShapePoint) VolumeCapacityScorer {
	s := make(FunctionShape, len(shape))
	for i, p := range shape {
		s[i] = FunctionShapePoint{Utilization: int64(p.Utilization), Score: int64(p.Score) * (framework.MaxNodeScore / config.MaxCustomPriorityScore)}
	}
	return VolumeCapacityScorer{shape: s}
}

// classScore is the shape at the class's utilisation (requested *
// 100 / capacity, integer division); no capacity, or more requested than
// available, counts as fully used.
func (sc VolumeCapacityScorer) classScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return sc.shape.Score(int64(config.MaxUtilization))
	}
	return sc.shape.Score(requested * int64(config.MaxUtilization) / capacity)
}

// Score is the node's score: the mean of the classes' scores, rounded
// half away from zero; 0 without classes. Each class counts once, with
// equal weight.
func (sc VolumeCapacityScorer) Score(classes []ClassStorage) int64 {
	if len(classes) == 0 {
		return 0
	}
	var sum int64
	for _, c := range classes {
		sum += sc.classScore(c.Requested, c.Capacity)
	}
	return int64(math.Round(float64(sum) / float64(len(classes))))
}
