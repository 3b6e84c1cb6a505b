package predicates

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// ErrReasonMaxVolumeCountExceeded is NodeVolumeLimits' reason, as
// upstream's nodevolumelimits.ErrReasonMaxVolumeCountExceeded (the
// classic MaxCSIVolumeCountPred, MaxEBSVolumeCount, MaxGCEPDVolumeCount
// and MaxAzureDiskVolumeCount predicates).
const ErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count"

var maxVolumeCountStatus = framework.NewStatus(framework.Unschedulable, ErrReasonMaxVolumeCountExceeded)

// In-tree volume plugins and the CSI drivers they migrate to, as
// csi-translation-lib v0.37.2 names them.
const (
	InTreeGCEPD     = "kubernetes.io/gce-pd"
	InTreeAWSEBS    = "kubernetes.io/aws-ebs"
	InTreeCinder    = "kubernetes.io/cinder"
	InTreeAzureDisk = "kubernetes.io/azure-disk"
	InTreeAzureFile = "kubernetes.io/azure-file"
	InTreeVSphere   = "kubernetes.io/vsphere-volume"
	InTreePortworx  = "kubernetes.io/portworx-volume"

	CSIDriverGCEPD     = "pd.csi.storage.gke.io"
	CSIDriverAWSEBS    = "ebs.csi.aws.com"
	CSIDriverCinder    = "cinder.csi.openstack.org"
	CSIDriverAzureDisk = "disk.csi.azure.com"
	CSIDriverAzureFile = "file.csi.azure.com"
	CSIDriverVSphere   = "csi.vsphere.vmware.com"
	CSIDriverPortworx  = "pxd.portworx.com"
)

// MigratedCSIDriver returns the CSI driver an in-tree volume plugin (or a
// StorageClass provisioner of that name) migrates to, and whether it is
// one of the migratable in-tree plugins.
func MigratedCSIDriver(inTree string) (string, bool) {
	switch inTree {
	case InTreeGCEPD:
		return CSIDriverGCEPD, true
	case InTreeAWSEBS:
		return CSIDriverAWSEBS, true
	case InTreeCinder:
		return CSIDriverCinder, true
	case InTreeAzureDisk:
		return CSIDriverAzureDisk, true
	case InTreeAzureFile:
		return CSIDriverAzureFile, true
	case InTreeVSphere:
		return CSIDriverVSphere, true
	case InTreePortworx:
		return CSIDriverPortworx, true
	}
	return "", false
}

// migrationCounted reports whether NodeVolumeLimits counts the migrated
// volumes of the in-tree plugin on a node with a CSINode object
// (v1.37.2: AWS EBS, Portworx, GCE PD, Azure Disk and Cinder, not Azure
// File nor vSphere).
func migrationCounted(hasCSINode bool, inTree string) bool {
	if !hasCSINode {
		return false
	}
	switch inTree {
	case InTreeAWSEBS, InTreePortworx, InTreeGCEPD, InTreeAzureDisk, InTreeCinder:
		return true
	}
	return false
}

// attachable is one volume NodeVolumeLimits counts: its CSI driver and
// volume handle. A claim not bound to a volume, counted through its
// StorageClass, has unbound set, the claim's namespace and its name as
// handle (upstream gives it the handle "<random prefix>-namespace/claim",
// which no real handle shares; kept apart here without building the
// string).
type attachable struct {
	driver, handle string
	namespace      string
	unbound        bool
}

func (a attachable) same(b attachable) bool {
	return a.driver == b.driver && a.handle == b.handle && a.unbound == b.unbound && a.namespace == b.namespace
}

// addAttachable adds a to set unless it is there.
func addAttachable(set []attachable, a attachable) []attachable {
	for _, x := range set {
		if x.same(a) {
			return set
		}
	}
	return append(set, a)
}

// inTreeInline returns the in-tree plugin of an inline volume that
// csi-translation-lib can migrate ("" if none).
func inTreeInline(v *api.Volume) string {
	switch {
	case v.GCEPersistentDisk != nil:
		return InTreeGCEPD
	case v.AWSElasticBlockStore != nil:
		return InTreeAWSEBS
	case v.Cinder != nil:
		return InTreeCinder
	case v.AzureDisk != nil:
		return InTreeAzureDisk
	case v.AzureFile != nil:
		return InTreeAzureFile
	case v.PortworxVolume != nil:
		return InTreePortworx
	}
	return ""
}

