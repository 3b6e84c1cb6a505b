package predicates

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

func inRequirement(key string, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: api.NodeSelectorOpIn, Values: values}
}

func termsOf(terms ...[]api.NodeSelectorRequirement) *api.VolumeNodeAffinity {
	na := &api.VolumeNodeAffinity{Required: &api.NodeSelector{}}
	for _, t := range terms {
		na.Required.NodeSelectorTerms = append(na.Required.NodeSelectorTerms, api.NodeSelectorTerm{MatchExpressions: t})
	}
	return na
}

func gcePDVolume(labels map[string]string, na *api.VolumeNodeAffinity) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "gcepd", Labels: labels},
		Spec: api.PersistentVolumeSpec{NodeAffinity: na,
			PersistentVolumeSource: api.PersistentVolumeSource{GCEPersistentDisk: &api.GCEPersistentDiskVolumeSource{PDName: "disk"}}}}
}

// The node affinity csi-translation-lib gives a translated in-tree
// volume, and its errors.
func TestTranslatePVAffinity(t *testing.T) {
	gaLabels := map[string]string{LabelTopologyZone: "us-east1-a", LabelTopologyRegion: "us-east1"}
	ebs := func(id string, labels map[string]string, na *api.VolumeNodeAffinity) *api.PersistentVolume {
		return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "ebs", Labels: labels}, Spec: api.PersistentVolumeSpec{NodeAffinity: na,
			PersistentVolumeSource: api.PersistentVolumeSource{AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: id}}}}
	}
	shared := api.AzureDataDiskKind("Shared")
	tests := []struct {
		name string
		pv   *api.PersistentVolume
		want *api.VolumeNodeAffinity
		err  string
	}{
		// upstream: csi-translation-lib TestTranslateTopologyFromInTreeToCSI "Replace GA Kubernetes Zone Topology to GCE CSI Topology"
		{name: "GA zone key replaced", pv: gcePDVolume(gaLabels, termsOf([]api.NodeSelectorRequirement{
			inRequirement(LabelTopologyZone, "us-east1-a"), inRequirement(LabelTopologyRegion, "us-east1")})),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyGCEPD, "us-east1-a"), inRequirement(LabelTopologyRegion, "us-east1")})},
		// upstream: csi-translation-lib TestTranslateTopologyFromInTreeToCSI "Replace Beta Kubernetes Topology to GCE CSI Topology and upgrade region label"
		{name: "beta zone key replaced, beta region upgraded", pv: gcePDVolume(gaLabels, termsOf([]api.NodeSelectorRequirement{
			inRequirement(LabelFailureDomainBetaZone, "us-west2-b"), inRequirement(LabelFailureDomainBetaRegion, "us-west2")})),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyGCEPD, "us-west2-b"), inRequirement(LabelTopologyRegion, "us-west2")})},
		// upstream: csi-translation-lib TestAddTopology "including whitespace-named zones" (through the zone label)
		{name: "blank zones dropped", pv: ebs("vol-1", map[string]string{LabelTopologyZone: " __us-central1-a"}, nil),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyAWSEBS, "us-central1-a")})},
		{name: "gce blank zone among regional zones", pv: gcePDVolume(map[string]string{LabelFailureDomainBetaZone: "us-central1-a__ "}, nil),
			err: "could not translate pv: failed to get region from zones: zone in unexpected format, expected: {locale}-{region}-{zone}, got:  "},
		{name: "single zone label", pv: gcePDVolume(map[string]string{LabelTopologyZone: " us-central1-a "}, nil),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyGCEPD, "us-central1-a")})},
		// upstream: csi-translation-lib TestAddTopology "unsorted zones" (through the zone label)
		{name: "regional zones sorted", pv: gcePDVolume(map[string]string{LabelTopologyZone: "us-central1-f__us-central1-a__us-central1-c"}, nil),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyGCEPD, "us-central1-a", "us-central1-c", "us-central1-f")})},
		{name: "zones of two regions", pv: gcePDVolume(map[string]string{LabelTopologyZone: "us-central1-a__us-east1-b"}, nil),
			err: "could not translate pv: failed to get region from zones: multiple or no regions gotten from zones, got: map[us-central1:{} us-east1:{}]"},
		{name: "no zone", pv: gcePDVolume(nil, nil)},
		// upstream: csi-translation-lib TestAddTopology "only whitespace-named zones"
		{name: "blank zone label adds nothing", pv: gcePDVolume(map[string]string{LabelTopologyZone: "  "}, nil)},
		{name: "requirement added to every term", pv: gcePDVolume(map[string]string{LabelTopologyZone: "z"},
			termsOf([]api.NodeSelectorRequirement{inRequirement("a", "1")}, []api.NodeSelectorRequirement{inRequirement("b", "2")})),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement("a", "1"), inRequirement(TopologyKeyGCEPD, "z")},
				[]api.NodeSelectorRequirement{inRequirement("b", "2"), inRequirement(TopologyKeyGCEPD, "z")})},
		{name: "zone key without values falls back to the label", pv: gcePDVolume(map[string]string{LabelTopologyZone: "z"},
			termsOf([]api.NodeSelectorRequirement{{Key: LabelTopologyZone, Operator: api.NodeSelectorOpExists}})),
			want: termsOf([]api.NodeSelectorRequirement{{Key: LabelTopologyZone, Operator: api.NodeSelectorOpExists}, inRequirement(TopologyKeyGCEPD, "z")})},
		{name: "GA label chosen over beta", pv: ebs("vol-1", map[string]string{LabelTopologyZone: "ga", LabelFailureDomainBetaZone: "beta"}, nil),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyAWSEBS, "ga")})},
		{name: "ebs beta region kept without beta zone", pv: ebs("vol-1", nil, termsOf([]api.NodeSelectorRequirement{
			inRequirement(LabelTopologyZone, "a"), inRequirement(LabelFailureDomainBetaRegion, "r")})),
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyAWSEBS, "a"), inRequirement(LabelFailureDomainBetaRegion, "r")})},
		{name: "ebs bad volume id", pv: ebs("aws://zone-a/bad", nil, nil),
			err: "could not translate pv: failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume (aws://zone-a/bad)"},
		{name: "cinder", pv: &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Labels: map[string]string{LabelFailureDomainBetaZone: "nova"}},
			Spec: api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{Cinder: &api.CinderPersistentVolumeSource{VolumeID: "c"}}}},
			want: termsOf([]api.NodeSelectorRequirement{inRequirement(TopologyKeyCinder, "nova")})},
		{name: "azure disk keeps its affinity", pv: &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Labels: map[string]string{LabelTopologyZone: "z"}},
			Spec: api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{AzureDisk: &api.AzureDiskVolumeSource{DataDiskURI: "u"}}}}},
		{name: "portworx keeps its affinity", pv: &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Labels: map[string]string{LabelTopologyZone: "z"}},
			Spec: api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{PortworxVolume: &api.PortworxVolumeSource{VolumeID: "px"}}}}},
		{name: "shared azure disk", pv: &api.PersistentVolume{Spec: api.PersistentVolumeSpec{PersistentVolumeSource: api.PersistentVolumeSource{
			AzureDisk: &api.AzureDiskVolumeSource{DataDiskURI: "u", Kind: &shared}}}},
			err: "could not translate pv: kind(Shared) is not supported in csi migration"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := cmp.Diff(nil, tc.pv)
			got, err := translatePVAffinity(tc.pv)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got.Spec.NodeAffinity); d != "" {
				t.Errorf("node affinity (-want +got):\n%s", d)
			}
			if cmp.Diff(nil, tc.pv) != before {
				t.Error("the volume was modified")
			}
		})
	}
}

