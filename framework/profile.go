package framework

import (
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/framework/config"
)

// PluginRef names a plugin of a profile; Weight matters for score plugins
// only (0 means 1, as kube-scheduler's).
type PluginRef struct {
	// Name of the plugin, as registered.
	Name string
	// Weight of the plugin's scores.
	Weight int32
}

// ProfileConfig configures a Profile the way a KubeSchedulerProfile's
// multiPoint section does, on top of DefaultPlugins:
//
//   - Disabled removes default plugins by name; "*" removes them all.
//   - A Plugins entry naming a default plugin replaces it in place (to
//     reweight it); other entries are appended, in order.
//
// Every plugin is then registered at every extension point it implements.
// So the zero ProfileConfig is kube-scheduler's default profile, and
//
//	ProfileConfig{Plugins: []PluginRef{{Name: "MyScore", Weight: 2}}}
//
// is the default profile plus MyScore (whose factory must be in the
// Registry).
type ProfileConfig struct {
	// SchedulerName selects the profile by pods' spec.schedulerName;
	// empty means config.DefaultSchedulerName.
	SchedulerName string
	// Plugins are enabled on top of (or override) the defaults.
	Plugins []PluginRef
	// Disabled default plugins; "*" disables all of them.
	Disabled []string
	// PluginArgs are passed to the plugins' factories, by plugin name;
	// plugins without an entry get nil (their defaults).
	PluginArgs map[string]any
	// PercentageOfNodesToScore overrides the scheduler's setting for this
	// profile when non-nil.
	PercentageOfNodesToScore *int32
	// ExtensionPoints, when non-nil, enable and disable plugins per
	// extension point on top of the multiPoint plugins above (see
	// ExtensionPoints).
	ExtensionPoints *ExtensionPoints
	// Features are the feature gates the default plugins follow; the
	// zero value is v1.37.2's defaults.
	Features features.Gates
}

// DefaultPlugins returns kube-scheduler v1.37.2's default multiPoint
// plugins, in order, with their weights, for the feature gates enabled by
// default in that release (DynamicResourceAllocation and
// NodeDeclaredFeatures on; GenericWorkload,
// TopologyAwareWorkloadScheduling and
// InPlacePodVerticalScalingSchedulerPreemption off).
func DefaultPlugins() []PluginRef {
	return DefaultPluginsFor(features.Defaults())
}

