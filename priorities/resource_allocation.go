package priorities

import (
	"math"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
)

// stackResources is how many scored resources Score handles without
// allocating; more are scored correctly with three small allocations.
const stackResources = 8

// resourceKind says where a node's amount of a scored resource lives.
type resourceKind uint8

const (
	kindScalar resourceKind = iota
	kindCPU
	kindMemory
	kindEphemeral
)

// scoredResource is a config.ResourceSpec resolved once.
type scoredResource struct {
	name   api.ResourceName
	kind   resourceKind
	weight int64
}

func compileResources(specs []config.ResourceSpec) []scoredResource {
	out := make([]scoredResource, len(specs))
	for i, s := range specs {
		out[i] = scoredResource{name: api.ResourceName(s.Name), weight: s.Weight}
		switch out[i].name {
		case api.ResourceCPU:
			out[i].kind = kindCPU
		case api.ResourceMemory:
			out[i].kind = kindMemory
		case api.ResourceEphemeralStorage:
			out[i].kind = kindEphemeral
		}
	}
	return out
}

// AllocationScorer is upstream's resourceAllocationScorer: the pod's and
// the node's amounts of each scored resource (DRA's devices through
// ExtendedAmounts). Build one
// with NewFitScorer or NewBalancedScorer, once per plugin, and reuse it
// for every pod.
type AllocationScorer struct {
	resources []scoredResource
	// useRequested reads the pod's and the nodes' actual cpu and memory
	// requests; otherwise both count containers that request none as
	// requesting the scheduler's defaults (the non-zero requests).
	useRequested bool
	// featureAware is set for BalancedAllocation only. Upstream builds
	// that plugin's scorer with the feature gates (PodLevelResources and
	// InPlacePodVerticalScaling, InPlacePodLevelResourcesVerticalScaling,
	// all on in v1.37), but NodeResourcesFit
	// builds its scorer from the strategy alone, leaving those flags
	// false: Fit scores the containers' requests, ignoring pod-level
	// resources and in-place resize status.
	featureAware bool
}

// PodRequests returns the pod's request of each scored resource, as
// upstream's calculatePodResourceRequestList: PodRequests (with in-place
// resize status, pod-level resources and pod-level in-place resize status
// only when featureAware), with the
// non-zero defaults unless useRequested; cpu in millicores, the rest in
// units.
func (s *AllocationScorer) PodRequests(pod *api.Pod) []int64 {
	return s.PodRequestsInto(pod, make([]int64, 0, len(s.resources)))
}

// nonZeroDefaults is resource.DefaultNonZeroRequests(), which is only
// read.
var nonZeroDefaults = resource.DefaultNonZeroRequests()

// PodRequestsInto is podRequests appending to out[:0].
func (s *AllocationScorer) PodRequestsInto(pod *api.Pod, out []int64) []int64 {
	opts := resource.PodResourcesOptions{
		UseStatusResources:                             s.featureAware,
		SkipPodLevelResources:                          !s.featureAware,
		InPlacePodLevelResourcesVerticalScalingEnabled: s.featureAware,
	}
	if !s.useRequested {
		opts.NonMissingContainerRequests = nonZeroDefaults
	}
	out = append(out[:0], make([]int64, len(s.resources))...)
	for i, r := range s.resources {
		q, _ := resource.PodRequest(pod, r.name, opts)
		if r.kind == kindCPU {
			out[i] = q.MilliValue()
		} else {
			out[i] = q.Value()
		}
	}
	return out
}

