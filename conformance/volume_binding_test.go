package conformance

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

// volumeAnswers runs one cycle of the case's pod through schedkit's
// profile of plugins and upstream's framework (with the case's objects
// in its informers) and returns both answers.
func volumeAnswers(t *rapid.T, c clustergen.VolumeCase, plugins []regression.PluginRef) (sk, us regression.PluginsAnswer) {
	snap, err := cluster.NewSnapshot(c.Nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObjects(c.Objects...); err != nil {
		t.Fatal(err)
	}
	prof, err := regression.Profile(snap, plugins)
	if err != nil {
		t.Fatal(err)
	}
	sk = regression.RunCycle(prof, snap.View().Nodes(), c.Pod)
	ctx := context.Background()
	nodes, _ := upstream.ConvertCluster(c.Nodes, nil)
	f, err := upstream.NewFrameworkObjects(ctx, nodes, nil, c.Objects, plugins, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	us = f.RunCycle(ctx, f.NodeInfos(), upstream.MustConvert[v1.Pod](c.Pod))
	return sk, us
}

func sameAnswers(t *rapid.T, c clustergen.VolumeCase, sk, us regression.PluginsAnswer) {
	a, err := regression.Marshal(sk)
	if err != nil {
		t.Fatal(err)
	}
	b, err := regression.Marshal(us)
	if err != nil {
		t.Fatal(err)
	}
	if !regression.Same(a, b) {
		in, _ := regression.Marshal(c)
		t.Fatalf("schedkit disagrees with upstream\ninput:    %s\nschedkit: %s\nupstream: %s", in, mustCanon(a), mustCanon(b))
	}
}

// TestVolumeBinding compares VolumeBinding alone, and with every plugin
// of the differential run at its default weight, on generated storage
// (classes, volumes, claims in every binding state, CSI capacities):
// PreFilter status, each node's Filter status and each feasible node's
// score per plugin.
func TestVolumeBinding(t *testing.T) {
	var all []regression.PluginRef
	for _, name := range upstream.PluginNames() {
		all = append(all, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	for _, tc := range []struct {
		name    string
		plugins []regression.PluginRef
	}{
		{"alone", []regression.PluginRef{{Name: "VolumeBinding"}}},
		{"all", all},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				c := clustergen.VolumeBindingCase(8).Draw(t, "case")
				sk, us := volumeAnswers(t, c, tc.plugins)
				sameAnswers(t, c, sk, us)
			})
		})
	}
}
