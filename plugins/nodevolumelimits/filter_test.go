package nodevolumelimits

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// The fixtures of upstream's TestCSILimits: for each driver d of a row,
// claims csi-<d>-0..3 bound to volumes of the same name (in-tree EBS
// volumes for kubernetes.io/aws-ebs, host paths for
// kubernetes.io/hostpath, CSI volumes of d with that handle otherwise);
// csi-4 unbound in class csi-sc, csi-5 unbound without a class, csi-6 in
// csi-sc bound to a missing volume; csi-sc provisioned by the row's
// first driver; the CSINode of node n lists the drivers with the row's
// limit ("csinode"), without limits ("csinode-with-no-limit"), no
// drivers ("no-csi-driver"), or there is none.
const (
	csiLimitsSC       = "csi-sc"
	csiLimitsHostPath = "kubernetes.io/hostpath"
)

func csiLimitsObjects(limitSource string, limit int32, drivers ...string) []any {
	var objs []any
	for _, d := range drivers {
		for j := range 4 {
			name := fmt.Sprintf("csi-%s-%d", d, j)
			pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}}
			switch d {
			case predicates.InTreeAWSEBS:
				pv.Spec.AWSElasticBlockStore = &api.AWSElasticBlockStoreVolumeSource{VolumeID: name}
			case csiLimitsHostPath:
				pv.Spec.HostPath = &api.HostPathVolumeSource{Path: "/tmp"}
			default:
				pv.Spec.CSI = &api.CSIPersistentVolumeSource{Driver: d, VolumeHandle: name}
			}
			c := claim(name)
			c.Spec.VolumeName = name
			objs = append(objs, pv, c)
		}
	}
	sc := csiLimitsSC
	unbound, noClass, missing := claim("csi-4"), claim("csi-5"), claim("csi-6")
	unbound.Spec.StorageClassName, missing.Spec.StorageClassName = &sc, &sc
	missing.Spec.VolumeName = "missing-in-action"
	objs = append(objs, unbound, noClass, missing,
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: csiLimitsSC}, Provisioner: drivers[0]})
	if limitSource == "" {
		return objs
	}
	n := &api.CSINode{ObjectMeta: api.ObjectMeta{Name: "n", Annotations: map[string]string{predicates.AnnMigratedPlugins: predicates.InTreeAWSEBS}}}
	if limitSource != "no-csi-driver" {
		for _, d := range drivers {
			drv := api.CSINodeDriver{Name: d, NodeID: "n"}
			if limitSource == "csinode" {
				c := limit
				drv.Allocatable = &api.VolumeNodeResources{Count: &c}
			}
			n.Spec.Drivers = append(n.Spec.Drivers, drv)
		}
	}
	return append(objs, n)
}

