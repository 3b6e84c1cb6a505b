package testwrap

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

// Pools the InterPodAffinity generators draw from: small, so that terms
// often match.
var (
	ipaKeys = []string{"zone", "kubernetes.io/hostname", "rack", "missing"}
	ipaApps = []string{"web", "db", "batch"}
	ipaNSes = []string{"default", "team-a"}
)

// IPATermGen draws a term over app labels, namespaces and topology keys
// from small pools, so that terms often match.
func IPATermGen() *rapid.Generator[api.PodAffinityTerm] {
	return rapid.Custom(func(t *rapid.T) api.PodAffinityTerm {
		tm := Term(rapid.SampledFrom(ipaKeys).Draw(t, "key"), SelIn("app", rapid.SliceOfNDistinct(rapid.SampledFrom(ipaApps), 1, 2, rapid.ID[string]).Draw(t, "apps")...))
		switch rapid.IntRange(0, 4).Draw(t, "ns") {
		case 0:
			tm.Namespaces = []string{rapid.SampledFrom(ipaNSes).Draw(t, "nsName")}
		case 1:
			tm.NamespaceSelector = &api.LabelSelector{}
		case 2:
			tm.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
		}
		return tm
	})
}

// IPAPodGen draws a pod with an app label and, unless plain, some
// required and preferred pod (anti-)affinity.
func IPAPodGen(plain bool) *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		b := MkPod(rapid.SampledFrom(ipaNSes).Draw(t, "namespace"), "", map[string]string{"app": rapid.SampledFrom(ipaApps).Draw(t, "app")})
		if plain {
			return b.Obj()
		}
		for range rapid.IntRange(0, 1).Draw(t, "reqAff") {
			b.ReqAff(IPATermGen().Draw(t, "term"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "reqAnti") {
			b.ReqAnti(IPATermGen().Draw(t, "term"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "prefAff") {
			b.PrefAff(rapid.Int32Range(1, 100).Draw(t, "w"), IPATermGen().Draw(t, "term"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "prefAnti") {
			b.PrefAnti(rapid.Int32Range(1, 100).Draw(t, "w"), IPATermGen().Draw(t, "term"))
		}
		return b.Obj()
	})
}

// IPACluster is a small cluster for the InterPodAffinity properties.
type IPACluster struct {
	Nodes []*api.Node
	Pods  []*api.Pod
	NS    FakeNamespaces
}

// IPAClusterGen draws 1-6 nodes over two zones (some with a rack label)
// and up to 10 pods from IPAPodGen, with two namespaces.
func IPAClusterGen() *rapid.Generator[IPACluster] {
	return rapid.Custom(func(t *rapid.T) IPACluster {
		var c IPACluster
		n := rapid.IntRange(1, 6).Draw(t, "nodes")
		for i := range n {
			name := fmt.Sprintf("n%d", i)
			labels := map[string]string{"kubernetes.io/hostname": name, "zone": rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone")}
			if rapid.Bool().Draw(t, "rack") {
				labels["rack"] = rapid.SampledFrom([]string{"r1", "r2"}).Draw(t, "rackValue")
			}
			c.Nodes = append(c.Nodes, IPANode(name, labels))
		}
		for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
			p := IPAPodGen(rapid.Bool().Draw(t, "plain")).Draw(t, "pod")
			p.Name = fmt.Sprintf("p%d", i)
			p.Spec.NodeName = c.Nodes[rapid.IntRange(0, n-1).Draw(t, "node")].Name
			c.Pods = append(c.Pods, p)
		}
		c.NS = FakeNamespaces{{ObjectMeta: api.ObjectMeta{Name: "default", Labels: map[string]string{"env": "prod"}}}, {ObjectMeta: api.ObjectMeta{Name: "team-a"}}}
		return c
	})
}
