package conformance

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

// Pools the storage generators draw from: small, so that volumes,
// handles and claims collide.
var (
	genClaims       = []string{"c-0", "c-1", "c-2", "c-3", ""}
	genVolumes      = []string{"pv-0", "pv-1", "pv-2", "pv-3", "pv-4", "pv-missing"}
	genClasses      = []string{"sc-imm", "sc-wffc", "sc-nomode", "sc-gce", "sc-azfile", "sc-missing"}
	genDrivers      = []string{"csi.example.com", "csi.other.com", "pd.csi.storage.gke.io", "ebs.csi.aws.com", "disk.csi.azure.com", "cinder.csi.openstack.org", "pxd.portworx.com"}
	genHandles      = []string{"h-0", "h-1", "h-2"}
	genPDs          = []string{"pd-0", "pd-1"}
	genEBS          = []string{"vol-0", "vol-1", "aws://zone-a/vol-0", "aws://zone-a/bad", "aws:///vol-1"}
	genZoneLabels   = []string{"zone-a", "zone-b", "us-east1-b", "us-east1-b__us-east1-c", "zone-a__zone-b", "zone-a__", " zone-a "}
	genRegions      = []string{"region-1", "region-2", "us-east1"}
	genTopologyKeys = []string{"topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/region",
		"failure-domain.beta.kubernetes.io/region", "topology.gke.io/zone", "topology.ebs.csi.aws.com/zone"}
	genTopologyValues = []string{"zone-a", "zone-b", "us-east1-b", "region-1", "us-east1"}
	genMigrated       = []string{"kubernetes.io/gce-pd", "kubernetes.io/aws-ebs", "kubernetes.io/azure-disk", "kubernetes.io/cinder", "kubernetes.io/azure-file", "kubernetes.io/portworx-volume"}
	genFeatureList    = []string{"DRANodeAllocatableResources", "RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport", "VolumeBindMountOptions", "Unknown"}
)

// storageVolume draws one pod volume named name: a claim, a generic
// ephemeral volume, an in-tree disk (GCE PD, AWS EBS, RBD, iSCSI, Cinder,
// Azure Disk or File, Portworx) or a volume no storage plugin reads. The volumes
// of pods on nodes (existing) never fail to translate to CSI: upstream
// would report the error of whichever node it filters first, and it
// filters them in random order.
func storageVolume(name string, existing bool) *rapid.Generator[api.Volume] {
	return rapid.Custom(func(t *rapid.T) api.Volume {
		v := api.Volume{Name: name}
		ro := rapid.Bool().Draw(t, "readOnly")
		switch rapid.IntRange(0, 12).Draw(t, "source") {
		case 0, 1, 2:
			v.PersistentVolumeClaim = &api.PersistentVolumeClaimVolumeSource{ClaimName: rapid.SampledFrom(genClaims).Draw(t, "claim")}
		case 3:
			v.Ephemeral = &api.EphemeralVolumeSource{VolumeClaimTemplate: &api.PersistentVolumeClaimTemplate{}}
		case 4:
			v.GCEPersistentDisk = &api.GCEPersistentDiskVolumeSource{PDName: rapid.SampledFrom(genPDs).Draw(t, "pd"), ReadOnly: ro}
		case 5:
			ids := genEBS
			if existing {
				ids = []string{"vol-0", "vol-1", "aws://zone-a/vol-0"}
			}
			v.AWSElasticBlockStore = &api.AWSElasticBlockStoreVolumeSource{VolumeID: rapid.SampledFrom(ids).Draw(t, "ebs")}
		case 6:
			v.RBD = &api.RBDVolumeSource{
				CephMonitors: rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"m1", "m2", "m3"}), 1, 2, rapid.ID[string]).Draw(t, "monitors"),
				RBDPool:      rapid.SampledFrom([]string{"", "rbd"}).Draw(t, "pool"),
				RBDImage:     rapid.SampledFrom([]string{"img-0", "img-1"}).Draw(t, "image"),
				ReadOnly:     ro,
			}
		case 7:
			v.ISCSI = &api.ISCSIVolumeSource{TargetPortal: "10.0.0.1:3260", IQN: rapid.SampledFrom([]string{"iqn-0", "iqn-1"}).Draw(t, "iqn"), ReadOnly: ro}
		case 8:
			v.Cinder = &api.CinderVolumeSource{VolumeID: rapid.SampledFrom([]string{"cinder-0", "cinder-1"}).Draw(t, "cinder")}
		case 9:
			d := &api.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: rapid.SampledFrom([]string{"uri-0", "uri-1"}).Draw(t, "uri")}
			switch rapid.IntRange(0, 3).Draw(t, "kind") {
			case 1:
				k := api.AzureDataDiskKind("Managed")
				d.Kind = &k
			case 2:
				k := api.AzureDataDiskKind("Shared")
				if existing {
					k = "managed"
				}
				d.Kind = &k
			}
			v.AzureDisk = d
		case 10:
			v.AzureFile = &api.AzureFileVolumeSource{SecretName: "s", ShareName: "share"}
		case 11:
			v.PortworxVolume = &api.PortworxVolumeSource{VolumeID: rapid.SampledFrom([]string{"px-0", "px-1", "h-0"}).Draw(t, "portworx")}
		default:
			v.EmptyDir = &api.EmptyDirVolumeSource{}
		}
		return v
	})
}

