package schedconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"sigs.k8s.io/yaml"
)

// KindPolicy is the kind of a legacy scheduler Policy file (apiVersion
// v1).
const KindPolicy = "Policy"

// Policy is kube-scheduler's legacy Policy file (removed in v1.23):
// predicates and priorities by name.
type Policy struct {
	api.TypeMeta `json:",inline"`
	// Predicates run as filters; nil means the default predicates, and
	// PodToleratesNodeTaints and CheckNodeUnschedulable always run.
	Predicates []PredicatePolicy `json:"predicates"`
	// Priorities score nodes; nil means the default priorities.
	Priorities []PriorityPolicy `json:"priorities"`
	// Extenders are decoded and ignored, with a warning.
	Extenders []json.RawMessage `json:"extenders,omitempty"`
	// HardPodAffinitySymmetricWeight is InterPodAffinity's
	// hardPodAffinityWeight, in [0, 100].
	HardPodAffinitySymmetricWeight int32 `json:"hardPodAffinitySymmetricWeight,omitempty"`
	// AlwaysCheckAllPredicates is decoded and ignored, with a warning.
	AlwaysCheckAllPredicates bool `json:"alwaysCheckAllPredicates,omitempty"`
}

// PredicatePolicy names a predicate; a custom predicate (any name) has an
// Argument.
type PredicatePolicy struct {
	Name     string             `json:"name"`               // the predicate's name
	Argument *PredicateArgument `json:"argument,omitempty"` // a custom predicate's configuration
}

// PredicateArgument configures a custom predicate: exactly one field.
type PredicateArgument struct {
	ServiceAffinity *ServiceAffinity `json:"serviceAffinity,omitempty"` // pods of a service on nodes with equal labels
	LabelsPresence  *LabelsPresence  `json:"labelsPresence,omitempty"`  // node labels required present or absent
}

// ServiceAffinity lists the labels the nodes of a service's pods share.
type ServiceAffinity struct {
	Labels []string `json:"labels"` // label keys
}

// LabelsPresence requires labels present (or absent) on nodes.
type LabelsPresence struct {
	Labels   []string `json:"labels"`   // label keys
	Presence bool     `json:"presence"` // true: present; false: absent
}

// PriorityPolicy names a priority with its weight; a custom priority
// (any name) has an Argument.
type PriorityPolicy struct {
	Name     string            `json:"name"`               // the priority's name
	Weight   int64             `json:"weight"`             // its weight, positive
	Argument *PriorityArgument `json:"argument,omitempty"` // a custom priority's configuration
}

// PriorityArgument configures a custom priority: exactly one field.
type PriorityArgument struct {
	ServiceAntiAffinity               *ServiceAntiAffinity               `json:"serviceAntiAffinity,omitempty"`               // spread a service's pods by a label
	LabelPreference                   *LabelPreference                   `json:"labelPreference,omitempty"`                   // prefer nodes with (without) a label
	RequestedToCapacityRatioArguments *RequestedToCapacityRatioArguments `json:"requestedToCapacityRatioArguments,omitempty"` // NodeResourcesFit's RequestedToCapacityRatio
}

// ServiceAntiAffinity spreads a service's pods over the values of a
// label.
type ServiceAntiAffinity struct {
	Label string `json:"label"` // label key
}

// LabelPreference prefers nodes that have (or lack) a label.
type LabelPreference struct {
	Label    string `json:"label"`    // label key
	Presence bool   `json:"presence"` // true: prefer present
}

// RequestedToCapacityRatioArguments is the shape and resources of the
// RequestedToCapacityRatio priority.
type RequestedToCapacityRatioArguments struct {
	Shape     []config.UtilizationShapePoint `json:"shape"`               // the scoring function
	Resources []config.ResourceSpec          `json:"resources,omitempty"` // scored resources; default cpu and memory
}

