package predicates

import (
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// Builders change their object in place: rows that alter a shared
// fixture build their own.
//
// Fixtures in the spirit of upstream binder_test.go: node1 with its
// volumes pvNode1a (smaller) and pvNode1b, node2's pvNode2, claims of
// 1Gi and 5Gi, a provisioning class with a CSI driver that tracks
// capacity.
var (
	provClass = &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "wait-with-provisioner"}, Provisioner: "test-provisioner",
		VolumeBindingMode: &vbWait}
	noProvClass = &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "wait-no-provisioner"}, Provisioner: NotSupportedProvisioner,
		VolumeBindingMode: &vbWait}
	topoClass = &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "wait-topology"}, Provisioner: "test-provisioner",
		VolumeBindingMode: &vbWait, AllowedTopologies: []api.TopologySelectorTerm{{MatchLabelExpressions: []api.TopologySelectorLabelRequirement{
			{Key: vbNodeKey, Values: []string{"node2"}}}}}}
	capDriver = &api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: "test-provisioner"}, Spec: api.CSIDriverSpec{StorageCapacity: &vbTrue}}
)

func binderNode() *api.Node { return makeVBNode("node1").label(vbNodeKey, "node1").Node }

type binderRow struct {
	name       string
	pod        *api.Pod
	pvcs       []*api.PersistentVolumeClaim
	pvs        []*api.PersistentVolume
	capacities []*api.CSIStorageCapacity
	noDriver   bool
	// want is the status of PreFilter or Filter on node1; bindings maps
	// claim to chosen volume, provisions lists claims to provision.
	want       *framework.Status
	bindings   map[string]string
	provisions []string
}

func runBinderRows(t *testing.T, rows []binderRow) {
	t.Helper()
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			objs := []any{provClass, noProvClass, topoClass}
			if !tc.noDriver {
				objs = append(objs, capDriver)
			}
			for _, o := range tc.pvcs {
				objs = append(objs, o)
			}
			for _, o := range tc.pvs {
				objs = append(objs, o)
			}
			for _, o := range tc.capacities {
				objs = append(objs, o)
			}
			node := binderNode()
			snap, err := vbSnapshot([]*api.Node{node}, objs...)
			if err != nil {
				t.Fatal(err)
			}
			pod := tc.pod
			if pod == nil {
				b := makeVBPod("test-pod")
				for _, c := range tc.pvcs {
					b = b.pvc(c.Name)
				}
				pod = b.Pod
			}
			checkFitsEveryNode(t, snap.Objects(), pod, node)
			got := CheckVolumeBinding(snap.Objects(), pod, node)
			if !got.Equal(tc.want) {
				t.Fatalf("status %v (%v), want %v (%v)", got, got.Code(), tc.want, tc.want.Code())
			}
			if !got.IsSuccess() {
				return
			}
			d, err := PlanPodVolumes(snap.Objects(), pod, node)
			if err != nil {
				t.Fatal(err)
			}
			bindings := map[string]string{}
			for _, pv := range d.Volumes {
				bindings[pv.Spec.ClaimRef.Name] = pv.Name
			}
			if len(bindings) != len(tc.bindings) {
				t.Errorf("bindings %v, want %v", bindings, tc.bindings)
			}
			for c, v := range tc.bindings {
				if bindings[c] != v {
					t.Errorf("bindings %v, want %v", bindings, tc.bindings)
				}
			}
			var prov []string
			for _, c := range d.Claims {
				prov = append(prov, c.Name)
				if c.Annotations[api.AnnSelectedNode] != "node1" {
					t.Errorf("claim %s not annotated with the node: %v", c.Name, c.Annotations)
				}
			}
			if !slices.Equal(prov, tc.provisions) {
				t.Errorf("provisions %v, want %v", prov, tc.provisions)
			}
		})
	}
}