// withStorageVolumes replaces pod's volumes with 0-3 drawn ones.
func withStorageVolumes(t *rapid.T, pod *api.Pod, label string, existing bool) {
	pod.Spec.Volumes = nil
	for i := range rapid.IntRange(0, 3).Draw(t, label+"Volumes") {
		pod.Spec.Volumes = append(pod.Spec.Volumes, storageVolume(fmt.Sprintf("v%d", i), existing).Draw(t, label+"Volume"))
	}
	// A volume that fails to translate to CSI is an error only on nodes
	// with a CSINode, a claim without a name on the others: upstream,
	// filtering nodes in random order, reports either. Keep one source
	// of Filter errors per pod (a generic ephemeral volume whose claim the
	// pod does not own is another).
	if untranslatable(pod) {
		for i := range pod.Spec.Volumes {
			v := &pod.Spec.Volumes[i]
			if c := v.PersistentVolumeClaim; c != nil && c.ClaimName == "" {
				c.ClaimName = genClaims[0]
			}
			if v.Ephemeral != nil {
				v.Ephemeral, v.EmptyDir = nil, &api.EmptyDirVolumeSource{}
			}
		}
	}
}

// untranslatable reports whether pod has an in-tree volume the CSI
// translation refuses (a malformed EBS volume ID, a shared Azure disk).
func untranslatable(pod *api.Pod) bool {
	for _, v := range pod.Spec.Volumes {
		if e := v.AWSElasticBlockStore; e != nil && (e.VolumeID == "aws://zone-a/bad" || e.VolumeID == "aws:///vol-1") {
			return true
		}
		if d := v.AzureDisk; d != nil && d.Kind != nil && *d.Kind == "Shared" {
			return true
		}
	}
	return false
}

// withRequiredFeatures sometimes gives pod the fields NodeDeclaredFeatures
// infers features from.
func withRequiredFeatures(t *rapid.T, pod *api.Pod) {
	if len(pod.Spec.Containers) > 0 && rapid.IntRange(0, 5).Draw(t, "restartAll") == 0 {
		pod.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{Action: rapid.SampledFrom([]api.ContainerRestartRuleAction{
			api.ContainerRestartRuleActionRestart, api.ContainerRestartRuleActionRestartAllContainers}).Draw(t, "action")}}
	}
	if rapid.IntRange(0, 5).Draw(t, "userNS") == 0 {
		pod.Spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
		hu := rapid.Bool().Draw(t, "hostUsers")
		pod.Spec.HostUsers = &hu
	}
	if len(pod.Spec.Containers) > 0 && rapid.IntRange(0, 5).Draw(t, "bindMount") == 0 {
		pod.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "v0", MountPath: "/data", BindMountOptions: []string{"ro"}}}
	}
}

