package conformance

import (
	"fmt"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

// The generators below give plugins inputs what PodTopologySpread reads:
// spread constraints on the incoming pod with every policy, selector
// shape and matchLabelKeys; nodes lacking topology keys; terminating
// pods; and Services, ReplicaSets, StatefulSets and
// ReplicationControllers that select pods (and that pods name as their
// controller), for the system default constraints.

var (
	spreadKeys  = []string{clustergen.LabelZone, clustergen.LabelHostname, clustergen.LabelRack, clustergen.LabelRegion}
	spreadTiers = []string{"front", "back"}
)

// spreadWorkloadNames are the fixed names of the generated controllers,
// so that owner references find them.
var spreadWorkloadNames = []string{"w-web", "w-db"}

func spreadPolicy(t *rapid.T, label string) *api.NodeInclusionPolicy {
	switch rapid.IntRange(0, 2).Draw(t, label) {
	case 0:
		p := api.NodeInclusionPolicyHonor
		return &p
	case 1:
		p := api.NodeInclusionPolicyIgnore
		return &p
	}
	return nil
}

func spreadSelector(t *rapid.T) *api.LabelSelector {
	switch rapid.IntRange(0, 9).Draw(t, "selectorShape") {
	case 0:
		return nil
	case 1:
		return &api.LabelSelector{}
	case 2:
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{
			Key: "app", Operator: api.LabelSelectorOpIn, Values: rapid.SliceOfNDistinct(rapid.SampledFrom(clustergen.Apps), 1, 2, rapid.ID[string]).Draw(t, "apps")}}}
	case 3:
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpExists}}}
	}
	return &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(clustergen.Apps).Draw(t, "app")}}
}

// spreadConstraints draws 1-3 constraints.
func spreadConstraints(t *rapid.T) []api.TopologySpreadConstraint {
	var cs []api.TopologySpreadConstraint
	for range rapid.IntRange(1, 3).Draw(t, "nConstraints") {
		c := api.TopologySpreadConstraint{
			MaxSkew:           rapid.Int32Range(1, 3).Draw(t, "maxSkew"),
			TopologyKey:       rapid.SampledFrom(spreadKeys).Draw(t, "topologyKey"),
			WhenUnsatisfiable: rapid.SampledFrom([]api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}).Draw(t, "whenUnsatisfiable"),
			LabelSelector:     spreadSelector(t),
		}
		if c.WhenUnsatisfiable == api.DoNotSchedule && rapid.IntRange(0, 2).Draw(t, "hasMinDomains") == 0 {
			m := rapid.Int32Range(1, 5).Draw(t, "minDomains")
			c.MinDomains = &m
		}
		c.NodeAffinityPolicy = spreadPolicy(t, "nodeAffinityPolicy")
		c.NodeTaintsPolicy = spreadPolicy(t, "nodeTaintsPolicy")
		switch rapid.IntRange(0, 5).Draw(t, "matchLabelKeys") {
		case 0:
			c.MatchLabelKeys = []string{"tier"}
		case 1:
			c.MatchLabelKeys = []string{"app", "no-such-label"}
		}
		cs = append(cs, c)
	}
	return cs
}

// spreadOwner draws a controller reference to one of the generated
// workloads (or to one that does not exist, or of another kind or API
// version, or not marked as controller).
func spreadOwner(t *rapid.T) []api.OwnerReference {
	yes, no := true, false
	kinds := []struct{ apiVersion, kind string }{
		{"apps/v1", "ReplicaSet"}, {"apps/v1", "StatefulSet"}, {"v1", "ReplicationController"},
		{"apps/v1beta2", "ReplicaSet"}, {"batch/v1", "Job"},
	}
	k := rapid.SampledFrom(kinds).Draw(t, "ownerKind")
	ref := api.OwnerReference{APIVersion: k.apiVersion, Kind: k.kind,
		Name: rapid.SampledFrom(append([]string{"w-none"}, spreadWorkloadNames...)).Draw(t, "ownerName"), UID: "uid-owner", Controller: &yes}
	if rapid.IntRange(0, 5).Draw(t, "notController") == 0 {
		ref.Controller = &no
	}
	return []api.OwnerReference{ref}
}