func binderPVs() (pvNode1a, pvNode1b, pvNode2, pvBound vbPV) {
	return makePV("pv-node1a", waitSC.Name).available().capacity("5Gi").affinity(vbNodeKey, "node1"),
		makePV("pv-node1b", waitSC.Name).available().capacity("10Gi").affinity(vbNodeKey, "node1"),
		makePV("pv-node2", waitSC.Name).available().capacity("10Gi").affinity(vbNodeKey, "node2"),
		makePV("pv-bound", waitSC.Name).phase(api.VolumeBound).capacity("10Gi").affinity(vbNodeKey, "node1").claimRef("default", "bound-pvc", "uid-bound-pvc")
}

// Pins upstream binder_test.go TestFindPodVolumesWithoutProvisioning.
func TestFindPodVolumesWithoutProvisioning(t *testing.T) {
	pvNode1a, pvNode1b, pvNode2, pvBound := binderPVs()
	unbound := makePVC("unbound-pvc", waitSC.Name).request("1Gi")
	unbound2 := makePVC("unbound-pvc2", waitSC.Name).request("5Gi")
	bound := makePVC("bound-pvc", waitSC.Name).boundTo("pv-bound")
	prebound := makePVC("prebound-pvc", waitSC.Name).request("1Gi")
	prebound.Spec.VolumeName = "pv-node1a"
	immBound := makePVC("immediate-bound-pvc", immediateSC.Name).boundTo("pv-bound-immediate")
	immUnbound := makePVC("immediate-unbound-pvc", immediateSC.Name).request("1Gi")
	pvImm := makePV("pv-bound-immediate", immediateSC.Name).capacity("10Gi").affinity(vbNodeKey, "node1")
	pvImmNode2 := makePV("pv-bound-immediate", immediateSC.Name).capacity("10Gi").affinity(vbNodeKey, "node2")
	ctrl := true
	generic := makePVC("test-pod-test-volume", waitSC.Name).boundTo("pv-bound")
	generic.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: "test-pod", UID: "uid-test-pod", Controller: &ctrl}}
	conflicting := makePVC("test-pod-test-volume", waitSC.Name).boundTo("pv-bound")
	conflicting.OwnerReferences = []api.OwnerReference{{Kind: "Pod", Name: "other", UID: "uid-other", Controller: &ctrl}}
	ephemeralPod := makeVBPod("test-pod").ephemeral("test-volume").Pod
	runBinderRows(t, []binderRow{
		// upstream: "no-volumes"
		{name: "no-volumes", pod: makeVBPod("test-pod").Pod},
		// upstream: "no-pvcs"
		{name: "no-pvcs", pod: makeVBPod("test-pod").emptyDir().Pod},
		// upstream: "pvc-not-found"
		{name: "pvc-not-found", pod: makeVBPod("test-pod").pvc("bound-pvc").Pod, want: unresolvable(`persistentvolumeclaim "bound-pvc" not found`)},
		// upstream: "bound-pvc"
		{name: "bound-pvc", pvcs: pvcs(bound), pvs: pvs(pvBound)},
		// upstream: "bound-pvc,pv-not-exists"
		{name: "bound-pvc,pv-not-exists", pvcs: pvcs(bound), want: unresolvable(ErrReasonPVNotExist)},
		// upstream: "prebound-pvc"
		{name: "prebound-pvc", pvcs: pvcs(prebound), pvs: pvs(makePV("pv-node1a", waitSC.Name).available().capacity("5Gi").claimRef("default", "prebound-pvc", "")), want: unboundImmediateStatus},
		// upstream: "unbound-pvc,pv-same-node"
		{name: "unbound-pvc,pv-same-node", pvcs: pvcs(unbound), pvs: pvs(pvNode2, pvNode1a, pvNode1b), bindings: map[string]string{"unbound-pvc": "pv-node1a"}},
		// upstream: "unbound-pvc,pv-different-node"
		{name: "unbound-pvc,pv-different-node", pvcs: pvcs(unbound), pvs: pvs(pvNode2), want: unresolvable(ErrReasonBindConflict)},
		// upstream: "two-unbound-pvcs"
		{name: "two-unbound-pvcs", pvcs: pvcs(unbound, unbound2), pvs: pvs(pvNode1a, pvNode1b),
			bindings: map[string]string{"unbound-pvc": "pv-node1a", "unbound-pvc2": "pv-node1b"}},
		// upstream: "two-unbound-pvcs,order-by-size"
		{name: "two-unbound-pvcs,order-by-size", pvcs: pvcs(unbound2, unbound), pvs: pvs(pvNode1a, pvNode1b),
			bindings: map[string]string{"unbound-pvc": "pv-node1a", "unbound-pvc2": "pv-node1b"}},
		// upstream: "two-unbound-pvcs,partial-match"
		{name: "two-unbound-pvcs,partial-match", pvcs: pvcs(unbound, unbound2), pvs: pvs(pvNode1a), want: unresolvable(ErrReasonBindConflict)},
		// upstream: "one-bound,one-unbound"
		{name: "one-bound,one-unbound", pvcs: pvcs(unbound, bound), pvs: pvs(pvBound, pvNode1a), bindings: map[string]string{"unbound-pvc": "pv-node1a"}},
		// upstream: "one-bound,one-unbound,no-match"
		{name: "one-bound,one-unbound,no-match", pvcs: pvcs(unbound, bound), pvs: pvs(pvBound, pvNode2), want: unresolvable(ErrReasonBindConflict)},
		// upstream: "one-prebound,one-unbound"
		{name: "one-prebound,one-unbound", pvcs: pvcs(unbound, prebound), pvs: pvs(pvNode1a, pvNode1b), want: unboundImmediateStatus},
		// upstream: "immediate-bound-pvc"
		{name: "immediate-bound-pvc", pvcs: pvcs(immBound), pvs: pvs(pvImm)},
		// upstream: "immediate-bound-pvc-wrong-node"
		{name: "immediate-bound-pvc-wrong-node", pvcs: pvcs(immBound), pvs: pvs(pvImmNode2), want: unresolvable(ErrReasonNodeConflict)},
		// upstream: "immediate-unbound-pvc"
		{name: "immediate-unbound-pvc", pvcs: pvcs(immUnbound), want: unboundImmediateStatus},
		// upstream: "immediate-unbound-pvc,delayed-mode-bound"
		{name: "immediate-unbound-pvc,delayed-mode-bound", pvcs: pvcs(immUnbound, bound), pvs: pvs(pvBound), want: unboundImmediateStatus},
		// upstream: "immediate-unbound-pvc,delayed-mode-unbound"
		{name: "immediate-unbound-pvc,delayed-mode-unbound", pvcs: pvcs(immUnbound, unbound), want: unboundImmediateStatus},
		// upstream: "generic-ephemeral,no-pvc"
		{name: "generic-ephemeral,no-pvc", pod: makeVBPod("test-pod").ephemeral("no-such-pvc").Pod,
			want: unresolvable(`waiting for ephemeral volume controller to create the persistentvolumeclaim "test-pod-no-such-pvc"`)},
		// upstream: "generic-ephemeral,with-pvc"
		{name: "generic-ephemeral,with-pvc", pod: ephemeralPod, pvcs: pvcs(generic), pvs: pvs(makePV("pv-bound", waitSC.Name).phase(api.VolumeBound).claimRef("default", "test-pod-test-volume", ""))},
		// upstream: "generic-ephemeral,wrong-pvc"
		{name: "generic-ephemeral,wrong-pvc", pod: ephemeralPod, pvcs: pvcs(conflicting), pvs: pvs(pvBound),
			want: unresolvable("PVC default/test-pod-test-volume was not created for pod default/test-pod (pod is not owner)")},
	})
}