// upstream: TestCSILimits (every row but the two VolumeAttachment rows,
// which TestNodeVolumeLimitsVolumeAttachments ports)
func TestCSILimitsUpstream(t *testing.T) {
	const ebs, gce = predicates.CSIDriverAWSEBS, predicates.CSIDriverGCEPD
	pvcPod := func(name string, claims ...string) func(node string) *api.Pod {
		return func(node string) *api.Pod {
			p := volPod(name, node)
			for _, c := range claims {
				p.Spec.Volumes = append(p.Spec.Volumes, pvcVol(c))
			}
			return p
		}
	}
	withVolumes := func(name, ns, uid string, vols ...api.Volume) func(node string) *api.Pod {
		return func(node string) *api.Pod {
			p := volPod(name, node, vols...)
			p.Namespace, p.UID = ns, uid
			return p
		}
	}
	runningPod := pvcPod("running", "csi-ebs.csi.aws.com-3")
	pendingVolumePod := pvcPod("pending", "csi-4")
	unboundPVCPod2 := pvcPod("pending-2", "csi-4")
	missingPVPod := pvcPod("missing-pv", "csi-6")
	noSCPVCPod := pvcPod("no-sc", "csi-5")
	gceTwoVolPod := pvcPod("gce-two", "csi-pd.csi.storage.gke.io-1", "csi-pd.csi.storage.gke.io-2")
	inTreeOneVolPod := pvcPod("in-tree-one", "csi-kubernetes.io/aws-ebs-0")
	inTreeTwoVolPod := pvcPod("in-tree-two", "csi-kubernetes.io/aws-ebs-1", "csi-kubernetes.io/aws-ebs-2")
	csiEBSOneVolPod := pvcPod("ebs-one", "csi-ebs.csi.aws.com-0")
	csiEBSTwoVolPod := pvcPod("ebs-two", "csi-ebs.csi.aws.com-1", "csi-ebs.csi.aws.com-2")
	inTreeNonMigratableOneVolPod := pvcPod("hostpath", "csi-kubernetes.io/hostpath-0")
	eph := func(name string) api.Volume { return api.Volume{Name: name, Ephemeral: &api.EphemeralVolumeSource{}} }
	ephemeralVolumePod := withVolumes("abc", "test", "12345", eph("xyz"))
	ephemeralTwoVolumePod := withVolumes("abc", "test", "12345II", eph("x"), eph("y"))
	yes := true
	sc := csiLimitsSC
	ownedClaim := func(name, uid string) *api.PersistentVolumeClaim {
		c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Namespace: "test", Name: name,
			OwnerReferences: []api.OwnerReference{{Kind: "Pod", Name: "abc", UID: uid, Controller: &yes}}},
			Spec: api.PersistentVolumeClaimSpec{StorageClassName: &sc}}
		return c
	}
	ephemeralClaim := ownedClaim("abc-xyz", "12345")
	conflictingClaim := ownedClaim("abc-xyz", "12345")
	conflictingClaim.OwnerReferences = nil
	ephemeralClaimX, ephemeralClaimY := ownedClaim("abc-x", "12345II"), ownedClaim("abc-y", "12345II")
	inline := func(id string) api.Volume {
		return api.Volume{Name: "inline", AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: id}}
	}
	configMapAndSecret := []api.Volume{{Name: "cm", ConfigMap: &api.ConfigMapVolumeSource{}}, {Name: "secret", Secret: &api.SecretVolumeSource{}}}
	inTreeInlineVolPod := withVolumes("inline", "default", "uid-inline", inline("aws-inline1"))
	inTreeInlineVolPodWithSameCSIVolumeID := withVolumes("inline-same", "default", "uid-inline-same", inline("csi-ebs.csi.aws.com-1"))
	onlyConfigmapAndSecretVolPod := withVolumes("cm-secret", "default", "uid-cm", configMapAndSecret...)
	pvcPodWithConfigmapAndSecret := withVolumes("cm-secret-pvc", "default", "uid-cm-pvc", append(configMapAndSecret, pvcVol("csi-ebs.csi.aws.com-0"))...)
	ephemeralPodWithConfigmapAndSecret := withVolumes("abc", "test", "", append(configMapAndSecret, eph("xyz"))...)
	inlineMigratablePodWithConfigmapAndSecret := withVolumes("cm-secret-inline", "default", "uid-cm-inline", append(configMapAndSecret, inline("aws-inline1"))...)

	maxExceeded := framework.NewStatus(framework.Unschedulable, predicates.ErrReasonMaxVolumeCountExceeded)
	// schedkit's claim lookup says "persistentvolumeclaim" as the
	// informers' listers do; upstream's fake lister says
	// "persistentvolumeclaims".
	ephemeralMissing := framework.NewStatus(framework.UnschedulableAndUnresolvable, `looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found`)
	inTreeAndCSI := []string{predicates.InTreeAWSEBS, ebs}
	tests := []struct {
		test         string
		newPod       func(string) *api.Pod
		existingPods []func(string) *api.Pod
		extraClaims  []*api.PersistentVolumeClaim
		maxVols      int32
		driverNames  []string
		limitSource  string
		wantStatus   *framework.Status
		wantPreSkip  bool
	}{
		{test: "fits when node volume limit >= new pods CSI volume", newPod: csiEBSOneVolPod, existingPods: []func(string) *api.Pod{runningPod, csiEBSTwoVolPod},
			maxVols: 4, driverNames: []string{ebs}, limitSource: "csinode"},
		{test: "doesn't when node volume limit <= pods CSI volume", newPod: csiEBSOneVolPod, existingPods: []func(string) *api.Pod{runningPod, csiEBSTwoVolPod},
			maxVols: 2, driverNames: []string{ebs}, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "should when driver does not support volume limits", newPod: csiEBSOneVolPod, existingPods: []func(string) *api.Pod{runningPod, csiEBSTwoVolPod},
			maxVols: 2, driverNames: []string{ebs}, limitSource: "csinode-with-no-limit"},
		{test: "count pending PVCs towards volume limit <= pods CSI volume", newPod: csiEBSOneVolPod, existingPods: []func(string) *api.Pod{pendingVolumePod, csiEBSTwoVolPod},
			maxVols: 2, driverNames: []string{ebs}, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "count multiple pending pvcs towards volume limit >= pods CSI volume", newPod: csiEBSOneVolPod,
			existingPods: []func(string) *api.Pod{pendingVolumePod, unboundPVCPod2, csiEBSTwoVolPod}, maxVols: 4, driverNames: []string{ebs}, limitSource: "csinode"},
		{test: "should count PVCs with invalid PV name but valid SC", newPod: csiEBSOneVolPod, existingPods: []func(string) *api.Pod{missingPVPod, csiEBSTwoVolPod},
			maxVols: 2, driverNames: []string{ebs}, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "don't count pvcs with missing SC towards volume limit", newPod: csiEBSOneVolPod, existingPods: []func(string) *api.Pod{runningPod, noSCPVCPod},
			maxVols: 2, driverNames: []string{ebs}, limitSource: "csinode"},
		{test: "count pvcs with the same type towards volume limit", newPod: csiEBSOneVolPod, existingPods: []func(string) *api.Pod{gceTwoVolPod, csiEBSTwoVolPod},
			maxVols: 2, driverNames: []string{ebs, gce}, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "don't count pvcs with different type towards volume limit", newPod: gceTwoVolPod, existingPods: []func(string) *api.Pod{csiEBSTwoVolPod, runningPod},
			maxVols: 2, driverNames: []string{ebs, gce}, limitSource: "csinode"},
		{test: "should count in-tree volumes if migration is enabled", newPod: inTreeOneVolPod, existingPods: []func(string) *api.Pod{inTreeTwoVolPod},
			maxVols: 2, driverNames: inTreeAndCSI, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "nil csi node", newPod: inTreeInlineVolPod, existingPods: []func(string) *api.Pod{inTreeTwoVolPod}, driverNames: inTreeAndCSI},
		{test: "should count unbound in-tree volumes if migration is enabled", newPod: pendingVolumePod, existingPods: []func(string) *api.Pod{inTreeTwoVolPod},
			maxVols: 2, driverNames: inTreeAndCSI, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "should not limit pod if volume used does not report limits", newPod: inTreeOneVolPod, existingPods: []func(string) *api.Pod{inTreeTwoVolPod},
			maxVols: 2, driverNames: inTreeAndCSI, limitSource: "csinode-with-no-limit"},
		{test: "should not count non-migratable in-tree volumes", newPod: inTreeNonMigratableOneVolPod, existingPods: []func(string) *api.Pod{csiEBSTwoVolPod},
			maxVols: 2, driverNames: []string{csiLimitsHostPath, ebs}, limitSource: "csinode"},
		{test: "should count in-tree inline volumes if migration is enabled", newPod: inTreeInlineVolPod, existingPods: []func(string) *api.Pod{inTreeTwoVolPod},
			maxVols: 2, driverNames: inTreeAndCSI, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)", newPod: inTreeOneVolPod,
			existingPods: []func(string) *api.Pod{csiEBSTwoVolPod}, maxVols: 2, driverNames: inTreeAndCSI, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)", newPod: inTreeInlineVolPod,
			existingPods: []func(string) *api.Pod{csiEBSTwoVolPod, inTreeOneVolPod}, maxVols: 3, driverNames: inTreeAndCSI, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "should not count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)", newPod: inTreeInlineVolPodWithSameCSIVolumeID,
			existingPods: []func(string) *api.Pod{csiEBSTwoVolPod, inTreeOneVolPod}, maxVols: 3, driverNames: inTreeAndCSI, limitSource: "csinode"},
		{test: "should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)", newPod: csiEBSOneVolPod,
			existingPods: []func(string) *api.Pod{inTreeTwoVolPod}, maxVols: 2, driverNames: inTreeAndCSI, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "ephemeral volume missing", newPod: ephemeralVolumePod, driverNames: []string{ebs}, limitSource: "csinode-with-no-limit", wantStatus: ephemeralMissing},
		{test: "ephemeral volume not owned", newPod: ephemeralVolumePod, extraClaims: []*api.PersistentVolumeClaim{conflictingClaim}, driverNames: []string{ebs},
			limitSource: "csinode-with-no-limit", wantStatus: framework.AsStatus(errors.New("PVC test/abc-xyz was not created for pod test/abc (pod is not owner)"))},
		{test: "ephemeral volume unbound", newPod: ephemeralVolumePod, extraClaims: []*api.PersistentVolumeClaim{ephemeralClaim}, driverNames: []string{ebs},
			limitSource: "csinode-with-no-limit"},
		{test: "ephemeral doesn't when node volume limit <= pods CSI volume", newPod: ephemeralVolumePod, extraClaims: []*api.PersistentVolumeClaim{ephemeralClaim},
			driverNames: []string{ebs}, existingPods: []func(string) *api.Pod{runningPod, csiEBSTwoVolPod}, maxVols: 2, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume", newPod: csiEBSOneVolPod,
			extraClaims: []*api.PersistentVolumeClaim{ephemeralClaimX, ephemeralClaimY}, driverNames: []string{ebs},
			existingPods: []func(string) *api.Pod{runningPod, ephemeralTwoVolumePod}, maxVols: 2, limitSource: "csinode", wantStatus: maxExceeded},
		// The generic ephemeral volume gate is gone: "ephemeral disabled"
		// behaves as the next row.
		{test: "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume, ephemeral disabled", newPod: csiEBSOneVolPod,
			extraClaims: []*api.PersistentVolumeClaim{ephemeralClaim}, driverNames: []string{ebs},
			existingPods: []func(string) *api.Pod{runningPod, ephemeralVolumePod, csiEBSTwoVolPod}, maxVols: 3, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume", newPod: csiEBSOneVolPod,
			extraClaims: []*api.PersistentVolumeClaim{ephemeralClaim}, driverNames: []string{ebs},
			existingPods: []func(string) *api.Pod{runningPod, ephemeralVolumePod, csiEBSTwoVolPod}, maxVols: 3, limitSource: "csinode", wantStatus: maxExceeded},
		{test: "persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume", newPod: csiEBSOneVolPod,
			extraClaims: []*api.PersistentVolumeClaim{ephemeralClaim}, driverNames: []string{ebs},
			existingPods: []func(string) *api.Pod{runningPod, ephemeralVolumePod, csiEBSTwoVolPod}, maxVols: 5, limitSource: "csinode"},
		{test: "skip Filter when the pod only uses secrets and configmaps", newPod: onlyConfigmapAndSecretVolPod, maxVols: 2, driverNames: []string{ebs},
			limitSource: "csinode", wantPreSkip: true},
		{test: "don't skip Filter when the pod has pvcs", newPod: pvcPodWithConfigmapAndSecret, maxVols: 2, driverNames: []string{ebs}, limitSource: "csinode"},
		{test: "don't skip Filter when the pod has ephemeral volumes", newPod: ephemeralPodWithConfigmapAndSecret, driverNames: []string{ebs},
			limitSource: "csinode-with-no-limit", wantStatus: ephemeralMissing},
		{test: "don't skip Filter when the pod has inline migratable volumes", newPod: inlineMigratablePodWithConfigmapAndSecret,
			existingPods: []func(string) *api.Pod{inTreeTwoVolPod}, maxVols: 2, driverNames: inTreeAndCSI, limitSource: "csinode", wantStatus: maxExceeded},
	}
	for _, tc := range tests {
		t.Run(tc.test, func(t *testing.T) {
			objs := csiLimitsObjects(tc.limitSource, tc.maxVols, tc.driverNames...)
			for _, c := range tc.extraClaims {
				objs = append(objs, c)
			}
			var existing []*api.Pod
			for _, p := range tc.existingPods {
				existing = append(existing, p("n"))
			}
			s := storageSnap(t, []*api.Node{testNode("n", nil)}, existing, objs...)
			p, _ := New(nil, storageHandle{s})
			pod := tc.newPod("")
			pre, got := runFilter(t, p, s, pod, "n")
			if tc.wantPreSkip {
				checkStatus(t, "PreFilter", pre, framework.NewStatus(framework.Skip))
				return
			}
			checkStatus(t, "PreFilter", pre, nil)
			checkStatus(t, "Filter", got, tc.wantStatus)
		})
	}
}

