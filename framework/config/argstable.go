package config

import (
	"slices"
	"sort"
)

// pluginArgsTypes is the table of the plugins whose arguments this package
// decodes, defaults and validates: plugin name → a new zero value of its
// arguments type. The kind of a plugin's arguments is its name plus
// "Args" (kube-scheduler's rule).
//
// Adding the arguments of a plugin is one entry here: write the type in a
// file of its own with SetDefaults, Validate (root field paths, an
// ErrorList) and DeepCopy, add
//
//	InterPodAffinityName: func() PluginArgs { return new(InterPodAffinityArgs) },
//
// and remove the name from hasUndecodedArgs. The plugin's factory then
// reads its args with ArgsFrom[InterPodAffinityArgs](args), and
// DecodeKubeSchedulerConfiguration decodes a pluginConfig entry for it
// strictly, defaults it and validates it under the entry's path.
func pluginArgsTypes() map[string]func() PluginArgs {
	return map[string]func() PluginArgs{
		NodeResourcesFitName:                func() PluginArgs { return new(NodeResourcesFitArgs) },
		NodeResourcesBalancedAllocationName: func() PluginArgs { return new(NodeResourcesBalancedAllocationArgs) },
		NodeAffinityName:                    func() PluginArgs { return new(NodeAffinityArgs) },
		NodeLabelName:                       func() PluginArgs { return new(NodeLabelArgs) },
		ServiceAffinityName:                 func() PluginArgs { return new(ServiceAffinityArgs) },
		PodTopologySpreadName:               func() PluginArgs { return new(PodTopologySpreadArgs) },
		InterPodAffinityName:                func() PluginArgs { return new(InterPodAffinityArgs) },
		DefaultPreemptionName:               func() PluginArgs { return new(DefaultPreemptionArgs) },
		DynamicResourcesName:                func() PluginArgs { return new(DynamicResourcesArgs) },
	}
}

// NewPluginArgs returns a new zero arguments value for the named plugin,
// and whether this package knows the plugin's arguments type.
func NewPluginArgs(plugin string) (PluginArgs, bool) {
	f, ok := pluginArgsTypes()[plugin]
	if !ok {
		return nil, false
	}
	return f(), true
}

// ArgsPlugins returns the names of the plugins whose arguments this
// package decodes, sorted.
func ArgsPlugins() []string {
	t := pluginArgsTypes()
	out := make([]string, 0, len(t))
	for name := range t {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// hasUndecodedArgs reports whether kube-scheduler has an arguments type
// for the plugin that schedkit lacks: such args are passed to the
// factory undecoded (json.RawMessage), with a warning.
func hasUndecodedArgs(plugin string) bool {
	if _, ok := pluginArgsTypes()[plugin]; ok {
		return false
	}
	return slices.Contains([]string{VolumeBindingName}, plugin)
}
