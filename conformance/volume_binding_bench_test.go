package conformance

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/plugins/defaultbinder"
	"github.com/schedkit/schedkit/plugins/queuesort"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

// volumeBenchObjects are the storage of the VolumeBinding benchmark over
// benchCluster's nodes: a WaitForFirstConsumer class of local volumes
// (one 10-100Gi volume on every 50th node, untainted) and one provisioned by a CSI
// driver with capacity tracking (a CSIStorageCapacity per zone), and the
// two claims of volumeBenchPod, one of each class.
func volumeBenchObjects(nodes []*api.Node) []any {
	wait := api.VolumeBindingWaitForFirstConsumer
	yes := true
	objs := []any{
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "local"}, Provisioner: "kubernetes.io/no-provisioner", VolumeBindingMode: &wait},
		&api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "csi"}, Provisioner: "csi.example.com", VolumeBindingMode: &wait},
		&api.CSIDriver{ObjectMeta: api.ObjectMeta{Name: "csi.example.com"}, Spec: api.CSIDriverSpec{StorageCapacity: &yes}},
	}
	for z := range 3 {
		q := quantity.MustParse(fmt.Sprintf("%dTi", z+1))
		objs = append(objs, &api.CSIStorageCapacity{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("cap-%d", z), Namespace: "kube-system"},
			StorageClassName: "csi", Capacity: &q,
			NodeTopology: &api.LabelSelector{MatchLabels: map[string]string{"topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", z)}}})
	}
	for i := 1; i < len(nodes); i += 50 {
		objs = append(objs, &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("local-%d", i)}, Spec: api.PersistentVolumeSpec{
			StorageClassName: "local", Capacity: api.ResourceList{"storage": quantity.MustParse(fmt.Sprintf("%dGi", 10+i%91))},
			AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
			NodeAffinity: &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: api.NodeSelectorOpIn, Values: []string{nodes[i].Name}}}}}}}},
			Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}})
	}
	for _, c := range []struct{ name, class, size string }{{"data", "local", "8Gi"}, {"scratch", "csi", "50Gi"}} {
		class := c.class
		objs = append(objs, &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: c.name, Namespace: "default", UID: "uid-" + c.name},
			Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, AccessModes: []api.PersistentVolumeAccessMode{api.ReadWriteOnce},
				Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{"storage": quantity.MustParse(c.size)}}}})
	}
	return objs
}

func volumeBenchPod() *api.Pod {
	p := benchPlainPod()
	p.Spec.Volumes = []api.Volume{
		{Name: "data", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "data"}},
		{Name: "scratch", PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: "scratch"}},
	}
	return p
}

// BenchmarkScheduleVolumes is one full decision at 5,000 nodes (every
// node filtered and scored, the plugins of BenchmarkSchedule) for a pod
// with two WaitForFirstConsumer claims: one bound to a local volume on
// one of 100 nodes, one provisioned with capacity tracking.
func BenchmarkScheduleVolumes(b *testing.B) {
	var plugins []regression.PluginRef
	var cfg framework.ProfileConfig
	cfg.Disabled = []string{"*"}
	for _, name := range upstream.PluginNames() {
		plugins = append(plugins, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
		cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	cfg.Plugins = append(cfg.Plugins, framework.PluginRef{Name: queuesort.Name}, framework.PluginRef{Name: defaultbinder.Name})
	par := runtime.GOMAXPROCS(0)
	ctx := context.Background()
	const n = 5000
	nodes, pods := benchCluster(n, 4)
	objs := volumeBenchObjects(nodes)
	skPod := volumeBenchPod()
	b.Run(fmt.Sprintf("nodes=%d/upstream", n), func(b *testing.B) {
		vn, vp := upstream.ConvertCluster(nodes, pods)
		f, err := upstream.NewFrameworkObjects(ctx, vn, vp, objs, plugins, par)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		up := upstream.MustConvert[v1.Pod](skPod)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.Schedule(ctx, up); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("nodes=%d/schedkit", n), func(b *testing.B) {
		snap, err := cluster.NewSnapshot(nodes, pods)
		if err != nil {
			b.Fatal(err)
		}
		if err := snap.AddObjects(objs...); err != nil {
			b.Fatal(err)
		}
		hundred := int32(100)
		s, err := scheduler.New(snap, scheduler.WithProfiles(cfg), scheduler.WithParallelism(par), scheduler.WithPercentageOfNodesToScore(hundred))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Schedule(ctx, skPod); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestScheduleVolumesBenchAgrees checks that the benchmark's two
// schedulers agree on a 300-node version of its cluster.
func TestScheduleVolumesBenchAgrees(t *testing.T) {
	nodes, _ := benchCluster(300, 0)
	var plugins []regression.PluginRef
	for _, name := range upstream.PluginNames() {
		plugins = append(plugins, regression.PluginRef{Name: name, Weight: defaultWeight(name)})
	}
	objs := volumeBenchObjects(nodes)
	snap, err := cluster.NewSnapshot(nodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObjects(objs...); err != nil {
		t.Fatal(err)
	}
	prof, err := regression.Profile(snap, plugins)
	if err != nil {
		t.Fatal(err)
	}
	sk := regression.RunCycle(prof, snap.View().Nodes(), volumeBenchPod())
	vn, _ := upstream.ConvertCluster(nodes, nil)
	f, err := upstream.NewFrameworkObjects(context.Background(), vn, nil, objs, plugins, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	us := f.RunCycle(context.Background(), f.NodeInfos(), upstream.MustConvert[v1.Pod](volumeBenchPod()))
	a, _ := regression.Marshal(sk)
	c, _ := regression.Marshal(us)
	if !regression.Same(a, c) {
		t.Errorf("schedkit: %s\nupstream: %s", mustCanon(a), mustCanon(c))
	}
	if len(sk.Best) == 0 {
		t.Error("no feasible node")
	}
}