// inTreePV returns the in-tree plugin of a volume's source that
// csi-translation-lib can migrate ("" if none).
func inTreePV(pv *api.PersistentVolume) string {
	s := &pv.Spec.PersistentVolumeSource
	switch {
	case s.GCEPersistentDisk != nil:
		return InTreeGCEPD
	case s.AWSElasticBlockStore != nil:
		return InTreeAWSEBS
	case s.Cinder != nil:
		return InTreeCinder
	case s.AzureDisk != nil:
		return InTreeAzureDisk
	case s.AzureFile != nil:
		return InTreeAzureFile
	case s.PortworxVolume != nil:
		return InTreePortworx
	}
	return ""
}

var ebsVolumeID = regexp.MustCompile("^vol-[^/]*$")

// ebsVolumeHandle is csi-translation-lib's KubernetesVolumeIDToEBSVolumeID.
func ebsVolumeHandle(id string) (string, error) {
	if !strings.HasPrefix(id, "aws://") {
		return id, nil
	}
	u, err := url.Parse(id)
	if err != nil {
		//lint:ignore ST1005 upstream's text
		return "", fmt.Errorf("Invalid disk name (%s): %v", id, err)
	}
	if u.Scheme != "aws" {
		//lint:ignore ST1005 upstream's text
		return "", fmt.Errorf("Invalid scheme for AWS volume (%s)", id)
	}
	h := strings.Trim(u.Path, "/")
	if !ebsVolumeID.MatchString(h) {
		//lint:ignore ST1005 upstream's text
		return "", fmt.Errorf("Invalid format for AWS volume (%s)", id)
	}
	return h, nil
}

// managedAzureDisk reports whether an Azure disk kind migrates (nil or
// Managed, in any case).
func managedAzureDisk(kind *api.AzureDataDiskKind) error {
	if kind != nil && !strings.EqualFold(string(*kind), "Managed") {
		return fmt.Errorf("kind(%v) is not supported in csi migration", *kind)
	}
	return nil
}

const gceUnspecified = "UNSPECIFIED"

// gceRegion is csi-translation-lib's region of a set of GCE zones.
func gceRegion(zones []string) (string, error) {
	var region string
	var regions []string
	for _, z := range zones {
		parts := strings.Split(z, "-")
		if len(parts) != 3 {
			return "", fmt.Errorf("zone in unexpected format, expected: {locale}-{region}-{zone}, got: %v", z)
		}
		region = parts[0] + "-" + parts[1]
		if !slices.Contains(regions, region) {
			regions = append(regions, region)
		}
	}
	if len(regions) != 1 {
		// Upstream prints its set of regions as a Go map: sorted keys.
		slices.Sort(regions)
		return "", fmt.Errorf("multiple or no regions gotten from zones, got: map[%s:{}]", strings.Join(regions, ":{} "))
	}
	return region, nil
}

// inlineHandle returns the CSI volume handle csi-translation-lib gives a
// migratable inline volume, or its translation error.
func inlineHandle(v *api.Volume) (string, error) {
	switch {
	case v.GCEPersistentDisk != nil:
		return "projects/" + gceUnspecified + "/zones/" + gceUnspecified + "/disks/" + v.GCEPersistentDisk.PDName, nil
	case v.AWSElasticBlockStore != nil:
		h, err := ebsVolumeHandle(v.AWSElasticBlockStore.VolumeID)
		if err != nil {
			return "", fmt.Errorf("failed to translate Kubernetes ID to EBS Volume ID %v", err)
		}
		return h, nil
	case v.Cinder != nil:
		return v.Cinder.VolumeID, nil
	case v.AzureDisk != nil:
		if err := managedAzureDisk(v.AzureDisk.Kind); err != nil {
			return "", err
		}
		return v.AzureDisk.DataDiskURI, nil
	case v.PortworxVolume != nil:
		return v.PortworxVolume.VolumeID, nil
	}
	return "", errors.New("could not find in-tree plugin translation logic")
}