// DecodePolicy reads a Policy from YAML or JSON, strictly: unknown fields
// are errors naming their paths.
func DecodePolicy(data []byte) (*Policy, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	p := &Policy{}
	if err := config.DecodeStrict(js, p); err != nil {
		return nil, err
	}
	if p.Kind != KindPolicy || (p.APIVersion != "v1" && p.APIVersion != "") {
		return nil, fmt.Errorf("kind %q apiVersion %q is not a Policy (kind: Policy, apiVersion: v1)", p.Kind, p.APIVersion)
	}
	return p, nil
}

// point is one legacy name's plugins: at PreFilter, Filter, PreScore and
// Score.
type point struct{ preFilter, filter, preScore, score string }

// predicateOrder is upstream's order of predicates, with the node
// pressure predicates where they last ran (after NoVolumeZoneConflict).
// Predicates map to the plugins that replaced them (v1.22's legacy
// registry, with v1.37's plugin names).
func predicateOrder() []struct {
	name string
	to   []point
} {
	pf := func(n string) point { return point{preFilter: n, filter: n} }
	f := func(n string) point { return point{filter: n} }
	return []struct {
		name string
		to   []point
	}{
		{"CheckNodeUnschedulable", []point{f(config.NodeUnschedulableName)}},
		{"GeneralPredicates", []point{pf(config.NodeResourcesFitName), f(config.NodeNameName), pf(config.NodePortsName), pf(config.NodeAffinityName)}},
		{"HostName", []point{f(config.NodeNameName)}},
		{"PodFitsHostPorts", []point{pf(config.NodePortsName)}},
		{"MatchNodeSelector", []point{pf(config.NodeAffinityName)}},
		{"PodFitsResources", []point{pf(config.NodeResourcesFitName)}},
		{"NoDiskConflict", []point{f(config.VolumeRestrictionsName)}},
		{"PodToleratesNodeTaints", []point{f(config.TaintTolerationName)}},
		{"CheckNodeLabelPresence", []point{f(config.NodeLabelName)}},
		{"CheckServiceAffinity", []point{pf(config.ServiceAffinityName)}},
		{"MaxEBSVolumeCount", []point{f(config.NodeVolumeLimitsName)}},
		{"MaxGCEPDVolumeCount", []point{f(config.NodeVolumeLimitsName)}},
		{"MaxCSIVolumeCountPred", []point{f(config.NodeVolumeLimitsName)}},
		{"MaxAzureDiskVolumeCount", []point{f(config.NodeVolumeLimitsName)}},
		{"MaxCinderVolumeCount", []point{f(config.NodeVolumeLimitsName)}},
		{"CheckVolumeBinding", []point{pf(config.VolumeBindingName)}},
		{"NoVolumeZoneConflict", []point{f(config.VolumeZoneName)}},
		{config.CheckNodeMemoryPressureName, []point{f(config.CheckNodeMemoryPressureName)}},
		{config.CheckNodePIDPressureName, []point{f(config.CheckNodePIDPressureName)}},
		{config.CheckNodeDiskPressureName, []point{f(config.CheckNodeDiskPressureName)}},
		{"EvenPodsSpread", []point{pf(config.PodTopologySpreadName)}},
		{"MatchInterPodAffinity", []point{pf(config.InterPodAffinityName)}},
	}
}

// priorityPlugins maps the priorities to their plugins.
func priorityPlugins() map[string]point {
	ps := func(n string) point { return point{preScore: n, score: n} }
	s := func(n string) point { return point{score: n} }
	return map[string]point{
		"SelectorSpreadPriority":      ps(config.PodTopologySpreadName), // DefaultPodTopologySpread on
		"EvenPodsSpreadPriority":      ps(config.PodTopologySpreadName),
		"TaintTolerationPriority":     ps(config.TaintTolerationName),
		"NodeAffinityPriority":        ps(config.NodeAffinityName),
		"ImageLocalityPriority":       s(config.ImageLocalityName),
		"InterPodAffinityPriority":    ps(config.InterPodAffinityName),
		"NodePreferAvoidPodsPriority": s(config.NodePreferAvoidPodsName),
		"MostRequestedPriority":       s(config.NodeResourcesFitName),
		"LeastRequestedPriority":      s(config.NodeResourcesFitName),
		"BalancedResourceAllocation":  s(config.NodeResourcesBalancedAllocationName),
		config.EqualPriorityName:      s(config.EqualPriorityName),
	}
}