// storageClass draws the class named name.
func storageClass(name string) *rapid.Generator[*api.StorageClass] {
	return rapid.Custom(func(t *rapid.T) *api.StorageClass {
		sc := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name},
			Provisioner: rapid.SampledFrom(append(genDrivers[:2:2], "kubernetes.io/gce-pd", "kubernetes.io/aws-ebs", "kubernetes.io/azure-file", "kubernetes.io/no-provisioner")).Draw(t, "provisioner")}
		switch name {
		case "sc-gce":
			sc.Provisioner = "kubernetes.io/gce-pd"
		case "sc-azfile":
			sc.Provisioner = "kubernetes.io/azure-file"
		}
		switch name {
		case "sc-nomode":
		case "sc-wffc":
			m := api.VolumeBindingWaitForFirstConsumer
			sc.VolumeBindingMode = &m
		default:
			m := rapid.SampledFrom([]api.VolumeBindingMode{api.VolumeBindingImmediate, api.VolumeBindingWaitForFirstConsumer}).Draw(t, "mode")
			sc.VolumeBindingMode = &m
		}
		return sc
	})
}

// persistentVolume draws the volume named name: a CSI volume, an in-tree
// one (GCE PD, AWS EBS, Azure Disk, Cinder, Portworx) or NFS, with zone
// and region labels, current or legacy, and sometimes node affinity.
func persistentVolume(name string) *rapid.Generator[*api.PersistentVolume] {
	return rapid.Custom(func(t *rapid.T) *api.PersistentVolume {
		pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{}}}
		s := &pv.Spec.PersistentVolumeSource
		switch rapid.IntRange(0, 8).Draw(t, "source") {
		case 0, 1, 2:
			s.CSI = &api.CSIPersistentVolumeSource{Driver: rapid.SampledFrom(genDrivers).Draw(t, "driver"), VolumeHandle: rapid.SampledFrom(genHandles).Draw(t, "handle")}
		case 3:
			s.GCEPersistentDisk = &api.GCEPersistentDiskVolumeSource{PDName: rapid.SampledFrom(genPDs).Draw(t, "pd")}
		case 4:
			s.AWSElasticBlockStore = &api.AWSElasticBlockStoreVolumeSource{VolumeID: rapid.SampledFrom(genEBS).Draw(t, "ebs")}
		case 5:
			d := &api.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: rapid.SampledFrom([]string{"uri-0", "uri-1"}).Draw(t, "uri")}
			if rapid.Bool().Draw(t, "shared") {
				k := api.AzureDataDiskKind("Shared")
				d.Kind = &k
			}
			s.AzureDisk = d
		case 6:
			s.Cinder = &api.CinderPersistentVolumeSource{VolumeID: rapid.SampledFrom([]string{"cinder-0", "cinder-1"}).Draw(t, "cinder")}
		case 7:
			s.PortworxVolume = &api.PortworxVolumeSource{VolumeID: rapid.SampledFrom([]string{"px-0", "px-1"}).Draw(t, "portworx")}
		default:
			s.NFS = &api.NFSVolumeSource{Server: "nfs", Path: "/"}
		}
		for _, key := range []string{"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"} {
			if rapid.IntRange(0, 2).Draw(t, "zoneLabel") == 0 {
				pv.Labels[key] = rapid.SampledFrom(genZoneLabels).Draw(t, "zone")
			}
		}
		for _, key := range []string{"failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"} {
			if rapid.IntRange(0, 4).Draw(t, "regionLabel") == 0 {
				pv.Labels[key] = rapid.SampledFrom(genRegions).Draw(t, "region")
			}
		}
		// Node affinity on the zone and region keys (current, legacy or a
		// CSI driver's), which the CSI translation of VolumeBinding
		// rewrites on nodes that migrated the volume's plugin.
		if rapid.IntRange(0, 2).Draw(t, "hasAffinity") == 0 {
			var terms []api.NodeSelectorTerm
			for range rapid.IntRange(1, 2).Draw(t, "terms") {
				var term api.NodeSelectorTerm
				for _, key := range rapid.SliceOfNDistinct(rapid.SampledFrom(genTopologyKeys), 0, 2, rapid.ID[string]).Draw(t, "affinityKeys") {
					r := api.NodeSelectorRequirement{Key: key, Operator: api.NodeSelectorOpIn,
						Values: rapid.SliceOfNDistinct(rapid.SampledFrom(genTopologyValues), 1, 2, rapid.ID[string]).Draw(t, "affinityValues")}
					if rapid.IntRange(0, 5).Draw(t, "exists") == 0 {
						r.Operator, r.Values = api.NodeSelectorOpExists, nil
					}
					term.MatchExpressions = append(term.MatchExpressions, r)
				}
				terms = append(terms, term)
			}
			pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: terms}}
		}
		return pv
	})
}

