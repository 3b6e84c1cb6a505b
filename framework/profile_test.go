package framework_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// The default profile of kube-scheduler v1.37.2 (default_plugins.go with
// the feature gates on by default: DynamicResourceAllocation and
// NodeDeclaredFeatures).
func TestDefaultPlugins(t *testing.T) {
	want := []framework.PluginRef{
		{Name: config.SchedulingGatesName},
		{Name: config.PrioritySortName},
		{Name: config.NodeNameName},
		{Name: config.NodeUnschedulableName},
		{Name: config.TaintTolerationName, Weight: 3},
		{Name: config.NodeAffinityName, Weight: 2},
		{Name: config.NodePortsName},
		{Name: config.NodeResourcesFitName, Weight: 1},
		{Name: config.VolumeRestrictionsName},
		{Name: config.NodeVolumeLimitsName},
		{Name: config.VolumeBindingName},
		{Name: config.VolumeZoneName},
		{Name: config.PodTopologySpreadName, Weight: 2},
		{Name: config.InterPodAffinityName, Weight: 2},
		{Name: config.DynamicResourcesName, Weight: 2},
		{Name: config.DefaultPreemptionName},
		{Name: config.NodeResourcesBalancedAllocationName, Weight: 1},
		{Name: config.ImageLocalityName, Weight: 1},
		{Name: config.DefaultBinderName},
		{Name: "NodeDeclaredFeatures"},
	}
	if got := framework.DefaultPlugins(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultPlugins() =\n%v\nwant\n%v", got, want)
	}
	for _, p := range want {
		if !framework.IsInTreePlugin(p.Name) {
			t.Errorf("%s is not an in-tree plugin", p.Name)
		}
	}
}

func names(refs []framework.PluginRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Name)
	}
	return out
}

