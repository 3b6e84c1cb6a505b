package priorities

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

var (
	ipaKeys = []string{"zone", "kubernetes.io/hostname", "rack", "missing"}
	ipaApps = []string{"web", "db", "batch"}
	ipaNSes = []string{"default", "team-a"}
)

// ipaTermGen draws a term over app labels, namespaces and topology keys
// from small pools, so that terms often match.
func ipaTermGen() *rapid.Generator[api.PodAffinityTerm] {
	return rapid.Custom(func(t *rapid.T) api.PodAffinityTerm {
		tm := term(rapid.SampledFrom(ipaKeys).Draw(t, "key"), selIn("app", rapid.SliceOfNDistinct(rapid.SampledFrom(ipaApps), 1, 2, rapid.ID[string]).Draw(t, "apps")...))
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

// ipaPodGen draws a pod with an app label and, unless plain, some
// required and preferred pod (anti-)affinity.
func ipaPodGen(plain bool) *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		b := mkPod(rapid.SampledFrom(ipaNSes).Draw(t, "namespace"), "", map[string]string{"app": rapid.SampledFrom(ipaApps).Draw(t, "app")})
		if plain {
			return b.obj()
		}
		for range rapid.IntRange(0, 1).Draw(t, "reqAff") {
			b.reqAff(ipaTermGen().Draw(t, "term"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "reqAnti") {
			b.reqAnti(ipaTermGen().Draw(t, "term"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "prefAff") {
			b.prefAff(rapid.Int32Range(1, 100).Draw(t, "w"), ipaTermGen().Draw(t, "term"))
		}
		for range rapid.IntRange(0, 2).Draw(t, "prefAnti") {
			b.prefAnti(rapid.Int32Range(1, 100).Draw(t, "w"), ipaTermGen().Draw(t, "term"))
		}
		return b.obj()
	})
}

type ipaCluster struct {
	nodes []*api.Node
	pods  []*api.Pod
	ns    fakeNamespaces
}

func ipaClusterGen() *rapid.Generator[ipaCluster] {
	return rapid.Custom(func(t *rapid.T) ipaCluster {
		var c ipaCluster
		n := rapid.IntRange(1, 6).Draw(t, "nodes")
		for i := range n {
			name := fmt.Sprintf("n%d", i)
			labels := map[string]string{"kubernetes.io/hostname": name, "zone": rapid.SampledFrom([]string{"z1", "z2"}).Draw(t, "zone")}
			if rapid.Bool().Draw(t, "rack") {
				labels["rack"] = rapid.SampledFrom([]string{"r1", "r2"}).Draw(t, "rackValue")
			}
			c.nodes = append(c.nodes, ipaNode(name, labels))
		}
		for i := range rapid.IntRange(0, 10).Draw(t, "pods") {
			p := ipaPodGen(rapid.Bool().Draw(t, "plain")).Draw(t, "pod")
			p.Name = fmt.Sprintf("p%d", i)
			p.Spec.NodeName = c.nodes[rapid.IntRange(0, n-1).Draw(t, "node")].Name
			c.pods = append(c.pods, p)
		}
		c.ns = fakeNamespaces{{ObjectMeta: api.ObjectMeta{Name: "default", Labels: map[string]string{"env": "prod"}}}, {ObjectMeta: api.ObjectMeta{Name: "team-a"}}}
		return c
	})
}

// scoreAll returns each node's normalised score by name, or the
// PreScore status under "".
func scoreAll(t *rapid.T, c ipaCluster, pod *api.Pod, args config.InterPodAffinityArgs) map[string]int64 {
	snap, err := ipaSnapshot(c.nodes, c.pods, c.ns)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := NewInterPodAffinity(args, ipaHandle{snap})
	if err != nil {
		t.Fatal(err)
	}
	p := pl.(*InterPodAffinityPlugin)
	ctx := context.Background()
	state := framework.NewCycleState()
	if st := p.PreScore(ctx, state, pod, snap.View().Nodes()); st != nil {
		if !st.IsSkip() {
			t.Fatalf("PreScore: %v", st)
		}
		return map[string]int64{"": -1}
	}
	var l framework.NodeScoreList
	for _, ni := range snap.View().Nodes() {
		s, st := p.Score(ctx, state, pod, ni)
		if st != nil {
			t.Fatal(st)
		}
		l = append(l, framework.NodeScore{Name: ni.Name(), Score: s})
	}
	if st := p.NormalizeScore(ctx, state, pod, l); st != nil {
		t.Fatal(st)
	}
	out := map[string]int64{}
	for _, s := range l {
		out[s.Name] = s.Score
	}
	return out
}

// Normalised scores are within 0..100 and do not depend on the order of
// the nodes or of the pods.
func TestPropertyInterPodAffinityScores(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := ipaClusterGen().Draw(t, "cluster")
		pod := ipaPodGen(false).Draw(t, "incoming")
		w := rapid.Int32Range(0, 100).Draw(t, "hardPodAffinityWeight")
		args := config.InterPodAffinityArgs{HardPodAffinityWeight: &w, IgnorePreferredTermsOfExistingPods: rapid.Bool().Draw(t, "ignore")}
		got := scoreAll(t, c, pod, args)
		for n, s := range got {
			if n != "" && (s < framework.MinNodeScore || s > framework.MaxNodeScore) {
				t.Fatalf("node %s scores %d", n, s)
			}
		}
		perm := rapid.Permutation(c.nodes).Draw(t, "nodeOrder")
		pods := rapid.Permutation(c.pods).Draw(t, "podOrder")
		if again := scoreAll(t, ipaCluster{perm, pods, c.ns}, pod, args); !reflect.DeepEqual(again, got) {
			t.Fatalf("reordered: %v, want %v", again, got)
		}
	})
}