// Pins upstream binder_test.go TestFindPodVolumesWithProvisioning and
// TestCapacity.
func TestFindPodVolumesWithProvisioning(t *testing.T) {
	pvNode1a, _, _, pvBound := binderPVs()
	unbound := makePVC("unbound-pvc", waitSC.Name).request("1Gi")
	bound := makePVC("bound-pvc", waitSC.Name).boundTo("pv-bound")
	provisioned := makePVC("provisioned-pvc", provClass.Name).request("1Gi")
	selected := makePVC("selected-pvc", provClass.Name).request("1Gi").annotate(api.AnnSelectedNode, "node1")
	selectedOther := makePVC("selected-other-pvc", provClass.Name).request("1Gi").annotate(api.AnnSelectedNode, "node2")
	noProv := makePVC("no-provisioner-pvc", noProvClass.Name).request("1Gi")
	topo := makePVC("topo-pvc", topoClass.Name).request("1Gi")
	noClass := makePVC("no-class-pvc", "").request("1Gi")
	enough := []*api.CSIStorageCapacity{makeCapacity("node1", provClass.Name, "node1", "1Gi", "")}
	network := &api.CSIStorageCapacity{ObjectMeta: api.ObjectMeta{Name: "net", Namespace: "kube-system"}, StorageClassName: provClass.Name,
		NodeTopology: &api.LabelSelector{}, Capacity: enough[0].Capacity}
	runBinderRows(t, []binderRow{
		// upstream: "one-provisioned"
		{name: "one-provisioned", pvcs: pvcs(provisioned), capacities: enough, provisions: []string{"provisioned-pvc"}},
		// upstream: "two-unbound-pvcs,one-matched,one-provisioned"
		{name: "two-unbound-pvcs,one-matched,one-provisioned", pvcs: pvcs(unbound, provisioned), pvs: pvs(pvNode1a), capacities: enough,
			bindings: map[string]string{"unbound-pvc": "pv-node1a"}, provisions: []string{"provisioned-pvc"}},
		// upstream: "one-bound,one-provisioned"
		{name: "one-bound,one-provisioned", pvcs: pvcs(bound, provisioned), pvs: pvs(pvBound), capacities: enough, provisions: []string{"provisioned-pvc"}},
		// upstream: "one-immediate-bound,one-provisioned"
		{name: "one-immediate-bound,one-provisioned", pvcs: pvcs(makePVC("immediate-bound-pvc", immediateSC.Name).boundTo("pv-bound-immediate"), provisioned),
			pvs: pvs(makePV("pv-bound-immediate", immediateSC.Name).capacity("10Gi").affinity(vbNodeKey, "node1")), capacities: enough, provisions: []string{"provisioned-pvc"}},
		// upstream: "one-binding,one-selected-node"
		{name: "one-binding,one-selected-node", pvcs: pvcs(bound, selected), pvs: pvs(pvBound), capacities: enough, provisions: []string{"selected-pvc"}},
		// the selected node's fast path: another node's claim rejects at once
		{name: "selected-other-node", pvcs: pvcs(bound, selectedOther), pvs: pvs(pvBound), capacities: enough, want: unresolvable(ErrReasonBindConflict)},
		// upstream: "invalid-provisioner"
		{name: "invalid-provisioner", pvcs: pvcs(noProv), want: unresolvable(ErrReasonBindConflict)},
		// upstream: "volume-topology-unsatisfied"
		{name: "volume-topology-unsatisfied", pvcs: pvcs(topo), want: unresolvable(ErrReasonBindConflict)},
		// a WaitForFirstConsumer claim cannot be without a class; one whose
		// class is missing binds as Immediate
		{name: "missing-class", pvcs: pvcs(makePVC("ghost-pvc", "ghost").request("1Gi")), want: unboundImmediateStatus},
		{name: "no-class", pvcs: pvcs(noClass), want: unboundImmediateStatus},
		// upstream TestCapacity: "network-attached"
		{name: "network-attached", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{network}, provisions: []string{"provisioned-pvc"}},
		// upstream TestCapacity: "local-storage"
		{name: "local-storage", pvcs: pvcs(provisioned), capacities: enough, provisions: []string{"provisioned-pvc"}},
		// upstream TestCapacity: "no-storage"
		{name: "no-storage", pvcs: pvcs(provisioned), want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "no-storage" without capacity tracking
		{name: "no-storage,no-driver", pvcs: pvcs(provisioned), noDriver: true, provisions: []string{"provisioned-pvc"}},
		// upstream TestCapacity: "wrong-node"
		{name: "wrong-node", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node2", "1Gi", "")},
			want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "wrong-storage-class"
		{name: "wrong-storage-class", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{makeCapacity("net", waitSC.Name, "node1", "1Gi", "")},
			want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "insufficient-storage"
		{name: "insufficient-storage", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node1", "1Mi", "")},
			want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "insufficient-volume-size"
		{name: "insufficient-volume-size", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node1", "1Gi", "1Mi")},
			want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "zero-storage"
		{name: "zero-storage", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node1", "0Mi", "")},
			want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "zero-volume-size"
		{name: "zero-volume-size", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node1", "", "0Mi")},
			want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "nil-storage"
		{name: "nil-storage", pvcs: pvcs(provisioned), capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node1", "", "")},
			want: unresolvable(ErrReasonNotEnoughSpace)},
		// upstream TestCapacity: "CSIDriver.StorageCapacity=false" (any
		// capacity row: the driver does not ask for capacity checks)
		{name: "zero-storage,no-driver", pvcs: pvcs(provisioned), noDriver: true, capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node1", "0Mi", "")},
			provisions: []string{"provisioned-pvc"}},
		{name: "insufficient-storage,no-driver", pvcs: pvcs(provisioned), noDriver: true, capacities: []*api.CSIStorageCapacity{makeCapacity("net", provClass.Name, "node1", "1Mi", "")},
			provisions: []string{"provisioned-pvc"}},
	})
}

// FindMatchingVolume's rules (upstream pv_helpers_test.go
// TestFindMatchingVolume, scheduler path): access modes, selector,
// phase, class, claimRef to another claim, volume mode.
func TestFindMatchingVolumeRules(t *testing.T) {
	claim := makePVC("c", waitSC.Name).request("1Gi").modes(api.ReadWriteOnce)
	sel := makePVC("c", waitSC.Name).request("1Gi")
	sel.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}
	block := api.PersistentVolumeBlock
	blockPV := makePV("pv-block", waitSC.Name).available().capacity("2Gi")
	blockPV.Spec.VolumeMode = &block
	badSel := makePVC("c", waitSC.Name).request("1Gi")
	badSel.Spec.Selector = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: "Equal"}}}
	deleted := makePV("pv-deleted", waitSC.Name).available().capacity("2Gi")
	deleted.DeletionTimestamp = &api.Time{}
	runBinderRows(t, []binderRow{
		{name: "access modes missing", pvcs: pvcs(claim), pvs: pvs(makePV("pv", waitSC.Name).available().capacity("2Gi").modes(api.ReadOnlyMany)),
			want: unresolvable(ErrReasonBindConflict)},
		{name: "access modes present", pvcs: pvcs(claim), pvs: pvs(makePV("pv", waitSC.Name).available().capacity("2Gi").modes(api.ReadOnlyMany, api.ReadWriteOnce)),
			bindings: map[string]string{"c": "pv"}},
		{name: "selector", pvcs: pvcs(sel), pvs: pvs(makePV("pv-plain", waitSC.Name).available().capacity("2Gi"), makePV("pv-gold", waitSC.Name).available().capacity("3Gi").labels("tier", "gold")),
			bindings: map[string]string{"c": "pv-gold"}},
		{name: "selector that does not compile", pvcs: pvcs(badSel), pvs: pvs(makePV("pv", waitSC.Name).available().capacity("2Gi")),
			want: framework.AsStatus(errString(`error creating internal label selector for claim: default/c: "Equal" is not a valid label selector operator`))},
		{name: "not available", pvcs: pvcs(claim), pvs: pvs(makePV("pv", waitSC.Name).phase(api.VolumeReleased).capacity("2Gi")), want: unresolvable(ErrReasonBindConflict)},
		{name: "too small", pvcs: pvcs(claim), pvs: pvs(makePV("pv", waitSC.Name).available().capacity("512Mi")), want: unresolvable(ErrReasonBindConflict)},
		{name: "claimed by another", pvcs: pvcs(claim), pvs: pvs(makePV("pv", waitSC.Name).available().capacity("2Gi").claimRef("default", "other", "")), want: unresolvable(ErrReasonBindConflict)},
		{name: "claimed by another uid", pvcs: pvcs(claim), pvs: pvs(makePV("pv", waitSC.Name).available().capacity("2Gi").claimRef("default", "c", "uid-old")), want: unresolvable(ErrReasonBindConflict)},
		{name: "volume mode", pvcs: pvcs(claim), pvs: pvs(blockPV), want: unresolvable(ErrReasonBindConflict)},
		{name: "being deleted", pvcs: pvcs(claim), pvs: pvs(deleted), want: unresolvable(ErrReasonBindConflict)},
		{name: "pre-bound volume wins over smaller", pvcs: pvcs(claim),
			pvs:      pvs(makePV("pv-small", waitSC.Name).available().capacity("1Gi"), makePV("pv-mine", waitSC.Name).phase(api.VolumePending).capacity("9Gi").claimRef("default", "c", "")),
			bindings: map[string]string{"c": "pv-mine"}},
		{name: "pre-bound volume elsewhere", pvcs: pvcs(claim),
			pvs:  pvs(makePV("pv-small", waitSC.Name).available().capacity("1Gi"), makePV("pv-mine", waitSC.Name).capacity("9Gi").claimRef("default", "c", "").affinity(vbNodeKey, "node2")),
			want: unresolvable(ErrReasonBindConflict)},
	})
}

type errString string

func (e errString) Error() string { return string(e) }

// upstream: TestAssumePodVolumes, through PlanPodVolumes (the volumes
// the pod's claims bind to on node1, with claimRef set, and the claims to
// provision, with the selected node). Not ported: "tmpupdate-failed" and
// "one-binding, one-provision-tmpupdate-failed" (a binding the finder did
// not choose, which PlanPodVolumes cannot be given).
func TestAssumePodVolumesUpstream(t *testing.T) {
	pvNode1a, pvNode1b, _, pvBound := binderPVs()
	unbound := makePVC("unbound-pvc", waitSC.Name).request("1Gi")
	unbound2 := makePVC("unbound-pvc2", waitSC.Name).request("5Gi")
	bound := makePVC("bound-pvc", waitSC.Name).boundTo("pv-bound")
	provisioned := makePVC("provisioned-pvc", provClass.Name).request("1Gi")
	pvNode1aBound := makePV("pv-node1a", waitSC.Name).available().capacity("5Gi").affinity(vbNodeKey, "node1").
		claimRef("default", "unbound-pvc", "uid-unbound-pvc")
	pvNode1aBound.Annotations = map[string]string{api.AnnBoundByController: "yes"}
	enough := []*api.CSIStorageCapacity{makeCapacity("node1", provClass.Name, "node1", "1Gi", "")}
	runBinderRows(t, []binderRow{
		// upstream: "all-bound"
		{name: "all-bound", pvcs: pvcs(bound), pvs: pvs(pvBound)},
		// upstream: "one-binding"
		{name: "one-binding", pvcs: pvcs(unbound), pvs: pvs(pvNode1a), bindings: map[string]string{"unbound-pvc": "pv-node1a"}},
		// upstream: "two-bindings"
		{name: "two-bindings", pvcs: pvcs(unbound, unbound2), pvs: pvs(pvNode1a, pvNode1b),
			bindings: map[string]string{"unbound-pvc": "pv-node1a", "unbound-pvc2": "pv-node1b"}},
		// upstream: "pv-already-bound" (the volume names the claim
		// already: nothing to update)
		{name: "pv-already-bound", pvcs: pvcs(unbound), pvs: pvs(pvNode1aBound)},
		// upstream: "one-binding, one-pvc-provisioned"
		{name: "one-binding, one-pvc-provisioned", pvcs: pvcs(unbound, provisioned), pvs: pvs(pvNode1a), capacities: enough,
			bindings: map[string]string{"unbound-pvc": "pv-node1a"}, provisions: []string{"provisioned-pvc"}},
	})
}

func unresolvable(reasons ...string) *framework.Status {
	return framework.NewStatus(framework.UnschedulableAndUnresolvable, reasons...)
}

// checkFitsEveryNode checks PreFilter's shortcut: when it says the pod's
// claims fit every node, the binder's full check on node finds no
// conflict, no error and no volume to bind or provision.
func checkFitsEveryNode(t *testing.T, objs *cluster.Objects, pod *api.Pod, node *api.Node) {
	t.Helper()
	s, _ := PrepareVolumeBinding(objs, pod)
	if s == nil || !s.FitsEveryNode() {
		return
	}
	var nv nodeVolumes
	conflicts, err := s.vols.find(node, &nv)
	if conflicts != 0 || err != nil || len(nv.static) != 0 || len(nv.dynamic) != 0 {
		t.Fatalf("FitsEveryNode, but find: conflicts %b, error %v, %d to bind, %d to provision", conflicts, err, len(nv.static), len(nv.dynamic))
	}
}

// FitsEveryNode is set for bound claims whose volumes have no node
// affinity (translated to CSI too), and only then.
func TestVolumeBindingFitsEveryNode(t *testing.T) {
	ebs := func(name string, labels ...string) *api.PersistentVolume {
		pv := makePV(name, "").labels(labels...).PersistentVolume
		pv.Spec.AWSElasticBlockStore = &api.AWSElasticBlockStoreVolumeSource{VolumeID: "vol-" + name}
		return pv
	}
	for _, tc := range []struct {
		name string
		pvcs []*api.PersistentVolumeClaim
		pvs  []*api.PersistentVolume
		want bool
	}{
		{"bound, no affinity", []*api.PersistentVolumeClaim{makePVC("c", "").boundTo("v").PersistentVolumeClaim}, []*api.PersistentVolume{makePV("v", "").PersistentVolume}, true},
		{"bound, affinity", []*api.PersistentVolumeClaim{makePVC("c", "").boundTo("v").PersistentVolumeClaim}, []*api.PersistentVolume{makePV("v", "").affinity(vbNodeKey, "node1").PersistentVolume}, false},
		{"bound, missing volume", []*api.PersistentVolumeClaim{makePVC("c", "").boundTo("v").PersistentVolumeClaim}, nil, false},
		{"in-tree EBS, no zone", []*api.PersistentVolumeClaim{makePVC("c", "").boundTo("v").PersistentVolumeClaim}, []*api.PersistentVolume{ebs("v")}, true},
		{"in-tree EBS, zone label", []*api.PersistentVolumeClaim{makePVC("c", "").boundTo("v").PersistentVolumeClaim}, []*api.PersistentVolume{ebs("v", LabelTopologyZone, "z1")}, false},
		{"unbound WaitForFirstConsumer", []*api.PersistentVolumeClaim{makePVC("c", provClass.Name).PersistentVolumeClaim}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs := []any{provClass, capDriver}
			for _, o := range tc.pvcs {
				objs = append(objs, o)
			}
			for _, o := range tc.pvs {
				objs = append(objs, o)
			}
			node := binderNode()
			snap, err := vbSnapshot([]*api.Node{node}, objs...)
			if err != nil {
				t.Fatal(err)
			}
			b := makeVBPod("p")
			for _, c := range tc.pvcs {
				b = b.pvc(c.Name)
			}
			s, st := PrepareVolumeBinding(snap.Objects(), b.Pod)
			if s == nil {
				t.Fatal(st)
			}
			if got := s.FitsEveryNode(); got != tc.want {
				t.Fatalf("FitsEveryNode %v, want %v", got, tc.want)
			}
			checkFitsEveryNode(t, snap.Objects(), b.Pod, node)
		})
	}
}
