package conformance

import (
	"context"
	"encoding/json"
	v1 "k8s.io/api/core/v1"
	"reflect"
	"slices"
	"testing"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	configv1 "k8s.io/kube-scheduler/config/v1"
	fwk "k8s.io/kube-scheduler/framework"
	kconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
	fwkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/schedconfig"
	"github.com/schedkit/schedkit/scheduler"

	"github.com/schedkit/schedkit/conformance/internal/upstream"
)

// stub is an upstream plugin with no extension point, standing for the
// default plugins schedkit does not have yet (they are NotEvaluated in
// schedkit's profile and at no extension point upstream).
type stub struct{ name string }

func (s stub) Name() string { return s.name }

// postFilterStub stands for DefaultPreemption, which schedkit has: a
// PostFilter that never runs here (the test compares profiles only).
type postFilterStub struct{ stub }

func (postFilterStub) PostFilter(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	return nil, nil
}

// draStub stands for DynamicResources at upstream's extension points
// (PreEnqueue, PreFilter, Filter, PostFilter, Score): the test compares
// profiles only; dra_plugin_test.go compares the plugins' answers.
type draStub struct{ stub }

func (draStub) PreEnqueue(context.Context, *v1.Pod) *fwk.Status { return nil }

func (draStub) PreFilter(context.Context, fwk.CycleState, *v1.Pod, []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	return nil, nil
}

func (draStub) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

func (draStub) Filter(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeInfo) *fwk.Status { return nil }

func (draStub) PostFilter(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	return nil, nil
}

func (draStub) Score(context.Context, fwk.CycleState, *v1.Pod, fwk.NodeInfo) (int64, *fwk.Status) {
	return 0, nil
}

func (draStub) ScoreExtensions() fwk.ScoreExtensions { return nil }

// configPlugins are the plugin names the generated configurations use.
var configPlugins = []string{"NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodePorts",
	"NodeResourcesFit", "NodeResourcesBalancedAllocation", "ImageLocality", "PrioritySort", "DefaultBinder", "SchedulingGates"}

func upstreamRegistry() fwkruntime.Registry {
	reg := fwkruntime.Registry{
		queuesort.Name:       queuesort.New,
		defaultbinder.Name:   defaultbinder.New,
		schedulinggates.Name: fwkruntime.FactoryAdapter(plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate), schedulinggates.New),
	}
	for _, p := range upstream.Plugins {
		reg[p.Name] = p.Factory
	}
	// The default plugins of the differential run are upstream's own
	// (upstream.Plugins); the others are stubs: DefaultPreemption as a
	// PostFilter (schedkit has it), the rest with no extension point
	// (schedkit lists them as not evaluated).
	for _, n := range []string{"VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
		"InterPodAffinity", "DynamicResources", "DefaultPreemption", "NodeDeclaredFeatures"} {
		if _, ok := reg[n]; ok {
			continue
		}
		if n == "DynamicResources" {
			reg[n] = func(context.Context, k8sruntime.Object, fwk.Handle) (fwk.Plugin, error) {
				return draStub{stub{n}}, nil
			}
			continue
		}
		if _, ok := scheduler.DefaultRegistry()[n]; ok && n == "DefaultPreemption" {
			reg[n] = func(context.Context, k8sruntime.Object, fwk.Handle) (fwk.Plugin, error) {
				return postFilterStub{stub{n}}, nil
			}
			continue
		}
		reg[n] = func(context.Context, k8sruntime.Object, fwk.Handle) (fwk.Plugin, error) { return stub{n}, nil }
	}
	return reg
}

// genPluginSet draws an extension point's set.
func genPluginSet(t *rapid.T, label string, weights bool) map[string]any {
	out := map[string]any{}
	if rapid.IntRange(0, 3).Draw(t, label+".hasEnabled") == 0 {
		var enabled []map[string]any
		for i, n := 0, rapid.IntRange(1, 3).Draw(t, label+".n"); i < n; i++ {
			p := map[string]any{"name": rapid.SampledFrom(configPlugins).Draw(t, label+".name")}
			if weights && rapid.Bool().Draw(t, label+".weighted") {
				p["weight"] = rapid.IntRange(0, 5).Draw(t, label+".weight")
			}
			enabled = append(enabled, p)
		}
		out["enabled"] = enabled
	}
	if rapid.IntRange(0, 3).Draw(t, label+".hasDisabled") == 0 {
		var disabled []map[string]any
		for i, n := 0, rapid.IntRange(1, 2).Draw(t, label+".nd"); i < n; i++ {
			disabled = append(disabled, map[string]any{"name": rapid.SampledFrom(append(slices.Clone(configPlugins), "*")).Draw(t, label+".dname")})
		}
		out["disabled"] = disabled
	}
	return out
}

