package volumebinding

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// Filter of a pod whose bound in-tree volume is translated on the node
// allocates nothing per node.
func TestVolumeBindingCSIMigrationFilterDoesNotAllocate(t *testing.T) {
	pv := gcePDVolume(map[string]string{predicates.LabelTopologyZone: "z1"}, nil)
	pvc := makePVC("c", "wait-sc").boundTo(pv.Name).PersistentVolumeClaim
	node := makeVBNode("node1").label(predicates.TopologyKeyGCEPD, "z1").Node
	csiNode := &api.CSINode{ObjectMeta: api.ObjectMeta{Name: "node1", Annotations: map[string]string{predicates.AnnMigratedPlugins: predicates.InTreeAWSEBS + "," + predicates.InTreeGCEPD}}}
	snap, err := vbSnapshot([]*api.Node{node}, pv, pvc, csiNode)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := New(nil, vbHandle{snap})
	f := p.(*VolumeBinding)
	pod := makeVBPod("p").pvc("c").Pod
	state := framework.NewCycleState()
	if _, st := f.PreFilter(context.Background(), state, pod, nil); !st.IsSuccess() {
		t.Fatal(st)
	}
	ni, _ := snap.View().Get("node1")
	if st := f.Filter(context.Background(), state, pod, ni); !st.IsSuccess() {
		t.Fatal(st)
	}
	if n := testing.AllocsPerRun(100, func() { f.Filter(context.Background(), state, pod, ni) }); n != 0 {
		t.Errorf("Filter allocates %v times per node", n)
	}
}