// upstream: TestVolumeLimitScalingGate (the rows with the gate on, its
// default in v1.37; schedkit has no switch to turn it off, so "gate
// disabled - skip driver presence check" is not ported)
func TestVolumeLimitScalingUpstream(t *testing.T) {
	const ebs = predicates.CSIDriverAWSEBS
	tests := []struct {
		name             string
		limitSource      string
		limit            int32
		csiDriverPresent bool
		prevent          bool
		want             *framework.Status
	}{
		{name: "gate enabled - allow scheduling when CSIDriver exists but PreventPodSchedulingIfMissing is not set", limitSource: "no-csi-driver", csiDriverPresent: true},
		{name: "gate enabled - fail when driver not installed and PreventPodSchedulingIfMissing is true", limitSource: "no-csi-driver", csiDriverPresent: true, prevent: true,
			want: framework.NewStatus(framework.Unschedulable, ebs+" CSI driver is not installed on the node")},
		{name: "gate enabled - driver installed within limit", limitSource: "csinode", limit: 2, csiDriverPresent: true, prevent: true},
		{name: "gate enabled - allow scheduling when CSIDriver object missing", limitSource: "no-csi-driver"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs := csiLimitsObjects(tc.limitSource, tc.limit, ebs)
			if tc.csiDriverPresent {
				d := &api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: ebs}}
				if tc.prevent {
					yes := true
					d.Spec.PreventPodSchedulingIfMissing = &yes
				}
				objs = append(objs, d)
			}
			s := storageSnap(t, []*api.Node{testNode("n", nil)}, nil, objs...)
			p, _ := New(nil, storageHandle{s})
			pre, got := runFilter(t, p, s, volPod("p", "", pvcVol("csi-ebs.csi.aws.com-0")), "n")
			checkStatus(t, "PreFilter", pre, nil)
			checkStatus(t, "Filter", got, tc.want)
		})
	}
}