func genSchedulerConfig(t *rapid.T) []byte {
	doc := map[string]any{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"}
	if rapid.Bool().Draw(t, "pct") {
		doc["percentageOfNodesToScore"] = rapid.IntRange(-1, 101).Draw(t, "percentage")
	}
	var profiles []map[string]any
	for i, n := 0, rapid.IntRange(0, 2).Draw(t, "profiles"); i < n; i++ {
		prof := map[string]any{}
		if n > 1 || rapid.Bool().Draw(t, "named") {
			prof["schedulerName"] = rapid.SampledFrom([]string{"a", "b", "default-scheduler"}).Draw(t, "name")
		}
		plugins := map[string]any{}
		for _, pt := range []string{"multiPoint", "preEnqueue", "queueSort", "preFilter", "filter", "postFilter", "preScore", "score", "bind"} {
			if rapid.IntRange(0, 2).Draw(t, pt) == 0 {
				plugins[pt] = genPluginSet(t, pt, pt == "score" || pt == "multiPoint")
			}
		}
		prof["plugins"] = plugins
		var pcs []map[string]any
		if rapid.Bool().Draw(t, "fitArgs") {
			s := map[string]any{"type": rapid.SampledFrom([]string{"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio", "Bad"}).Draw(t, "type")}
			if rapid.Bool().Draw(t, "resources") {
				s["resources"] = []map[string]any{{"name": "cpu", "weight": rapid.IntRange(0, 3).Draw(t, "w")}}
			}
			if s["type"] == "RequestedToCapacityRatio" && rapid.Bool().Draw(t, "shape") {
				s["requestedToCapacityRatio"] = map[string]any{"shape": []map[string]any{{"utilization": 0, "score": rapid.IntRange(0, 11).Draw(t, "score")}, {"utilization": 100, "score": 0}}}
			}
			pcs = append(pcs, map[string]any{"name": "NodeResourcesFit", "args": map[string]any{"scoringStrategy": s}})
		}
		if rapid.Bool().Draw(t, "baArgs") {
			pcs = append(pcs, map[string]any{"name": "NodeResourcesBalancedAllocation", "args": map[string]any{
				"resources": []map[string]any{{"name": rapid.SampledFrom([]string{"cpu", "memory", "example.com/gpu"}).Draw(t, "r"), "weight": rapid.IntRange(0, 2).Draw(t, "bw")}}}})
		}
		if rapid.IntRange(0, 3).Draw(t, "dpArgs") == 0 {
			args := map[string]any{}
			if rapid.Bool().Draw(t, "dpPct") {
				args["minCandidateNodesPercentage"] = rapid.IntRange(-1, 101).Draw(t, "pct")
			}
			if rapid.Bool().Draw(t, "dpAbs") {
				args["minCandidateNodesAbsolute"] = rapid.IntRange(-1, 3).Draw(t, "abs")
			}
			pcs = append(pcs, map[string]any{"name": "DefaultPreemption", "args": args})
		}
		if pcs != nil {
			prof["pluginConfig"] = pcs
		}
		profiles = append(profiles, prof)
	}
	if profiles != nil {
		doc["profiles"] = profiles
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type profileAnswer struct {
	Points  map[string][]string
	Weights map[string]int64
	Args    map[string]any
}

// normalizeArgs turns args into comparable JSON values without kind and
// apiVersion.
func normalizeArgs(v any) any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	delete(m, "kind")
	delete(m, "apiVersion")
	return m
}

func upstreamProfiles(data []byte) (map[string]profileAnswer, error) {
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	cfg := obj.(*kconfig.KubeSchedulerConfiguration)
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, err
	}
	metrics.Register()
	out := map[string]profileAnswer{}
	for i := range cfg.Profiles {
		prof := &cfg.Profiles[i]
		opts, err := upstream.ObjectOptions(nil)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		f, err := fwkruntime.NewFramework(ctx, upstreamRegistry(), prof, append(opts, fwkruntime.WithSnapshotSharedLister(cache.NewEmptySnapshot()))...)
		if err != nil {
			cancel()
			return nil, err
		}
		l := f.ListPlugins()
		ans := profileAnswer{Points: map[string][]string{}, Weights: map[string]int64{}, Args: map[string]any{}}
		for name, ps := range map[string]kconfig.PluginSet{"PreEnqueue": l.PreEnqueue, "QueueSort": l.QueueSort, "PreFilter": l.PreFilter,
			"Filter": l.Filter, "PostFilter": l.PostFilter, "PreScore": l.PreScore, "Score": l.Score} {
			for _, p := range ps.Enabled {
				ans.Points[name] = append(ans.Points[name], p.Name)
				if name == "Score" {
					ans.Weights[p.Name] = int64(p.Weight)
				}
			}
		}
		for _, pc := range prof.PluginConfig {
			var v1args k8sruntime.Object
			switch pc.Name {
			case "NodeResourcesFit":
				v1args = &configv1.NodeResourcesFitArgs{}
			case "NodeResourcesBalancedAllocation":
				v1args = &configv1.NodeResourcesBalancedAllocationArgs{}
			case "NodeAffinity":
				v1args = &configv1.NodeAffinityArgs{}
			case "DefaultPreemption":
				v1args = &configv1.DefaultPreemptionArgs{}
			default:
				continue
			}
			if err := scheme.Scheme.Convert(pc.Args, v1args, nil); err != nil {
				_ = f.Close()
				cancel()
				return nil, err
			}
			ans.Args[pc.Name] = normalizeArgs(v1args)
		}
		_ = f.Close()
		cancel()
		out[prof.SchedulerName] = ans
	}
	return out, nil
}

func schedkitProfiles(data []byte) (map[string]profileAnswer, error) {
	cfg, err := schedconfig.Decode(data)
	if err != nil {
		return nil, err
	}
	snap, err := cluster.NewSnapshot([]*api.Node{{ObjectMeta: api.ObjectMeta{Name: "n"}}}, nil)
	if err != nil {
		return nil, err
	}
	s, err := scheduler.New(snap, cfg.Options()...)
	if err != nil {
		return nil, err
	}
	out := map[string]profileAnswer{}
	for i, name := range s.Profiles() {
		p, _ := s.Profile(name)
		ans := profileAnswer{Points: map[string][]string{}, Weights: map[string]int64{}, Args: map[string]any{}}
		for point, names := range p.ListPlugins() {
			if len(names) > 0 {
				ans.Points[point] = names
			}
			if point == "Score" {
				for _, n := range names {
					ans.Weights[n] = p.ScoreWeight(n)
				}
			}
		}
		// Upstream's defaulting gives every plugin of the profile its
		// default args; schedkit's factories default nil args.
		for _, n := range []string{"NodeResourcesFit", "NodeResourcesBalancedAllocation", "NodeAffinity", "DefaultPreemption"} {
			if !slices.ContainsFunc(p.Plugins(), func(r framework.PluginRef) bool { return r.Name == n }) {
				continue
			}
			var a any = cfg.Profiles[i].PluginArgs[n]
			var d any
			var err error
			switch n {
			case "NodeResourcesFit":
				d, err = config.ArgsFrom[config.NodeResourcesFitArgs](a)
			case "NodeResourcesBalancedAllocation":
				d, err = config.ArgsFrom[config.NodeResourcesBalancedAllocationArgs](a)
			case "DefaultPreemption":
				d, err = config.DefaultPreemptionArgsFrom(a)
			default:
				d, err = config.ArgsFrom[config.NodeAffinityArgs](a)
			}
			if err != nil {
				return nil, err
			}
			ans.Args[n] = normalizeArgs(d)
		}
		out[name] = ans
	}
	return out, nil
}

// TestSchedulerConfig decodes generated KubeSchedulerConfigurations with
// upstream's scheme (v1 defaulting and validation) and builds upstream's
// framework per profile, and compares with schedkit's profiles: the
// plugins at each extension point, in order, the score weights and the
// decoded args; and that both accept or both refuse a configuration.
func TestSchedulerConfig(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := genSchedulerConfig(t)
		want, uerr := upstreamProfiles(data)
		got, serr := schedkitProfiles(data)
		if (uerr == nil) != (serr == nil) {
			t.Fatalf("config:\n%s\nupstream error: %v\nschedkit error: %v", data, uerr, serr)
		}
		if uerr != nil {
			return
		}
		// Plugins the upstream side stubs are NotEvaluated in schedkit
		// and at no point upstream. The plugins' own shapes differ at two
		// points, by design of schedkit's plugins: upstream's NodeName,
		// NodeUnschedulable and TaintToleration have a PreFilter (that
		// skips), schedkit's ImageLocality has a PreScore.
		for name := range want {
			w, g := want[name], got[name]
			drop := func(m map[string][]string, point string, names ...string) {
				m[point] = slices.DeleteFunc(m[point], func(n string) bool { return slices.Contains(names, n) })
				if len(m[point]) == 0 {
					delete(m, point)
				}
			}
			for _, m := range []map[string][]string{w.Points, g.Points} {
				drop(m, "PreFilter", "NodeName", "NodeUnschedulable", "TaintToleration")
				drop(m, "PreScore", "ImageLocality")
			}
			if !reflect.DeepEqual(w.Points, g.Points) || !reflect.DeepEqual(w.Weights, g.Weights) {
				t.Fatalf("config:\n%s\nprofile %s:\nupstream %v %v\nschedkit %v %v", data, name, w.Points, w.Weights, g.Points, g.Weights)
			}
			for n, a := range w.Args {
				if _, ok := g.Args[n]; !ok {
					continue // upstream defaults args of plugins the profile does not run
				}
				if !reflect.DeepEqual(a, g.Args[n]) {
					t.Fatalf("config:\n%s\nprofile %s args of %s:\nupstream %v\nschedkit %v", data, name, n, a, g.Args[n])
				}
			}
		}
		if len(want) != len(got) {
			t.Fatalf("profiles: upstream %d, schedkit %d", len(want), len(got))
		}
	})
}
