package testwrap

import (
	"fmt"
	"maps"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
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

// ChurnSpread makes one change a spread cache property keeps a plugin
// through, drawn by t, to snap holding pods (returned updated): a pod
// added (twice as likely) or removed, a node added, relabelled (each of
// zoneKeys dropped or set to one new zone) or removed with its pods, or
// a pod assumed. step names an added node, extra counts added pods.
// names are the view's nodes before the change.
func ChurnSpread(t *rapid.T, snap *cluster.Snapshot, pods []*api.Pod, step int, extra *int, zoneKeys ...string) (_ []*api.Pod, names []string) {
	for _, ni := range snap.View().Nodes() {
		names = append(names, ni.Name())
	}
	switch rapid.IntRange(0, 6).Draw(t, "change") {
	case 0, 1:
		if len(names) > 0 {
			p := SpreadExistingPodGen(fmt.Sprintf("added-%d", *extra), names).Draw(t, "pod")
			*extra++
			if err := snap.AddPod(p); err != nil {
				t.Fatal(err)
			}
			pods = append(pods, p)
		}
	case 2:
		if len(pods) > 0 {
			i := rapid.IntRange(0, len(pods)-1).Draw(t, "removed")
			if err := snap.RemovePod(pods[i]); err == nil {
				pods = append(pods[:i], pods[i+1:]...)
			}
		}
	case 3:
		if err := snap.AddNode(SpreadNodeGen(fmt.Sprintf("new-%d", step)).Draw(t, "node")); err != nil {
			t.Fatal(err)
		}
	case 4:
		if len(names) > 0 {
			ni, _ := snap.Get(rapid.SampledFrom(names).Draw(t, "relabel"))
			n := *ni.Node()
			n.Labels = maps.Clone(n.Labels)
			if rapid.IntRange(0, 3).Draw(t, "dropZone") == 0 {
				for _, k := range zoneKeys {
					delete(n.Labels, k)
				}
			} else {
				z := rapid.SampledFrom([]string{"z1", "z2", "z3", "z4"}).Draw(t, "newZone")
				for _, k := range zoneKeys {
					n.Labels[k] = z
				}
			}
			if err := snap.UpdateNode(&n); err != nil {
				t.Fatal(err)
			}
		}
	case 5:
		if len(names) > 1 {
			name := rapid.SampledFrom(names).Draw(t, "removedNode")
			var keep []*api.Pod
			for _, p := range pods {
				if p.Spec.NodeName != name {
					keep = append(keep, p)
				}
			}
			pods = keep
			if err := snap.RemoveNode(name); err != nil {
				t.Fatal(err)
			}
		}
	case 6:
		if len(names) > 0 {
			p := SpreadExistingPodGen(fmt.Sprintf("assumed-%d", *extra), names).Draw(t, "pod")
			*extra++
			if err := snap.AssumePod(p, p.Spec.NodeName); err != nil {
				t.Fatal(err)
			}
			pods = append(pods, p)
		}
	}
	return pods, names
}
