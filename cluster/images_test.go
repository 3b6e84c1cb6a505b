package cluster_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// TestPropLookupImageIsMapLookup checks that LookupImage answers as
// ImageStates[name] does, for the nodes of a snapshot, of NewNodeInfo and
// of Clone, and for a node whose ImageStates a caller replaced.
func TestPropLookupImageIsMapLookup(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		// Up to 18 names a node: lists of 8 or fewer are scanned, longer
		// ones searched.
		pool := []string{"nginx:1.27", "busybox:latest", "a", "b:1", "registry.example/app:v1", "registry.example/app:v2", "x@sha256:00",
			"c", "d:2", "e:3", "f:4", "g:5", "h:6", "i:7"}
		nNodes := rapid.IntRange(1, 5).Draw(rt, "nodes")
		var nodes []*api.Node
		for i := range nNodes {
			n := &api.Node{}
			n.Name = fmt.Sprintf("n%d", i)
			for j := range rapid.IntRange(0, 6).Draw(rt, "images") {
				names := rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 1, 3, rapid.ID[string]).Draw(rt, fmt.Sprint("names", j))
				n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: names, SizeBytes: int64(j+1) << 20})
			}
			nodes = append(nodes, n)
		}
		snap, err := cluster.NewSnapshot(nodes, nil)
		if err != nil {
			rt.Fatal(err)
		}
		var infos []*cluster.NodeInfo
		for _, n := range nodes {
			ni, _ := snap.Get(n.Name)
			infos = append(infos, ni, cluster.NewNodeInfo(n), ni.Clone())
		}
		replaced := cluster.NewNodeInfo(nodes[0])
		replaced.ImageStates = map[string]*cluster.ImageStateSummary{"only:me": {Size: 1, NumNodes: 1}}
		infos = append(infos, replaced)
		for _, ni := range infos {
			for _, name := range append(pool, "only:me", "missing") {
				want, wok := ni.ImageStates[name]
				got, ok := ni.LookupImage(cluster.NewImageKey(name))
				if ok != wok || got != want {
					rt.Fatalf("node %s image %q: LookupImage = %v, %v; map = %v, %v", ni.Node().Name, name, got, ok, want, wok)
				}
			}
		}
		// LookupImageNodes over the same nodes, in an order drawn (so that
		// nodes sharing an index may or may not be neighbours), answers
		// as LookupImage on each.
		order := rapid.Permutation(infos).Draw(rt, "order")
		states := make([]*cluster.ImageStateSummary, len(order)+1)
		for _, name := range append(pool, "only:me", "missing") {
			k := cluster.NewImageKey(name)
			cluster.LookupImageNodes(order, k, states)
			for i, ni := range order {
				if want, _ := ni.LookupImage(k); states[i] != want {
					rt.Fatalf("node %d (%s) image %q: LookupImageNodes = %v; LookupImage = %v", i, ni.Node().Name, name, states[i], want)
				}
			}
		}
	})
}

func ExampleNodeInfo_LookupImage() {
	n := &api.Node{}
	n.Status.Images = []api.ContainerImage{{Names: []string{"nginx:1.27"}, SizeBytes: 150 << 20}}
	ni := cluster.NewNodeInfo(n)
	key := cluster.NewImageKey(cluster.NormalizedImageName("nginx:1.27"))
	if st, ok := ni.LookupImage(key); ok {
		fmt.Println(key.Name(), st.Size>>20, "MiB")
	}
	// Output: nginx:1.27 150 MiB
}