// vectors fills, for each scored resource, the node's allocatable amount,
// what its pods request (allocated) and that plus the pod's request
// (requested), as upstream's calculateNodeAllocatableRequest. A resource
// the node lacks, or a scalar resource the pod does not request, is left
// all zero and so ignored by the scorers.
//
// ext, when not nil, gives the amounts of a scalar resource the node has
// none allocatable of: DRA's devices behind an extended resource, as
// upstream's calculateResourceAllocatableRequest asks the DRA manager.
// It is used when it reports some allocatable.
func (s *AllocationScorer) vectors(ni *cluster.NodeInfo, podRequests, requested, allocated, allocatable []int64, ext ExtendedAmounts) {
	used := &ni.NonZeroRequested
	if s.useRequested {
		used = &ni.Requested
	}
	for i := range s.resources {
		r := &s.resources[i]
		var alloc, inUse int64
		switch r.kind {
		case kindCPU:
			alloc, inUse = ni.Allocatable.MilliCPU, used.MilliCPU
		case kindMemory:
			alloc, inUse = ni.Allocatable.Memory, used.Memory
		case kindEphemeral:
			alloc, inUse = ni.Allocatable.EphemeralStorage, ni.Requested.EphemeralStorage
		default:
			// Names that are not scalar resources (pods, storage, ...)
			// are never in Scalars, so they are skipped too.
			if podRequests[i] == 0 {
				requested[i], allocated[i], allocatable[i] = 0, 0, 0
				continue
			}
			alloc, inUse = ni.Allocatable.Scalar(r.name), ni.Requested.Scalar(r.name)
			if alloc == 0 && ext != nil {
				if a, u := ext(i, ni); a > 0 {
					alloc, inUse = a, u
				}
			}
		}
		if alloc == 0 {
			requested[i], allocated[i], allocatable[i] = 0, 0, 0
			continue
		}
		allocatable[i], allocated[i] = alloc, inUse
		requested[i] = inUse + podRequests[i]
	}
}

// ExtendedAmounts returns, for the scored resource at index i, the
// node's allocatable amount and what is in use when something other
// than the node's allocatable provides it (DRA devices); allocatable 0
// means nothing does.
type ExtendedAmounts func(i int, ni *cluster.NodeInfo) (allocatable, inUse int64)

// Score scores the node with the strategy ("" for balanced allocation),
// building the node vectors on the stack when there are at most
// stackResources resources.
func (s *AllocationScorer) Score(ni *cluster.NodeInfo, podRequests []int64, strategy config.ScoringStrategyType, shape FunctionShape) int64 {
	return s.ScoreExt(ni, podRequests, strategy, shape, nil)
}

// ScoreExt is Score with ext for the scalar resources the node has none
// allocatable of (see vectors).
func (s *AllocationScorer) ScoreExt(ni *cluster.NodeInfo, podRequests []int64, strategy config.ScoringStrategyType, shape FunctionShape, ext ExtendedAmounts) int64 {
	n := len(s.resources)
	var rb, ab, cb [stackResources]int64
	var requested, allocated, allocatable []int64
	if n <= stackResources {
		requested, allocated, allocatable = rb[:n], ab[:n], cb[:n]
	} else {
		requested, allocated, allocatable = make([]int64, n), make([]int64, n), make([]int64, n)
	}
	s.vectors(ni, podRequests, requested, allocated, allocatable, ext)
	switch strategy {
	case config.LeastAllocated:
		return leastAllocatedScore(requested, allocatable, s.resources)
	case config.MostAllocated:
		return mostAllocatedScore(requested, allocatable, s.resources)
	case config.RequestedToCapacityRatio:
		return ratioScore(requested, allocatable, s.resources, shape)
	default: // balanced
		return BalancedAllocationScore(requested, allocated, allocatable)
	}
}

// ScoreNodes sets scores[i] to s.Score(nodes[i], ...) for each node.
// The default resources, cpu then memory, are scored by loops of their
// own for LeastAllocated, MostAllocated and balanced allocation, which
// compute what score computes with the same operations.
func (s *AllocationScorer) ScoreNodes(nodes []*cluster.NodeInfo, podRequests []int64, strategy config.ScoringStrategyType, shape FunctionShape, scores []int64) {
	s.ScoreNodesExt(nodes, podRequests, strategy, shape, scores, nil)
}

// ScoreNodesExt is ScoreNodes with ext (see ScoreExt).
func (s *AllocationScorer) ScoreNodesExt(nodes []*cluster.NodeInfo, podRequests []int64, strategy config.ScoringStrategyType, shape FunctionShape, scores []int64, ext ExtendedAmounts) {
	if len(s.resources) == 2 && s.resources[0].kind == kindCPU && s.resources[1].kind == kindMemory {
		switch strategy {
		case config.LeastAllocated, config.MostAllocated:
			s.allocatedCPUMemory(nodes, podRequests, strategy == config.MostAllocated, scores)
			return
		case "":
			s.balancedCPUMemory(nodes, podRequests, scores)
			return
		}
	}
	for i, ni := range nodes {
		scores[i] = s.ScoreExt(ni, podRequests, strategy, shape, ext)
	}
}

