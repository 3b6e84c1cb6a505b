package customplugin

import (
	"github.com/schedkit/schedkit/framework"
)

// Name is the plugin's name in profiles.
const Name = "PreferSpot"

// Lifecycle is the node label PreferSpot reads.
const Lifecycle = "node.example.com/lifecycle"

// PreferSpot prefers spot nodes and refuses retiring ones. It is a
// framework.FilterPlugin and a framework.ScorePlugin: a name, a Filter, a
// Score and no normaliser. That is all a plugin needs. The scheduler
// runs it exactly.
type PreferSpot struct{}

var (
	_ framework.FilterPlugin      = PreferSpot{}
	_ framework.ScorePlugin       = PreferSpot{}
	_ framework.FastPathPlugin    = PreferSpot{}
	_ framework.EnqueueExtensions = PreferSpot{}
)

// New is the PreferSpot factory, the function a registry holds under
// Name. PreferSpot takes no arguments.
func New(_ any, _ framework.Handle) (framework.Plugin, error) { return PreferSpot{}, nil }

// Name returns Name.
func (pl PreferSpot) Name() string { return Name }

// FastPath joins the fast path. FilterNodes is Filter for many nodes.
// Score reads the node's labels only, so it does not depend on which
// nodes passed Filter, and the scheduler may score nodes as they pass.
// Without it, decisions are the same, and cycles that score every node
// are slower.
func (pl PreferSpot) FastPath() framework.FastPath {
	return framework.FastPath{FilterNodes: pl.FilterNodes, ScoresAnyNodes: true}
}

// EventsToRegister returns NodeUpdate. Only a node whose lifecycle label
// changes can admit a pod Filter rejected.
func (pl PreferSpot) EventsToRegister() framework.ClusterEvent { return framework.NodeUpdate }
