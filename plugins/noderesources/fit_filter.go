package noderesources

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/predicates"
)

// fitStateKey is where NodeResourcesFit's PreFilter keeps its state.
const fitStateKey framework.StateKey = "PreFilter" + config.NodeResourcesFitName

// fitState is the pod's request, computed once per cycle.
type fitState struct {
	req     cluster.Resource
	checked []cluster.Scalar
	// dra are the requested scalars a DeviceClass backs, left out of
	// checked: a node that has none of one allocatable hands it to
	// DynamicResources (DRAExtendedResource, GA and locked on).
	dra []cluster.Scalar
}

// Clone returns s: the state is never modified after PreFilter.
func (s *fitState) Clone() framework.StateData { return s }

// PreFilter computes the pod's request and stores it in the cycle state.
// It never returns Skip: even a pod that requests nothing needs room for
// one more pod, as upstream.
func (pl *Fit) PreFilter(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) (*framework.PreFilterResult, *framework.Status) {
	s := &fitState{req: predicates.PodFitRequest(pod)}
	s.checked = pl.ignore.Filter(s.req.Scalars)
	if classes := pl.extendedResourceClasses(s.checked); classes != nil {
		var keep []cluster.Scalar
		for _, sc := range s.checked {
			if _, ok := classes[sc.Name]; ok && sc.Value > 0 {
				s.dra = append(s.dra, sc)
				continue
			}
			keep = append(keep, sc)
		}
		if len(s.dra) > 0 {
			s.checked = keep
		}
	}
	state.Write(fitStateKey, s)
	return nil, nil
}

// extendedResourceClasses returns the extended resources DeviceClasses
// back, when the snapshot has DeviceClasses and the pod requests a
// scalar resource; nil otherwise.
func (pl *Fit) extendedResourceClasses(scalars []cluster.Scalar) map[api.ResourceName]*api.DeviceClass {
	if len(scalars) == 0 || pl.h == nil || pl.h.Snapshot() == nil {
		return nil
	}
	o := pl.h.Snapshot().Objects()
	if o.Len(cluster.KindDeviceClass) == 0 {
		return nil
	}
	var classes []*api.DeviceClass
	for c := range cluster.AllObjects[api.DeviceClass](o) {
		classes = append(classes, c)
	}
	return dra.ExtendedResourceClasses(classes)
}

// nodeChecked returns the scalars to check on nodeInfo: s.checked and
// the DRA-backed ones the node has allocatable (a device plugin's), in
// name order, in buf when it is large enough.
func (s *fitState) nodeChecked(nodeInfo *cluster.NodeInfo, buf []cluster.Scalar) []cluster.Scalar {
	if len(s.dra) == 0 {
		return s.checked
	}
	out := buf[:0]
	i := 0
	for _, d := range s.dra {
		if nodeInfo.Allocatable.Scalar(d.Name) <= 0 {
			continue
		}
		for i < len(s.checked) && s.checked[i].Name < d.Name {
			out = append(out, s.checked[i])
			i++
		}
		out = append(out, d)
	}
	return append(out, s.checked[i:]...)
}

// PreFilterExtensions returns nil: the state does not depend on other
// pods.
func (pl *Fit) PreFilterExtensions() framework.PreFilterExtensions { return nil }

// Filter checks the pod's request against the node's allocatable
// resources minus what its pods request. It allocates nothing unless a
// scalar resource is short.
func (pl *Fit) Filter(_ context.Context, state *framework.CycleState, _ *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	d, ok := state.Read(fitStateKey)
	if !ok {
		return fitStateMissing
	}
	s, ok := d.(*fitState)
	if !ok {
		return framework.AsStatus(fmt.Errorf("%+v convert to NodeResourcesFit.preFilterState error", d))
	}
	var buf [8]cluster.Scalar
	return predicates.FitStatus(&s.req, s.nodeChecked(nodeInfo, buf[:]), nodeInfo)
}

var fitStateMissing = framework.AsStatus(fmt.Errorf("error reading %q from cycleState: not found", fitStateKey))

// FilterNodes is Filter for each node, reading the state once.
func (pl *Fit) FilterNodes(_ context.Context, state *framework.CycleState, _ *api.Pod, nodes []*cluster.NodeInfo, statuses []*framework.Status) {
	d, ok := state.Read(fitStateKey)
	if !ok {
		fill(statuses, fitStateMissing)
		return
	}
	s, ok := d.(*fitState)
	if !ok {
		fill(statuses, framework.AsStatus(fmt.Errorf("%+v convert to NodeResourcesFit.preFilterState error", d)))
		return
	}
	if len(s.dra) > 0 {
		var buf [8]cluster.Scalar
		for i, ni := range nodes {
			statuses[i] = predicates.FitStatus(&s.req, s.nodeChecked(ni, buf[:]), ni)
		}
		return
	}
	predicates.FitStatuses(&s.req, s.checked, nodes, statuses)
}

// fill sets every status to st.
func fill(statuses []*framework.Status, st *framework.Status) {
	for i := range statuses {
		statuses[i] = st
	}
}