// DefaultPluginsFor returns the default multiPoint plugins under gates g,
// as kube-scheduler's applyFeatureGates builds them: GangScheduling is
// appended when GenericWorkload is on.
func DefaultPluginsFor(g features.Gates) []PluginRef {
	refs := []PluginRef{
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
	if g.GenericWorkload() {
		refs = append(refs, PluginRef{Name: config.GangSchedulingName})
	}
	return refs
}

// inTreePlugins are kube-scheduler's plugin names: naming one that is not
// in the Registry puts it in NotEvaluated rather than failing.
var inTreePlugins = []string{
	config.PrioritySortName, config.DefaultBinderName, config.DefaultPreemptionName, config.DynamicResourcesName,
	config.GangSchedulingName, config.ImageLocalityName, config.InterPodAffinityName, config.NodeAffinityName,
	"NodeDeclaredFeatures", config.NodeNameName, config.NodePortsName,
	config.NodeResourcesBalancedAllocationName, config.NodeResourcesFitName, config.NodeUnschedulableName,
	config.NodeVolumeLimitsName, config.PodTopologySpreadName, "DeferredPodScheduling",
	config.SchedulingGatesName, config.TaintTolerationName, config.VolumeBindingName, config.VolumeRestrictionsName,
	config.VolumeZoneName, "TopologyPlacementGenerator", "PodGroupPodsCount",
}

// IsInTreePlugin reports whether name is one of kube-scheduler's own
// plugins.
func IsInTreePlugin(name string) bool { return slices.Contains(inTreePlugins, name) }

// MergePlugins applies cfg's Disabled and Plugins to DefaultPlugins with
// kube-scheduler's merge rules and returns the resulting list.
func (cfg *ProfileConfig) MergePlugins() []PluginRef {
	disabled := map[string]bool{}
	for _, d := range cfg.Disabled {
		disabled[d] = true
	}
	custom := map[string]int{}
	for i, p := range cfg.Plugins {
		if _, ok := custom[p.Name]; !ok {
			custom[p.Name] = i
		}
	}
	replaced := map[int]bool{}
	var out []PluginRef
	if !disabled["*"] {
		for _, d := range DefaultPluginsFor(cfg.Features) {
			if disabled[d.Name] {
				continue
			}
			if i, ok := custom[d.Name]; ok {
				d = cfg.Plugins[i]
				replaced[i] = true
			}
			out = append(out, d)
		}
	}
	for i, p := range cfg.Plugins {
		if !replaced[i] {
			out = append(out, p)
		}
	}
	return out
}

// Combine returns one plugin named name made of parts, such as a Filter
// and a Score written separately; the framework registers each part at
// the extension points it implements. Every part must have the same name.
func Combine(name string, parts ...Plugin) MultiPointPlugin {
	return &combined{name: name, parts: parts}
}

type combined struct {
	name  string
	parts []Plugin
}

func (c *combined) Name() string    { return c.name }
func (c *combined) Parts() []Plugin { return c.parts }

// CombineFactories returns a factory that builds each factory's plugin
// with the same arguments and combines them under name. Factories that
// are nil are skipped.
func CombineFactories(name string, factories ...PluginFactory) PluginFactory {
	return func(args any, h Handle) (Plugin, error) {
		var parts []Plugin
		for _, f := range factories {
			if f == nil {
				continue
			}
			p, err := f(args, h)
			if err != nil {
				return nil, err
			}
			parts = append(parts, p)
		}
		if len(parts) == 1 {
			return parts[0], nil
		}
		return Combine(name, parts...), nil
	}
}

// Profile is a scheduling profile: the plugins of each extension point,
// ready to run. A Profile does not change once built: its Run methods
// read it and write only the CycleState they are given, so one Profile
// may serve several cycles at once, each with its own CycleState.
type Profile struct {
	name       string
	percentage *int32

	plugins      []PluginRef
	notEvaluated []string
	instances    map[string]Plugin

	queueSort     QueueSortPlugin
	queueSortAll  []QueueSortPlugin // every QueueSort plugin configured; NewProfile wants one
	preEnqueue    []PreEnqueuePlugin
	preFilter     []PreFilterPlugin
	filter        []FilterPlugin
	filterNames   []string
	postFilter    []PostFilterPlugin
	preScore      []PreScorePlugin
	score         []ScorePlugin
	scoreNames    []string
	scoreWeights  []int64
	enqueueEvents map[string]ClusterEvent
	hinters       map[string][]QueueingHinter

	// listedPreScore is how many of preScore are PreScore plugins; the
	// others run ScoreSkippers (addScoreSkippers).
	listedPreScore int
}

// extensionPoint is one row of extensionPoints.
type extensionPoint struct {
	name string
	is   func(Plugin) bool      // the part implements the point's interface
	add  func(*Profile, Plugin) // appends it to the profile's list
}

func point[T Plugin](name string, list func(*Profile) *[]T) extensionPoint {
	return extensionPoint{
		name: name,
		is:   func(l Plugin) bool { _, ok := l.(T); return ok },
		add:  func(p *Profile, l Plugin) { *list(p) = append(*list(p), l.(T)) },
	}
}

// extensionPoints is how NewProfile registers a plugin: each part of the
// plugin is added to every extension point whose interface it
// implements, in this order, and a plugin may be at each point once.
var extensionPoints = []extensionPoint{
	point("QueueSortPlugin", func(p *Profile) *[]QueueSortPlugin { return &p.queueSortAll }),
	point("PreEnqueuePlugin", func(p *Profile) *[]PreEnqueuePlugin { return &p.preEnqueue }),
	point("PreFilterPlugin", func(p *Profile) *[]PreFilterPlugin { return &p.preFilter }),
	point("FilterPlugin", func(p *Profile) *[]FilterPlugin { return &p.filter }),
	point("PostFilterPlugin", func(p *Profile) *[]PostFilterPlugin { return &p.postFilter }),
	point("PreScorePlugin", func(p *Profile) *[]PreScorePlugin { return &p.preScore }),
	point("ScorePlugin", func(p *Profile) *[]ScorePlugin { return &p.score }),
}

// NewProfile builds the profile cfg describes from the factories in r.
// Plugins named by the configuration that are kube-scheduler plugins
// missing from r are listed by NotEvaluated; other missing plugins are an
// error. Errors name the plugin.
func NewProfile(cfg ProfileConfig, r Registry, h Handle) (*Profile, error) {
	p := &Profile{
		name:       cfg.SchedulerName,
		percentage: cfg.PercentageOfNodesToScore,
		instances:  map[string]Plugin{},
	}
	if p.name == "" {
		p.name = config.DefaultSchedulerName
	}
	if pct := cfg.PercentageOfNodesToScore; pct != nil && (*pct < 0 || *pct > 100) {
		return nil, fmt.Errorf("profile %q: percentageOfNodesToScore %d is not in [0, 100]", p.name, *pct)
	}
	var totalWeight int64
	for _, ref := range cfg.pluginsToBuild() {
		if _, dup := p.instances[ref.Name]; dup || slices.Contains(p.notEvaluated, ref.Name) {
			return nil, fmt.Errorf("plugin %q is enabled twice in profile %q", ref.Name, p.name)
		}
		factory, ok := r[ref.Name]
		if !ok || factory == nil {
			if IsInTreePlugin(ref.Name) {
				p.notEvaluated = append(p.notEvaluated, ref.Name)
				continue
			}
			return nil, fmt.Errorf("plugin %q is not in the registry", ref.Name)
		}
		if ref.Weight < 0 {
			return nil, fmt.Errorf("plugin %q: weight %d is negative", ref.Name, ref.Weight)
		}
		pl, err := factory(cfg.PluginArgs[ref.Name], h)
		if err != nil {
			return nil, fmt.Errorf("initializing plugin %q: %w", ref.Name, err)
		}
		if pl == nil {
			return nil, fmt.Errorf("initializing plugin %q: factory returned nil", ref.Name)
		}
		p.instances[ref.Name] = pl
		leaves, err := expand(ref.Name, pl, nil)
		if err != nil {
			return nil, err
		}
		weight := int64(ref.Weight)
		if weight == 0 {
			weight = 1
		}
		seen := map[string]bool{}
		for _, leaf := range leaves {
			for _, ep := range extensionPoints {
				if !ep.is(leaf) {
					continue
				}
				if seen[ep.name] {
					return nil, fmt.Errorf("plugin %q already registered as %q", ref.Name, ep.name)
				}
				seen[ep.name] = true
				ep.add(p, leaf)
			}
			if _, ok := leaf.(ScorePlugin); ok {
				if weight*MaxNodeScore > MaxTotalScore-totalWeight {
					return nil, fmt.Errorf("plugin %q: total score of Score plugins could overflow", ref.Name)
				}
				totalWeight += weight * MaxNodeScore
				p.scoreWeights = append(p.scoreWeights, weight)
			}
			if x, ok := leaf.(EnqueueExtensions); ok {
				if p.enqueueEvents == nil {
					p.enqueueEvents = map[string]ClusterEvent{}
				}
				p.enqueueEvents[ref.Name] |= x.EventsToRegister()
				if h, ok := x.(QueueingHinter); ok {
					if p.hinters == nil {
						p.hinters = map[string][]QueueingHinter{}
					}
					p.hinters[ref.Name] = append(p.hinters[ref.Name], h)
				}
			}
		}
		p.plugins = append(p.plugins, PluginRef{Name: ref.Name, Weight: ref.Weight})
	}
	for _, pl := range p.filter {
		p.filterNames = append(p.filterNames, pl.Name())
	}
	for _, pl := range p.score {
		p.scoreNames = append(p.scoreNames, pl.Name())
	}
	queueSorts, err := p.applyExtensionPoints(&cfg, p.queueSortAll)
	if err != nil {
		return nil, err
	}
	p.queueSortAll = queueSorts
	if len(p.queueSortAll) != 1 {
		return nil, fmt.Errorf("only one queue sort plugin required for profile with scheduler name %q, but got %d", p.name, len(p.queueSortAll))
	}
	p.queueSort = p.queueSortAll[0]
	p.addScoreSkippers()
	return p, nil
}

// expand flattens MultiPointPlugins into their parts and checks that
// every part carries the configured name.
func expand(name string, pl Plugin, out []Plugin) ([]Plugin, error) {
	if pl.Name() != name {
		return nil, fmt.Errorf("plugin %q: the factory built a plugin named %q", name, pl.Name())
	}
	mp, ok := pl.(MultiPointPlugin)
	if !ok {
		return append(out, pl), nil
	}
	for _, part := range mp.Parts() {
		if part == nil {
			continue
		}
		var err error
		if out, err = expand(name, part, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Name is the profile's scheduler name.
func (p *Profile) Name() string { return p.name }

// PercentageOfNodesToScore is the profile's override, nil when the
// scheduler's setting applies.
func (p *Profile) PercentageOfNodesToScore() *int32 { return p.percentage }

// Plugins returns the plugins the profile runs, in order, with their
// configured weights.
func (p *Profile) Plugins() []PluginRef { return slices.Clone(p.plugins) }

// Plugin returns the instance of the named plugin.
func (p *Profile) Plugin(name string) (Plugin, bool) {
	pl, ok := p.instances[name]
	return pl, ok
}

// NotEvaluated returns the plugins the configuration names that this
// build does not have; decisions are made without them. The slice is
// shared: do not modify it.
func (p *Profile) NotEvaluated() []string { return p.notEvaluated }

// ListPlugins returns the plugin names at each extension point:
// "QueueSort", "PreEnqueue", "PreFilter", "Filter", "PostFilter",
// "PreScore" and "Score".
func (p *Profile) ListPlugins() map[string][]string {
	names := func(n int, at func(int) Plugin) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = at(i).Name()
		}
		return out
	}
	return map[string][]string{
		"QueueSort":  {p.queueSort.Name()},
		"PreEnqueue": names(len(p.preEnqueue), func(i int) Plugin { return p.preEnqueue[i] }),
		"PreFilter":  names(len(p.preFilter), func(i int) Plugin { return p.preFilter[i] }),
		"Filter":     slices.Clone(p.filterNames),
		"PostFilter": names(len(p.postFilter), func(i int) Plugin { return p.postFilter[i] }),
		"PreScore":   names(p.listedPreScore, func(i int) Plugin { return p.preScore[i] }),
		"Score":      slices.Clone(p.scoreNames),
	}
}

// ScoreWeight returns the weight of a score plugin, 0 if it is not one.
func (p *Profile) ScoreWeight(name string) int64 {
	if i := slices.Index(p.scoreNames, name); i >= 0 {
		return p.scoreWeights[i]
	}
	return 0
}

// QueueSortName is the name of the queue sort plugin.
func (p *Profile) QueueSortName() string { return p.queueSort.Name() }

// Less orders the queue with the profile's QueueSort plugin.
func (p *Profile) Less(a, b *QueuedPodInfo) bool { return p.queueSort.Less(a, b) }

// HasFilterPlugins reports whether any Filter plugin is enabled.
func (p *Profile) HasFilterPlugins() bool { return len(p.filter) > 0 }

// HasPostFilterPlugins reports whether any PostFilter plugin is enabled.
func (p *Profile) HasPostFilterPlugins() bool { return len(p.postFilter) > 0 }

// HasScorePlugins reports whether any Score plugin is enabled.
func (p *Profile) HasScorePlugins() bool { return len(p.score) > 0 }

// EventsOf returns the cluster events that may make a pod the named plugin
// rejected schedulable, when the plugin declares them (EnqueueExtensions).
func (p *Profile) EventsOf(plugin string) (ClusterEvent, bool) {
	e, ok := p.enqueueEvents[plugin]
	return e, ok
}

// QueueingHint is the verdict of the named plugin, which registered ev's
// kind, on ev for a pod it rejected: Queue if the plugin has no hints or
// ev carries no object, else Queue if one of its parts' hints says so.
func (p *Profile) QueueingHint(plugin string, pod *api.Pod, ev Event) QueueingHint {
	hs := p.hinters[plugin]
	if len(hs) == 0 || (ev.Old == nil && ev.New == nil) {
		return Queue
	}
	var hinted ClusterEvent
	for _, h := range hs {
		registered := h.EventsToRegister()
		hinted |= registered
		if registered&ev.Kind != 0 && h.QueueingHint(pod, ev) == Queue {
			return Queue
		}
	}
	if hinted&ev.Kind == 0 {
		// A part without hints registered the event.
		return Queue
	}
	return QueueSkip
}

// FilterPlugins returns the Filter plugins in the order they run (the
// parts of plugins that implement FilterPlugin).
func (p *Profile) FilterPlugins() []FilterPlugin { return slices.Clone(p.filter) }

// PreFilterPlugins returns the PreFilter plugins in the order they run
// (the parts of plugins that implement PreFilterPlugin).
func (p *Profile) PreFilterPlugins() []PreFilterPlugin { return slices.Clone(p.preFilter) }

// PreScorePlugins returns the PreScore plugins in the order they run,
// then the ScoreSkippers that are not PreScore plugins, each asked as a
// PreScore that returns Skip when its SkipScore says so.
func (p *Profile) PreScorePlugins() []PreScorePlugin { return slices.Clone(p.preScore) }

// WeightedScorePlugin is a Score plugin of a profile with its weight
// (1 when configured as 0).
type WeightedScorePlugin struct {
	ScorePlugin
	// Weight multiplies the plugin's normalised scores.
	Weight int64
}

// ScorePlugins returns the Score plugins in the order they run, with
// their weights.
func (p *Profile) ScorePlugins() []WeightedScorePlugin {
	out := make([]WeightedScorePlugin, len(p.score))
	for i, pl := range p.score {
		out[i] = WeightedScorePlugin{ScorePlugin: pl, Weight: p.scoreWeights[i]}
	}
	return out
}
