package conformance

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/quantity"
)

// seed is a hand-picked case kept as a fixture with upstream's answer.
type seed struct {
	Kind, Name, Note string
	// Open marks a known schedkit disagreement (reported, not yet fixed).
	Open  string
	Input any
}

func ptr[T any](v T) *T { return &v }

func rl(kv ...string) api.ResourceList {
	l := api.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[api.ResourceName(kv[i])] = quantity.MustParse(kv[i+1])
	}
	return l
}

func ctr(name string, req, lim api.ResourceList) api.Container {
	return api.Container{Name: name, Image: "nginx", Resources: api.ResourceRequirements{Requests: req, Limits: lim}}
}

func sidecar(name string, req api.ResourceList) api.Container {
	c := ctr(name, req, nil)
	always := api.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
	return c
}

func pod(cs ...api.Container) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "uid-p"}, Spec: api.PodSpec{Containers: cs}}
}

func node(name string, alloc api.ResourceList, labels map[string]string) *api.Node {
	if labels == nil {
		labels = map[string]string{}
	}
	labels["kubernetes.io/hostname"] = name
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}, Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}}
}

func boundPod(name, nodeName string, cs ...api.Container) *api.Pod {
	p := pod(cs...)
	p.Name, p.UID, p.Spec.NodeName = name, "uid-"+name, nodeName
	return p
}

var seedPlugins = []regression.PluginRef{
	{Name: "NodeName"}, {Name: "NodeUnschedulable"}, {Name: "TaintToleration", Weight: 3}, {Name: "NodeAffinity", Weight: 2},
	{Name: "NodePorts"}, {Name: "NodeResourcesFit", Weight: 1}, {Name: "NodeResourcesBalancedAllocation", Weight: 1}, {Name: "ImageLocality", Weight: 1},
}

