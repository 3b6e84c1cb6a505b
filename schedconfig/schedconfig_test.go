package schedconfig_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/schedconfig"
	"github.com/schedkit/schedkit/scheduler"
)

func snapshot(t testing.TB) *cluster.Snapshot {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1", Labels: map[string]string{"zone": "a"}}}
	n.Status.Allocatable = api.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi"), "pods": resource.MustParse("110")}
	snap, err := cluster.NewSnapshot([]*api.Node{n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func Example() {
	cfg, err := schedconfig.Decode([]byte(`
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 50
leaderElection:
  leaderElect: false
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      disabled:
      - name: ImageLocality
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Warnings)
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	n.Status.Allocatable = api.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi"), "pods": resource.MustParse("110")}
	snap, _ := cluster.NewSnapshot([]*api.Node{n}, nil)
	s, err := scheduler.New(snap, cfg.Options()...)
	if err != nil {
		fmt.Println(err)
		return
	}
	prof, _ := s.Profile("default-scheduler")
	fmt.Println(prof.ListPlugins()["Score"])
	res, err := s.Schedule(context.Background(), &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}})
	fmt.Println(res.Node, err)
	// Output:
	// [leaderElection: ignored: schedkit runs in process and elects no leader]
	// [TaintToleration NodeAffinity NodeResourcesFit PodTopologySpread NodeResourcesBalancedAllocation]
	// n1 <nil>
}

// Per extension point sets, multiPoint, weights and args reach the
// profile.
func TestKubeSchedulerConfiguration(t *testing.T) {
	cfg, err := schedconfig.Decode([]byte(`{
  "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
  "parallelism": 2,
  "profiles": [
    {"schedulerName": "a",
     "percentageOfNodesToScore": 30,
     "plugins": {
       "multiPoint": {"enabled": [{"name": "NodeLabel"}], "disabled": [{"name": "TaintToleration"}]},
       "filter": {"disabled": [{"name": "NodePorts"}]},
       "score": {"enabled": [{"name": "NodeResourcesBalancedAllocation", "weight": 5}, {"name": "EqualPriority", "weight": 2}], "disabled": [{"name": "NodeLabel"}]}
     },
     "pluginConfig": [
       {"name": "NodeLabel", "args": {"presentLabels": ["zone"]}},
       {"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "MostAllocated"}}},
       {"name": "PodTopologySpread", "args": {"defaultingType": "List"}}
     ]},
    {"schedulerName": "b", "plugins": {"multiPoint": {"disabled": [{"name": "*"}], "enabled": [{"name": "PrioritySort"}, {"name": "NodeName"}, {"name": "DefaultBinder"}]}}}
  ]}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Parallelism != 2 || len(cfg.Profiles) != 2 || *cfg.Profiles[0].PercentageOfNodesToScore != 30 {
		t.Fatalf("config %+v", cfg)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings %q", cfg.Warnings)
	}
	s, err := scheduler.New(snapshot(t), cfg.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Profile("a")
	l := a.ListPlugins()
	if want := registered("NodeName", "NodeUnschedulable", "NodeAffinity", "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
		"VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures", "NodeLabel"); !reflect.DeepEqual(l["Filter"], want) {
		t.Errorf("Filter %v, want %v", l["Filter"], want)
	}
	if want := registered("NodeResourcesBalancedAllocation", "NodeAffinity", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity", "ImageLocality", "EqualPriority"); !reflect.DeepEqual(l["Score"], want) {
		t.Errorf("Score %v, want %v", l["Score"], want)
	}
	if a.ScoreWeight("NodeResourcesBalancedAllocation") != 5 || a.ScoreWeight("EqualPriority") != 2 || a.ScoreWeight("NodeAffinity") != 2 {
		t.Errorf("weights %d %d %d", a.ScoreWeight("NodeResourcesBalancedAllocation"), a.ScoreWeight("EqualPriority"), a.ScoreWeight("NodeAffinity"))
	}
	if args, ok := cfg.Profiles[0].PluginArgs["NodeResourcesFit"].(*config.NodeResourcesFitArgs); !ok || args.ScoringStrategy.Type != config.MostAllocated || len(args.ScoringStrategy.Resources) != 2 {
		t.Errorf("NodeResourcesFit args %#v", cfg.Profiles[0].PluginArgs["NodeResourcesFit"])
	}
	b, _ := s.Profile("b")
	if got := b.ListPlugins()["Filter"]; !reflect.DeepEqual(got, []string{"NodeName"}) {
		t.Errorf("b Filter %v", got)
	}
	// NodeLabel requires the zone label: the node has it.
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{SchedulerName: "a"}}
	if res, err := s.Schedule(context.Background(), pod); err != nil || res.Node != "n1" {
		t.Errorf("Schedule: %v %v", res.Node, err)
	}
}

// Errors name fields as kube-scheduler's loading does.
func TestKubeSchedulerConfigurationErrors(t *testing.T) {
	const head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
	tests := []struct {
		name, doc, want string
	}{
		{"unknown field", head + "parallelism: 2\nprofile: []\n", `strict decoding error: unknown field "profile"`},
		{"case matters", head + "Parallelism: 2\n", `strict decoding error: unknown field "Parallelism"`},
		{"nested unknown", head + "profiles:\n- schedulerName: x\n  plugins:\n    score:\n      enabled:\n      - name: A\n        wieght: 1\n",
			`strict decoding error: unknown field "profiles[0].plugins.score.enabled[0].wieght"`},
		{"duplicate key", head + "parallelism: 2\nparallelism: 3\n", `strict decoding error: yaml: unmarshal errors:`},
		{"args unknown field", head + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        typ: MostAllocated\n",
			`strict decoding error: decoding .profiles[0].pluginConfig[0]: strict decoding error: decoding args for plugin NodeResourcesFit: strict decoding error: unknown field "scoringStrategy.typ"`},
		{"args of another kind", head + "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n      kind: NodeResourcesFitArgs\n",
			`decoding .profiles[0].pluginConfig[0]: args for plugin NodeAffinity were not of type NodeAffinityArgs.kubescheduler.config.k8s.io, got NodeResourcesFitArgs.kubescheduler.config.k8s.io`},
		{"args validation", head + "profiles:\n- pluginConfig:\n  - name: NodeResourcesBalancedAllocation\n    args:\n      resources:\n      - name: cpu\n        weight: 2\n",
			`profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 2: must be 1`},
		{"parallelism", head + "parallelism: 0\n", `parallelism: Invalid value: 0: should be an integer value greater than zero`},
		{"percentage", head + "percentageOfNodesToScore: 101\nprofiles:\n- schedulerName: a\n  percentageOfNodesToScore: -1\n",
			`[profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100], percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]]`},
		{"names", head + "profiles:\n- schedulerName: a\n- {}\n- schedulerName: a\n",
			`[profiles[1].schedulerName: Required value, profiles[2].schedulerName: Duplicate value: {}]`},
		{"queue sort", head + "profiles:\n- schedulerName: a\n- schedulerName: b\n  plugins:\n    queueSort:\n      enabled:\n      - name: Other\n",
			`profiles[1].plugins.queueSort: Invalid value: {"Enabled":[{"Name":"Other","Weight":0}],"Disabled":null}: must be the same for all profiles`},
		{"removed plugin", head + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: EBSLimits\n",
			`profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")`},
		{"no binder", head + "profiles:\n- plugins:\n    bind:\n      disabled:\n      - name: '*'\n",
			`at least one bind plugin is needed for profile with scheduler name "default-scheduler"`},
		{"extender", head + "extenders:\n- urlPrefix: http://x\n  prioritizeVerb: p\n",
			`extenders[0].weight: Invalid value: 0: must have a positive weight applied to it`},
		{"other version", "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n", `no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io/v1beta3"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schedconfig.Decode([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant it to contain\n%s", err, tc.want)
			}
		})
	}
}

// registered keeps the names that scheduler.DefaultRegistry has: the
// others are in-tree plugins schedkit does not implement yet, which the
// profile lists as not evaluated rather than at an extension point.
func registered(names ...string) []string {
	reg := scheduler.DefaultRegistry()
	var out []string
	for _, n := range names {
		if _, ok := reg[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

func listOf(t *testing.T, cfg *schedconfig.Config) (map[string][]string, func(string) int64) {
	t.Helper()
	s, err := scheduler.New(snapshot(t), cfg.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Profile("default-scheduler")
	return p.ListPlugins(), p.ScoreWeight
}

// upstream (v1.21): TestCreateFromConfig / the legacy registry's
// mapping, with v1.37's plugin names.
func TestPolicy(t *testing.T) {
	t.Run("defaults", func(t *testing.T) {
		cfg, err := schedconfig.Decode([]byte(`{"kind":"Policy","apiVersion":"v1"}`))
		if err != nil {
			t.Fatal(err)
		}
		l, w := listOf(t, cfg)
		wantFilter := []string{"NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity", "VolumeRestrictions", "TaintToleration",
			"NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity"}
		want := registered(wantFilter...)
		if !reflect.DeepEqual(l["Filter"], want) {
			t.Errorf("Filter %v, want %v", l["Filter"], want)
		}
		wantScore := registered("NodeResourcesBalancedAllocation", "PodTopologySpread", "ImageLocality", "InterPodAffinity", "NodeResourcesFit", "NodeAffinity", "NodePreferAvoidPods", "SelectorSpread", "TaintToleration")
		if !reflect.DeepEqual(l["Score"], wantScore) {
			t.Errorf("Score %v, want %v", l["Score"], wantScore)
		}
		if w("NodePreferAvoidPods") != 10000 || w("NodeResourcesFit") != 1 || w("SelectorSpread") != 1 || w("PodTopologySpread") != 2 {
			t.Errorf("weights %d %d %d %d", w("NodePreferAvoidPods"), w("NodeResourcesFit"), w("SelectorSpread"), w("PodTopologySpread"))
		}
		// SelectorSpread spreads by Services and controllers; PodTopologySpread
		// has no system defaults beside it.
		if a, _ := cfg.Profiles[0].PluginArgs["PodTopologySpread"].(json.RawMessage); string(a) != `{"defaultingType":"List"}` {
			t.Errorf("PodTopologySpread args %s", a)
		}
	})
	// upstream (v1.21, DefaultPodTopologySpread off): SelectorSpreadPriority
	// and ServiceSpreadingPriority are the SelectorSpread plugin, at
	// PreScore and Score, keeping the larger weight.
	t.Run("selector spread", func(t *testing.T) {
		cfg, err := schedconfig.Decode([]byte(`
kind: Policy
apiVersion: v1
predicates: []
priorities:
- {name: ServiceSpreadingPriority, weight: 3}
- {name: SelectorSpreadPriority, weight: 2}
`))
		if err != nil {
			t.Fatal(err)
		}
		l, w := listOf(t, cfg)
		if want := []string{"SelectorSpread"}; !reflect.DeepEqual(l["Score"], want) || !reflect.DeepEqual(l["PreScore"], want) {
			t.Errorf("PreScore %v Score %v, want %v", l["PreScore"], l["Score"], want)
		}
		if w("SelectorSpread") != 3 {
			t.Errorf("weight %d, want 3", w("SelectorSpread"))
		}
		if _, ok := cfg.Profiles[0].PluginArgs["PodTopologySpread"]; ok {
			t.Errorf("PodTopologySpread args %v", cfg.Profiles[0].PluginArgs)
		}
	})
	t.Run("custom", func(t *testing.T) {
		cfg, err := schedconfig.Decode([]byte(`
kind: Policy
apiVersion: v1
predicates:
- name: PodFitsPorts
- name: zoneRequired
  argument: {labelsPresence: {labels: [zone], presence: true}}
- name: CheckNodeMemoryPressure
priorities:
- name: MostRequestedPriority
  weight: 3
- name: preferZone
  weight: 2
  argument: {labelPreference: {label: zone, presence: true}}
- name: avoidGPU
  weight: 2
  argument: {labelPreference: {label: gpu, presence: false}}
- name: EqualPriority
  weight: 1
`))
		if err != nil {
			t.Fatal(err)
		}
		l, w := listOf(t, cfg)
		if want := []string{"NodeUnschedulable", "NodePorts", "TaintToleration", "NodeLabel", "CheckNodeMemoryPressure"}; !reflect.DeepEqual(l["Filter"], want) {
			t.Errorf("Filter %v, want %v", l["Filter"], want)
		}
		if want := []string{"EqualPriority", "NodeResourcesFit", "NodeLabel"}; !reflect.DeepEqual(l["Score"], want) {
			t.Errorf("Score %v, want %v", l["Score"], want)
		}
		if w("NodeLabel") != 4 || w("NodeResourcesFit") != 3 {
			t.Errorf("weights NodeLabel %d NodeResourcesFit %d", w("NodeLabel"), w("NodeResourcesFit"))
		}
		if a := cfg.Profiles[0].PluginArgs["NodeResourcesFit"].(*config.NodeResourcesFitArgs); a.ScoringStrategy.Type != config.MostAllocated {
			t.Errorf("strategy %v", a.ScoringStrategy.Type)
		}
	})
	errs := []struct{ name, doc, want string }{
		{"unknown predicate", `{"kind":"Policy","apiVersion":"v1","predicates":[{"name":"Nope"}]}`, `predicates[0]: predicate type not found for "Nope"; known predicates: CheckNodeDiskPressure, `},
		{"unknown priority", `{"kind":"Policy","apiVersion":"v1","priorities":[{"name":"Nope","weight":1}]}`, `priority type not found for "Nope"; known priorities: BalancedResourceAllocation, `},
		{"weight", `{"kind":"Policy","apiVersion":"v1","priorities":[{"name":"ImageLocalityPriority","weight":0}]}`, `priority ImageLocalityPriority should have a positive weight applied to it or it has overflown`},
		{"two strategies", `{"kind":"Policy","apiVersion":"v1","priorities":[{"name":"LeastRequestedPriority","weight":1},{"name":"MostRequestedPriority","weight":1}]}`, `schedkit's NodeResourcesFit scores with one strategy`},
		{"two arguments", `{"kind":"Policy","apiVersion":"v1","predicates":[{"name":"x","argument":{"serviceAffinity":{"labels":["a"]},"labelsPresence":{"labels":["b"]}}}]}`, `exactly 1 predicate argument is required`},
		{"unknown field", `{"kind":"Policy","apiVersion":"v1","predicate":[]}`, `strict decoding error: unknown field "predicate"`},
		{"conflicting labels", `{"kind":"Policy","apiVersion":"v1","predicates":[{"name":"a","argument":{"labelsPresence":{"labels":["x"],"presence":true}}},{"name":"b","argument":{"labelsPresence":{"labels":["x"]}}}]}`, `presentLabels[0]: Invalid value: "x": conflict with absentLabels[0]`},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schedconfig.Decode([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant it to contain\n%s", err, tc.want)
			}
		})
	}
}
