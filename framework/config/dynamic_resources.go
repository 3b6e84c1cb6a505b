package config

import (
	"fmt"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// Defaults of DynamicResourcesArgs, as kube-scheduler's v1 defaulting with
// DRASchedulerFilterTimeout (beta, on) and DRADeviceBindingConditions with
// DRAResourceClaimDeviceStatus (on in v1.37).
const (
	// DefaultDRAFilterTimeout bounds the device search of one node.
	DefaultDRAFilterTimeout = 10 * time.Second
	// DefaultDRABindingTimeout bounds the wait for binding conditions.
	DefaultDRABindingTimeout = 600 * time.Second
)

// DynamicResourcesArgs configures the DynamicResources plugin, as
// kube-scheduler's v1 DynamicResourcesArgs.
type DynamicResourcesArgs struct {
	api.TypeMeta `json:",inline"`
	// FilterTimeout bounds the device search Filter makes for one node;
	// 0 means no limit. nil means DefaultDRAFilterTimeout. A node whose
	// search times out is an Error for the pod, as upstream's.
	FilterTimeout *Duration `json:"filterTimeout,omitempty"`
	// BindingTimeout is how long kube-scheduler waits in PreBind for
	// binding conditions; nil means DefaultDRABindingTimeout. schedkit
	// does not bind, so only validation reads it.
	BindingTimeout *Duration `json:"bindingTimeout,omitempty"`
}

// DeepCopy returns a copy of a that shares nothing with it.
func (a *DynamicResourcesArgs) DeepCopy() *DynamicResourcesArgs {
	if a == nil {
		return nil
	}
	out := *a
	if a.FilterTimeout != nil {
		v := *a.FilterTimeout
		out.FilterTimeout = &v
	}
	if a.BindingTimeout != nil {
		v := *a.BindingTimeout
		out.BindingTimeout = &v
	}
	return &out
}

// SetDefaults fills in kube-scheduler's v1 defaults: FilterTimeout 10s
// and BindingTimeout 600s when nil.
func (a *DynamicResourcesArgs) SetDefaults() {
	if a.FilterTimeout == nil {
		a.FilterTimeout = &Duration{Duration: DefaultDRAFilterTimeout}
	}
	if a.BindingTimeout == nil {
		a.BindingTimeout = &Duration{Duration: DefaultDRABindingTimeout}
	}
}

// Validate checks a as kube-scheduler's ValidateDynamicResourcesArgs does
// with the default gates: filterTimeout "must be zero or positive" and
// bindingTimeout "must be at least 1 second".
func (a *DynamicResourcesArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	if a.FilterTimeout != nil && a.FilterTimeout.Duration < 0 {
		errs = append(errs, field.Invalid(root.Child("filterTimeout"), a.FilterTimeout.Duration.String(), "must be zero or positive"))
	}
	if a.BindingTimeout != nil && a.BindingTimeout.Duration < time.Second {
		errs = append(errs, field.Invalid(root.Child("bindingTimeout"), a.BindingTimeout.Duration.String(), "must be at least 1 second"))
	}
	return errs.ToAggregate()
}

// wrongType words a wrong arguments type as upstream's factory does.
func (a *DynamicResourcesArgs) wrongType(got any) error {
	return fmt.Errorf("got args of type %T, want *DynamicResourcesArgs", got)
}