// persistentVolumeClaim draws the claim namespace/name: bound to one of
// genVolumes (which may not exist) or unbound with one of genClasses
// (which may not exist), none, or the beta class annotation; sometimes
// ReadWriteOncePod.
func persistentVolumeClaim(namespace, name string) *rapid.Generator[*api.PersistentVolumeClaim] {
	return rapid.Custom(func(t *rapid.T) *api.PersistentVolumeClaim {
		pvc := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace}}
		pvc.Spec.AccessModes = []api.PersistentVolumeAccessMode{rapid.SampledFrom([]api.PersistentVolumeAccessMode{
			api.ReadWriteOnce, api.ReadOnlyMany, api.ReadWriteOncePod}).Draw(t, "mode")}
		if rapid.Bool().Draw(t, "bound") {
			pvc.Spec.VolumeName = rapid.SampledFrom(genVolumes).Draw(t, "volume")
			if rapid.Bool().Draw(t, "bindCompleted") {
				pvc.Annotations = map[string]string{api.AnnBindCompleted: "yes"}
			}
		}
		switch rapid.IntRange(0, 5).Draw(t, "class") {
		case 0:
		case 1:
			empty := ""
			pvc.Spec.StorageClassName = &empty
		case 2:
			if pvc.Annotations == nil {
				pvc.Annotations = map[string]string{}
			}
			pvc.Annotations[api.BetaStorageClassAnnotation] = rapid.SampledFrom(genClasses).Draw(t, "betaClass")
		default:
			c := rapid.SampledFrom(genClasses).Draw(t, "className")
			pvc.Spec.StorageClassName = &c
		}
		return pvc
	})
}

// csiNode draws the CSINode of the node named name: drivers of
// genDrivers, some with an allocatable count (0 to 3).
func csiNode(name string) *rapid.Generator[*api.CSINode] {
	return rapid.Custom(func(t *rapid.T) *api.CSINode {
		n := &api.CSINode{ObjectMeta: api.ObjectMeta{Name: name}}
		// The in-tree plugins the node migrated to CSI, as the kubelet
		// lists them (or with a space after a comma, which upstream does
		// not trim).
		if rapid.Bool().Draw(t, "hasMigrated") {
			sep := rapid.SampledFrom([]string{",", ", "}).Draw(t, "migratedSep")
			n.Annotations = map[string]string{"storage.alpha.kubernetes.io/migrated-plugins": strings.Join(
				rapid.SliceOfNDistinct(rapid.SampledFrom(genMigrated), 0, 3, rapid.ID[string]).Draw(t, "migrated"), sep)}
		}
		for _, d := range rapid.SliceOfNDistinct(rapid.SampledFrom(genDrivers), 0, 3, rapid.ID[string]).Draw(t, "drivers") {
			drv := api.CSINodeDriver{Name: d, NodeID: name}
			if rapid.IntRange(0, 3).Draw(t, "limited") != 0 {
				c := rapid.Int32Range(0, 3).Draw(t, "count")
				drv.Allocatable = &api.VolumeNodeResources{Count: &c}
			}
			n.Spec.Drivers = append(n.Spec.Drivers, drv)
		}
		return n
	})
}