// Merge rules of upstream mergePluginSet.
func TestMergePlugins(t *testing.T) {
	def := names(framework.DefaultPlugins())
	tests := []struct {
		name string
		cfg  framework.ProfileConfig
		want []framework.PluginRef
	}{
		{name: "zero config is the default", want: framework.DefaultPlugins()},
		{
			name: "disable all, enable two",
			cfg:  framework.ProfileConfig{Disabled: []string{"*"}, Plugins: []framework.PluginRef{{Name: "PrioritySort"}, {Name: "Mine", Weight: 4}}},
			want: []framework.PluginRef{{Name: "PrioritySort"}, {Name: "Mine", Weight: 4}},
		},
		{
			name: "reweight in place and append",
			cfg:  framework.ProfileConfig{Disabled: []string{"ImageLocality", "DefaultBinder", "NodeDeclaredFeatures", "DynamicResources"}, Plugins: []framework.PluginRef{{Name: "Mine"}, {Name: "TaintToleration", Weight: 7}}},
		},
		{
			name: "disabled default re-enabled goes last",
			cfg:  framework.ProfileConfig{Disabled: []string{"*"}, Plugins: nil},
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.cfg.MergePlugins()
			if tt.name == "reweight in place and append" {
				if len(got) != len(def)-4+1 {
					t.Fatalf("got %d plugins: %v", len(got), got)
				}
				if got[4] != (framework.PluginRef{Name: "TaintToleration", Weight: 7}) {
					t.Errorf("TaintToleration not reweighted in place: %v", got[4])
				}
				if got[len(got)-1].Name != "Mine" {
					t.Errorf("custom plugin not appended: %v", got)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	cfg := framework.ProfileConfig{Disabled: []string{"ImageLocality"}, Plugins: []framework.PluginRef{{Name: "ImageLocality", Weight: 9}}}
	got := cfg.MergePlugins()
	if got[len(got)-1] != (framework.PluginRef{Name: "ImageLocality", Weight: 9}) {
		t.Errorf("a disabled default enabled again is appended: %v", got)
	}
}

func TestNewProfileDefault(t *testing.T) {
	// A registry with only the queue sort: every other default plugin is
	// not evaluated.
	r := framework.Registry{"PrioritySort": factoryOf(prioritySort{})}
	p, err := framework.NewProfile(framework.ProfileConfig{}, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != config.DefaultSchedulerName {
		t.Errorf("name %q", p.Name())
	}
	var want []string
	for _, d := range framework.DefaultPlugins() {
		if d.Name != "PrioritySort" {
			want = append(want, d.Name)
		}
	}
	if got := p.NotEvaluated(); !reflect.DeepEqual(got, want) {
		t.Errorf("NotEvaluated = %v, want %v", got, want)
	}
}

type prioritySort struct{ queueSort }

func (prioritySort) Name() string { return "PrioritySort" }

// filterScore is a MultiPointPlugin assembled from two halves.
type filterHalf struct{ maxPods }
type scoreHalf struct{ pass }

func (filterHalf) Name() string { return "Both" }
func (scoreHalf) Name() string  { return "Both" }

func TestNewProfileMultiPoint(t *testing.T) {
	r := framework.Registry{
		"PrioritySort": factoryOf(prioritySort{}),
		"Both":         framework.CombineFactories("Both", factoryOf(filterHalf{}), factoryOf(scoreHalf{})),
	}
	p, err := framework.NewProfile(framework.ProfileConfig{SchedulerName: "x", Disabled: []string{"*"},
		Plugins: []framework.PluginRef{{Name: "PrioritySort"}, {Name: "Both", Weight: 5}}}, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := p.ListPlugins()
	if !reflect.DeepEqual(l["Filter"], []string{"Both"}) || !reflect.DeepEqual(l["Score"], []string{"Both"}) || !reflect.DeepEqual(l["QueueSort"], []string{"PrioritySort"}) {
		t.Errorf("ListPlugins = %v", l)
	}
	if p.ScoreWeight("Both") != 5 {
		t.Errorf("weight %d", p.ScoreWeight("Both"))
	}
	if len(p.NotEvaluated()) != 0 {
		t.Errorf("NotEvaluated = %v", p.NotEvaluated())
	}
}

func TestNewProfileErrors(t *testing.T) {
	boom := errors.New("boom")
	base := framework.Registry{
		"PrioritySort": factoryOf(prioritySort{}),
		"QueueSort":    factoryOf(queueSort{}),
		"Score":        factoryOf(&scorePl{name: "Score"}),
		"Broken":       func(any, framework.Handle) (framework.Plugin, error) { return nil, boom },
		"Misnamed":     factoryOf(&scorePl{name: "Other"}),
		"Twice":        framework.CombineFactories("Twice", factoryOf(&scorePl{name: "Twice"}), factoryOf(&scorePl{name: "Twice"})),
	}
	only := func(refs ...framework.PluginRef) framework.ProfileConfig {
		return framework.ProfileConfig{Disabled: []string{"*"}, Plugins: refs}
	}
	tests := []struct {
		name string
		cfg  framework.ProfileConfig
		want string
	}{
		{name: "unknown plugin", cfg: only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "Nope"}), want: `plugin "Nope" is not in the registry`},
		{name: "factory error", cfg: only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "Broken"}), want: `initializing plugin "Broken": boom`},
		{name: "misnamed", cfg: only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "Misnamed"}), want: `plugin "Misnamed": the factory built a plugin named "Other"`},
		{name: "twice", cfg: only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "Score"}, framework.PluginRef{Name: "Score"}), want: `plugin "Score" is enabled twice`},
		{name: "two score parts", cfg: only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "Twice"}), want: `plugin "Twice" already registered as "ScorePlugin"`},
		{name: "negative weight", cfg: only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "Score", Weight: -1}), want: `plugin "Score": weight -1 is negative`},
		{name: "no queue sort", cfg: only(framework.PluginRef{Name: "Score"}), want: `only one queue sort plugin required for profile with scheduler name "default-scheduler", but got 0`},
		{name: "two queue sorts", cfg: only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "QueueSort"}), want: "but got 2"},
		{name: "bad percentage", cfg: framework.ProfileConfig{PercentageOfNodesToScore: ptr(int32(101))}, want: "percentageOfNodesToScore 101"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := framework.NewProfile(tt.cfg, base, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	// Weights that could overflow the total score.
	r := framework.Registry{"PrioritySort": factoryOf(prioritySort{}), "A": factoryOf(&scorePl{name: "A"}), "B": factoryOf(&scorePl{name: "B"})}
	_, err := framework.NewProfile(only(framework.PluginRef{Name: "PrioritySort"}, framework.PluginRef{Name: "A", Weight: 1 << 30}, framework.PluginRef{Name: "B", Weight: 1 << 30}), r, nil)
	if err != nil {
		t.Errorf("two int32 weights cannot overflow: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestDefaultPluginsForGates pins upstream's
// pkg/scheduler/apis/config/v1 TestApplyFeatureGates "Feature gate
// GenericWorkload enabled": GangScheduling is appended last.
func TestDefaultPluginsForGates(t *testing.T) {
	def := framework.DefaultPluginsFor(features.Defaults())
	on := framework.DefaultPluginsFor(features.MustParse("GenericWorkload=true"))
	if len(on) != len(def)+1 || on[len(on)-1].Name != config.GangSchedulingName {
		t.Fatalf("GenericWorkload=true: %v", on)
	}
	for _, p := range def {
		if p.Name == config.GangSchedulingName {
			t.Fatal("GangScheduling in the default profile with GenericWorkload off")
		}
	}
	cfg := framework.ProfileConfig{Features: features.MustParse("GenericWorkload=true")}
	if got := cfg.MergePlugins(); got[len(got)-1].Name != config.GangSchedulingName {
		t.Fatalf("MergePlugins: %v", got)
	}
}
