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
	// drivers group vols by CSI driver, in name order: the per-node
	// check reads them without looking anything up.
	drivers [2][]podDriver
	// cache, if set, keeps what Filter derives from each node (its
	// CSINode, and its pods' and attachments' volumes) across cycles.
	cache *VolumeLimitsCache
	// objGen keys the cache's entries: the generation of the last change
	// to the kinds an entry is derived from.
	objGen int64
}

// podDriver is one CSI driver of the pod's volumes: the volumes (in
// the state's vols) and, when its CSIDriver sets
// preventPodSchedulingIfMissing, the status of a node whose CSINode
// does not list it.
type podDriver struct {
	name string
	vols []attachable
	// bits are vols' handleBit, in order.
	bits    []uint64
	missing *framework.Status
}

// handleBit is the bit of a volume's handle in attachedVolumes.mask
// (FNV-1a, folded to 6 bits): a volume whose bit a node's mask lacks is
// not attached there, found without reading the node's volumes.
func handleBit(a attachable) uint64 {
	h := uint32(2166136261)
	for i := 0; i < len(a.handle); i++ {
		h = (h ^ uint32(a.handle[i])) * 16777619
	}
	return 1 << ((h ^ h>>6 ^ h>>12 ^ h>>18 ^ h>>24) & 63)
}

// Clone returns s: the state is never modified after PreFilter.
func (s *VolumeLimitsState) Clone() framework.StateData { return s }

// NewVolumeLimitsState resolves the pod's attachable volumes against
// objs, once per pod.
func NewVolumeLimitsState(objs *cluster.Objects, pod *api.Pod) *VolumeLimitsState {
	return newVolumeLimitsState(objs, pod, nil)
}

// NewCachedVolumeLimitsState is NewVolumeLimitsState whose Filter reads
// what it derives from each node (its CSINode and the volumes attached
// to it) from c, which computes it once per NodeInfo, Generation and
// object generation: a cycle after a placement recomputes the one node
// that changed. c is shared by the cycles of one snapshot's scheduler.
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
			s.drivers[i] = groupDrivers(objs, vols)
		case errorsAsClaim(err):
			s.status[i] = framework.NewStatus(framework.UnschedulableAndUnresolvable, err.Error())
		default:
			s.status[i] = framework.AsStatus(err)
		}
	}
	return s
}

// groupDrivers sorts vols by driver name (stably) and returns one
// podDriver per driver, in that order. Upstream checks the drivers in
// map order, so which missing driver it names is random when several
// are missing; schedkit names the first by name.
func groupDrivers(objs *cluster.Objects, vols []attachable) []podDriver {
	if len(vols) == 0 {
		return nil
	}
	slices.SortStableFunc(vols, func(a, b attachable) int { return strings.Compare(a.driver, b.driver) })
	var out []podDriver
	for i := 0; i < len(vols); {
		j := i + 1
		for j < len(vols) && vols[j].driver == vols[i].driver {
			j++
		}
		d := podDriver{name: vols[i].driver, vols: vols[i:j:j], bits: make([]uint64, j-i)}
		for k := range d.vols {
			d.bits[k] = handleBit(d.vols[k])
		}
		if driverRequired(objs, d.name) {
			d.missing = framework.NewStatus(framework.Unschedulable, d.name+" CSI driver is not installed on the node")
		}
		out = append(out, d)
		i = j
	}
	return out
}

func errorsAsClaim(err error) bool {
	var ce *claimLookupError
	return errors.As(err, &ce)
}

// driverRequired reports whether a node must list the driver in its
// CSINode to use its volumes (VolumeLimitScaling, on in v1.37): the
// driver's CSIDriver object sets preventPodSchedulingIfMissing.
func driverRequired(objs *cluster.Objects, driver string) bool {
	d, ok := cluster.GetObject[api.CSIDriver](objs, "", driver)
	return ok && d.Spec.PreventPodSchedulingIfMissing != nil && *d.Spec.PreventPodSchedulingIfMissing
}

