package upstream

import (
	"context"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	schedcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	updra "k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	"github.com/schedkit/schedkit/internal/testing/regression"
)

var createOpts = metav1.CreateOptions{}

// DRAFramework is an upstream framework whose profile runs
// DynamicResources beside the other plugins, with the informers, slice
// tracker and claim assume cache kube-scheduler gives it, over a fake
// client holding the DRA objects.
type DRAFramework struct {
	*Framework
	// Claims is the DRA manager's claim tracker: Reserve's pending
	// allocations are read there.
	Claims fwk.ResourceClaimTracker
}

// NewDRAFramework builds upstream's framework running plugins (names of
// Plugins or DynamicResources), in the order given, with their weights
// and the default profile's arguments (an override replaces the
// arguments of the plugin it names), over nodes, pods and the DRA
// objects (*resourceapi.DeviceClass, ResourceSlice, DeviceTaintRule,
// ResourceClaim). The informers are started and synced before it
// returns; Close stops them.
func NewDRAFramework(ctx context.Context, nodes []*v1.Node, pods []*v1.Pod, draObjects []any, plugins []regression.PluginRef, overrides ...config.PluginConfig) (*DRAFramework, error) {
	metrics.Register()
	ctx, cancel := context.WithCancel(ctx)
	fail := func(err error) (*DRAFramework, error) {
		cancel()
		return nil, err
	}
	client := fake.NewSimpleClientset()
	for _, o := range draObjects {
		var err error
		switch o := o.(type) {
		case *resourceapi.ResourceClaim:
			_, err = client.ResourceV1().ResourceClaims(o.Namespace).Create(ctx, o, createOpts)
		case *resourceapi.DeviceClass:
			_, err = client.ResourceV1().DeviceClasses().Create(ctx, o, createOpts)
		case *resourceapi.ResourceSlice:
			_, err = client.ResourceV1().ResourceSlices().Create(ctx, o, createOpts)
		case *resourceapi.DeviceTaintRule:
			_, err = client.ResourceV1().DeviceTaintRules().Create(ctx, o, createOpts)
		default:
			err = fmt.Errorf("dra framework: unsupported object %T", o)
		}
		if err != nil {
			return fail(err)
		}
	}
	f := informers.NewSharedInformerFactory(client, 0)
	// The other plugins take their listers at construction: every
	// informer they use is made before the factory starts.
	_ = []cache.SharedIndexInformer{
		f.Core().V1().Services().Informer(), f.Core().V1().ReplicationControllers().Informer(),
		f.Apps().V1().ReplicaSets().Informer(), f.Apps().V1().StatefulSets().Informer(),
		f.Core().V1().Namespaces().Informer(), f.Core().V1().PersistentVolumes().Informer(),
		f.Core().V1().PersistentVolumeClaims().Informer(), f.Storage().V1().StorageClasses().Informer(),
		f.Storage().V1().CSINodes().Informer(), f.Storage().V1().CSIDrivers().Informer(),
		f.Storage().V1().CSIStorageCapacities().Informer(), f.Storage().V1().VolumeAttachments().Informer(),
	}
	tracker, err := resourceslicetracker.StartTracker(ctx, resourceslicetracker.Options{
		EnableDeviceTaintRules: true,
		SliceInformer:          f.Resource().V1().ResourceSlices(),
		TaintInformer:          f.Resource().V1().DeviceTaintRules(),
		KubeClient:             client,
	})
	if err != nil {
		return fail(err)
	}
	claimsCache := assumecache.NewAssumeCache(klog.Background(), f.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	done := []cache.DoneChecker{tracker.HasSyncedChecker(), claimsCache.AddEventHandler(cache.ResourceEventHandlerFuncs{}).HasSyncedChecker()}
	mgr := updra.NewDRAManager(ctx, claimsCache, tracker, f)
	// The extended resource cache learns the classes as the scheduler's
	// event handlers feed it: NodeResourcesFit's delegation and the
	// scoring of DRA-backed resources read it.
	erReg, err := f.Resource().V1().DeviceClasses().Informer().AddEventHandler(mgr.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache))
	if err != nil {
		return fail(err)
	}
	done = append(done, erReg.HasSyncedChecker())

	reg := runtime.Registry{queuesort.Name: queuesort.New, defaultbinder.Name: defaultbinder.New,
		updra.Name: runtime.FactoryAdapter(fts, updra.New)}
	for _, p := range Plugins {
		reg[p.Name] = p.Factory
	}
	args, err := DefaultPluginConfig()
	if err != nil {
		return fail(err)
	}
	profile := &config.KubeSchedulerProfile{
		SchedulerName: "default-scheduler",
		Plugins: &config.Plugins{
			QueueSort: config.PluginSet{Enabled: []config.Plugin{{Name: queuesort.Name}}},
			Bind:      config.PluginSet{Enabled: []config.Plugin{{Name: defaultbinder.Name}}},
		},
	}
	weights := map[string]int64{}
	for _, p := range plugins {
		if _, ok := reg[p.Name]; !ok {
			return fail(fmt.Errorf("plugin %q is not in the conformance table", p.Name))
		}
		profile.Plugins.MultiPoint.Enabled = append(profile.Plugins.MultiPoint.Enabled, config.Plugin{Name: p.Name, Weight: p.Weight})
		weights[p.Name] = max(int64(p.Weight), 1)
		if j := slices.IndexFunc(overrides, func(a config.PluginConfig) bool { return a.Name == p.Name }); j >= 0 {
			profile.PluginConfig = append(profile.PluginConfig, overrides[j])
			continue
		}
		i := slices.IndexFunc(args, func(a config.PluginConfig) bool { return a.Name == p.Name })
		if i >= 0 {
			profile.PluginConfig = append(profile.PluginConfig, args[i])
		}
	}
	snap := schedcache.NewSnapshot(pods, nodes)
	cacheImageSizes(snap, nodes)
	fw, err := runtime.NewFramework(ctx, reg, profile,
		append(storageOptions(f),
			runtime.WithClientSet(client), runtime.WithInformerFactory(f), runtime.WithEventRecorder(&events.FakeRecorder{}),
			runtime.WithSharedDRAManager(mgr), runtime.WithSnapshotSharedLister(snap), runtime.WithParallelism(1))...)
	if err != nil {
		return fail(err)
	}
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	cache.WaitFor(ctx, "event handlers", done...)
	return &DRAFramework{Framework: &Framework{FW: fw, Snapshot: snap, weights: weights, cancel: cancel, order: nodeOrder(nodes)}, Claims: mgr.ResourceClaims()}, nil
}