// pvHandle returns the CSI volume handle csi-translation-lib gives a
// migratable in-tree volume; ok is false when it fails to translate it.
func pvHandle(pv *api.PersistentVolume) (string, bool) {
	s := &pv.Spec.PersistentVolumeSource
	switch {
	case s.GCEPersistentDisk != nil:
		zones := pv.Labels[LabelFailureDomainBetaZone]
		if zones == "" {
			zones = pv.Labels[LabelTopologyZone]
		}
		zs := strings.Split(zones, multiZoneDelimiter)
		switch {
		case len(zs) == 1 && zs[0] != "":
			return "projects/" + gceUnspecified + "/zones/" + zs[0] + "/disks/" + s.GCEPersistentDisk.PDName, true
		case len(zs) > 1:
			region, err := gceRegion(zs)
			if err != nil {
				return "", false
			}
			return "projects/" + gceUnspecified + "/regions/" + region + "/disks/" + s.GCEPersistentDisk.PDName, true
		}
		return "projects/" + gceUnspecified + "/zones/" + gceUnspecified + "/disks/" + s.GCEPersistentDisk.PDName, true
	case s.AWSElasticBlockStore != nil:
		h, err := ebsVolumeHandle(s.AWSElasticBlockStore.VolumeID)
		return h, err == nil
	case s.Cinder != nil:
		return s.Cinder.VolumeID, true
	case s.AzureDisk != nil:
		return s.AzureDisk.DataDiskURI, managedAzureDisk(s.AzureDisk.Kind) == nil
	case s.PortworxVolume != nil:
		return s.PortworxVolume.VolumeID, true
	}
	return "", false
}

// CountsVolume reports whether NodeVolumeLimits looks at v at all: a
// claim, a generic ephemeral volume or a migratable inline volume.
func CountsVolume(v *api.Volume) bool {
	return v.PersistentVolumeClaim != nil || v.Ephemeral != nil || inTreeInline(v) != ""
}

// controlledBy reports whether pod is the controller owner of pvc.
func controlledBy(pvc *api.PersistentVolumeClaim, pod *api.Pod) bool {
	for _, r := range pvc.OwnerReferences {
		if r.Controller != nil && *r.Controller {
			return r.UID == pod.UID
		}
	}
	return false
}

// claimDriver returns the CSI driver and handle NodeVolumeLimits counts
// for a claim (upstream's getCSIDriverInfo): its bound volume's CSI
// source, or the migrated driver of an in-tree volume, or for an unbound
// claim (or one whose volume is missing) its StorageClass's provisioner.
// ok is false when the claim is not counted.
func claimDriver(objs *cluster.Objects, hasCSINode bool, pvc *api.PersistentVolumeClaim) (attachable, bool) {
	if pvc.Spec.VolumeName != "" {
		if pv, found := cluster.GetObject[api.PersistentVolume](objs, "", pvc.Spec.VolumeName); found {
			if c := pv.Spec.CSI; c != nil {
				return attachable{driver: c.Driver, handle: c.VolumeHandle}, c.Driver != "" && c.VolumeHandle != ""
			}
			inTree := inTreePV(pv)
			if inTree == "" || !migrationCounted(hasCSINode, inTree) {
				return attachable{}, false
			}
			h, ok := pvHandle(pv)
			if !ok || h == "" {
				return attachable{}, false
			}
			d, _ := MigratedCSIDriver(inTree)
			return attachable{driver: d, handle: h}, true
		}
	}
	sc := claimClass(pvc)
	if sc == "" {
		return attachable{}, false
	}
	class, found := cluster.GetObject[api.StorageClass](objs, "", sc)
	if !found {
		return attachable{}, false
	}
	a := attachable{driver: class.Provisioner, handle: pvc.Name, namespace: pvc.Namespace, unbound: true}
	if d, migratable := MigratedCSIDriver(class.Provisioner); migratable {
		if !migrationCounted(hasCSINode, class.Provisioner) {
			return attachable{}, false
		}
		a.driver = d
	}
	return a, a.driver != ""
}

// podAttachable appends the volumes of pod NodeVolumeLimits counts on a
// node (with or without a CSINode object) to set, as upstream's
// filterAttachableVolumes. For the pod to place (newPod) a missing claim
// is an error wrapping errClaimNotFound; for a pod on the node it is
// skipped.
func podAttachable(objs *cluster.Objects, hasCSINode bool, pod *api.Pod, newPod bool, set []attachable) ([]attachable, error) {
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		var claim string
		switch {
		case v.PersistentVolumeClaim != nil:
			claim = v.PersistentVolumeClaim.ClaimName
		case v.Ephemeral != nil:
			claim = pod.Name + "-" + v.Name
		default:
			inTree := inTreeInline(v)
			if inTree == "" || !migrationCounted(hasCSINode, inTree) {
				continue
			}
			h, err := inlineHandle(v)
			if err != nil {
				return set, fmt.Errorf("converting volume(%s) from inline to csi: %w", v.Name, err)
			}
			d, _ := MigratedCSIDriver(inTree)
			set = addAttachable(set, attachable{driver: d, handle: h})
			continue
		}
		if claim == "" {
			return set, errors.New("PersistentVolumeClaim had no name")
		}
		pvc, found := cluster.GetObject[api.PersistentVolumeClaim](objs, pod.Namespace, claim)
		if !found {
			if newPod {
				return set, &claimLookupError{namespace: pod.Namespace, name: claim}
			}
			continue
		}
		if v.Ephemeral != nil && !controlledBy(pvc, pod) {
			return set, fmt.Errorf("PVC %s/%s was not created for pod %s/%s (pod is not owner)", pvc.Namespace, pvc.Name, pod.Namespace, pod.Name)
		}
		if a, ok := claimDriver(objs, hasCSINode, pvc); ok {
			set = addAttachable(set, a)
		}
	}
	return set, nil
}

