// Package customplugin is a plugin of your own, laid out as the in-tree
// plugins are: plugin.go, filter.go, score.go and common.go in one
// folder. PreferSpot gives nodes labelled node.example.com/lifecycle=spot
// the top score, so that cheap nodes fill first when everything else is
// equal, and refuses nodes labelled retiring.
//
// Adding it touches this folder and the registry only: register New under
// Name with scheduler.WithPlugin, and name it in a profile. The Example
// does both and explains a decision.
package customplugin