func defaultPredicates() []string {
	return []string{"NoVolumeZoneConflict", "MaxEBSVolumeCount", "MaxGCEPDVolumeCount", "MaxAzureDiskVolumeCount",
		"MaxCSIVolumeCountPred", "MatchInterPodAffinity", "NoDiskConflict", "GeneralPredicates",
		"PodToleratesNodeTaints", "CheckVolumeBinding", "CheckNodeUnschedulable", "EvenPodsSpread"}
}

func defaultPriorities() map[string]int64 {
	return map[string]int64{
		"SelectorSpreadPriority": 1, "InterPodAffinityPriority": 1, "LeastRequestedPriority": 1,
		"BalancedResourceAllocation": 1, "NodePreferAvoidPodsPriority": 10000, "NodeAffinityPriority": 1,
		"TaintTolerationPriority": 1, "ImageLocalityPriority": 1, "EvenPodsSpreadPriority": 2,
	}
}

// KnownPredicates returns the predicate names FromPolicy maps, sorted.
func KnownPredicates() []string {
	var out []string
	for _, p := range predicateOrder() {
		out = append(out, p.name)
	}
	out = append(out, "PodFitsPorts")
	sort.Strings(out)
	return out
}

// KnownPriorities returns the priority names FromPolicy maps, sorted.
func KnownPriorities() []string {
	var out []string
	for n := range priorityPlugins() {
		out = append(out, n)
	}
	out = append(out, "ServiceSpreadingPriority", "RequestedToCapacityRatioPriority")
	sort.Strings(out)
	return out
}

// pluginList is an extension point's plugins in order, with weights;
// adding a plugin twice keeps the larger weight.
type pluginList []framework.PluginRef

func (l *pluginList) add(name string, weight int32) {
	if name == "" {
		return
	}
	for i := range *l {
		if (*l)[i].Name == name {
			(*l)[i].Weight = max((*l)[i].Weight, weight)
			return
		}
	}
	*l = append(*l, framework.PluginRef{Name: name, Weight: weight})
}