// claimLookupError is a claim of the pod to place that does not exist.
type claimLookupError struct{ namespace, name string }

func (e *claimLookupError) Error() string {
	return fmt.Sprintf("looking up PVC %s/%s: %s", e.namespace, e.name, ClaimNotFound(e.name))
}

// VolumeLimitsState is the pod's counted volumes on a node without
// ([0]) and with ([1]) a CSINode object, or the status that rejects the
// pod there.
type VolumeLimitsState struct {
	objs   *cluster.Objects
	vols   [2][]attachable
	status [2]*framework.Status
	// cache, if set, keeps what Filter derives from each node's pods
	// and attachments across cycles.
	cache *VolumeLimitsCache
	// objGen keys the cache's entries: the generation of the last change
	// to the kinds an entry is derived from.
	objGen int64
}

// Clone returns s: the state is never modified after PreFilter.
func (s *VolumeLimitsState) Clone() framework.StateData { return s }

// NewVolumeLimitsState resolves the pod's attachable volumes against
// objs, once per pod.
func NewVolumeLimitsState(objs *cluster.Objects, pod *api.Pod) *VolumeLimitsState {
	return newVolumeLimitsState(objs, pod, nil)
}

// NewCachedVolumeLimitsState is NewVolumeLimitsState whose Filter reads
// the volumes attached to each node from c, which computes them once
// per NodeInfo and object generation. c is shared by the cycles of one
// snapshot's scheduler.
func NewCachedVolumeLimitsState(objs *cluster.Objects, pod *api.Pod, c *VolumeLimitsCache) *VolumeLimitsState {
	return newVolumeLimitsState(objs, pod, c)
}

func newVolumeLimitsState(objs *cluster.Objects, pod *api.Pod, c *VolumeLimitsCache) *VolumeLimitsState {
	s := &VolumeLimitsState{objs: objs, cache: c}
	if c != nil {
		s.objGen = attachedGeneration(objs)
	}
	for i, hasCSINode := range []bool{false, true} {
		vols, err := podAttachable(objs, hasCSINode, pod, true, nil)
		switch {
		case err == nil:
			s.vols[i] = vols
		case errorsAsClaim(err):
			s.status[i] = framework.NewStatus(framework.UnschedulableAndUnresolvable, err.Error())
		default:
			s.status[i] = framework.AsStatus(err)
		}
	}
	return s
}

func errorsAsClaim(err error) bool {
	var ce *claimLookupError
	return errors.As(err, &ce)
}

// driverInstalled reports whether a node may use the driver's volumes
// (VolumeLimitScaling, on in v1.37): unless the driver's CSIDriver object
// sets preventPodSchedulingIfMissing, always; otherwise only if the
// node's CSINode lists it.
func driverInstalled(objs *cluster.Objects, driver string, csiNode *api.CSINode) bool {
	d, ok := cluster.GetObject[api.CSIDriver](objs, "", driver)
	if !ok || d.Spec.PreventPodSchedulingIfMissing == nil || !*d.Spec.PreventPodSchedulingIfMissing {
		return true
	}
	if csiNode == nil {
		return false
	}
	for i := range csiNode.Spec.Drivers {
		if csiNode.Spec.Drivers[i].Name == driver {
			return true
		}
	}
	return false
}

// volumeLimit returns the node's limit for driver from its CSINode (the
// last entry for the driver with an allocatable count).
func volumeLimit(csiNode *api.CSINode, driver string) (int64, bool) {
	var limit int64
	found := false
	for i := range csiNode.Spec.Drivers {
		d := &csiNode.Spec.Drivers[i]
		if d.Name == driver && d.Allocatable != nil && d.Allocatable.Count != nil {
			limit, found = int64(*d.Allocatable.Count), true
		}
	}
	return limit, found
}