// listsDriver reports whether the node's CSINode (nil for none) lists
// the driver.
func listsDriver(csiNode *api.CSINode, driver string) bool {
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
	if nodeInfo.Node() == nil {
		return framework.AsStatus(errors.New("node not found"))
	}
	if s.cache == nil || nodeInfo.Slot() < 0 {
		// Buffers on the stack: a node with a few volumes costs no
		// allocation.
		var e attachedVolumes
		var attachedBuf [4]attachable
		var usesBuf [2]driverUse
		e.compute(s.objs, nodeInfo, attachedBuf[:0], usesBuf[:0])
		return s.filter(&e)
	}
	e, held := s.cache.lookup(nodeInfo, s.objGen)
	if e == nil {
		e = s.cache.newEntry(!held)
		e.ni, e.gen, e.objGen = nodeInfo, nodeInfo.Generation, s.objGen
		e.compute(s.objs, nodeInfo, e.attachedBuf[:0], e.usesBuf[:0])
		s.cache.store(e)
	}
	return s.filter(e)
}

// filter is Filter on the node e was derived from.
func (s *VolumeLimitsState) filter(e *attachedVolumes) *framework.Status {
	idx := 0
	if e.csiNode != nil {
		idx = 1
	}
	if st := s.status[idx]; st != nil {
		return st
	}
	drivers := s.drivers[idx]
	if len(drivers) == 0 {
		return nil
	}
	for i := range drivers {
		if d := &drivers[i]; d.missing != nil && !listsDriver(e.csiNode, d.name) {
			return d.missing
		}
	}
	if !e.limited {
		return nil
	}
	if e.status != nil {
		return e.status
	}
	// For each driver the pod adds volumes of (not attached yet) that has
	// a limit: the volumes attached plus the new ones must not exceed it.
	for i := range drivers {
		d := &drivers[i]
		u := e.use(d.name)
		if u == nil {
			continue
		}
		added := 0
		for k, w := range d.vols {
			if e.mask&d.bits[k] == 0 || !containsAttachable(e.attached, w) {
				added++
			}
		}
		if added > 0 && int64(u.used+added) > u.limit {
			return maxVolumeCountStatus
		}
	}
	return nil
}

