package predicates

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// AnnMigratedPlugins is the CSINode annotation listing, comma-separated,
// the in-tree volume plugins whose volumes the node's kubelet hands to
// their CSI drivers (upstream's v1.MigratedPluginsAnnotationKey).
const AnnMigratedPlugins = "storage.alpha.kubernetes.io/migrated-plugins"

// The node label keys the CSI drivers of migrated in-tree plugins put a
// volume's zone under, as csi-translation-lib v0.37.2 names them.
const (
	TopologyKeyGCEPD  = "topology.gke.io/zone"
	TopologyKeyAWSEBS = "topology." + CSIDriverAWSEBS + "/zone"
	TopologyKeyCinder = "topology." + CSIDriverCinder + "/zone"
)

// bindingMigratedPlugin returns the in-tree plugin of a volume that
// VolumeBinding translates to CSI on nodes that migrated it (upstream's
// isCSIMigrationOnForPlugin: AWS EBS, GCE PD, Azure Disk, Cinder and
// Portworx), or "".
func bindingMigratedPlugin(pv *api.PersistentVolume) string {
	switch p := inTreePV(pv); p {
	case InTreeAWSEBS, InTreeGCEPD, InTreeAzureDisk, InTreeCinder, InTreePortworx:
		return p
	}
	return ""
}

// pluginMigratedOnNode reports whether the node's CSINode lists plugin
// in its migrated-plugins annotation (split on commas, no trimming, as
// upstream's isPluginMigratedToCSIOnNode).
func pluginMigratedOnNode(csiNode *api.CSINode, plugin string) bool {
	if csiNode == nil {
		return false
	}
	for tok := range strings.SplitSeq(csiNode.Annotations[AnnMigratedPlugins], ",") {
		if tok == plugin {
			return true
		}
	}
	return false
}

// translatePVAffinity returns pv as csi-translation-lib's
// TranslateInTreePVToCSI leaves what the binder reads of it: a copy whose
// node affinity uses the CSI driver's zone key, or the translation's
// error (wrapped as upstream's tryTranslatePVToCSI wraps it). pv is not
// modified. Only the node affinity of the copy is translated; its
// source is left in-tree.
func translatePVAffinity(pv *api.PersistentVolume) (*api.PersistentVolume, error) {
	s := &pv.Spec.PersistentVolumeSource
	var key string
	switch {
	case s.GCEPersistentDisk != nil:
		zones := pv.Labels[LabelFailureDomainBetaZone]
		if zones == "" {
			zones = pv.Labels[LabelTopologyZone]
		}
		if zs := strings.Split(zones, multiZoneDelimiter); len(zs) > 1 {
			if _, err := gceRegion(zs); err != nil {
				return nil, fmt.Errorf("could not translate pv: failed to get region from zones: %v", err)
			}
		}
		key = TopologyKeyGCEPD
	case s.AWSElasticBlockStore != nil:
		if _, err := ebsVolumeHandle(s.AWSElasticBlockStore.VolumeID); err != nil {
			return nil, fmt.Errorf("could not translate pv: failed to translate Kubernetes ID to EBS Volume ID %v", err)
		}
		key = TopologyKeyAWSEBS
	case s.Cinder != nil:
		key = TopologyKeyCinder
	case s.AzureDisk != nil:
		// The Azure Disk translation keeps the node affinity as it is.
		if err := managedAzureDisk(s.AzureDisk.Kind); err != nil {
			return nil, fmt.Errorf("could not translate pv: %v", err)
		}
		return pv, nil
	case s.PortworxVolume != nil:
		// So does Portworx's.
		return pv, nil
	default:
		return nil, errors.New("could not translate pv: no in-tree source")
	}
	out := *pv
	out.Spec.NodeAffinity = cloneVolumeNodeAffinity(pv.Spec.NodeAffinity)
	translateTopology(&out, key)
	return &out, nil
}

// cloneVolumeNodeAffinity copies a node affinity deep enough for
// translateTopology to change keys and append requirements.
func cloneVolumeNodeAffinity(na *api.VolumeNodeAffinity) *api.VolumeNodeAffinity {
	if na == nil {
		return nil
	}
	out := &api.VolumeNodeAffinity{}
	if na.Required != nil {
		req := *na.Required
		req.NodeSelectorTerms = slices.Clone(req.NodeSelectorTerms)
		for i := range req.NodeSelectorTerms {
			t := &req.NodeSelectorTerms[i]
			t.MatchExpressions = slices.Clone(t.MatchExpressions)
		}
		out.Required = &req
	}
	return out
}