func hasVolumeLimits(csiNode *api.CSINode) bool {
	if csiNode == nil {
		return false
	}
	for i := range csiNode.Spec.Drivers {
		if a := csiNode.Spec.Drivers[i].Allocatable; a != nil && a.Count != nil {
			return true
		}
	}
	return false
}

// Filter is NodeVolumeLimits' Filter for one node.
func (s *VolumeLimitsState) Filter(nodeInfo *cluster.NodeInfo) *framework.Status {
	node := nodeInfo.Node()
	if node == nil {
		return framework.AsStatus(errors.New("node not found"))
	}
	csiNode, _ := cluster.GetObject[api.CSINode](s.objs, "", node.Name)
	idx := 0
	if csiNode != nil {
		idx = 1
	}
	if st := s.status[idx]; st != nil {
		return st
	}
	vols := s.vols[idx]
	if len(vols) == 0 {
		return nil
	}
	// Drivers in name order: upstream checks them in map order, so which
	// missing driver it names is random when several are missing.
	var missing string
	for _, v := range vols {
		if (missing == "" || v.driver < missing) && !driverInstalled(s.objs, v.driver, csiNode) {
			missing = v.driver
		}
	}
	if missing != "" {
		return framework.NewStatus(framework.Unschedulable, missing+" CSI driver is not installed on the node")
	}
	if !hasVolumeLimits(csiNode) {
		return nil
	}
	var attached, vaVols []attachable
	if e := s.cache.lookup(nodeInfo, s.objGen); e != nil {
		if e.status != nil {
			return e.status
		}
		attached, vaVols = e.attached, e.vaVols
	} else if s.cache != nil {
		e := &attachedVolumes{ni: nodeInfo, gen: nodeInfo.Generation, objGen: s.objGen}
		st := e.compute(s.objs, nodeInfo, nil, nil)
		s.cache.store(e)
		if st != nil {
			return st
		}
		attached, vaVols = e.attached, e.vaVols
	} else {
		// Small buffers on the stack: a node with a few volumes costs
		// no allocation.
		var attachedBuf [16]attachable
		var vaBuf [8]attachable
		var e attachedVolumes
		if st := e.compute(s.objs, nodeInfo, attachedBuf[:0], vaBuf[:0]); st != nil {
			return st
		}
		attached, vaVols = e.attached, e.vaVols
	}
	// For each driver the pod adds volumes of (not attached yet) that has
	// a limit: the volumes attached plus the new ones must not exceed it.
	for i, v := range vols {
		if slices.ContainsFunc(vols[:i], func(w attachable) bool { return w.driver == v.driver }) {
			continue
		}
		limit, ok := volumeLimit(csiNode, v.driver)
		if !ok {
			continue
		}
		used, added := 0, 0
		for _, a := range attached {
			if a.driver == v.driver {
				used++
			}
		}
		for _, a := range vaVols {
			if a.driver == v.driver {
				used++
			}
		}
		for _, w := range vols {
			if w.driver == v.driver && !slices.ContainsFunc(attached, w.same) {
				added++
			}
		}
		if added > 0 && int64(used+added) > limit {
			return maxVolumeCountStatus
		}
	}
	return nil
}

// attachmentVolumes appends to set the distinct volumes of the node's
// VolumeAttachments that NodeVolumeLimits counts and that are not in
// attached, as upstream's getNodeVolumeAttachmentInfo: an attachment
// with an attacher and a PersistentVolume name whose volume exists and
// has a CSI source is the volume attacher/volumeHandle, counted against
// the attacher (whatever driver the volume names); the attachment's
// status is not read, attachments of inline volumes and of missing or
// in-tree volumes (not translated to CSI) are skipped.
func attachmentVolumes(objs *cluster.Objects, node string, attached, set []attachable) []attachable {
	for _, va := range cluster.VolumeAttachmentsOnNode(objs, node) {
		if va.Spec.Attacher == "" || va.Spec.Source.PersistentVolumeName == nil {
			continue
		}
		pv, ok := cluster.GetObject[api.PersistentVolume](objs, "", *va.Spec.Source.PersistentVolumeName)
		if !ok || pv.Spec.CSI == nil {
			continue
		}
		a := attachable{driver: va.Spec.Attacher, handle: pv.Spec.CSI.VolumeHandle}
		if slices.ContainsFunc(attached, a.same) {
			continue
		}
		set = addAttachable(set, a)
	}
	return set
}