// VolumeBinding checks a bound in-tree volume's node affinity translated
// to CSI on nodes whose CSINode lists its plugin as migrated.
func TestVolumeBindingCSIMigration(t *testing.T) {
	// upstream: TestFindPodVolumesWithCSIMigration's fixtures: a GCE PD
	// volume labelled with beta zone us-east-1, no node affinity, bound
	// to the pod's claim; node1 labelled topology.gke.io/zone.
	zone1 := map[string]string{LabelFailureDomainBetaZone: "us-east-1", LabelFailureDomainBetaRegion: "us-east-1a"}
	migrationPV := func(labels map[string]string) *api.PersistentVolume {
		pv := gcePDVolume(labels, nil)
		pv.Name = "pv-migration-bound"
		pv.Spec.ClaimRef = &api.ObjectReference{Namespace: "default", Name: "pvc-migration-bound", UID: "uid-pvc-migration-bound"}
		return pv
	}
	pvc := makePVC("pvc-migration-bound", "wait-sc").boundTo("pv-migration-bound").PersistentVolumeClaim
	csiNode := func(plugins string) *api.CSINode {
		return &api.CSINode{ObjectMeta: api.ObjectMeta{Name: "node1", Annotations: map[string]string{AnnMigratedPlugins: plugins}}}
	}
	zoneNode := func(zone string) *api.Node {
		return makeVBNode("node1").label(TopologyKeyGCEPD, zone).Node
	}
	conflict := framework.NewStatus(framework.UnschedulableAndUnresolvable, ErrReasonNodeConflict)
	tests := []struct {
		name    string
		node    *api.Node
		pv      *api.PersistentVolume
		csiNode *api.CSINode
		want    *framework.Status
	}{
		// upstream: TestFindPodVolumesWithCSIMigration "pvc-bound"
		{name: "pvc-bound", node: zoneNode("us-east-1"), pv: migrationPV(zone1), csiNode: csiNode(InTreeGCEPD)},
		// upstream: TestFindPodVolumesWithCSIMigration "pvc-bound,csinode-not-migrated"
		{name: "pvc-bound,csinode-not-migrated", node: zoneNode("us-east-1"), pv: migrationPV(zone1), csiNode: csiNode("")},
		// upstream: TestFindPodVolumesWithCSIMigration "pvc-bound,missing-csinode"
		{name: "pvc-bound,missing-csinode", node: zoneNode("us-east-1"), pv: migrationPV(zone1)},
		// upstream: TestFindPodVolumesWithCSIMigration "pvc-bound,node-different-zone"
		{name: "pvc-bound,node-different-zone", node: zoneNode("us-east-2"), pv: migrationPV(zone1), csiNode: csiNode(InTreeGCEPD), want: conflict},
		{name: "node without the CSI zone label", node: makeVBNode("node1").label(LabelFailureDomainBetaZone, "us-east-1").Node,
			pv: migrationPV(zone1), csiNode: csiNode(InTreeGCEPD), want: conflict},
		{name: "not migrated: zone labels are not node affinity", node: zoneNode("us-east-2"), pv: migrationPV(zone1), csiNode: csiNode(InTreeAWSEBS)},
		{name: "listed among others", node: zoneNode("us-east-2"), pv: migrationPV(zone1), csiNode: csiNode(InTreeAWSEBS + "," + InTreeGCEPD), want: conflict},
		{name: "annotation not trimmed", node: zoneNode("us-east-2"), pv: migrationPV(zone1), csiNode: csiNode(InTreeAWSEBS + ", " + InTreeGCEPD)},
		{name: "translation error on a migrated node", node: zoneNode("us-east-1"), pv: migrationPV(map[string]string{LabelTopologyZone: "a__b"}), csiNode: csiNode(InTreeGCEPD),
			want: framework.AsStatus(errors.New("could not translate pv: failed to get region from zones: zone in unexpected format, expected: {locale}-{region}-{zone}, got: a"))},
		{name: "no translation error elsewhere", node: zoneNode("us-east-1"), pv: migrationPV(map[string]string{LabelTopologyZone: "a__b"}), csiNode: csiNode(InTreeAWSEBS)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs := []any{tc.pv, pvc}
			if tc.csiNode != nil {
				objs = append(objs, tc.csiNode)
			}
			snap, err := vbSnapshot([]*api.Node{tc.node}, objs...)
			if err != nil {
				t.Fatal(err)
			}
			pod := makeVBPod("test-pod").pvc(pvc.Name).Pod
			checkStatus(t, "CheckVolumeBinding", CheckVolumeBinding(snap.Objects(), pod, tc.node), tc.want)
		})
	}
}