// cpuMemory returns the node's allocatable cpu and memory and what its
// pods use of them, as vectors reads them.
func (s *AllocationScorer) cpuMemory(ni *cluster.NodeInfo) (allocCPU, allocMem, usedCPU, usedMem int64) {
	used := &ni.NonZeroRequested
	if s.useRequested {
		used = &ni.Requested
	}
	return ni.Allocatable.MilliCPU, ni.Allocatable.Memory, used.MilliCPU, used.Memory
}

// allocatedCPUMemory is leastAllocatedScore (or mostAllocatedScore) of
// the vectors of cpu and memory, for each node.
func (s *AllocationScorer) allocatedCPUMemory(nodes []*cluster.NodeInfo, podRequests []int64, most bool, scores []int64) {
	wc, wm := s.resources[0].weight, s.resources[1].weight
	pc, pm := podRequests[0], podRequests[1]
	// Nodes of a pool often have the same allocatable and use: the last
	// node's score is kept, being a function of these four amounts.
	var last [4]int64
	lastScore := int64(-1)
	for i, ni := range nodes {
		ac, am, uc, um := s.cpuMemory(ni)
		if cur := [4]int64{ac, am, uc, um}; cur == last && lastScore >= 0 {
			scores[i] = lastScore
			continue
		} else {
			last = cur
		}
		var nodeScore, weightSum int64
		if ac != 0 {
			if most {
				nodeScore += MostRequestedScore(uc+pc, ac) * wc
			} else {
				nodeScore += LeastRequestedScore(uc+pc, ac) * wc
			}
			weightSum += wc
		}
		if am != 0 {
			if most {
				nodeScore += MostRequestedScore(um+pm, am) * wm
			} else {
				nodeScore += LeastRequestedScore(um+pm, am) * wm
			}
			weightSum += wm
		}
		switch weightSum {
		case 0:
			lastScore = 0
		case 2:
			lastScore = nodeScore / 2 // the default weights: no division instruction
		default:
			lastScore = nodeScore / weightSum
		}
		scores[i] = lastScore
	}
}

// balancedCPUMemory is BalancedAllocationScore of the vectors of cpu and
// memory, for each node.
func (s *AllocationScorer) balancedCPUMemory(nodes []*cluster.NodeInfo, podRequests []int64, scores []int64) {
	pc, pm := podRequests[0], podRequests[1]
	// As in allocatedCPUMemory, the last node's score is kept.
	var last [4]int64
	lastScore := int64(-1)
	for i, ni := range nodes {
		ac, am, uc, um := s.cpuMemory(ni)
		if cur := [4]int64{ac, am, uc, um}; cur != last || lastScore < 0 {
			last = cur
			with := balancedTwo(uc+pc, ac, um+pm, am)
			without := balancedTwo(uc, ac, um, am)
			lastScore = framework.MaxNodeScore/2 + (framework.MaxNodeScore/2+with-without)/2
		}
		scores[i] = lastScore
	}
}

// balancedTwo is BalancedResourceScore of two resources, requested r and
// allocatable a each, with the same floating-point operations.
func balancedTwo(r0, a0, r1, a1 int64) int64 {
	if a0 == 0 || a1 == 0 {
		// One fraction or none: no deviation.
		return int64((1 - 0.0) * float64(framework.MaxNodeScore))
	}
	f0 := float64(r0) / float64(a0)
	if f0 > 1 {
		f0 = 1
	}
	f1 := float64(r1) / float64(a1)
	if f1 > 1 {
		f1 = 1
	}
	std := math.Abs((f0 - f1) / 2)
	return int64((1 - std) * float64(framework.MaxNodeScore))
}

// LeastRequestedScore is one resource's LeastAllocated score:
// (capacity-requested)*100/capacity, 0 when requested exceeds capacity or
// capacity is 0.
func LeastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return ((capacity - requested) * framework.MaxNodeScore) / capacity
}

// MostRequestedScore is one resource's MostAllocated score:
// requested*100/capacity with requested capped at capacity, 0 when
// capacity is 0.
func MostRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 {
		return 0
	}
	if requested > capacity {
		requested = capacity
	}
	return (requested * framework.MaxNodeScore) / capacity
}

func leastAllocatedScore(requested, allocatable []int64, resources []scoredResource) int64 {
	var nodeScore, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		w := resources[i].weight
		nodeScore += LeastRequestedScore(requested[i], allocatable[i]) * w
		weightSum += w
	}
	if weightSum == 0 {
		return 0
	}
	return nodeScore / weightSum
}

