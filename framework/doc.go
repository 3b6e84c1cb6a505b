// Package framework defines kube-scheduler's extension points for
// schedkit: the plugin interfaces, the Status they return, the CycleState
// of one cycle and the Profile that names the plugins.
//
// Write a plugin by implementing the interfaces of the points it uses,
// then register its factory with the scheduler:
//
//	func (pl *MyPlugin) Filter(ctx context.Context, st *framework.CycleState,
//		pod *api.Pod, n *cluster.NodeInfo) *framework.Status { … }
//	s, err := scheduler.New(snap, scheduler.WithPlugin("MyPlugin", New))
//
// examples/customplugin is a complete plugin folder.
//
// # Scope
//
// It defines kube-scheduler's extension points for
// schedkit: plugin interfaces (PreEnqueue, PreFilter, Filter, PostFilter,
// PreScore, Score, NormalizeScore), the Status they return, the
// CycleState they share within one scheduling cycle and the Profile that
// lists them.
//
// # Start here
//
// To schedule pods you do not need this package beyond ProfileConfig:
// build a cluster.Snapshot, then a scheduler.Scheduler over it, then call
// Schedule, Explain or Simulate (see package scheduler). This package is
// for writing plugins and configuring profiles:
//
//   - A plugin is a Plugin (a name) implementing one or more of the
//     extension point interfaces, the same contract as kube-scheduler's.
//     Register its PluginFactory with scheduler.WithPlugin and name it in
//     a ProfileConfig.
//   - A Profile is the plugins of a ProfileConfig, registered at every
//     extension point they implement (NewProfile's table lists the
//     points); its Run methods run one extension point the way
//     kube-scheduler's framework runtime does, node by node.
//
// # Joining the fast path
//
// The scheduler runs a plugin written against the plain interfaces
// exactly, in every cycle. It may run it faster when the plugin implements
// the one optional interface FastPathPlugin, whose contract is written
// beside it: batch forms of Filter and Score, normalisation by the highest
// score, and a promise that PreScore and Score ignore which nodes passed
// Filter (so nodes are scored as they pass). Eligibility is decided per
// cycle, from the plugins active in it: a plugin that returns Skip from
// PreFilter or PreScore for a pod does not count in that pod's cycle, and
// a plugin that does not opt in makes only the cycles it is active in
// take the plain way. Nothing else is needed: the built-in plugins of
// packages predicates and priorities are examples, and a template is in
// FastPathPlugin's documentation. Whatever a plugin offers, the decision
// must be the one of its plain methods; the scheduler's tests and its
// WithEngineCheck option compare the two.
package framework
