// Package plugins builds the registry of kube-scheduler's in-tree
// plugins, one package per plugin below it.
//
// Most programs never call it: scheduler.DefaultRegistry returns
// NewInTreeRegistry. A program that adds a plugin of its own puts it in
// its own package and registers its factory under its name, with
// scheduler.WithPlugin or by adding it to the registry.
//
// Each plugin package has plugin.go (the Name constant, the plugin type,
// New, EventsToRegister), filter.go and score.go for its two halves, and
// common.go for what both share. The plugins call the plain functions of
// packages predicates and priorities; they keep their own per-cycle
// state and caches.
package plugins
