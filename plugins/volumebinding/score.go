package volumebinding

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// volumeStorage is implemented by PreFilter's
// CycleState value under stateKey: it reports, for a
// node, the storage the pod's claims would use there.
type volumeStorage interface {
	framework.StateData
	HasClaims() bool
	FitsEveryNode() bool
	VolumeStorage(node *api.Node, add func(class string, requested, capacity int64, static bool)) error
}

// classGroups gathers ClassStorage per class without allocating for a
// few classes.
type classGroups struct {
	list []priorities.ClassStorage
	buf  [4]priorities.ClassStorage
	// addFn is add as a func value, made once: the value handed to the
	// filter half escapes, so a classGroups is reused (see groupsOf).
	addFn func(class string, requested, capacity int64, static bool)
}

// groupsOf returns an empty classGroups from the plugin's pool, so that
// scoring a node allocates nothing; put it back with pl.groups.Put.
func (pl *VolumeBinding) groupsOf() *classGroups {
	g, ok := pl.groups.Get().(*classGroups)
	if !ok {
		g = &classGroups{}
		g.addFn = g.add
	}
	g.list = g.buf[:0]
	return g
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
	g.list = append(g.list, priorities.ClassStorage{Class: class, Requested: requested, Capacity: capacity})
}

// PreScore succeeds for a pod without claims, which, like upstream's
// with StorageCapacityScoring, scores 0 on every node (upstream does not
// skip it). For a pod with claims it needs the state its filter half's
// PreFilter wrote, and fails without it.
func (pl *VolumeBinding) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
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
func (pl *VolumeBinding) FastPath() framework.FastPath {
	return framework.FastPath{ScoresAnyNodes: true, ScoreNodes: pl.ScoreNodes}
}

// ScoreNodes is Score over nodes: all 0 for a pod without claims or
// whose claims fit every node (one state look-up for the lot), Score
// node by node otherwise.
func (pl *VolumeBinding) ScoreNodes(ctx context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if s, ok := readVolumeStorage(state); !ok || !s.HasClaims() || s.FitsEveryNode() {
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
	d, ok := state.Read(stateKey)
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
func (pl *VolumeBinding) Score(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	s, ok := readVolumeStorage(state)
	if !ok || !s.HasClaims() || s.FitsEveryNode() {
		return 0, nil
	}
	g := pl.groupsOf()
	defer pl.groups.Put(g)
	if err := s.VolumeStorage(nodeInfo.Node(), g.addFn); err != nil {
		return 0, framework.AsStatus(err)
	}
	return pl.scorer.Score(g.list), nil
}

// ScoreExtensions returns nil: VolumeBinding's scores are not
// normalised.
func (pl *VolumeBinding) ScoreExtensions() framework.ScoreExtensions { return nil }