// volumeAttachment draws the VolumeAttachment named name.
func volumeAttachment(name string, nodes []*api.Node) *rapid.Generator[*api.VolumeAttachment] {
	return rapid.Custom(func(t *rapid.T) *api.VolumeAttachment {
		va := &api.VolumeAttachment{ObjectMeta: api.ObjectMeta{Name: name}}
		va.Spec.NodeName = "elsewhere"
		if rapid.IntRange(0, 4).Draw(t, "vaElsewhere") != 0 {
			va.Spec.NodeName = rapid.SampledFrom(nodes).Draw(t, "vaNode").Name
		}
		if rapid.IntRange(0, 5).Draw(t, "noAttacher") != 0 {
			va.Spec.Attacher = rapid.SampledFrom(genDrivers).Draw(t, "attacher")
		}
		if rapid.IntRange(0, 5).Draw(t, "inline") == 0 {
			va.Spec.Source.InlineVolumeSpec = &api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{
				CSI: &api.CSIPersistentVolumeSource{Driver: va.Spec.Attacher, VolumeHandle: rapid.SampledFrom(genHandles).Draw(t, "inlineHandle")}}}
		} else {
			pv := rapid.SampledFrom(genVolumes).Draw(t, "vaVolume")
			va.Spec.Source.PersistentVolumeName = &pv
		}
		va.Status.Attached = rapid.Bool().Draw(t, "attached")
		return va
	})
}