// NodeVolumeLimits is the NodeVolumeLimits filter as a plain function,
// looking objects up in objs.
func NodeVolumeLimits(objs *cluster.Objects, pod *api.Pod, nodeInfo *cluster.NodeInfo) *framework.Status {
	if len(pod.Spec.Volumes) == 0 {
		return nil
	}
	return NewVolumeLimitsState(objs, pod).Filter(nodeInfo)
}

// attachedVolumes is what NodeVolumeLimits' Filter derives from a node
// with a CSINode object, the same for every incoming pod: the distinct
// volumes its pods use (attached), and those of its VolumeAttachments
// that no pod there uses (vaVols), or the status of a pod's volume that
// cannot be counted. Cached, it is immutable and keyed by the NodeInfo,
// its Generation and the generation of the objects it was derived from.
type attachedVolumes struct {
	ni       *cluster.NodeInfo
	gen      int64
	objGen   int64
	attached []attachable
	vaVols   []attachable
	status   *framework.Status
}

// compute fills e from the node's pods and attachments, appending to
// the buffers given; a status that rejects the node is returned and kept
// in e.
func (e *attachedVolumes) compute(objs *cluster.Objects, ni *cluster.NodeInfo, attached, vaVols []attachable) *framework.Status {
	for _, p := range ni.Pods {
		if len(p.Pod.Spec.Volumes) == 0 {
			continue
		}
		var err error
		if attached, err = podAttachable(objs, true, p.Pod, false, attached); err != nil {
			e.status = framework.AsStatus(err)
			return e.status
		}
	}
	e.attached = attached
	// The node's VolumeAttachments count too, unless a pod on the node
	// already counted their volume (the pod's own volumes are not
	// matched against them: a volume attached to the node that no pod
	// there uses counts twice, as upstream counts it).
	e.vaVols = attachmentVolumes(objs, ni.Node().Name, attached, vaVols)
	return nil
}

// attachedGeneration is the generation of the last change to the kinds
// a attachedVolumes is derived from: claims, volumes, classes and
// attachments. (The CSINode is looked up per cycle.)
func attachedGeneration(objs *cluster.Objects) int64 {
	return max(objs.KindGeneration(cluster.KindPersistentVolumeClaim), objs.KindGeneration(cluster.KindPersistentVolume),
		objs.KindGeneration(cluster.KindStorageClass), objs.KindGeneration(cluster.KindVolumeAttachment))
}

// VolumeLimitsCache keeps, per node slot of one snapshot, the volumes
// NodeVolumeLimits' Filter counts as attached to the node, so that a
// cycle derives them only for the nodes that changed since the last
// (a stream of pods changes one node a cycle) and costs, on the others,
// a lookup and the pod's own volumes. Entries are immutable and
// published atomically: Filter runs concurrently for different nodes,
// and a lost race only costs a recomputation. Its zero value is empty
// and ready to use.
type VolumeLimitsCache struct {
	mu    sync.Mutex // held to grow slots
	slots atomic.Pointer[[]atomic.Pointer[attachedVolumes]]
}

// lookup returns ni's entry if it was derived from ni as it is, at
// objGen; nil otherwise (or for a nil cache).
func (c *VolumeLimitsCache) lookup(ni *cluster.NodeInfo, objGen int64) *attachedVolumes {
	if c == nil {
		return nil
	}
	i := ni.Slot()
	t := c.slots.Load()
	if i < 0 || t == nil || i >= len(*t) {
		return nil
	}
	if e := (*t)[i].Load(); e != nil && e.ni == ni && e.gen == ni.Generation && e.objGen == objGen {
		return e
	}
	return nil
}

// store publishes e as the entry of its node's slot.
func (c *VolumeLimitsCache) store(e *attachedVolumes) {
	i := e.ni.Slot()
	if i < 0 {
		return
	}
	t := c.slots.Load()
	if t == nil || i >= len(*t) {
		t = c.grow(i + 1)
	}
	(*t)[i].Store(e)
}

// grow makes room for n slots and returns the table.
func (c *VolumeLimitsCache) grow(n int) *[]atomic.Pointer[attachedVolumes] {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.slots.Load()
	if old != nil && n <= len(*old) {
		return old
	}
	size := max(n, 64)
	if old != nil {
		size = max(size, 2*len(*old))
	}
	t := make([]atomic.Pointer[attachedVolumes], size)
	if old != nil {
		for i := range *old {
			t[i].Store((*old)[i].Load())
		}
	}
	c.slots.Store(&t)
	return &t
}