// FromPolicy turns a Policy into one profile named default-scheduler, by
// kube-scheduler's last mapping of predicates and priorities to plugins
// (v1.22's legacy registry):
//
//   - predicates run as filters in upstream's fixed order (then any
//     others by name); PodToleratesNodeTaints and CheckNodeUnschedulable
//     always run; nil predicates are the defaults; PodFitsPorts is
//     PodFitsHostPorts; a predicate of any name with a labelsPresence
//     argument is CheckNodeLabelPresence (NodeLabel), with
//     serviceAffinity it is CheckServiceAffinity (ServiceAffinity);
//   - the Policy is first validated as v1.22's ValidatePolicy does
//     (priority weights, custom priorities of one kind with one weight,
//     one RequestedToCapacityRatio, hardPodAffinitySymmetricWeight),
//     every error reported at once in upstream's words;
//   - each priority is a key with the weight last given to it: its
//     name (ServiceSpreadingPriority is SelectorSpreadPriority, which
//     with DefaultPodTopologySpread is PodTopologySpread), or for a
//     custom one the plugin it configures: labelPreference is NodeLabel
//     and serviceAntiAffinity is ServiceAffinity (weight times the
//     number of such priorities; ServiceAffinity also at PreScore, where
//     schedkit finds the pod's service once), and
//     requestedToCapacityRatioArguments is NodeResourcesFit's
//     RequestedToCapacityRatio strategy; keys become score plugins in
//     sorted order, and keys naming one plugin keep the larger weight;
//     nil priorities are the defaults;
//   - LeastRequestedPriority and MostRequestedPriority are
//     NodeResourcesFit's strategies of those names (upstream had a
//     plugin for each; schedkit's NodeResourcesFit scores with one
//     strategy, so two of the three resource priorities are an error);
//   - EqualPriority is the EqualPriority plugin (every node 1; upstream
//     v1.22 skipped it, which decides the same);
//   - PrioritySort, SchedulingGates and DefaultPreemption are added, as
//     the profile of a v1.37 scheduler has them.
//
// The plugins a name maps to need not all be in the registry: kube-
// scheduler plugins missing from it are listed by the profile's
// NotEvaluated. An unknown name is an error listing the known ones.
func FromPolicy(p *Policy) (*Config, error) {
	c := &Config{Parallelism: int(config.DefaultParallelism)}
	if len(p.Extenders) > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("extenders: ignored: schedkit calls no extenders (%d configured)", len(p.Extenders)))
	}
	if p.AlwaysCheckAllPredicates {
		c.Warnings = append(c.Warnings, "alwaysCheckAllPredicates: ignored: a v1.37 scheduler stops at a node's first failing filter")
	}
	if err := validatePolicy(p); err != nil {
		return nil, err
	}
	var pts framework.ExtensionPoints
	var preFilter, filter, preScore, score pluginList
	args := map[string]any{}
	var nodeLabel config.NodeLabelArgs
	var serviceAffinity config.ServiceAffinityArgs
	var fit *config.ScoringStrategy
	setFit := func(name string, s *config.ScoringStrategy) error {
		if fit != nil {
			return fmt.Errorf("priority %q: schedkit's NodeResourcesFit scores with one strategy and %s is already set; use one of LeastRequestedPriority, MostRequestedPriority, RequestedToCapacityRatioPriority", name, fit.Type)
		}
		fit = s
		return nil
	}

	// Predicates.
	wanted := map[string]bool{"PodToleratesNodeTaints": true, "CheckNodeUnschedulable": true}
	if p.Predicates == nil {
		for _, n := range defaultPredicates() {
			wanted[n] = true
		}
	}
	known := map[string]bool{}
	for _, o := range predicateOrder() {
		known[o.name] = true
	}
	for i, pr := range p.Predicates {
		name := pr.Name
		if name == "PodFitsPorts" {
			name = "PodFitsHostPorts"
		}
		if a := pr.Argument; a != nil {
			if (a.ServiceAffinity != nil) == (a.LabelsPresence != nil) {
				return nil, fmt.Errorf("predicates[%d] %q: exactly 1 predicate argument is required", i, pr.Name)
			}
		}
		if known[name] {
			wanted[name] = true
			continue
		}
		switch a := pr.Argument; {
		case a == nil:
			return nil, fmt.Errorf("predicates[%d]: predicate type not found for %q; known predicates: %s (or any name with a serviceAffinity or labelsPresence argument)",
				i, pr.Name, strings.Join(KnownPredicates(), ", "))
		case a.ServiceAffinity != nil:
			serviceAffinity.AffinityLabels = append(serviceAffinity.AffinityLabels, a.ServiceAffinity.Labels...)
			wanted["CheckServiceAffinity"] = true
		default:
			if a.LabelsPresence.Presence {
				nodeLabel.PresentLabels = append(nodeLabel.PresentLabels, a.LabelsPresence.Labels...)
			} else {
				nodeLabel.AbsentLabels = append(nodeLabel.AbsentLabels, a.LabelsPresence.Labels...)
			}
			wanted["CheckNodeLabelPresence"] = true
		}
	}
	for _, o := range predicateOrder() {
		if !wanted[o.name] {
			continue
		}
		for _, pt := range o.to {
			preFilter.add(pt.preFilter, 0)
			filter.add(pt.filter, 0)
		}
	}

	// Priorities: each name (or, for a custom priority, the plugin it
	// configures) is a key with the weight last given to it, and the
	// keys are turned into plugins in sorted order, as v1.22's
	// createFromConfig and AppendPriorityConfigs do.
	keys := map[string]int64{}
	if p.Priorities == nil {
		keys = defaultPriorities()
	}
	table := priorityPlugins()
	var rtcr *RequestedToCapacityRatioArguments
	for i, pr := range p.Priorities {
		if a := pr.Argument; a != nil {
			n := 0
			for _, set := range []bool{a.ServiceAntiAffinity != nil, a.LabelPreference != nil, a.RequestedToCapacityRatioArguments != nil} {
				if set {
					n++
				}
			}
			if n != 1 {
				return nil, fmt.Errorf("priorities[%d] %q: exactly 1 priority argument is required", i, pr.Name)
			}
		}
		name := pr.Name
		if name == "ServiceSpreadingPriority" {
			name = "SelectorSpreadPriority"
		}
		if _, ok := table[name]; ok {
			keys[name] = pr.Weight
			continue
		}
		switch a := pr.Argument; {
		case a == nil:
			return nil, fmt.Errorf("priority type not found for %q; known priorities: %s (or any name with a serviceAntiAffinity, labelPreference or requestedToCapacityRatioArguments argument)",
				pr.Name, strings.Join(KnownPriorities(), ", "))
		case a.ServiceAntiAffinity != nil:
			serviceAffinity.AntiAffinityLabelsPreference = append(serviceAffinity.AntiAffinityLabelsPreference, a.ServiceAntiAffinity.Label)
			keys[config.ServiceAffinityName] = pr.Weight
		case a.LabelPreference != nil:
			if a.LabelPreference.Presence {
				nodeLabel.PresentLabelsPreference = append(nodeLabel.PresentLabelsPreference, a.LabelPreference.Label)
			} else {
				nodeLabel.AbsentLabelsPreference = append(nodeLabel.AbsentLabelsPreference, a.LabelPreference.Label)
			}
			keys[config.NodeLabelName] = pr.Weight
		default:
			rtcr = a.RequestedToCapacityRatioArguments
			keys[requestedToCapacityRatioKey] = pr.Weight
		}
	}
	for _, name := range slices.Sorted(maps.Keys(keys)) {
		w := int32(keys[name])
		switch name {
		case config.NodeLabelName:
			// n label preferences of one weight w: weight n*w.
			score.add(config.NodeLabelName, w*int32(len(nodeLabel.PresentLabelsPreference)+len(nodeLabel.AbsentLabelsPreference)))
			continue
		case config.ServiceAffinityName:
			// schedkit's ServiceAffinity finds the pod's service once,
			// at PreScore (upstream had no PreScore for it).
			preScore.add(config.ServiceAffinityName, 0)
			score.add(config.ServiceAffinityName, w*int32(len(serviceAffinity.AntiAffinityLabelsPreference)))
			continue
		case requestedToCapacityRatioKey:
			if err := setFit(name, &config.ScoringStrategy{Type: config.RequestedToCapacityRatio, Resources: rtcr.Resources,
				RequestedToCapacityRatio: &config.RequestedToCapacityRatioParam{Shape: rtcr.Shape}}); err != nil {
				return nil, err
			}
			score.add(config.NodeResourcesFitName, w)
			continue
		}
		to := table[name]
		preScore.add(to.preScore, 0)
		score.add(to.score, w)
		switch name {
		case "LeastRequestedPriority":
			if err := setFit(name, &config.ScoringStrategy{Type: config.LeastAllocated}); err != nil {
				return nil, err
			}
		case "MostRequestedPriority":
			if err := setFit(name, &config.ScoringStrategy{Type: config.MostAllocated}); err != nil {
				return nil, err
			}
		case "EvenPodsSpreadPriority":
			if _, ok := args[config.PodTopologySpreadName]; !ok {
				args[config.PodTopologySpreadName] = json.RawMessage(`{"defaultingType":"List"}`)
			}
		case "SelectorSpreadPriority":
			args[config.PodTopologySpreadName] = json.RawMessage(`{"defaultingType":"System"}`)
		}
	}
	if !nodeLabel.IsZero() {
		args[config.NodeLabelName] = &nodeLabel
	}
	if !serviceAffinity.IsZero() {
		args[config.ServiceAffinityName] = &serviceAffinity
	}
	if fit != nil {
		args[config.NodeResourcesFitName] = &config.NodeResourcesFitArgs{ScoringStrategy: fit}
	}
	if w := p.HardPodAffinitySymmetricWeight; w != 0 {
		args[config.InterPodAffinityName] = json.RawMessage(fmt.Sprintf(`{"hardPodAffinityWeight":%d}`, w))
	}
	pts.PreEnqueue.Enabled = []framework.PluginRef{{Name: config.SchedulingGatesName}}
	pts.QueueSort.Enabled = []framework.PluginRef{{Name: config.PrioritySortName}}
	pts.PostFilter.Enabled = []framework.PluginRef{{Name: config.DefaultPreemptionName}}
	pts.PreFilter.Enabled, pts.Filter.Enabled = preFilter, filter
	pts.PreScore.Enabled, pts.Score.Enabled = preScore, score
	for _, s := range []*framework.PluginSet{&pts.PreEnqueue, &pts.QueueSort, &pts.PreFilter, &pts.Filter, &pts.PostFilter, &pts.PreScore, &pts.Score} {
		s.Disabled = []string{"*"}
	}
	if len(args) == 0 {
		args = nil
	}
	c.Profiles = []framework.ProfileConfig{{
		SchedulerName:   config.DefaultSchedulerName,
		Disabled:        []string{"*"},
		ExtensionPoints: &pts,
		PluginArgs:      args,
	}}
	if err := validateLabels(&nodeLabel); err != nil {
		return nil, err
	}
	return c, nil
}