func mostAllocatedScore(requested, allocatable []int64, resources []scoredResource) int64 {
	var nodeScore, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		w := resources[i].weight
		nodeScore += MostRequestedScore(requested[i], allocatable[i]) * w
		weightSum += w
	}
	if weightSum == 0 {
		return 0
	}
	return nodeScore / weightSum
}

// ratioScore is RequestedToCapacityRatio: each resource's utilization
// (requested*100/capacity, or 100 when over capacity) through the shape;
// resources scoring 0 carry no weight; the weighted mean is rounded.
func ratioScore(requested, allocatable []int64, resources []scoredResource, shape FunctionShape) int64 {
	var nodeScore, weightSum int64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		var rs int64
		if requested[i] > allocatable[i] {
			rs = shape.Score(maxUtilization)
		} else {
			rs = shape.Score(requested[i] * maxUtilization / allocatable[i])
		}
		if rs > 0 {
			w := resources[i].weight
			nodeScore += rs * w
			weightSum += w
		}
	}
	if weightSum == 0 {
		return 0
	}
	return int64(math.Round(float64(nodeScore) / float64(weightSum)))
}

const maxUtilization = int64(config.MaxUtilization)

// ScaleShape converts a RequestedToCapacityRatio shape to a FunctionShape
// on the 0-100 score scale: each score is multiplied by
// MaxNodeScore/MaxCustomPriorityScore (10).
func ScaleShape(shape []config.UtilizationShapePoint) FunctionShape {
	out := make(FunctionShape, len(shape))
	for i, p := range shape {
		out[i] = FunctionShapePoint{
			Utilization: int64(p.Utilization),
			Score:       int64(p.Score) * (framework.MaxNodeScore / config.MaxCustomPriorityScore),
		}
	}
	return out
}

// BalancedResourceScore is how balanced a node's use of resources is:
// (1 - σ) * 100 truncated, where σ is the population standard deviation
// of requested/allocatable per resource, each fraction capped at 1 and
// resources with allocatable 0 left out (for two resources σ is half
// their difference). It is upstream's balancedResourceScore, float
// expressions included.
func BalancedResourceScore(requested, allocatable []int64) int64 {
	var buf [stackResources]float64
	fractions := buf[:0]
	var totalFraction float64
	for i := range requested {
		if allocatable[i] == 0 {
			continue
		}
		fraction := float64(requested[i]) / float64(allocatable[i])
		if fraction > 1 {
			fraction = 1
		}
		totalFraction += fraction
		fractions = append(fractions, fraction)
	}
	std := 0.0
	if len(fractions) == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	} else if len(fractions) > 2 {
		mean := totalFraction / float64(len(fractions))
		var sum float64
		for _, fraction := range fractions {
			sum = sum + (fraction-mean)*(fraction-mean)
		}
		std = math.Sqrt(sum / float64(len(fractions)))
	}
	return int64((1 - std) * float64(framework.MaxNodeScore))
}

// BalancedAllocationScore is the NodeResourcesBalancedAllocation score of
// v1.37: 50 plus half of (50 + the balance with the pod - the balance
// without it), integer arithmetic, so a pod that improves the node's
// balance scores above 50 and one that worsens it below.
func BalancedAllocationScore(requested, allocated, allocatable []int64) int64 {
	with := BalancedResourceScore(requested, allocatable)
	without := BalancedResourceScore(allocated, allocatable)
	return framework.MaxNodeScore/2 + (framework.MaxNodeScore/2+with-without)/2
}

// NewFitScorer returns the scorer NodeResourcesFit scores with: the
// containers' non-zero requests of resources.
func NewFitScorer(resources []config.ResourceSpec) AllocationScorer {
	return AllocationScorer{resources: compileResources(resources)}
}

// NewBalancedScorer returns the scorer NodeResourcesBalancedAllocation
// scores with: the actual requests of resources, pod-level resources and
// in-place resize status included.
func NewBalancedScorer(resources []config.ResourceSpec) AllocationScorer {
	return AllocationScorer{resources: compileResources(resources), useRequested: true, featureAware: true}
}

// NumResources returns how many resources s scores.
func (s *AllocationScorer) NumResources() int { return len(s.resources) }

// Resources returns the names of the resources s scores, in the order
// the strategy lists them.
func (s *AllocationScorer) Resources() []api.ResourceName {
	out := make([]api.ResourceName, len(s.resources))
	for i, r := range s.resources {
		out[i] = r.name
	}
	return out
}
