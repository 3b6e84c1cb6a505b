package imagelocality

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/priorities"
)

// Pins upstream imagelocality/image_locality_test.go
// TestImageLocalityPriority (all cases but "pod with ImageVolume": image
// volumes are not modelled).
func TestImageLocalityPriority(t *testing.T) {
	test40250 := api.PodSpec{Containers: images("gcr.io/40", "gcr.io/250")}
	test40300 := api.PodSpec{Containers: images("gcr.io/40", "gcr.io/300")}
	testMinMax := api.PodSpec{Containers: images("gcr.io/10", "gcr.io/4000")}
	test300600900 := api.PodSpec{Containers: images("gcr.io/300", "gcr.io/600", "gcr.io/900")}
	test3040 := api.PodSpec{Containers: images("gcr.io/30", "gcr.io/40")}
	test30300AsContainers := api.PodSpec{Containers: images("gcr.io/30", "gcr.io/300")}
	test30Init300 := api.PodSpec{Containers: images("gcr.io/30"), InitContainers: images("gcr.io/300")}

	img := func(size int64, names ...string) api.ContainerImage {
		return api.ContainerImage{Names: names, SizeBytes: size * mb}
	}
	node403002000 := api.NodeStatus{Images: []api.ContainerImage{
		img(40, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"), img(300, "gcr.io/300:latest", "gcr.io/300:v1"), img(2000, "gcr.io/2000:latest")}}
	node25010 := api.NodeStatus{Images: []api.ContainerImage{img(250, "gcr.io/250:latest"), img(10, "gcr.io/10:latest", "gcr.io/10:v1")}}
	node60040900 := api.NodeStatus{Images: []api.ContainerImage{img(600, "gcr.io/600:latest"), img(40, "gcr.io/40:latest"), img(900, "gcr.io/900:latest")}}
	node300600900 := api.NodeStatus{Images: []api.ContainerImage{img(300, "gcr.io/300:latest"), img(600, "gcr.io/600:latest"), img(900, "gcr.io/900:latest")}}
	node400030 := api.NodeStatus{Images: []api.ContainerImage{img(4000, "gcr.io/4000:latest"), img(30, "gcr.io/30:latest")}}
	node203040 := api.NodeStatus{Images: []api.ContainerImage{img(20, "gcr.io/20:latest"), img(30, "gcr.io/30:latest"), img(40, "gcr.io/40:latest")}}
	nodeWithNoImages := api.NodeStatus{}

	tests := []struct {
		name  string
		pod   *api.Pod
		nodes []*api.Node
		want  framework.NodeScoreList
	}{
		// node2: 100 * (250M/2 - 23M)/(1000M * 2 - 23M) = 5
		{"two images spread on two nodes, prefer the larger image one", &api.Pod{Spec: test40250},
			[]*api.Node{makeImageNode("node1", node403002000), makeImageNode("node2", node25010)},
			framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 5}}},
		// node1: 100 * ((40M + 300M)/2 - 23M)/(1000M * 2 - 23M) = 7
		{"two images on one node, prefer this node", &api.Pod{Spec: test40300},
			[]*api.Node{makeImageNode("node1", node403002000), makeImageNode("node2", node25010)},
			framework.NodeScoreList{{Name: "node1", Score: 7}, {Name: "node2", Score: 0}}},
		{"if exceed limit, use limit", &api.Pod{Spec: testMinMax},
			[]*api.Node{makeImageNode("node1", node400030), makeImageNode("node2", node25010)},
			framework.NodeScoreList{{Name: "node1", Score: framework.MaxNodeScore}, {Name: "node2", Score: 0}}},
		// node1: 100 * (4000M/3 - 23M)/(1000M * 2 - 23M) = 66
		{"if exceed limit, use limit (with node which has no images present)", &api.Pod{Spec: testMinMax},
			[]*api.Node{makeImageNode("node1", node400030), makeImageNode("node2", node25010), makeImageNode("node3", nodeWithNoImages)},
			framework.NodeScoreList{{Name: "node1", Score: 66}, {Name: "node2", Score: 0}, {Name: "node3", Score: 0}}},
		{"pod with multiple large images, node2 is preferred", &api.Pod{Spec: test300600900},
			[]*api.Node{makeImageNode("node1", node60040900), makeImageNode("node2", node300600900), makeImageNode("node3", nodeWithNoImages)},
			framework.NodeScoreList{{Name: "node1", Score: 32}, {Name: "node2", Score: 36}, {Name: "node3", Score: 0}}},
		{"pod with multiple small images", &api.Pod{Spec: test3040},
			[]*api.Node{makeImageNode("node1", node203040), makeImageNode("node2", node400030)},
			framework.NodeScoreList{{Name: "node1", Score: 1}, {Name: "node2", Score: 0}}},
		{"same images as ImageVolume pod but as regular container images", &api.Pod{Spec: test30300AsContainers},
			[]*api.Node{makeImageNode("node1", node300600900), makeImageNode("node2", node400030)},
			framework.NodeScoreList{{Name: "node1", Score: 6}, {Name: "node2", Score: 0}}},
		{"include InitContainers: two images spread on two nodes, prefer the larger image one", &api.Pod{Spec: test30Init300},
			[]*api.Node{makeImageNode("node1", node403002000), makeImageNode("node2", node203040)},
			framework.NodeScoreList{{Name: "node1", Score: 6}, {Name: "node2", Score: 0}}},
	}
	for _, tc := range tests {
		for _, pre := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/prescore=%v", tc.name, pre), func(t *testing.T) {
				snap := snapshot(t, tc.nodes, nil)
				p, _ := New(nil, testHandle{snap})
				got, sts := scoreNodes(t, p, tc.pod, snap, tc.nodes, pre)
				for _, st := range sts {
					if !st.IsSuccess() {
						t.Fatal(st)
					}
				}
				checkScores(t, got, tc.want)
				for i, n := range tc.nodes {
					ni, _ := snap.Get(n.Name)
					if plain := priorities.ImageLocality(tc.pod, ni, snap.NumNodes()); plain != tc.want[i].Score {
						t.Errorf("ImageLocality on %s = %d, want %d", n.Name, plain, tc.want[i].Score)
					}
				}
				checkImageScoreNodes(t, p, tc.pod, snap, tc.nodes, tc.want)
			})
		}
	}
	// A pod without containers looks no image up: every node scores 0,
	// through Score and ScoreNodes alike.
	t.Run("no images", func(t *testing.T) {
		nodes := []*api.Node{makeImageNode("node1", node403002000), makeImageNode("node2", nodeWithNoImages)}
		snap := snapshot(t, nodes, nil)
		p, _ := New(nil, testHandle{snap})
		want := framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 0}}
		got, _ := scoreNodes(t, p, &api.Pod{}, snap, nodes, true)
		checkScores(t, got, want)
		checkImageScoreNodes(t, p, &api.Pod{}, snap, nodes, want)
	})
	// Images no node reports score 0 on every node, ScoreNodes reading
	// none; the snapshot's counts follow its nodes. (ScoreNodes' shortcut;
	// upstream scores each node 0.)
	t.Run("images no node reports", func(t *testing.T) {
		nodes := []*api.Node{makeImageNode("node1", node403002000), makeImageNode("node2", nodeWithNoImages)}
		snap := snapshot(t, nodes, nil)
		p, _ := New(nil, testHandle{snap})
		pod := &api.Pod{Spec: api.PodSpec{Containers: images("gcr.io/250", "gcr.io/10:v2")}}
		zero := framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 0}}
		checkImageScoreNodes(t, p, pod, snap, nodes, zero)
		if err := snap.UpdateNode(makeImageNode("node2", node25010)); err != nil {
			t.Fatal(err)
		}
		if n := snap.ImageNodes("gcr.io/250:latest"); n != 1 {
			t.Errorf("ImageNodes(gcr.io/250:latest) = %d after the update, want 1", n)
		}
		// node2: 100 * (250M/2 + 0 - 23M)/(1000M * 2 - 23M) = 5
		checkImageScoreNodes(t, p, pod, snap, []*api.Node{nodes[0], makeImageNode("node2", node25010)},
			framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 5}})
		if err := snap.RemoveNode("node2"); err != nil {
			t.Fatal(err)
		}
		if n := snap.ImageNodes("gcr.io/250:latest"); n != 0 {
			t.Errorf("ImageNodes(gcr.io/250:latest) = %d after the removal, want 0", n)
		}
		checkImageScoreNodes(t, p, pod, snap, nodes[:1], zero[:1])
	})
	p, _ := New(nil, nil)
	if _, st := p.(framework.ScorePlugin).Score(t.Context(), framework.NewCycleState(), &api.Pod{}, cluster.NewNodeInfo(&api.Node{})); st.Code() != framework.Error {
		t.Errorf("no handle: %v", st)
	}
}

// mb is a mebibyte, as the image sizes count it.
const mb int64 = 1024 * 1024
