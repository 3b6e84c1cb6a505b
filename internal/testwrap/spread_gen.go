package testwrap

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

// Pools the PodTopologySpread generators draw from: small, so that
// constraints often match and domains repeat.
var (
	spreadNSes  = []string{"default", "default", "other"}
	spreadZones = []string{"z1", "z2", "z3"}
)

// SpreadIncomingGen draws incoming pod i of a long-lived
// PodTopologySpread plugin's cycles: one or two constraints with the
// given whenUnsatisfiable over zone or hostname, selecting foo or bar
// pods, with or without minDomains and node inclusion policies; some pods
// carry a nodeSelector (disk=ssd) or tolerate the dedicated taint.
func SpreadIncomingGen(i int, action api.UnsatisfiableConstraintAction) *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		b := SpreadPod().Name(fmt.Sprintf("incoming-%d", i)).Namespace(rapid.SampledFrom(spreadNSes).Draw(t, "ns"))
		if rapid.Bool().Draw(t, "inFoo") {
			b.Label("foo", "")
		}
		if rapid.IntRange(0, 3).Draw(t, "hasNodeSelector") == 0 {
			b.NodeSelector(map[string]string{"disk": "ssd"})
		}
		if rapid.Bool().Draw(t, "tolerates") {
			b.Toleration("dedicated")
		}
		honor, ignore := api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore
		policies := []*api.NodeInclusionPolicy{nil, &honor, &ignore}
		selectors := []*api.LabelSelector{SpreadSel().Exists("foo").Obj(), SpreadSel().Exists("bar").Obj()}
		for range rapid.IntRange(1, 2).Draw(t, "constraints") {
			var minDomains *int32
			if rapid.Bool().Draw(t, "hasMinDomains") {
				minDomains = Ptr(rapid.Int32Range(1, 4).Draw(t, "minDomains"))
			}
			b.SpreadConstraint(rapid.IntRange(1, 2).Draw(t, "maxSkew"), rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname"}).Draw(t, "key"),
				action, rapid.SampledFrom(selectors).Draw(t, "selector"), minDomains,
				rapid.SampledFrom(policies).Draw(t, "affinityPolicy"), rapid.SampledFrom(policies).Draw(t, "taintsPolicy"), nil)
		}
		return b.Obj()
	})
}

// SpreadNodeGen draws a node of a long-lived PodTopologySpread plugin's
// clusters: its hostname label, mostly a zone (z1-z3, as zone and
// sometimes as topology.kubernetes.io/zone too), sometimes disk=ssd or a dedicated:NoSchedule taint.
func SpreadNodeGen(name string) *rapid.Generator[*api.Node] {
	return rapid.Custom(func(t *rapid.T) *api.Node {
		b := SpreadNode().Name(name).Label("kubernetes.io/hostname", name)
		if rapid.IntRange(0, 5).Draw(t, "noZone") != 0 {
			zone := rapid.SampledFrom(spreadZones).Draw(t, "zone")
			b.Label("zone", zone)
			if rapid.Bool().Draw(t, "wellKnownZone") {
				b.Label("topology.kubernetes.io/zone", zone)
			}
		}
		if rapid.Bool().Draw(t, "ssd") {
			b.Label("disk", "ssd")
		}
		if rapid.IntRange(0, 3).Draw(t, "tainted") == 0 {
			b.Taints([]api.Taint{{Key: "dedicated", Effect: api.TaintEffectNoSchedule}})
		}
		return b.Obj()
	})
}

// SpreadExistingPodGen draws an existing pod on one of the named nodes,
// labelled foo and/or bar or neither.
func SpreadExistingPodGen(name string, nodes []string) *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		b := SpreadPod().Name(name).Namespace(rapid.SampledFrom(spreadNSes).Draw(t, "podNS")).
			Node(rapid.SampledFrom(nodes).Draw(t, "onNode"))
		if rapid.Bool().Draw(t, "foo") {
			b.Label("foo", "")
		}
		if rapid.Bool().Draw(t, "bar") {
			b.Label("bar", "")
		}
		return b.Obj()
	})
}

// DrawSpreadWorld draws 1..maxNodes nodes of SpreadNodeGen (n0, n1, …)
// and 0..maxPods existing pods of SpreadExistingPodGen bound to them: the
// cluster the spread cache properties keep a plugin through, with the
// nodes' names.
func DrawSpreadWorld(t *rapid.T, maxNodes, maxPods int) (nodes []*api.Node, names []string, pods []*api.Pod) {
	for i := range rapid.IntRange(1, maxNodes).Draw(t, "nodes") {
		name := fmt.Sprintf("n%d", i)
		nodes, names = append(nodes, SpreadNodeGen(name).Draw(t, "node")), append(names, name)
	}
	for i := range rapid.IntRange(0, maxPods).Draw(t, "pods") {
		pods = append(pods, SpreadExistingPodGen(fmt.Sprintf("p%d", i), names).Draw(t, "pod"))
	}
	return nodes, names, pods
}