func seeds() []seed {
	q := func(s string, other ...string) *regression.QuantityInput {
		in := &regression.QuantityInput{S: s}
		if len(other) > 0 {
			in.Other = &other[0]
		}
		return in
	}
	scaled := func(s string, scale int32) *regression.QuantityInput {
		return &regression.QuantityInput{S: s, Scale: &scale}
	}
	var out []seed
	add := func(kind, name, note string, in any) {
		out = append(out, seed{Kind: kind, Name: name, Note: note, Input: in})
	}

	// Quantities.
	add(regression.KindQuantity, "plus-sign", `a leading "+" parses and is kept verbatim by String`, q("+1", "1"))
	add(regression.KindQuantity, "trailing-dot", `"5." is a number`, q("5.", ".5"))
	add(regression.KindQuantity, "leading-zeros", "leading zeros are dropped from the canonical form", q("00001", "1e0"))
	add(regression.KindQuantity, "bare-exponent", `"1e" is not a quantity; "1E3" is 1e3`, q("1e", "1E3"))
	add(regression.KindQuantity, "milli-exponent", "1.0e-3 is one milli", q("1.0e-3", "1m"))
	add(regression.KindQuantity, "negative-zero", `"-0" is zero`, q("-0", "0"))
	add(regression.KindQuantity, "whitespace", "ParseQuantity rejects white space but JSON decoding trims it", q(" 1Ki "))
	add(regression.KindQuantity, "binary-cap", "BinarySI values beyond 2^63-1 are capped", q("9Ei", "1"))
	add(regression.KindQuantity, "sub-nano", "anything finer than 1n rounds up to 1n", q("0.1n", "-0.1n"))
	add(regression.KindQuantity, "long-digits", "more digits than int64 and a long fraction", q("123456789012345678901234567890.000000000000000000001", "1e-30"))
	add(regression.KindQuantity, "fractional-binary", "1.1Ki is not whole and prints in DecimalSI", scaled("1.1Ki", -3))
	add(regression.KindQuantity, "roundup-scale", "RoundUp and ScaledValue at a coarser scale", scaled("1500m", 0))
	add(regression.KindQuantity, "huge-exponent", "exponents far outside int64", q("1e999", "1e-999"))

	// Pod resources and QoS.
	p1 := pod(ctr("app", rl("cpu", "500m", "memory", "256Mi"), nil))
	p1.Spec.InitContainers = []api.Container{sidecar("proxy", rl("cpu", "100m", "memory", "64Mi")), ctr("init", rl("cpu", "2", "memory", "1Gi"), nil)}
	add(regression.KindPodResources, "sidecar-then-init", "an init container after a sidecar needs its own request plus the sidecar's",
		&regression.PodResourcesInput{Pod: p1, Options: regression.PodResourcesOptions{NonMissingDefaults: true}})
	p2 := pod(ctr("a", rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi")), ctr("b", nil, nil))
	p2.Spec.Resources = &api.ResourceRequirements{Requests: rl("cpu", "3", "memory", "2Gi"), Limits: rl("cpu", "3", "memory", "2Gi")}
	p2.Spec.Overhead = rl("cpu", "250m", "memory", "120Mi")
	add(regression.KindPodResources, "pod-level-and-overhead", "pod-level requests replace the containers' total and decide QoS; overhead is added",
		&regression.PodResourcesInput{Pod: p2})
	p3 := pod(ctr("a", rl("cpu", "1"), rl("cpu", "2")))
	p3.Status.ContainerStatuses = []api.ContainerStatus{{Name: "a", AllocatedResources: rl("cpu", "1500m"), Resources: &api.ResourceRequirements{Requests: rl("cpu", "1200m")}}}
	p3.Status.Conditions = []api.PodCondition{{Type: api.PodResizePending, Status: api.ConditionTrue, Reason: "Infeasible"}}
	add(regression.KindPodResources, "resize-infeasible", "an infeasible resize drops the spec; allocated and actuated status count",
		&regression.PodResourcesInput{Pod: p3, Options: regression.PodResourcesOptions{UseStatusResources: true}})
	p6 := pod(ctr("a", nil, nil))
	p6.Spec.Resources = &api.ResourceRequirements{Requests: rl("memory", "100Mi")}
	p6.Status.Resources = &api.ResourceRequirements{Requests: rl("cpu", "500m", "memory", "200Mi")}
	out = append(out, seed{Kind: regression.KindPodResources, Name: "pod-level-resize-status",
		Note:  "during an in-place pod-level resize the effective pod-level requests are max(spec, status.resources): cpu 500m and memory 200Mi, for PodRequests with status and for the scheduler's PodInfo",
		Input: &regression.PodResourcesInput{Pod: p6, Options: regression.PodResourcesOptions{UseStatusResources: true}}})
	p4 := pod(ctr("a", nil, rl("cpu", "1", "memory", "1Gi")))
	add(regression.KindPodResources, "limits-only", "limits without requests: Burstable as given, Guaranteed once the API server defaults requests",
		&regression.PodResourcesInput{Pod: p4})
	p5 := pod(ctr("a", rl("memory", "0"), nil))
	add(regression.KindPodResources, "explicit-zero", "an explicit zero request is kept, a missing one gets the scheduler's default",
		&regression.PodResourcesInput{Pod: p5, Options: regression.PodResourcesOptions{NonMissingDefaults: true}})

	// LimitRange admission.
	lr := func(name string, items ...api.LimitRangeItem) api.LimitRange {
		return api.LimitRange{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.LimitRangeSpec{Limits: items}}
	}
	add(regression.KindLimitRange, "defaults-and-annotation", "defaults fill missing requests and limits and are listed in the annotation",
		&regression.LimitRangeInput{Pod: pod(ctr("a", nil, nil), ctr("b", rl("cpu", "200m"), nil)), LimitRanges: []api.LimitRange{
			lr("defaults", api.LimitRangeItem{Type: api.LimitTypeContainer, Default: rl("cpu", "500m", "memory", "512Mi"), DefaultRequest: rl("cpu", "100m", "memory", "128Mi")})}})
	add(regression.KindLimitRange, "first-default-wins", "the first LimitRange that defaults a resource wins",
		&regression.LimitRangeInput{Pod: pod(ctr("a", nil, nil)), LimitRanges: []api.LimitRange{
			lr("one", api.LimitRangeItem{Type: api.LimitTypeContainer, Default: rl("cpu", "1")}),
			lr("two", api.LimitRangeItem{Type: api.LimitTypeContainer, Default: rl("cpu", "2", "memory", "1Gi")})}})
	add(regression.KindLimitRange, "min-violation", "a request below min is rejected by the first violated LimitRange only",
		&regression.LimitRangeInput{Pod: pod(ctr("a", rl("cpu", "50m"), nil)), LimitRanges: []api.LimitRange{
			lr("ok", api.LimitRangeItem{Type: api.LimitTypeContainer, Max: rl("cpu", "4")}),
			lr("min", api.LimitRangeItem{Type: api.LimitTypeContainer, Min: rl("cpu", "100m", "memory", "1Mi")}),
			lr("later", api.LimitRangeItem{Type: api.LimitTypeContainer, Max: rl("cpu", "10m")})}})
	add(regression.KindLimitRange, "ratio-and-pod-max", "maxLimitRequestRatio per container and max per pod",
		&regression.LimitRangeInput{Pod: pod(ctr("a", rl("cpu", "100m"), rl("cpu", "1")), ctr("b", rl("memory", "1Gi"), nil)), LimitRanges: []api.LimitRange{
			lr("ratio", api.LimitRangeItem{Type: api.LimitTypeContainer, MaxLimitRequestRatio: rl("cpu", "3")},
				api.LimitRangeItem{Type: api.LimitTypePod, Max: rl("memory", "512Mi")})}})

	// Taints and tolerations.
	tol := func(key string, op api.TolerationOperator, value string, effect api.TaintEffect) api.Toleration {
		return api.Toleration{Key: key, Operator: op, Value: value, Effect: effect}
	}
	taint := func(key, value string, effect api.TaintEffect) api.Taint {
		return api.Taint{Key: key, Value: value, Effect: effect}
	}
	add(regression.KindTaints, "exists-empty-key", "Exists with an empty key tolerates every taint",
		&regression.TaintsInput{Tolerations: []api.Toleration{tol("", api.TolerationOpExists, "", "")},
			Taints: []api.Taint{taint("a", "x", api.TaintEffectNoSchedule), taint("b", "", api.TaintEffectNoExecute)}})
	add(regression.KindTaints, "effect-and-value", "an empty operator is Equal; effects must match when set; PreferNoSchedule never blocks",
		&regression.TaintsInput{Tolerations: []api.Toleration{tol("a", "", "x", api.TaintEffectNoExecute), tol("b", api.TolerationOpEqual, "", "")},
			Taints: []api.Taint{taint("a", "x", api.TaintEffectNoSchedule), taint("b", "", api.TaintEffectNoSchedule), taint("c", "", api.TaintEffectPreferNoSchedule)}})
	add(regression.KindTaints, "lt-gt", "Lt / Gt compare canonical integers only, and only with the alpha operators on",
		&regression.TaintsInput{ComparisonOperators: true, Tolerations: []api.Toleration{tol("n", "Lt", "950", ""), tol("n", "Gt", "007", "")},
			Taints: []api.Taint{taint("n", "800", api.TaintEffectNoSchedule), taint("n", "007", api.TaintEffectNoSchedule), taint("n", "-5", api.TaintEffectNoExecute)}})
	add(regression.KindTaints, "lt-gt-off", "with the alpha operators off, Lt / Gt tolerate nothing",
		&regression.TaintsInput{Tolerations: []api.Toleration{tol("n", "Lt", "950", "")}, Taints: []api.Taint{taint("n", "800", api.TaintEffectNoSchedule)}})

	// Node affinity.
	na := func(sel map[string]string, req *api.NodeSelector, pref ...api.PreferredSchedulingTerm) *api.Pod {
		p := pod(ctr("a", nil, nil))
		p.Spec.NodeSelector = sel
		if req != nil || pref != nil {
			p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}}
		}
		return p
	}
	expr := func(key string, op api.NodeSelectorOperator, vals ...string) api.NodeSelectorRequirement {
		return api.NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
	}
	zoneNode := node("n1", nil, map[string]string{"zone": "a", "gen": "0204"})
	add(regression.KindNodeAffinity, "empty-terms", "a required node selector with no terms matches no node",
		&regression.NodeAffinityInput{Pod: na(nil, &api.NodeSelector{}), Node: zoneNode})
	add(regression.KindNodeAffinity, "match-fields", "matchFields on metadata.name, ORed with a label term",
		&regression.NodeAffinityInput{Pod: na(map[string]string{"zone": "a"}, &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "n2")}},
			{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpNotIn, "b")}}}}), Node: zoneNode})
	add(regression.KindNodeAffinity, "gt-leading-zeros", "Gt parses label values as integers, leading zeros included",
		&regression.NodeAffinityInput{Pod: na(nil, &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchExpressions: []api.NodeSelectorRequirement{expr("gen", api.NodeSelectorOpGt, "203")}}}}), Node: zoneNode})
	add(regression.KindNodeAffinity, "lazy-errors", "an invalid term is reported only when no other term matches",
		&regression.NodeAffinityInput{Pod: na(nil, &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchExpressions: []api.NodeSelectorRequirement{expr("bad key", api.NodeSelectorOpExists)}},
			{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpIn, "b")}}}}), Node: zoneNode})
	add(regression.KindNodeAffinity, "preferred-weights", "weight 0 and empty preferred terms are skipped unchecked",
		&regression.NodeAffinityInput{Pod: na(nil, nil,
			api.PreferredSchedulingTerm{Weight: 0, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("bad key", api.NodeSelectorOpExists)}}},
			api.PreferredSchedulingTerm{Weight: 7, Preference: api.NodeSelectorTerm{}},
			api.PreferredSchedulingTerm{Weight: 30, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpExists)}}},
			api.PreferredSchedulingTerm{Weight: 50, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("gen", api.NodeSelectorOpLt, "1000")}}}), Node: zoneNode})

	// Label selectors.
	str := func(s string, labels map[string]string) *regression.LabelSelectorInput {
		return &regression.LabelSelectorInput{String: &s, Labels: labels}
	}
	labels := map[string]string{"app": "web", "tier": "", "v": "3"}
	add(regression.KindLabelSelector, "empty-set", `"x in ()" parses, and an empty value matches an empty label`, str("tier in (),app", labels))
	add(regression.KindLabelSelector, "not-and-neq", "!key and != on a missing key", str("!gone,missing!=x, v > 2", labels))
	add(regression.KindLabelSelector, "double-key", "two requirements on one key are both kept, sorted", str("app=web,app in (db,web)", labels))
	add(regression.KindLabelSelector, "parse-error", "a missing operator after a key", str("app web", labels))
	add(regression.KindLabelSelector, "nil-selector", "a nil API selector matches nothing", &regression.LabelSelectorInput{Labels: labels})
	add(regression.KindLabelSelector, "empty-selector", "an empty API selector matches everything", &regression.LabelSelectorInput{Selector: &api.LabelSelector{}, Labels: labels})
	add(regression.KindLabelSelector, "bad-operator", "an unknown operator in matchExpressions",
		&regression.LabelSelectorInput{Selector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Equal", Values: []string{"web"}}}}, Labels: labels})

	// Plugins.
	n1 := node("n1", rl("cpu", "4", "memory", "8Gi", "pods", "110"), map[string]string{"zone": "a"})
	n2 := node("n2", rl("cpu", "2", "memory", "4Gi", "pods", "110"), map[string]string{"zone": "b"})
	n2.Spec.Taints = []api.Taint{taint("dedicated", "infra", api.TaintEffectNoSchedule), taint("soft", "", api.TaintEffectPreferNoSchedule)}
	n3 := node("n3", rl("cpu", "8", "memory", "16Gi", "pods", "2", "example.com/gpu", "1"), map[string]string{"zone": "a"})
	n3.Spec.Unschedulable = true
	n3.Status.Images = []api.ContainerImage{{Names: []string{"docker.io/library/nginx:latest"}, SizeBytes: 500 << 20}}
	n1.Status.Images = []api.ContainerImage{{Names: []string{"nginx:1.27"}, SizeBytes: 300 << 20}}
	cluster := []*api.Node{n1, n2, n3}
	withPort := func(c api.Container, ip string, port int32) api.Container {
		c.Ports = []api.ContainerPort{{HostIP: ip, HostPort: port, ContainerPort: port}}
		return c
	}
	running := []*api.Pod{
		boundPod("web-1", "n1", withPort(ctr("a", rl("cpu", "1", "memory", "1Gi"), nil), "10.0.0.1", 8080)),
		boundPod("db-1", "n2", ctr("a", rl("cpu", "1500m", "memory", "3Gi"), nil)),
		boundPod("batch-1", "n3", ctr("a", nil, nil)),
	}
	in := func(p *api.Pod, plugins ...regression.PluginRef) *regression.PluginsInput {
		if plugins == nil {
			plugins = seedPlugins
		}
		return &regression.PluginsInput{Nodes: cluster, Pods: running, Pod: p, Plugins: plugins}
	}
	plain := pod(ctr("a", rl("cpu", "500m", "memory", "512Mi"), nil))
	add(regression.KindPlugins, "plain-pod", "a plain pod over three nodes: taint, cordon, scores", in(plain))
	tolerant := pod(ctr("a", rl("cpu", "500m", "memory", "512Mi", "example.com/gpu", "1"), rl("example.com/gpu", "1")))
	tolerant.Spec.Tolerations = []api.Toleration{tol("", api.TolerationOpExists, "", "")}
	add(regression.KindPlugins, "tolerate-all", "tolerating everything passes the cordon too; only n3 has the GPU", in(tolerant))
	ports := pod(withPort(ctr("a", rl("cpu", "100m"), nil), "", 8080))
	ports.Spec.NodeName = "n1"
	add(regression.KindPlugins, "port-conflict-nodename", "0.0.0.0:8080 conflicts with 10.0.0.1:8080; NodeName narrows PreFilter to n1", in(ports))
	big := pod(ctr("a", rl("cpu", "3", "memory", "6Gi"), nil))
	big.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
		{Weight: 40, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("zone", api.NodeSelectorOpIn, "b")}}}}}}
	add(regression.KindPlugins, "insufficient-unresolvable", "requests above a node's allocatable are unresolvable", in(big))
	add(regression.KindSchedule, "plain-pod", "the scheduler picks one of the best-scored nodes", in(plain))
	huge := pod(ctr("a", rl("cpu", "6", "memory", "1Gi"), nil))
	add(regression.KindSchedule, "nothing-fits", "no node fits: the FitError carries each node's rejection", in(huge, seedPlugins[:6]...))
	fitLevel := pod(ctr("a", rl("cpu", "100m", "memory", "128Mi"), nil))
	fitLevel.Spec.Resources = &api.ResourceRequirements{Requests: rl("cpu", "2", "memory", "2Gi")}
	out = append(out, seed{Kind: regression.KindPlugins, Name: "fit-score-pod-level",
		Note:  "upstream v1.37.2's NodeResourcesFit score ignores pod-level requests (its scorer is built without the PodLevelResources flag) and scores the containers' 100m/128Mi; schedkit scored the pod-level 2/2Gi until priorities 0f58efd",
		Input: in(fitLevel, regression.PluginRef{Name: "NodeResourcesFit", Weight: 1})})

	// InterPodAffinity.
	ipa := []regression.PluginRef{{Name: "InterPodAffinity", Weight: 2}}
	webTerm := func(key string) api.PodAffinityTerm {
		return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: key}
	}
	labelled := func(p *api.Pod, app string) *api.Pod {
		p.Labels = map[string]string{"app": app}
		return p
	}
	webPods := []*api.Pod{labelled(boundPod("web-1", "n1", ctr("a", rl("cpu", "100m"), nil)), "web"), labelled(boundPod("db-1", "n2", ctr("a", rl("cpu", "100m"), nil)), "db")}
	anti := labelled(pod(ctr("a", rl("cpu", "100m"), nil)), "web")
	anti.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{webTerm("kubernetes.io/hostname")}}}
	add(regression.KindPlugins, "ipa-anti-hostname", "required hostname anti-affinity rejects the node of a matching pod (Unschedulable)",
		&regression.PluginsInput{Nodes: cluster, Pods: webPods, Pod: anti, Plugins: ipa})
	add(regression.KindSchedule, "ipa-anti-hostname", "the replica goes to another node than the running one",
		&regression.PluginsInput{Nodes: cluster, Pods: webPods, Pod: anti, Plugins: append(append([]regression.PluginRef(nil), seedPlugins...), ipa...)})
	first := labelled(pod(ctr("a", rl("cpu", "100m"), nil)), "cache")
	first.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
		{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "cache"}}, TopologyKey: "zone"}}}}
	add(regression.KindPlugins, "ipa-first-of-group", "no pod matches the pod's own affinity anywhere: it may land on any node with the key",
		&regression.PluginsInput{Nodes: cluster, Pods: webPods, Pod: first, Plugins: ipa})
	missingKey := labelled(pod(ctr("a", rl("cpu", "100m"), nil)), "cache")
	missingKey.Spec.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
		{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "cache"}}, TopologyKey: "rack"}}}}
	add(regression.KindPlugins, "ipa-first-of-group-missing-key", "the first pod of a group still needs nodes with the topology key (UnschedulableAndUnresolvable)",
		&regression.PluginsInput{Nodes: cluster, Pods: webPods, Pod: missingKey, Plugins: ipa})
	guard := labelled(boundPod("guard-1", "n2", ctr("a", rl("cpu", "100m"), nil)), "guard")
	guard.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
		{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, TopologyKey: "zone",
			NamespaceSelector: &api.LabelSelector{MatchLabels: map[string]string{"team": "a"}}}}}}
	teamPod := labelled(pod(ctr("a", rl("cpu", "100m"), nil)), "web")
	teamPod.Namespace = "team-a"
	namespaces := []*api.Namespace{{ObjectMeta: api.ObjectMeta{Name: "team-a", Labels: map[string]string{"team": "a"}}}, {ObjectMeta: api.ObjectMeta{Name: "default"}}}
	add(regression.KindPlugins, "ipa-existing-anti-namespace-selector", "an existing pod's anti-affinity selects the incoming pod through its namespace's labels: its zone is rejected",
		&regression.PluginsInput{Nodes: cluster, Pods: []*api.Pod{guard}, Pod: teamPod, Plugins: ipa, Namespaces: namespaces})
	add(regression.KindPlugins, "ipa-existing-anti-no-namespace-object", "without the Namespace object the namespace has no labels and nothing is rejected (PreFilter Skip)",
		&regression.PluginsInput{Nodes: cluster, Pods: []*api.Pod{guard}, Pod: teamPod, Plugins: ipa})
	pref := labelled(pod(ctr("a", rl("cpu", "100m"), nil)), "web")
	pref.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{
		{Weight: 30, PodAffinityTerm: webTerm("kubernetes.io/hostname")}, {Weight: 7, PodAffinityTerm: webTerm("zone")}}}}
	add(regression.KindPlugins, "ipa-preferred-negative", "preferred anti-affinity sums are negative; min-max normalisation maps them to 0..100",
		&regression.PluginsInput{Nodes: cluster, Pods: webPods, Pod: pref, Plugins: ipa})
	out = append(out, quotaSeeds()...)
	out = append(out, preemptionSeeds()...)
	over := pod(ctr("a", rl("cpu", "500m"), rl("cpu", "100m")))
	out = append(out, seed{Kind: regression.KindValidation, Name: "request-over-limit",
		Note:  "the API server names only requests for a request above its limit: spec.containers[0].resources.requests: Invalid value: \"500m\": must be less than or equal to cpu limit of 100m",
		Input: &regression.ValidationInput{Pod: over}})
	order := pod(ctr("a", rl("memory", "2Gi"), rl("memory", "1Gi")), ctr("a", nil, nil))
	order.Spec.RestartPolicy = "Sometimes"
	order.Spec.Overhead = rl("cpu", "-1")
	order.Spec.InitContainers = []api.Container{ctr("", rl("example.com/gpu", "1"), nil)}
	out = append(out, seed{Kind: regression.KindValidation, Name: "api-server-order",
		Note:  "errors in the API server's order: containers (name, resources, duplicate), init containers, restartPolicy, overhead",
		Input: &regression.ValidationInput{Pod: order}})
	return out
}

