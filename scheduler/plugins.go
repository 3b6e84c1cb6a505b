package scheduler

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins"
)

// DefaultRegistry returns the factories of the plugins this build has,
// under kube-scheduler's names. Add to it (or use WithPlugin) to make
// plugins of your own available to profiles.
func DefaultRegistry() framework.Registry {
	return plugins.NewInTreeRegistry()
}

// eventsOf returns the events that may make a pod rejected by plugin
// schedulable: the plugin's own registration, the in-tree default, or
// every event.
func eventsOf(prof *framework.Profile, plugin string) framework.ClusterEvent {
	if e, ok := prof.EventsOf(plugin); ok {
		return e
	}
	if e, ok := plugins.EventsOf(plugin); ok {
		return e
	}
	return framework.AllEvents
}
