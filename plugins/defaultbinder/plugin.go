package defaultbinder

import (
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// Name is the plugin's name in a profile.
const Name = config.DefaultBinderName

// DefaultBinder stands for kube-scheduler's binder. It has no extension
// point here because Scheduler.Assume binds.
type DefaultBinder struct{}

// New is the DefaultBinder factory. DefaultBinder takes no arguments.
func New(_ any, _ framework.Handle) (framework.Plugin, error) { return DefaultBinder{}, nil }

// Name returns "DefaultBinder".
func (pl DefaultBinder) Name() string { return Name }
