package schedconfig_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
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
	// [TaintToleration NodeAffinity NodeResourcesFit VolumeBinding PodTopologySpread InterPodAffinity DynamicResources NodeResourcesBalancedAllocation]
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
	if want := registered("NodeResourcesBalancedAllocation", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread", "InterPodAffinity", "DynamicResources", "ImageLocality", "EqualPriority"); !reflect.DeepEqual(l["Score"], want) {
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
		wantScore := registered("NodeResourcesBalancedAllocation", "PodTopologySpread", "ImageLocality", "InterPodAffinity", "NodeResourcesFit", "NodeAffinity", "NodePreferAvoidPods", "TaintToleration")
		if !reflect.DeepEqual(l["Score"], wantScore) {
			t.Errorf("Score %v, want %v", l["Score"], wantScore)
		}
		if w("NodePreferAvoidPods") != 10000 || w("NodeResourcesFit") != 1 || w("PodTopologySpread") != 2 {
			t.Errorf("weights %d %d %d", w("NodePreferAvoidPods"), w("NodeResourcesFit"), w("PodTopologySpread"))
		}
		// v1.22 (DefaultPodTopologySpread on by default): the default
		// SelectorSpreadPriority is PodTopologySpread's system defaults.
		if a, _ := cfg.Profiles[0].PluginArgs["PodTopologySpread"].(json.RawMessage); string(a) != `{"defaultingType":"System"}` {
			t.Errorf("PodTopologySpread args %s", a)
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

// upstream (v1.21): factory_test.go TestCreateFromConfig: custom
// serviceAffinity, labelsPresence, serviceAntiAffinity and
// labelPreference entries become NodeLabel and ServiceAffinity, each at
// Filter and Score with weight 6 (3 times two preferences) and the
// merged args.
func TestPolicyCreateFromConfig(t *testing.T) {
	cfg, err := schedconfig.Decode([]byte(`{
		"kind" : "Policy",
		"apiVersion" : "v1",
		"predicates" : [
			{"name" : "TestZoneAffinity", "argument" : {"serviceAffinity" : {"labels" : ["zone"]}}},
			{"name" : "TestZoneAffinity", "argument" : {"serviceAffinity" : {"labels" : ["foo"]}}},
			{"name" : "TestRequireZone", "argument" : {"labelsPresence" : {"labels" : ["zone"], "presence" : true}}},
			{"name" : "TestNoFooLabel", "argument" : {"labelsPresence" : {"labels" : ["foo"], "presence" : false}}},
			{"name" : "PodFitsResources"},
			{"name" : "PodFitsHostPorts"}
		],
		"priorities" : [
			{"name" : "RackSpread", "weight" : 3, "argument" : {"serviceAntiAffinity" : {"label" : "rack"}}},
			{"name" : "ZoneSpread", "weight" : 3, "argument" : {"serviceAntiAffinity" : {"label" : "zone"}}},
			{"name" : "LabelPreference1", "weight" : 3, "argument" : {"labelPreference" : {"label" : "l1", "presence": true}}},
			{"name" : "LabelPreference2", "weight" : 3, "argument" : {"labelPreference" : {"label" : "l2", "presence": false}}},
			{"name" : "NodeAffinityPriority", "weight" : 2},
			{"name" : "ImageLocalityPriority", "weight" : 1}		]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	l, w := listOf(t, cfg)
	// v1.22's predicateOrdering puts PodFitsHostPorts before
	// PodFitsResources.
	if want := []string{"NodeUnschedulable", "NodePorts", "NodeResourcesFit", "TaintToleration", "NodeLabel", "ServiceAffinity"}; !reflect.DeepEqual(l["Filter"], want) {
		t.Errorf("Filter %v, want %v", l["Filter"], want)
	}
	if want := []string{"NodePorts", "NodeResourcesFit", "ServiceAffinity"}; !reflect.DeepEqual(l["PreFilter"], want) {
		t.Errorf("PreFilter %v, want %v", l["PreFilter"], want)
	}
	// Keys in sorted order: ImageLocalityPriority, NodeAffinityPriority,
	// NodeLabel, ServiceAffinity.
	if want := []string{"ImageLocality", "NodeAffinity", "NodeLabel", "ServiceAffinity"}; !reflect.DeepEqual(l["Score"], want) {
		t.Errorf("Score %v, want %v", l["Score"], want)
	}
	if w("NodeLabel") != 6 || w("ServiceAffinity") != 6 || w("NodeAffinity") != 2 || w("ImageLocality") != 1 {
		t.Errorf("weights NodeLabel %d ServiceAffinity %d NodeAffinity %d ImageLocality %d", w("NodeLabel"), w("ServiceAffinity"), w("NodeAffinity"), w("ImageLocality"))
	}
	args := cfg.Profiles[0].PluginArgs
	wantLabel := &config.NodeLabelArgs{PresentLabels: []string{"zone"}, AbsentLabels: []string{"foo"},
		PresentLabelsPreference: []string{"l1"}, AbsentLabelsPreference: []string{"l2"}}
	if !reflect.DeepEqual(args["NodeLabel"], wantLabel) {
		t.Errorf("NodeLabel args %+v, want %+v", args["NodeLabel"], wantLabel)
	}
	wantService := &config.ServiceAffinityArgs{AffinityLabels: []string{"zone", "foo"}, AntiAffinityLabelsPreference: []string{"rack", "zone"}}
	if !reflect.DeepEqual(args["ServiceAffinity"], wantService) {
		t.Errorf("ServiceAffinity args %+v, want %+v", args["ServiceAffinity"], wantService)
	}
}

// upstream (v1.21): TestCreateFromConfigWithHardPodAffinitySymmetricWeight.
func TestPolicyHardPodAffinitySymmetricWeight(t *testing.T) {
	cfg, err := schedconfig.Decode([]byte(`{
		"kind" : "Policy",
		"apiVersion" : "v1",
		"predicates" : [
			{"name" : "TestZoneAffinity", "argument" : {"serviceAffinity" : {"labels" : ["zone"]}}},
			{"name" : "TestRequireZone", "argument" : {"labelsPresence" : {"labels" : ["zone"], "presence" : true}}},
			{"name" : "PodFitsResources"},
			{"name" : "PodFitsHostPorts"}
		],
		"priorities" : [
			{"name" : "RackSpread", "weight" : 3, "argument" : {"serviceAntiAffinity" : {"label" : "rack"}}},
			{"name" : "NodeAffinityPriority", "weight" : 2},
			{"name" : "ImageLocalityPriority", "weight" : 1},
			{"name" : "InterPodAffinityPriority", "weight" : 1}
		],
		"hardPodAffinitySymmetricWeight" : 10
	}`))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := cfg.Profiles[0].PluginArgs["InterPodAffinity"].(json.RawMessage)
	if !ok || string(got) != `{"hardPodAffinityWeight":10}` {
		t.Errorf("InterPodAffinity args %#v", cfg.Profiles[0].PluginArgs["InterPodAffinity"])
	}
	_, w := listOf(t, cfg)
	if w("ServiceAffinity") != 3 {
		t.Errorf("ServiceAffinity weight %d, want 3", w("ServiceAffinity"))
	}
}

// upstream (v1.21): TestCreateFromEmptyConfig and
// TestCreateFromConfigWithUnspecifiedPredicatesOrPriorities: an empty
// Policy takes the default predicates and priorities.
func TestPolicyEmpty(t *testing.T) {
	cfg, err := schedconfig.FromPolicy(&schedconfig.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := listOf(t, cfg)
	if !slices.Contains(l["Filter"], "NodeResourcesFit") {
		t.Errorf("Filter %v lacks NodeResourcesFit", l["Filter"])
	}
}

// upstream (v1.22): validation TestValidatePolicy, the rows about
// priorities and hardPodAffinitySymmetricWeight (schedkit ignores
// extenders, so their rows do not apply); a valid weight on an unknown
// name passes validation and fails later, as createFromConfig fails.
func TestPolicyValidation(t *testing.T) {
	prio := func(ps ...string) string {
		return `{"kind":"Policy","apiVersion":"v1","priorities":[` + strings.Join(ps, ",") + `]}`
	}
	tests := []struct{ name, doc, want string }{
		{"no weight defined in policy", prio(`{"name":"NoWeightPriority"}`), `priority NoWeightPriority should have a positive weight applied to it or it has overflown`},
		{"policy weight is not positive", prio(`{"name":"NoWeightPriority","weight":0}`), `priority NoWeightPriority should have a positive weight applied to it or it has overflown`},
		{"valid weight priority", prio(`{"name":"WeightPriority","weight":2}`), `priority type not found for "WeightPriority"`},
		{"invalid negative weight policy", prio(`{"name":"WeightPriority","weight":-2}`), `priority WeightPriority should have a positive weight applied to it or it has overflown`},
		{"policy weight exceeds maximum", prio(`{"name":"WeightPriority","weight":92233720368547758}`), `priority WeightPriority should have a positive weight applied to it or it has overflown`},
		{"invalid redeclared RequestedToCapacityRatio custom priority", prio(
			`{"name":"customPriority1","weight":1,"argument":{"requestedToCapacityRatioArguments":{}}}`,
			`{"name":"customPriority2","weight":1,"argument":{"requestedToCapacityRatioArguments":{}}}`),
			`priority "customPriority2" redeclares custom priority "RequestedToCapacityRatio", from: "customPriority1"`},
		{"different weights for LabelPreference custom priority", prio(
			`{"name":"customPriority1","weight":1,"argument":{"labelPreference":{}}}`,
			`{"name":"customPriority2","weight":2,"argument":{"labelPreference":{}}}`),
			`LabelPreference  priority "customPriority2" has a different weight with "customPriority1"`},
		{"different weights for ServiceAntiAffinity custom priority", prio(
			`{"name":"customPriority1","weight":1,"argument":{"serviceAntiAffinity":{}}}`,
			`{"name":"customPriority2","weight":2,"argument":{"serviceAntiAffinity":{}}}`),
			`ServiceAntiAffinity  priority "customPriority2" has a different weight with "customPriority1"`},
		{"invalid hardPodAffinitySymmetricWeight, above the range", `{"kind":"Policy","apiVersion":"v1","hardPodAffinitySymmetricWeight":101}`,
			`hardPodAffinitySymmetricWeight: Invalid value: 101: not in valid range [0-100]`},
		{"invalid hardPodAffinitySymmetricWeight, below the range", `{"kind":"Policy","apiVersion":"v1","hardPodAffinitySymmetricWeight":-1}`,
			`hardPodAffinitySymmetricWeight: Invalid value: -1: not in valid range [0-100]`},
		// schedkit: ValidatePolicy reports every error, aggregated.
		{"every error at once", `{"kind":"Policy","apiVersion":"v1","hardPodAffinitySymmetricWeight":101,"priorities":[{"name":"a"},{"name":"b","weight":-1}]}`,
			`[priority a should have a positive weight applied to it or it has overflown, priority b should have a positive weight applied to it or it has overflown, hardPodAffinitySymmetricWeight: Invalid value: 101: not in valid range [0-100]]`},
		{"an empty argument", prio(`{"name":"x","weight":1,"argument":{}}`), `no priority arguments set for priority x`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schedconfig.Decode([]byte(tc.doc))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant it to start with\n%s", err, tc.want)
			}
		})
	}
}

// upstream (v1.22): createFromConfig keys priorities by name (or, for a
// custom one, by the plugin it configures), so a name given twice keeps
// its last weight; different keys mapping to one plugin keep the larger
// (appendToPluginSet).
func TestPolicyPriorityKeys(t *testing.T) {
	cfg, err := schedconfig.Decode([]byte(`{"kind":"Policy","apiVersion":"v1","priorities":[
		{"name":"ImageLocalityPriority","weight":5},
		{"name":"ImageLocalityPriority","weight":2},
		{"name":"ServiceSpreadingPriority","weight":4},
		{"name":"EvenPodsSpreadPriority","weight":3}]}`))
	if err != nil {
		t.Fatal(err)
	}
	weights := map[string]int32{}
	for _, r := range cfg.Profiles[0].ExtensionPoints.Score.Enabled {
		weights[r.Name] = r.Weight
	}
	if want := map[string]int32{"ImageLocality": 2, "PodTopologySpread": 4}; !reflect.DeepEqual(weights, want) {
		t.Errorf("score weights %v, want %v", weights, want)
	}
	if got := string(cfg.Profiles[0].PluginArgs["PodTopologySpread"].(json.RawMessage)); got != `{"defaultingType":"System"}` {
		t.Errorf("PodTopologySpread args %s", got)
	}
}

// A Policy with CheckServiceAffinity schedules a pod of a service into
// the zone of the service's running pod, and ServiceAntiAffinity spreads
// it over racks.
func TestPolicyServiceAffinitySchedules(t *testing.T) {
	cfg, err := schedconfig.Decode([]byte(`
kind: Policy
apiVersion: v1
predicates:
- name: sameZone
  argument: {serviceAffinity: {labels: [zone]}}
priorities:
- name: spreadRacks
  weight: 1
  argument: {serviceAntiAffinity: {label: rack}}
`))
	if err != nil {
		t.Fatal(err)
	}
	node := func(name, zone, rack string) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"zone": zone, "rack": rack}}}
		n.Status.Allocatable = api.ResourceList{"cpu": resource.MustParse("4"), "memory": resource.MustParse("8Gi"), "pods": resource.MustParse("110")}
		return n
	}
	sel := map[string]string{"app": "web"}
	running := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-0", Namespace: "default", Labels: sel}, Spec: api.PodSpec{NodeName: "b1"}}
	snap, err := cluster.NewSnapshot([]*api.Node{node("a1", "a", "r1"), node("b1", "b", "r1"), node("b2", "b", "r2")}, []*api.Pod{running})
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObject(&api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ServiceSpec{Selector: sel}}); err != nil {
		t.Fatal(err)
	}
	s, err := scheduler.New(snap, cfg.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Schedule(context.Background(), &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: sel}})
	if err != nil || res.Node != "b2" {
		t.Errorf("Schedule: %q %v, want b2 (zone b, the other rack)", res.Node, err)
	}
}