func containsAttachable(set []attachable, a attachable) bool {
	for i := range set {
		if set[i].same(a) {
			return true
		}
	}
	return false
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
		if containsAttachable(attached, a) {
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

// attachedVolumes is what NodeVolumeLimits' Filter derives from a node,
// the same for every incoming pod: its CSINode and, when that sets
// volume limits, the distinct volumes its pods use (attached), those of
// its VolumeAttachments that no pod there uses (vaVols) and, per driver
// with a limit, the limit and the volumes counted against it; or the
// status of a pod's volume that cannot be counted. Cached, it is
// immutable and keyed by the NodeInfo, its Generation and the
// generation of the objects it was derived from.
type attachedVolumes struct {
	// What Filter reads at every node comes first, in two cache lines.
	ni      *cluster.NodeInfo
	gen     int64
	objGen  int64
	csiNode *api.CSINode
	status  *framework.Status
	// mask has the handleBit of each volume in attached.
	mask    uint64
	limited bool
	uses    []driverUse
	usesBuf [2]driverUse
	// The slices start in the buffers: a node with a few volumes and
	// drivers costs one allocation (none in a page of entries).
	attached    []attachable
	vaVols      []attachable
	attachedBuf [4]attachable
}

// driverUse is a driver's volume limit on a node and the volumes
// counted against it there.
type driverUse struct {
	driver string
	limit  int64
	used   int
}

// use returns the driver's limit and use, nil if the node sets no limit
// for it.
func (e *attachedVolumes) use(driver string) *driverUse {
	for i := range e.uses {
		if e.uses[i].driver == driver {
			return &e.uses[i]
		}
	}
	return nil
}

// compute fills e (zero but for its key) from the node's CSINode, pods
// and attachments, appending to the buffers given.
func (e *attachedVolumes) compute(objs *cluster.Objects, ni *cluster.NodeInfo, attached []attachable, uses []driverUse) {
	e.csiNode, _ = cluster.GetObject[api.CSINode](objs, "", ni.Node().Name)
	if e.limited = hasVolumeLimits(e.csiNode); !e.limited {
		return
	}
	for _, p := range ni.Pods {
		if len(p.Pod.Spec.Volumes) == 0 {
			continue
		}
		var err error
		if attached, err = podAttachable(objs, true, p.Pod, false, attached); err != nil {
			e.status = framework.AsStatus(err)
			return
		}
	}
	e.attached = attached
	for _, a := range attached {
		e.mask |= handleBit(a)
	}
	// The node's VolumeAttachments count too, unless a pod on the node
	// already counted their volume (the pod's own volumes are not
	// matched against them: a volume attached to the node that no pod
	// there uses counts twice, as upstream counts it).
	e.vaVols = attachmentVolumes(objs, ni.Node().Name, attached, nil)
	// The limit of a driver is the last entry for it with an
	// allocatable count.
	e.uses = uses
	for i := range e.csiNode.Spec.Drivers {
		d := &e.csiNode.Spec.Drivers[i]
		if d.Allocatable == nil || d.Allocatable.Count == nil {
			continue
		}
		if u := e.use(d.Name); u != nil {
			u.limit = int64(*d.Allocatable.Count)
			continue
		}
		e.uses = append(e.uses, driverUse{driver: d.Name, limit: int64(*d.Allocatable.Count)})
	}
	for i := range e.uses {
		u := &e.uses[i]
		for _, a := range e.attached {
			if a.driver == u.driver {
				u.used++
			}
		}
		for _, a := range e.vaVols {
			if a.driver == u.driver {
				u.used++
			}
		}
	}
}

// attachedGeneration is the generation of the last change to the kinds
// a attachedVolumes is derived from: CSINodes, claims, volumes, classes
// and attachments.
func attachedGeneration(objs *cluster.Objects) int64 {
	return max(objs.KindGeneration(cluster.KindCSINode), objs.KindGeneration(cluster.KindPersistentVolumeClaim),
		objs.KindGeneration(cluster.KindPersistentVolume), objs.KindGeneration(cluster.KindStorageClass),
		objs.KindGeneration(cluster.KindVolumeAttachment))
}

// VolumeLimitsCache keeps, per node slot of one snapshot, what
// NodeVolumeLimits' Filter derives from the node (its CSINode and the
// volumes counted as attached to it), so that a cycle derives it only
// for the nodes that changed since the last (a stream of pods changes
// one node a cycle) and costs, on the others, a lookup and the pod's own
// volumes. Entries are immutable and published atomically: Filter runs
// concurrently for different nodes, and a lost race only costs a
// recomputation. The first entry of each slot is taken from a page of
// entries, so that filling the cache costs a few allocations whatever
// the node count; an entry that replaces another is allocated alone, so
// that a page is garbage once its nodes all changed. Its zero value is
// empty and ready to use.
type VolumeLimitsCache struct {
	mu    sync.Mutex // held to grow slots and to take from page
	slots atomic.Pointer[[]atomic.Pointer[attachedVolumes]]
	page  []attachedVolumes
}

// volumeLimitsPage is the number of entries of a page.
const volumeLimitsPage = 256

// lookup returns ni's entry if it was derived from ni as it is, at
// objGen, else nil; held reports whether the slot holds an entry.
func (c *VolumeLimitsCache) lookup(ni *cluster.NodeInfo, objGen int64) (e *attachedVolumes, held bool) {
	i := ni.Slot()
	t := c.slots.Load()
	if i < 0 || t == nil || i >= len(*t) {
		return nil, false
	}
	if e = (*t)[i].Load(); e != nil && e.ni == ni && e.gen == ni.Generation && e.objGen == objGen {
		return e, true
	}
	return nil, e != nil
}

// newEntry returns a zero entry: from the current page when first (a
// slot's first entry), else allocated alone.
func (c *VolumeLimitsCache) newEntry(first bool) *attachedVolumes {
	if !first {
		return new(attachedVolumes)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.page) == 0 {
		c.page = make([]attachedVolumes, volumeLimitsPage)
	}
	e := &c.page[0]
	c.page = c.page[1:]
	return e
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
