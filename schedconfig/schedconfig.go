package schedconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/scheduler"
	"sigs.k8s.io/yaml"
)

// Config is what a configuration file asks of the scheduler.
type Config struct {
	// Profiles are the scheduling profiles, in the file's order.
	Profiles []framework.ProfileConfig
	// PercentageOfNodesToScore is the global sampling setting (0 is
	// adaptive).
	PercentageOfNodesToScore int32
	// Parallelism is the number of goroutines that filter and score.
	Parallelism int
	// Warnings name the fields of the file schedkit read but does not
	// honour, with their paths.
	Warnings []string
}

// Options returns the scheduler options that apply c: its profiles, its
// percentage of nodes to score and its parallelism.
func (c *Config) Options() []scheduler.Option {
	return []scheduler.Option{
		scheduler.WithProfiles(c.Profiles...),
		scheduler.WithPercentageOfNodesToScore(c.PercentageOfNodesToScore),
		scheduler.WithParallelism(c.Parallelism),
	}
}

// ReadFile reads a configuration file (see Decode); errors name the
// file.
func ReadFile(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Decode reads a KubeSchedulerConfiguration or a Policy from YAML or
// JSON, by its kind.
func Decode(data []byte) (*Config, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var tm api.TypeMeta
	if err := json.Unmarshal(js, &tm); err != nil {
		return nil, fmt.Errorf("reading kind and apiVersion: %w", err)
	}
	switch tm.Kind {
	case config.KindKubeSchedulerConfiguration:
		kc, warnings, err := config.DecodeKubeSchedulerConfiguration(data)
		if err != nil {
			return nil, err
		}
		c, err := FromKubeSchedulerConfiguration(kc)
		if err != nil {
			return nil, err
		}
		c.Warnings = append(warnings, c.Warnings...)
		return c, nil
	case KindPolicy:
		p, err := DecodePolicy(data)
		if err != nil {
			return nil, err
		}
		return FromPolicy(p)
	case "":
		return nil, errors.New("kind is missing: want KubeSchedulerConfiguration or Policy")
	}
	return nil, fmt.Errorf("kind %q is not a scheduler configuration: want KubeSchedulerConfiguration (%s) or Policy (v1)", tm.Kind, config.SchemeGroupVersion)
}

// FromKubeSchedulerConfiguration converts a decoded, defaulted and
// validated configuration (config.DecodeKubeSchedulerConfiguration) to
// scheduler options. Each profile keeps its multiPoint set as
// ProfileConfig.Plugins and Disabled (merged with the default plugins
// by the framework, as kube-scheduler's v1 defaulting merges them), its
// other extension points as ExtensionPoints, and its pluginConfig as
// PluginArgs: the decoded args for plugins whose arguments schedkit
// knows, json.RawMessage for the others. A profile without a bind plugin
// is an error, as in kube-scheduler.
func FromKubeSchedulerConfiguration(kc *config.KubeSchedulerConfiguration) (*Config, error) {
	c := &Config{
		PercentageOfNodesToScore: deref(kc.PercentageOfNodesToScore),
		Parallelism:              int(deref(kc.Parallelism)),
	}
	for i := range kc.Profiles {
		p, err := profileConfig(&kc.Profiles[i])
		if err != nil {
			return nil, err
		}
		c.Profiles = append(c.Profiles, p)
	}
	return c, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func refs(in []config.Plugin) []framework.PluginRef {
	var out []framework.PluginRef
	for _, p := range in {
		out = append(out, framework.PluginRef{Name: p.Name, Weight: deref(p.Weight)})
	}
	return out
}

func names(in []config.Plugin) []string {
	var out []string
	for _, p := range in {
		out = append(out, p.Name)
	}
	return out
}

func set(ps config.PluginSet) framework.PluginSet {
	return framework.PluginSet{Enabled: refs(ps.Enabled), Disabled: names(ps.Disabled)}
}

func profileConfig(kp *config.KubeSchedulerProfile) (framework.ProfileConfig, error) {
	pc := framework.ProfileConfig{
		SchedulerName:            deref(kp.SchedulerName),
		PercentageOfNodesToScore: kp.PercentageOfNodesToScore,
	}
	plugins := kp.Plugins
	if plugins == nil {
		plugins = &config.Plugins{}
	}
	pc.Plugins = refs(plugins.MultiPoint.Enabled)
	pc.Disabled = names(plugins.MultiPoint.Disabled)
	for _, p := range plugins.PreScore.Enabled {
		if slices.Contains(upstreamNoPreScore(), p.Name) {
			return pc, fmt.Errorf("plugin %q does not extend PreScorePlugin plugin", p.Name)
		}
	}
	preFilter := set(plugins.PreFilter)
	for i, r := range preFilter.Enabled {
		if slices.ContainsFunc(preFilter.Enabled[:i], func(x framework.PluginRef) bool { return x.Name == r.Name }) {
			return pc, fmt.Errorf("plugin %q already registered as %q", r.Name, "PreFilterPlugin")
		}
	}
	preFilter.Enabled = slices.DeleteFunc(preFilter.Enabled, func(r framework.PluginRef) bool {
		return slices.Contains(upstreamOnlyPreFilter(), r.Name)
	})
	pc.ExtensionPoints = &framework.ExtensionPoints{
		PreEnqueue: set(plugins.PreEnqueue),
		QueueSort:  set(plugins.QueueSort),
		PreFilter:  preFilter,
		Filter:     set(plugins.Filter),
		PostFilter: set(plugins.PostFilter),
		PreScore:   set(plugins.PreScore),
		Score:      set(plugins.Score),
	}
	if err := checkBind(pc.MergePlugins(), plugins.Bind, pc.SchedulerName); err != nil {
		return pc, err
	}
	for _, e := range kp.PluginConfig {
		if pc.PluginArgs == nil {
			pc.PluginArgs = map[string]any{}
		}
		switch {
		case e.Object != nil:
			pc.PluginArgs[e.Name] = e.Object
		case len(e.Args) > 0:
			pc.PluginArgs[e.Name] = e.Args
		}
	}
	return pc, nil
}

// upstreamOnlyPreFilter are kube-scheduler plugins with a PreFilter
// (that only decides to skip their Filter) whose schedkit plugins have
// none: enabling them at preFilter is accepted and does nothing.
func upstreamOnlyPreFilter() []string {
	return []string{config.NodeNameName, config.NodeUnschedulableName, config.TaintTolerationName}
}

// upstreamNoPreScore are kube-scheduler plugins without a PreScore whose
// schedkit plugins have one (an optimisation their Score does without):
// enabling them at preScore is an error, as upstream, and disabling them
// there only skips the optimisation.
func upstreamNoPreScore() []string { return []string{config.ImageLocalityName} }

// checkBind checks the bind extension point as kube-scheduler's framework
// builds it (schedkit runs no bind plugin): DefaultBinder is the only
// kube-scheduler plugin that binds, so another of its plugins enabled at
// bind is an error (plugins of other names are taken as binders), and
// the point must end up with a plugin: DefaultBinder from multiPoint,
// unless the bind point disables it, or one enabled there.
func checkBind(multi []framework.PluginRef, bind config.PluginSet, profile string) error {
	var enabled []string
	for _, p := range bind.Enabled {
		if p.Name != config.DefaultBinderName && (framework.IsInTreePlugin(p.Name) || isOptional(p.Name)) {
			return fmt.Errorf("plugin %q does not extend BindPlugin plugin", p.Name)
		}
		if slices.Contains(enabled, p.Name) {
			return fmt.Errorf("plugin %q already registered as %q", p.Name, "BindPlugin")
		}
		enabled = append(enabled, p.Name)
	}
	if len(enabled) > 0 {
		return nil
	}
	disabled := names(bind.Disabled)
	if !slices.Contains(disabled, "*") && !slices.Contains(disabled, config.DefaultBinderName) &&
		slices.ContainsFunc(multi, func(r framework.PluginRef) bool { return r.Name == config.DefaultBinderName }) {
		return nil
	}
	return fmt.Errorf("at least one bind plugin is needed for profile with scheduler name %q", profile)
}

// isOptional reports whether name is one of schedkit's optional legacy
// plugins (none of which binds).
func isOptional(name string) bool {
	switch name {
	case config.NodeLabelName, config.ServiceAffinityName, config.NodePreferAvoidPodsName, config.EqualPriorityName, config.SelectorSpreadName,
		config.CheckNodeMemoryPressureName, config.CheckNodeDiskPressureName, config.CheckNodePIDPressureName:
		return true
	}
	return false
}
