package config

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// DefaultBindTimeoutSeconds is kube-scheduler's v1 default of
// VolumeBindingArgs.BindTimeoutSeconds.
const DefaultBindTimeoutSeconds int64 = 600

// VolumeBindingArgs configures the VolumeBinding plugin, as
// kube-scheduler's v1 VolumeBindingArgs.
type VolumeBindingArgs struct {
	api.TypeMeta `json:",inline"`
	// BindTimeoutSeconds is how long kube-scheduler waits for volumes to
	// bind (PreBind); nil means DefaultBindTimeoutSeconds, 0 means no
	// waiting. schedkit does not bind, so only validation reads it.
	BindTimeoutSeconds *int64 `json:"bindTimeoutSeconds,omitempty"`
	// Shape is the scoring function over the utilisation of the storage
	// the pod would use on a node (StorageCapacityScoring, on by default
	// in v1.37): points in increasing utilisation (0..100), scores 0..10.
	// Empty means DefaultVolumeBindingShape, which favours the node whose
	// storage would be least used.
	Shape []UtilizationShapePoint `json:"shape,omitempty"`
}

// DefaultVolumeBindingShape returns the default VolumeBindingArgs.Shape
// as a fresh slice: score 10 at utilisation 0, score 0 at 100.
func DefaultVolumeBindingShape() []UtilizationShapePoint {
	return []UtilizationShapePoint{
		{Utilization: 0, Score: int32(MaxCustomPriorityScore)},
		{Utilization: MaxUtilization, Score: 0},
	}
}

// DeepCopy returns a copy of a that shares no slices or pointers with it.
func (a *VolumeBindingArgs) DeepCopy() *VolumeBindingArgs {
	if a == nil {
		return nil
	}
	out := *a
	if a.BindTimeoutSeconds != nil {
		v := *a.BindTimeoutSeconds
		out.BindTimeoutSeconds = &v
	}
	if a.Shape != nil {
		out.Shape = append([]UtilizationShapePoint(nil), a.Shape...)
	}
	return &out
}

// SetDefaults fills in kube-scheduler's v1 defaults (with the
// StorageCapacityScoring gate on, as in v1.37): a nil BindTimeoutSeconds
// becomes 600 and an empty Shape becomes DefaultVolumeBindingShape.
func (a *VolumeBindingArgs) SetDefaults() {
	if a.BindTimeoutSeconds == nil {
		v := DefaultBindTimeoutSeconds
		a.BindTimeoutSeconds = &v
	}
	if len(a.Shape) == 0 {
		a.Shape = DefaultVolumeBindingShape()
	}
}

// Validate checks a as kube-scheduler's ValidateVolumeBindingArgs does
// with StorageCapacityScoring on (and a root field path):
// bindTimeoutSeconds must not be negative ("invalid BindTimeoutSeconds,
// should not be a negative value"), and the shape must have points
// sorted by strictly increasing utilisation, each utilisation in
// [0, 100] and each score in [0, 10]. The error, if any, is an
// ErrorList.
func (a *VolumeBindingArgs) Validate() error {
	var errs ErrorList
	var root *field.Path
	if a.BindTimeoutSeconds != nil && *a.BindTimeoutSeconds < 0 {
		errs = append(errs, field.Invalid(root.Child("bindTimeoutSeconds"), *a.BindTimeoutSeconds, "invalid BindTimeoutSeconds, should not be a negative value"))
	}
	errs = append(errs, validateFunctionShape(a.Shape, root.Child("shape"))...)
	return errs.ToAggregate()
}

// VolumeBindingArgsFrom converts a plugin factory's args to
// VolumeBindingArgs, as NodeResourcesFitArgsFrom does; any other type is
// an error worded as upstream's ("want args to be of type
// VolumeBindingArgs, got T").
func VolumeBindingArgsFrom(args any) (*VolumeBindingArgs, error) {
	var a *VolumeBindingArgs
	switch v := args.(type) {
	case nil:
		a = &VolumeBindingArgs{}
	case *VolumeBindingArgs:
		if v == nil {
			a = &VolumeBindingArgs{}
		} else {
			a = v.DeepCopy()
		}
	case VolumeBindingArgs:
		a = v.DeepCopy()
	default:
		return nil, fmt.Errorf("want args to be of type VolumeBindingArgs, got %T", args)
	}
	a.SetDefaults()
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}
