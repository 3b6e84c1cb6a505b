package framework

import (
	"fmt"
	"slices"
)

// PluginSet is one extension point's section of a KubeSchedulerProfile's
// plugins: plugins enabled at that point only, in order, and plugins
// (or "*", all of them) that multiPoint must not place there.
type PluginSet struct {
	// Enabled plugins, in order; each must implement the point.
	Enabled []PluginRef
	// Disabled names plugins multiPoint does not place at this point;
	// "*" disables multiPoint at this point altogether.
	Disabled []string
}

// ExtensionPoints are a profile's per-extension-point plugin sets, on top
// of the multiPoint plugins (ProfileConfig.Plugins and Disabled merged
// with DefaultPlugins). For each point, as kube-scheduler's framework
// expands multiPoint:
//
//   - with "*" in Disabled, the point runs exactly its Enabled plugins;
//   - otherwise it runs, in this order: its Enabled plugins that are also
//     multiPoint plugins (explicitly re-configured), the multiPoint
//     plugins that implement the point and are not in its Disabled, and
//     its other Enabled plugins.
//
// A Score Enabled weight takes precedence over the multiPoint weight.
type ExtensionPoints struct {
	PreEnqueue PluginSet // PreEnqueue plugins
	QueueSort  PluginSet // the QueueSort plugin
	PreFilter  PluginSet // PreFilter plugins
	Filter     PluginSet // Filter plugins
	PostFilter PluginSet // PostFilter plugins
	PreScore   PluginSet // PreScore plugins
	Score      PluginSet // Score plugins, with weights
}

func (e *ExtensionPoints) sets() []*PluginSet {
	return []*PluginSet{&e.PreEnqueue, &e.QueueSort, &e.PreFilter, &e.Filter, &e.PostFilter, &e.PreScore, &e.Score}
}

// pluginsToBuild is MergePlugins plus the plugins enabled only at an
// extension point, each once, in the order the points list them.
func (cfg *ProfileConfig) pluginsToBuild() []PluginRef {
	refs := cfg.MergePlugins()
	if cfg.ExtensionPoints == nil {
		return refs
	}
	seen := map[string]bool{}
	for _, r := range refs {
		seen[r.Name] = true
	}
	for _, s := range cfg.ExtensionPoints.sets() {
		for _, r := range s.Enabled {
			if !seen[r.Name] {
				seen[r.Name] = true
				refs = append(refs, PluginRef{Name: r.Name})
			}
		}
	}
	return refs
}

// expandPoint returns the plugins an extension point runs, by name:
// multi are the multiPoint plugins, and current the plugins registered at
// the point (every built plugin implementing it), in build order.
func (p *Profile) expandPoint(kind string, set PluginSet, multi []PluginRef, current []string) ([]string, error) {
	var enabled []string
	for _, r := range set.Enabled {
		switch {
		case slices.Contains(p.notEvaluated, r.Name):
			continue
		case !slices.Contains(current, r.Name):
			return nil, fmt.Errorf("plugin %q does not extend %s plugin", r.Name, kind)
		case slices.Contains(enabled, r.Name):
			return nil, fmt.Errorf("plugin %q already registered as %q", r.Name, kind)
		}
		enabled = append(enabled, r.Name)
	}
	if slices.Contains(set.Disabled, "*") {
		return enabled, nil
	}
	var overrides, fromMulti []string
	for _, r := range multi {
		switch {
		case !slices.Contains(current, r.Name), slices.Contains(set.Disabled, r.Name):
			continue
		case slices.Contains(enabled, r.Name):
			overrides = append(overrides, r.Name)
		case slices.Contains(fromMulti, r.Name):
			return nil, fmt.Errorf("plugin %q already registered as %q", r.Name, kind)
		default:
			fromMulti = append(fromMulti, r.Name)
		}
	}
	out := make([]string, 0, len(enabled)+len(fromMulti))
	for _, n := range enabled {
		if slices.Contains(overrides, n) {
			out = append(out, n)
		}
	}
	out = append(out, fromMulti...)
	for _, n := range enabled {
		if !slices.Contains(overrides, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// pick returns xs reordered as want orders names (xs[i] is named
// names[i]).
func pick[T any](xs []T, names, want []string) []T {
	out := make([]T, 0, len(want))
	for _, n := range want {
		out = append(out, xs[slices.Index(names, n)])
	}
	return out
}

func namesOf[T Plugin](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name()
	}
	return out
}

// applyExtensionPoints rebuilds the plugin list of every extension point
// from cfg.ExtensionPoints once every plugin has been built and
// registered at all the points it implements, and sets the score
// weights; it returns the queue sort plugins.
func (p *Profile) applyExtensionPoints(cfg *ProfileConfig, queueSorts []QueueSortPlugin) ([]QueueSortPlugin, error) {
	e := cfg.ExtensionPoints
	if e == nil {
		return queueSorts, nil
	}
	multi := cfg.MergePlugins()
	var err error
	expand := func(kind string, set PluginSet, current []string) []string {
		if err != nil {
			return nil
		}
		var out []string
		out, err = p.expandPoint(kind, set, multi, current)
		return out
	}
	n := namesOf(queueSorts)
	queueSorts = pick(queueSorts, n, expand("QueueSortPlugin", e.QueueSort, n))
	n = namesOf(p.preEnqueue)
	p.preEnqueue = pick(p.preEnqueue, n, expand("PreEnqueuePlugin", e.PreEnqueue, n))
	n = namesOf(p.preFilter)
	p.preFilter = pick(p.preFilter, n, expand("PreFilterPlugin", e.PreFilter, n))
	n = slices.Clone(p.filterNames)
	if want := expand("FilterPlugin", e.Filter, n); err == nil {
		p.filter, p.filterNames = pick(p.filter, n, want), want
	}
	n = namesOf(p.postFilter)
	p.postFilter = pick(p.postFilter, n, expand("PostFilterPlugin", e.PostFilter, n))
	n = namesOf(p.preScore)
	p.preScore = pick(p.preScore, n, expand("PreScorePlugin", e.PreScore, n))
	n = slices.Clone(p.scoreNames)
	want := expand("ScorePlugin", e.Score, n)
	if err != nil {
		return nil, err
	}
	// Weights: the Score point's own entry first, then multiPoint's; the
	// overflow check covers every score plugin either lists.
	weights := map[string]int64{}
	var total int64
	for _, r := range append(slices.Clone(e.Score.Enabled), multi...) {
		if _, ok := weights[r.Name]; ok || !slices.Contains(n, r.Name) {
			continue
		}
		if r.Weight < 0 {
			return nil, fmt.Errorf("plugin %q: weight %d is negative", r.Name, r.Weight)
		}
		w := int64(r.Weight)
		if w == 0 {
			w = 1
		}
		weights[r.Name] = w
		if w*MaxNodeScore > MaxTotalScore-total {
			return nil, fmt.Errorf("score plugins: total score of Score plugins could overflow")
		}
		total += w * MaxNodeScore
	}
	p.score, p.scoreNames = pick(p.score, n, want), want
	p.scoreWeights = make([]int64, len(want))
	for i, name := range want {
		p.scoreWeights[i] = weights[name]
	}
	for _, r := range e.Score.Enabled {
		if i := slices.IndexFunc(p.plugins, func(x PluginRef) bool { return x.Name == r.Name }); i >= 0 {
			p.plugins[i].Weight = r.Weight
		}
	}
	return queueSorts, nil
}