func validateLabels(a *config.NodeLabelArgs) error {
	if err := a.Validate(); err != nil {
		return fmt.Errorf("NodeLabel: %w", err)
	}
	return nil
}

// requestedToCapacityRatioKey is the legacy registry's key of the
// RequestedToCapacityRatio priority (a custom priority of any name).
const requestedToCapacityRatioKey = "RequestedToCapacityRatio"

// validatePolicy checks p as v1.22's ValidatePolicy does, in policy
// order, reporting every error at once: priority weights in (0,
// MaxTotalScore/MaxNodeScore), custom priorities of one kind with one
// weight (LabelPreference, ServiceAntiAffinity) or declared once
// (RequestedToCapacityRatio), and hardPodAffinitySymmetricWeight in
// [0, 100]. Extenders are not checked: schedkit ignores them.
func validatePolicy(p *Policy) error {
	var errs []error
	maxWeight := framework.MaxTotalScore / framework.MaxNodeScore
	seen := map[string]PriorityPolicy{}
	sameWeight := func(kind string, pr PriorityPolicy) error {
		if prev, ok := seen[kind]; ok && prev.Weight != pr.Weight {
			return fmt.Errorf("%s  priority %q has a different weight with %q", kind, pr.Name, prev.Name)
		}
		seen[kind] = pr
		return nil
	}
	for _, pr := range p.Priorities {
		if pr.Weight <= 0 || pr.Weight >= maxWeight {
			errs = append(errs, fmt.Errorf("priority %s should have a positive weight applied to it or it has overflown", pr.Name))
		}
		a := pr.Argument
		var err error
		switch {
		case a == nil:
		case a.LabelPreference != nil:
			err = sameWeight("LabelPreference", pr)
		case a.ServiceAntiAffinity != nil:
			err = sameWeight("ServiceAntiAffinity", pr)
		case a.RequestedToCapacityRatioArguments != nil:
			if prev, ok := seen[requestedToCapacityRatioKey]; ok {
				err = fmt.Errorf("priority %q redeclares custom priority %q, from: %q", pr.Name, requestedToCapacityRatioKey, prev.Name)
			} else {
				seen[requestedToCapacityRatioKey] = pr
			}
		default:
			err = fmt.Errorf("no priority arguments set for priority %s", pr.Name)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if w := p.HardPodAffinitySymmetricWeight; w < 0 || w > 100 {
		errs = append(errs, fmt.Errorf("hardPodAffinitySymmetricWeight: Invalid value: %d: not in valid range [0-100]", w))
	}
	return aggregate(errs)
}

// aggregate joins errors as apimachinery's utilerrors aggregate prints
// them: one error alone, several as "[a, b]" with repeated messages
// once; nil for none.
func aggregate(errs []error) error {
	var msgs []string
	for _, err := range errs {
		if m := err.Error(); !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	switch len(msgs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}