// Filter on a node with a limit, pods with volumes and
// VolumeAttachments allocates nothing (the per-pod work is PreFilter's).
func TestNodeVolumeLimitsFilterDoesNotAllocate(t *testing.T) {
	const ebs = predicates.CSIDriverAWSEBS
	objs := csiLimitsObjects("csinode", 10, ebs)
	for i := range 3 {
		objs = append(objs, attachment(fmt.Sprintf("va-%d", i), "n", ebs, strptr(fmt.Sprintf("csi-%s-%d", ebs, i))))
	}
	existing := []*api.Pod{volPod("e1", "n", pvcVol("csi-ebs.csi.aws.com-1")), volPod("e2", "n", pvcVol("csi-ebs.csi.aws.com-2"), pvcVol("csi-4"))}
	s := storageSnap(t, []*api.Node{testNode("n", nil)}, existing, objs...)
	p, _ := New(nil, storageHandle{s})
	pod := volPod("p", "", pvcVol("csi-ebs.csi.aws.com-0"), pvcVol("csi-ebs.csi.aws.com-3"))
	state := framework.NewCycleState()
	view := s.View()
	if _, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), state, pod, view.Nodes()); !st.IsSuccess() {
		t.Fatal(st)
	}
	ni, _ := view.Get("n")
	f := p.(framework.FilterPlugin)
	if st := f.Filter(context.Background(), state, pod, ni); !st.IsSuccess() {
		t.Fatal(st)
	}
	if n := testing.AllocsPerRun(100, func() { f.Filter(context.Background(), state, pod, ni) }); n != 0 {
		t.Errorf("Filter allocates %v times per node", n)
	}
}