// quotaSeeds are the ResourceQuota admission seeds.
func quotaSeeds() []seed {
	quota := func(name string, hard, used api.ResourceList, scopes ...api.ResourceQuotaScope) api.ResourceQuota {
		return api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.ResourceQuotaSpec{Hard: hard, Scopes: scopes}, Status: api.ResourceQuotaStatus{Hard: hard, Used: used}}
	}
	podObj := func(p *api.Pod) regression.CountedObject { return regression.CountedObject{Resource: "pods", Pod: p} }
	web := pod(ctr("a", rl("cpu", "500m", "memory", "256Mi"), rl("memory", "256Mi")))
	var out []seed
	add := func(name, note string, in *regression.ResourceQuotaInput) {
		out = append(out, seed{Kind: regression.KindResourceQuota, Name: name, Note: note, Input: in})
	}
	add("below-limit", "the pod fits: used grows by its charge",
		&regression.ResourceQuotaInput{Quotas: []api.ResourceQuota{quota("compute", rl("pods", "10", "requests.cpu", "2", "limits.memory", "1Gi"), rl("pods", "1", "requests.cpu", "1", "limits.memory", "512Mi"))}, Object: podObj(web)})
	add("exceeded", "exceeded quota: requested, used and limited on the exceeded resources only",
		&regression.ResourceQuotaInput{Quotas: []api.ResourceQuota{quota("compute", rl("pods", "10", "requests.cpu", "1", "limits.memory", "1Gi"), rl("pods", "1", "requests.cpu", "800m", "limits.memory", "900Mi"))}, Object: podObj(web)})
	add("must-specify", "a quota on limits.cpu needs every container to state a cpu limit",
		&regression.ResourceQuotaInput{Quotas: []api.ResourceQuota{quota("compute", rl("limits.cpu", "4"), rl("limits.cpu", "0"))}, Object: podObj(web)})
	add("best-effort-scope", "a BestEffort quota does not count a pod with requests",
		&regression.ResourceQuotaInput{Quotas: []api.ResourceQuota{quota("be", rl("pods", "0"), rl("pods", "0"), api.ResourceQuotaScopeBestEffort)}, Object: podObj(web)})
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "lb", Namespace: "default"}, Spec: api.ServiceSpec{Type: api.ServiceTypeLoadBalancer, Ports: []api.ServicePort{{Port: 80}, {Port: 443}}}}
	add("service-nodeports", "a LoadBalancer service takes one node port per port",
		&regression.ResourceQuotaInput{Quotas: []api.ResourceQuota{quota("svc", rl("services.nodeports", "3", "services.loadbalancers", "2"), rl("services.nodeports", "2", "services.loadbalancers", "0"))},
			Object: regression.CountedObject{Resource: "services", Service: svc}})
	done := pod(ctr("a", rl("cpu", "1"), nil))
	done.Name = "done"
	done.Status.Phase = api.PodSucceeded
	running := pod(ctr("a", rl("cpu", "1"), nil))
	running.Name = "running"
	add("status-from-objects", "status.used computed from the namespace's pods, as the quota controller does: a Succeeded pod counts only in count/pods",
		&regression.ResourceQuotaInput{ComputeStatus: true,
			Quotas:   []api.ResourceQuota{{ObjectMeta: api.ObjectMeta{Name: "compute", Namespace: "default"}, Spec: api.ResourceQuotaSpec{Hard: rl("pods", "2", "count/pods", "3", "requests.cpu", "2")}}},
			Existing: []regression.CountedObject{podObj(done), podObj(running)},
			Object:   podObj(web)})
	return out
}