// Properties of the translation: the volume is never modified; a volume
// without zone labels or node affinity translates to one without node
// affinity (so a bound claim to it rejects no node, migrated or not);
// the translated affinity uses no legacy zone key and no key the volume
// did not have besides the CSI zone key and the current region key.
func TestTranslatePVAffinityProperties(t *testing.T) {
	keys := []string{LabelTopologyZone, LabelFailureDomainBetaZone, LabelTopologyRegion, LabelFailureDomainBetaRegion, "other"}
	rapid.Check(t, func(t *rapid.T) {
		labels := map[string]string{}
		for _, k := range rapid.SliceOfDistinct(rapid.SampledFrom(keys), rapid.ID[string]).Draw(t, "labels") {
			labels[k] = rapid.SampledFrom([]string{"a", "us-east1-b", "us-east1-b__us-east1-c", " "}).Draw(t, "labelValue")
		}
		var na *api.VolumeNodeAffinity
		if rapid.Bool().Draw(t, "affinity") {
			var terms [][]api.NodeSelectorRequirement
			for range rapid.IntRange(0, 2).Draw(t, "terms") {
				var reqs []api.NodeSelectorRequirement
				for _, k := range rapid.SliceOfDistinct(rapid.SampledFrom(keys), rapid.ID[string]).Draw(t, "keys") {
					reqs = append(reqs, inRequirement(k, rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b"}), 0, 2).Draw(t, "values")...))
				}
				terms = append(terms, reqs)
			}
			na = termsOf(terms...)
		}
		var pv *api.PersistentVolume
		key := TopologyKeyGCEPD
		switch rapid.IntRange(0, 2).Draw(t, "plugin") {
		case 0:
			pv = gcePDVolume(labels, na)
		case 1:
			key = TopologyKeyAWSEBS
			pv = &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PersistentVolumeSpec{NodeAffinity: na,
				PersistentVolumeSource: api.PersistentVolumeSource{AWSElasticBlockStore: &api.AWSElasticBlockStoreVolumeSource{VolumeID: "vol-1"}}}}
		default:
			key = TopologyKeyCinder
			pv = &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PersistentVolumeSpec{NodeAffinity: na,
				PersistentVolumeSource: api.PersistentVolumeSource{Cinder: &api.CinderPersistentVolumeSource{VolumeID: "c"}}}}
		}
		before := cmp.Diff(nil, pv)
		got, err := translatePVAffinity(pv)
		if cmp.Diff(nil, pv) != before {
			t.Fatal("the volume was modified")
		}
		if err != nil {
			return
		}
		_, hasZone := labels[LabelTopologyZone]
		_, hasBetaZone := labels[LabelFailureDomainBetaZone]
		if na == nil && !hasZone && !hasBetaZone && got.Spec.NodeAffinity != nil {
			t.Fatalf("affinity %+v from nothing", got.Spec.NodeAffinity)
		}
		had := map[string]bool{key: true, LabelTopologyRegion: true}
		for _, term := range requiredTerms(pv) {
			for _, r := range term.MatchExpressions {
				had[r.Key] = true
			}
		}
		for _, term := range requiredTerms(got) {
			for _, r := range term.MatchExpressions {
				if !had[r.Key] {
					t.Fatalf("new key %q in %+v", r.Key, got.Spec.NodeAffinity)
				}
			}
		}
	})
}