// storageInput draws a small cluster whose pods use claims, ephemeral and
// in-tree volumes, its storage objects (classes, volumes, claims,
// CSINodes, VolumeAttachments, at most one CSIDriver that requires its
// driver on the node),
// nodes with zone, region and declared features, and a pod to place.
func storageInput(plugins []regression.PluginRef) *rapid.Generator[*regression.PluginsInput] {
	return rapid.Custom(func(t *rapid.T) *regression.PluginsInput {
		c := clustergen.Cluster(rapid.IntRange(1, 6).Draw(t, "nodes"), rapid.IntRange(0, 10).Draw(t, "pods")).Draw(t, "cluster")
		for _, n := range c.Nodes {
			switch rapid.IntRange(0, 5).Draw(t, "nodeZone") {
			case 0:
				delete(n.Labels, clustergen.LabelZone)
			case 1:
				n.Labels[clustergen.LabelZone] = "us-east1-b"
			case 2:
				n.Labels["failure-domain.beta.kubernetes.io/zone"] = n.Labels[clustergen.LabelZone]
				delete(n.Labels, clustergen.LabelZone)
			}
			for _, key := range []string{"topology.gke.io/zone", "topology.ebs.csi.aws.com/zone", "topology.cinder.csi.openstack.org/zone"} {
				if rapid.IntRange(0, 2).Draw(t, "csiZoneLabel") == 0 {
					n.Labels[key] = rapid.SampledFrom(genTopologyValues).Draw(t, "csiZone")
				}
			}
			if rapid.IntRange(0, 3).Draw(t, "nodeRegion") == 0 {
				n.Labels[rapid.SampledFrom([]string{"topology.kubernetes.io/region", "failure-domain.beta.kubernetes.io/region"}).Draw(t, "regionKey")] =
					rapid.SampledFrom(genRegions).Draw(t, "region")
			}
			n.Status.DeclaredFeatures = rapid.SliceOfDistinct(rapid.SampledFrom(genFeatureList), rapid.ID[string]).Draw(t, "declared")
			if rapid.IntRange(0, 3).Draw(t, "sortedFeatures") != 0 {
				slices.Sort(n.Status.DeclaredFeatures)
			}
		}
		for i, p := range c.Pods {
			withStorageVolumes(t, p, fmt.Sprintf("pod%d", i), true)
		}
		pod := incomingPod(c.Nodes).Draw(t, "incoming")
		withStorageVolumes(t, pod, "incoming", false)
		withRequiredFeatures(t, pod)

		objs := &regression.StorageObjects{}
		for _, name := range genClasses[:len(genClasses)-1] {
			if rapid.IntRange(0, 4).Draw(t, "hasClass") != 0 {
				objs.StorageClasses = append(objs.StorageClasses, storageClass(name).Draw(t, "class"))
			}
		}
		for _, name := range genVolumes[:len(genVolumes)-1] {
			if rapid.IntRange(0, 4).Draw(t, "hasVolume") != 0 {
				objs.PersistentVolumes = append(objs.PersistentVolumes, persistentVolume(name).Draw(t, "volume"))
			}
		}
		for _, ns := range clustergen.Namespaces {
			for _, name := range genClaims[:len(genClaims)-1] {
				if rapid.IntRange(0, 4).Draw(t, "hasClaim") != 0 {
					objs.PersistentVolumeClaims = append(objs.PersistentVolumeClaims, persistentVolumeClaim(ns, name).Draw(t, "claim"))
				}
			}
		}
		// Ephemeral volumes' claims, usually owned by their pod (always
		// for pods on nodes, as above).
		for _, p := range append(slices.Clone(c.Pods), pod) {
			for _, v := range p.Spec.Volumes {
				if v.Ephemeral == nil || rapid.IntRange(0, 5).Draw(t, "noEphemeralClaim") == 0 {
					continue
				}
				pvc := persistentVolumeClaim(p.Namespace, p.Name+"-"+v.Name).Draw(t, "ephemeralClaim")
				uid := p.UID
				if p == pod && rapid.IntRange(0, 5).Draw(t, "foreignOwner") == 0 {
					uid = "someone-else"
				}
				yes := true
				pvc.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: uid, Controller: &yes}}
				if !slices.ContainsFunc(objs.PersistentVolumeClaims, func(o *api.PersistentVolumeClaim) bool {
					return o.Namespace == pvc.Namespace && o.Name == pvc.Name
				}) {
					objs.PersistentVolumeClaims = append(objs.PersistentVolumeClaims, pvc)
				}
			}
		}
		for _, n := range c.Nodes {
			if rapid.IntRange(0, 3).Draw(t, "hasCSINode") != 0 {
				objs.CSINodes = append(objs.CSINodes, csiNode(n.Name).Draw(t, "csiNode"))
			}
		}
		// VolumeAttachments: on a node of the cluster or elsewhere, with
		// or without an attacher, of a volume pods use or not, missing,
		// in-tree, or of an inline volume; attached or not.
		for i := range rapid.IntRange(0, 4).Draw(t, "attachments") {
			objs.VolumeAttachments = append(objs.VolumeAttachments, volumeAttachment(fmt.Sprintf("va-%d", i), c.Nodes).Draw(t, "attachment"))
		}
		if rapid.Bool().Draw(t, "hasCSIDriver") {
			prevent := rapid.Bool().Draw(t, "prevent")
			objs.CSIDrivers = append(objs.CSIDrivers, &api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: rapid.SampledFrom(genDrivers).Draw(t, "csiDriver")},
				Spec: api.CSIDriverSpec{PreventPodSchedulingIfMissing: &prevent}})
		}
		return &regression.PluginsInput{Nodes: c.Nodes, Pods: c.Pods, Pod: pod, Plugins: plugins, Objects: objs}
	})
}

// storagePluginNames are the plugins the storage inputs exercise.
var storagePluginNames = []string{"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "NodeDeclaredFeatures"}

// TestPluginsStorage runs each storage and node-feature plugin alone, and
// all of upstream.Plugins together, on storage inputs through schedkit's
// framework and upstream's, comparing every node's status and score.
func TestPluginsStorage(t *testing.T) {
	for _, name := range storagePluginNames {
		ref := regression.PluginRef{Name: name, Weight: defaultWeight(name)}
		t.Run(name, func(t *testing.T) {
			Property(t, regression.KindPlugins, storageInput([]regression.PluginRef{ref}), upFn(upstream.PluginsCycle), nil)
		})
	}
	var all []regression.PluginRef
	for _, name := range upstream.PluginNames() {
		all = append(all, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	t.Run("all", func(t *testing.T) {
		Property(t, regression.KindPlugins, storageInput(all), upFn(upstream.PluginsCycle), nil)
	})
}