// bendSpread changes a pod drawn by clustergen: sometimes a tier label,
// an owner reference, and (existing pods) a deletion timestamp or
// (incoming pod) spread constraints.
func bendSpread(t *rapid.T, p *api.Pod, incoming bool) {
	if rapid.Bool().Draw(t, "hasTier") {
		p.Labels["tier"] = rapid.SampledFrom(spreadTiers).Draw(t, "tier")
	}
	if rapid.IntRange(0, 2).Draw(t, "hasOwner") == 0 {
		p.OwnerReferences = spreadOwner(t)
	}
	if !incoming {
		if rapid.IntRange(0, 9).Draw(t, "terminating") == 0 {
			ts := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			p.DeletionTimestamp = &ts
		}
		return
	}
	if rapid.IntRange(0, 2).Draw(t, "hasConstraints") != 0 {
		p.Spec.TopologySpreadConstraints = spreadConstraints(t)
		if rapid.Bool().Draw(t, "admitted") {
			for i, c := range p.Spec.TopologySpreadConstraints {
				p.Spec.TopologySpreadConstraints[i] = affinity.MergeSpreadLabelKeys(c, p.Labels)
			}
		}
	}
}

// spreadWorkloads draws Services, ReplicaSets, StatefulSets and
// ReplicationControllers over the generated namespaces and apps.
func spreadWorkloads(t *rapid.T) regression.Workloads {
	var w regression.Workloads
	appSel := func() map[string]string {
		sel := map[string]string{"app": rapid.SampledFrom(clustergen.Apps).Draw(t, "selApp")}
		if rapid.IntRange(0, 3).Draw(t, "selTier") == 0 {
			sel["tier"] = rapid.SampledFrom(spreadTiers).Draw(t, "tier")
		}
		return sel
	}
	ns := func() string { return rapid.SampledFrom(clustergen.Namespaces).Draw(t, "namespace") }
	for i := range rapid.IntRange(0, 3).Draw(t, "services") {
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("svc-%d", i), Namespace: ns()}}
		switch rapid.IntRange(0, 5).Draw(t, "serviceSelector") {
		case 0: // nil: selects nothing
		case 1:
			svc.Spec.Selector = map[string]string{}
		default:
			svc.Spec.Selector = appSel()
		}
		w.Services = append(w.Services, svc)
	}
	for _, name := range spreadWorkloadNames {
		namespace := ns()
		labelSel := func() *api.LabelSelector {
			if rapid.IntRange(0, 5).Draw(t, "exprSelector") == 0 {
				return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpExists}}}
			}
			return &api.LabelSelector{MatchLabels: appSel()}
		}
		if rapid.Bool().Draw(t, "hasRS") {
			sel := labelSel()
			w.ReplicaSets = append(w.ReplicaSets, &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace},
				Spec: api.ReplicaSetSpec{Selector: sel, Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: sel.MatchLabels}}}})
		}
		if rapid.Bool().Draw(t, "hasSS") {
			sel := labelSel()
			w.StatefulSets = append(w.StatefulSets, &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace},
				Spec: api.StatefulSetSpec{Selector: sel, Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: sel.MatchLabels}}}})
		}
		if rapid.Bool().Draw(t, "hasRC") {
			sel := appSel()
			w.ReplicationControllers = append(w.ReplicationControllers, &api.ReplicationController{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace},
				Spec: api.ReplicationControllerSpec{Selector: sel, Template: &api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: sel}}}})
		}
	}
	return w
}

// bendSpreadInput adds the spread parts to a plugins input: nodes that
// lose their zone, hostname or rack label, bent pods and workloads.
func bendSpreadInput(t *rapid.T, in *regression.PluginsInput) {
	for _, n := range in.Nodes {
		switch rapid.IntRange(0, 9).Draw(t, "dropLabel") {
		case 0:
			delete(n.Labels, clustergen.LabelZone)
		case 1:
			delete(n.Labels, clustergen.LabelHostname)
		}
	}
	for _, p := range in.Pods {
		bendSpread(t, p, false)
	}
	bendSpread(t, in.Pod, true)
	in.Workloads = spreadWorkloads(t)
}
