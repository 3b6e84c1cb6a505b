package priorities

import (
	"context"
	"math"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
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

// volumeStorage is implemented by the VolumeBinding filter half's
// CycleState value (predicates.VolumeBindingStateKey): it reports, for a
// node, the storage the pod's claims would use there.
type volumeStorage interface {
	framework.StateData
	HasClaims() bool
	VolumeStorage(node *api.Node, add func(class string, requested, capacity int64, static bool)) error
}

// volumeBindingStateKey is predicates.VolumeBindingStateKey (the filter
// half's PreFilter state), which this package cannot import.
const volumeBindingStateKey framework.StateKey = "PreFilter" + config.VolumeBindingName

// classGroups gathers ClassStorage per class without allocating for a
// few classes.
type classGroups struct {
	list []ClassStorage
	buf  [4]ClassStorage
}

// add adds one volume: a bound volume adds its capacity to the class's,
// a provisioned claim sets the class's capacity (every claim of a class
// draws on the same capacity object), as upstream.
func (g *classGroups) add(class string, requested, capacity int64, static bool) {
	for i := range g.list {
		if c := &g.list[i]; c.Class == class {
			c.Requested += requested
			if static {
				c.Capacity += capacity
			} else {
				c.Capacity = capacity
			}
			return
		}
	}
	g.list = append(g.list, ClassStorage{Class: class, Requested: requested, Capacity: capacity})
}

// VolumeBindingPlugin is the score half of VolumeBinding: with
// StorageCapacityScoring (on by default in v1.37) it scores each node by
// how much of the storage the pod's volumes would use there is
// requested, through the args' shape. Its scores are not normalised.
type VolumeBindingPlugin struct {
	scorer VolumeCapacityScorer
}

var (
	_ framework.PreScorePlugin = (*VolumeBindingPlugin)(nil)
	_ framework.ScorePlugin    = (*VolumeBindingPlugin)(nil)
)

// NewVolumeBinding is the factory of VolumeBinding's score half. args is
// nil, a config.VolumeBindingArgs or a pointer to one; it is defaulted
// and validated.
func NewVolumeBinding(args any, _ framework.Handle) (framework.Plugin, error) {
	a, err := config.VolumeBindingArgsFrom(args)
	if err != nil {
		return nil, err
	}
	return &VolumeBindingPlugin{scorer: NewVolumeCapacityScorer(a.Shape)}, nil
}

// Name returns config.VolumeBindingName.
func (*VolumeBindingPlugin) Name() string { return config.VolumeBindingName }

// PreScore succeeds for a pod without claims, which, like upstream's
// with StorageCapacityScoring, scores 0 on every node (upstream does not
// skip it). For a pod with claims it needs the state its filter half's
// PreFilter wrote, and fails without it.
func (pl *VolumeBindingPlugin) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	if !podUsesClaims(pod) {
		return nil
	}
	if _, ok := readVolumeStorage(state); !ok {
		return framework.NewStatus(framework.Error, "VolumeBinding: no state from the plugin's PreFilter for a pod with claims")
	}
	return nil
}

// FastPath joins the fast path with ScoresAnyNodes, which VolumeBinding
// honours for the pods it lets score early: a pod without claims reads
// nothing from the CycleState (every node scores 0, whichever nodes
// passed Filter). For a pod with claims, PreScore run early (into a state
// of its own, before Filter) finds no PreFilter state and fails, and the
// scheduler then runs PreScore and Score for that cycle after Filter, in
// the cycle's state, as for a plugin that does not opt in.
func (pl *VolumeBindingPlugin) FastPath() framework.FastPath {
	return framework.FastPath{ScoresAnyNodes: true, ScoreNodes: pl.ScoreNodes}
}

// ScoreNodes is Score over nodes: all 0 for a pod without claims (one
// state look-up for the lot), Score node by node otherwise.
func (pl *VolumeBindingPlugin) ScoreNodes(ctx context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if s, ok := readVolumeStorage(state); !ok || !s.HasClaims() {
		clear(scores[:len(nodes)])
		return -1, nil
	}
	for i, n := range nodes {
		sc, st := pl.Score(ctx, state, pod, n)
		if !st.IsSuccess() {
			return i, st
		}
		scores[i] = sc
	}
	return -1, nil
}

// podUsesClaims reports whether the pod has a persistentVolumeClaim or a
// generic ephemeral volume, the volumes VolumeBinding reads.
func podUsesClaims(pod *api.Pod) bool {
	for i := range pod.Spec.Volumes {
		if v := &pod.Spec.Volumes[i]; v.PersistentVolumeClaim != nil || v.Ephemeral != nil {
			return true
		}
	}
	return false
}

func readVolumeStorage(state *framework.CycleState) (volumeStorage, bool) {
	d, ok := state.Read(volumeBindingStateKey)
	if !ok {
		return nil, false
	}
	s, ok := d.(volumeStorage)
	return s, ok
}

// Score groups the storage the pod would use on the node by class
// (bound available volumes if the pod would bind any there, else
// provisioned claims whose capacity was checked) and returns the
// scorer's score; 0 without state or storage.
func (pl *VolumeBindingPlugin) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	s, ok := readVolumeStorage(state)
	if !ok || !s.HasClaims() {
		return 0, nil
	}
	// g escapes (its add method is handed to the filter half): one
	// allocation per node for a pod with claims.
	var g classGroups
	g.list = g.buf[:0]
	if err := s.VolumeStorage(nodeInfo.Node(), g.add); err != nil {
		return 0, framework.AsStatus(err)
	}
	return pl.scorer.Score(g.list), nil
}

// ScoreExtensions returns nil: VolumeBinding's scores are not
// normalised.
func (*VolumeBindingPlugin) ScoreExtensions() framework.ScoreExtensions { return nil }
