package legacy

import (
	"context"
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

const selectorSpreadStateKey framework.StateKey = "PreScore" + config.SelectorSpreadName

// selectorSpreadState is what PreScore computes: the selector deduced
// for the pod and the pod's namespace.
type selectorSpreadState struct {
	selector affinity.Selector
	ns       string
}

// Clone returns s: the state is never modified after PreScore.
func (s *selectorSpreadState) Clone() framework.StateData { return s }

// SelectorSpread is the SelectorSpread score plugin as
// kube-scheduler had it last (v1.26; removed in v1.27, whose default
// spreading is PodTopologySpread's system default constraints): it
// favours nodes, and zones, holding fewer pods that the pod's Services,
// ReplicationController, ReplicaSet or StatefulSet select. Optional:
// registered, not in the default profile.
type SelectorSpread struct {
	handle framework.Handle
}

var (
	_ framework.PreScorePlugin  = (*SelectorSpread)(nil)
	_ framework.ScorePlugin     = (*SelectorSpread)(nil)
	_ framework.ScoreExtensions = (*SelectorSpread)(nil)
)

// NewSelectorSpread is the SelectorSpread factory. The plugin takes no
// arguments; args is ignored. Services and workloads are read from the
// handle's snapshot (its object store).
func NewSelectorSpread(_ any, h framework.Handle) (framework.Plugin, error) {
	return &SelectorSpread{handle: h}, nil
}

// Name returns config.SelectorSpreadName.
func (pl *SelectorSpread) Name() string { return config.SelectorSpreadName }

var errSelectorSpreadNoSnapshot = errors.New("SnapshotSharedLister is nil")

// skipSelectorSpread reports whether the pod spreads by its own
// topologySpreadConstraints, which SelectorSpread leaves alone (default
// constraints of PodTopologySpread do not count).
func skipSelectorSpread(pod *api.Pod) bool { return len(pod.Spec.TopologySpreadConstraints) != 0 }

func (pl *SelectorSpread) view() (*cluster.View, error) {
	if pl.handle == nil || pl.handle.Snapshot() == nil {
		return nil, errSelectorSpreadNoSnapshot
	}
	return pl.handle.Snapshot().View(), nil
}

// PreScore deduces the pod's selector (affinity.DefaultSelector over the
// snapshot's Services of the pod's namespace and the controller its
// controller reference names). For a pod with topologySpreadConstraints
// it does nothing and succeeds, as v1.26: Score then gives every node 0
// and NormalizeScore leaves the zeros.
func (pl *SelectorSpread) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	if skipSelectorSpread(pod) {
		return nil
	}
	v, err := pl.view()
	if err != nil {
		return framework.AsStatus(err)
	}
	state.Write(selectorSpreadStateKey, &selectorSpreadState{selector: v.Objects().DefaultSpreadSelector(pod), ns: pod.Namespace})
	return nil
}

func readSelectorSpreadState(state *framework.CycleState) (*selectorSpreadState, error) {
	d, ok := state.Read(selectorSpreadStateKey)
	if !ok {
		return nil, fmt.Errorf("reading %q from cycleState: not found", selectorSpreadStateKey)
	}
	s, ok := d.(*selectorSpreadState)
	if !ok {
		return nil, errors.New("cannot convert saved state to tainttoleration.preScoreState")
	}
	return s, nil
}

// Score is the number of the node's pods in the pod's namespace that the
// selector matches, leaving out terminating pods (none when the selector
// is empty); 0 for a pod with topologySpreadConstraints.
func (pl *SelectorSpread) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	if skipSelectorSpread(pod) {
		return 0, nil
	}
	s, err := readSelectorSpreadState(state)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	return int64(cluster.CountSpreadPods(nodeInfo.Pods, s.selector, s.ns)), nil
}

// ScoreExtensions returns the plugin, which normalizes.
func (pl *SelectorSpread) ScoreExtensions() framework.ScoreExtensions { return pl }

// zoneID is a node's zone as cluster.ZoneKey identifies it (region and
// zone), kept as a pair so that looking it up allocates nothing.
type zoneID struct{ region, zone string }

func zoneOf(node *api.Node) (zoneID, bool) {
	if node == nil {
		return zoneID{}, false
	}
	zone, ok := node.Labels[labelFailureDomainBetaZone]
	if !ok {
		zone = node.Labels[affinity.LabelTopologyZone]
	}
	region, ok := node.Labels[labelFailureDomainBetaRegion]
	if !ok {
		region = node.Labels[labelTopologyRegion]
	}
	return zoneID{region, zone}, region != "" || zone != ""
}

// NormalizeScore turns the counts into scores with SelectorSpreadScore:
// the node part from the highest count of the scored nodes, the zone
// part (only when some scored node has a zone, and only for nodes with
// one) from the sum of counts of the scored nodes of each zone and the
// highest such sum. Zones are read from the snapshot's nodes by name
// (region and zone labels, the failure-domain.beta ones first); a name
// the snapshot lacks is an error. A pod with topologySpreadConstraints
// keeps its zeros.
func (pl *SelectorSpread) NormalizeScore(_ context.Context, _ *framework.CycleState, pod *api.Pod, scores framework.NodeScoreList) *framework.Status {
	if skipSelectorSpread(pod) {
		return nil
	}
	v, err := pl.view()
	if err != nil {
		return framework.AsStatus(err)
	}
	byZone := make(map[zoneID]int64, 10)
	var maxNode, maxZone int64
	for i := range scores {
		maxNode = max(maxNode, scores[i].Score)
		ni, ok := v.Get(scores[i].Name)
		if !ok {
			return framework.AsStatus(fmt.Errorf("getting node %q from Snapshot: node not found", scores[i].Name))
		}
		if z, ok := zoneOf(ni.Node()); ok {
			byZone[z] += scores[i].Score
		}
	}
	for _, n := range byZone {
		maxZone = max(maxZone, n)
	}
	haveZones := len(byZone) != 0
	for i := range scores {
		var z zoneID
		hasZone := false
		if haveZones {
			ni, _ := v.Get(scores[i].Name)
			z, hasZone = zoneOf(ni.Node())
		}
		scores[i].Score = priorities.SelectorSpreadScore(scores[i].Score, maxNode, hasZone, byZone[z], maxZone)
	}
	return nil
}

// Zone labels SelectorSpread reads, as component-helpers' GetZoneKey:
// the deprecated beta label wins whenever it is present.
const (
	labelFailureDomainBetaZone   = "failure-domain.beta.kubernetes.io/zone"
	labelFailureDomainBetaRegion = "failure-domain.beta.kubernetes.io/region"
	labelTopologyRegion          = "topology.kubernetes.io/region"
)