// translateTopology is csi-translation-lib's
// translateTopologyFromInTreeToCSI on pv (whose node affinity it may
// change in place): the zone key the volume uses (in its node affinity
// first, current before legacy, then in its labels) is replaced by the
// CSI key in the node affinity when a requirement on it has values;
// otherwise the zones of the label are required under the CSI key in
// every term. A legacy region key in the node affinity becomes the
// current one.
func translateTopology(pv *api.PersistentVolume, csiKey string) {
	zoneKey, regionKey := topologyLabels(pv)
	if len(affinityValues(pv, zoneKey)) > 0 {
		replaceAffinityKey(pv, zoneKey, csiKey)
	} else if label, ok := pv.Labels[zoneKey]; ok {
		addAffinityZones(pv, csiKey, strings.Split(label, multiZoneDelimiter))
	}
	if regionKey == LabelFailureDomainBetaRegion && len(affinityValues(pv, regionKey)) > 0 {
		replaceAffinityKey(pv, regionKey, LabelTopologyRegion)
	}
}

// topologyLabels is csi-translation-lib's getTopologyLabel: the current
// zone and region keys if the node affinity uses the current zone key,
// else the legacy ones if it uses the legacy key, else the same by the
// volume's labels, else the current ones.
func topologyLabels(pv *api.PersistentVolume) (zone, region string) {
	switch {
	case affinityHasKey(pv, LabelTopologyZone):
		return LabelTopologyZone, LabelTopologyRegion
	case affinityHasKey(pv, LabelFailureDomainBetaZone):
		return LabelFailureDomainBetaZone, LabelFailureDomainBetaRegion
	}
	if _, ok := pv.Labels[LabelTopologyZone]; ok {
		return LabelTopologyZone, LabelTopologyRegion
	}
	if _, ok := pv.Labels[LabelFailureDomainBetaZone]; ok {
		return LabelFailureDomainBetaZone, LabelFailureDomainBetaRegion
	}
	return LabelTopologyZone, LabelTopologyRegion
}

func requiredTerms(pv *api.PersistentVolume) []api.NodeSelectorTerm {
	if na := pv.Spec.NodeAffinity; na != nil && na.Required != nil {
		return na.Required.NodeSelectorTerms
	}
	return nil
}

func affinityHasKey(pv *api.PersistentVolume, key string) bool {
	for _, t := range requiredTerms(pv) {
		for _, r := range t.MatchExpressions {
			if r.Key == key {
				return true
			}
		}
	}
	return false
}

// affinityValues returns the distinct values of the requirements on key.
func affinityValues(pv *api.PersistentVolume, key string) []string {
	var out []string
	for _, t := range requiredTerms(pv) {
		for _, r := range t.MatchExpressions {
			if r.Key != key {
				continue
			}
			for _, v := range r.Values {
				if !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

func replaceAffinityKey(pv *api.PersistentVolume, from, to string) {
	terms := requiredTerms(pv)
	for i := range terms {
		for j := range terms[i].MatchExpressions {
			if terms[i].MatchExpressions[j].Key == from {
				terms[i].MatchExpressions[j].Key = to
			}
		}
	}
}

// addAffinityZones is csi-translation-lib's addTopology: the trimmed,
// distinct, non-empty zones (sorted) are required under key in every
// term of the node affinity, made with one empty term if it has none;
// nothing changes when no zone is left.
func addAffinityZones(pv *api.PersistentVolume, key string, zones []string) {
	var vals []string
	for _, z := range zones {
		if z = strings.TrimSpace(z); z != "" && !slices.Contains(vals, z) {
			vals = append(vals, z)
		}
	}
	if len(vals) == 0 {
		return
	}
	slices.Sort(vals)
	if pv.Spec.NodeAffinity == nil {
		pv.Spec.NodeAffinity = &api.VolumeNodeAffinity{}
	}
	na := pv.Spec.NodeAffinity
	if na.Required == nil {
		na.Required = &api.NodeSelector{}
	}
	if len(na.Required.NodeSelectorTerms) == 0 {
		na.Required.NodeSelectorTerms = make([]api.NodeSelectorTerm, 1)
	}
	for i := range na.Required.NodeSelectorTerms {
		t := &na.Required.NodeSelectorTerms[i]
		t.MatchExpressions = append(t.MatchExpressions, api.NodeSelectorRequirement{Key: key, Operator: api.NodeSelectorOpIn, Values: vals})
	}
}
