package queuesort

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.PrioritySortName

// PrioritySort is kube-scheduler's QueueSort plugin: higher priority
// first, then earlier queue timestamp.
type PrioritySort struct{}

var _ framework.QueueSortPlugin = PrioritySort{}

// New is the PrioritySort factory. PrioritySort takes no arguments.
func New(_ any, _ framework.Handle) (framework.Plugin, error) { return PrioritySort{}, nil }

// Name returns "PrioritySort".
func (pl PrioritySort) Name() string { return Name }

// Less reports whether a goes before b.
func (pl PrioritySort) Less(a, b *framework.QueuedPodInfo) bool {
	p1, p2 := a.Priority(), b.Priority()
	return p1 > p2 || (p1 == p2 && a.Timestamp.Before(b.Timestamp))
}
