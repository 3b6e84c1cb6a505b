package manifest

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/field"
)

// draGroup is the API group of the DRA kinds.
const draGroup = "resource.k8s.io"

// celCheck returns the Reader's CEL check, building the compiler on first
// use: most inputs have no DRA selectors and should not pay for the
// environment.
func (r *Reader) celCheck() dra.CELCheck {
	if r.cel == nil {
		c, err := cel.NewCompiler(0)
		if err != nil {
			return func(_ string, p *field.Path) field.ErrorList {
				return field.ErrorList{field.InternalError(p, err)}
			}
		}
		r.cel = c
	}
	return r.cel.Check
}

// validateDRA validates a DRA object as the API server does on create
// (package dra's Validate functions, with CEL selectors compiled in the
// Kubernetes environment), after the API server's defaults for claim
// specs. Other objects have no issues here.
func (r *Reader) validateDRA(obj any) []objectIssue {
	var errs field.ErrorList
	switch o := obj.(type) {
	case *api.DeviceClass:
		errs = dra.ValidateDeviceClass(o, r.celCheck())
	case *api.ResourceSlice:
		errs = dra.ValidateResourceSliceWith(r.draFeatures, o)
	case *api.ResourceClaim:
		dra.SetDefaults(&o.Spec)
		errs = dra.ValidateResourceClaim(o, r.celCheck())
	case *api.ResourceClaimTemplate:
		dra.SetDefaults(&o.Spec.Spec)
		errs = dra.ValidateResourceClaimTemplate(o, r.celCheck())
	case *api.DeviceTaintRule:
		errs = dra.ValidateDeviceTaintRule(o)
	default:
		return nil
	}
	out := make([]objectIssue, 0, len(errs))
	for _, e := range errs {
		out = append(out, objectIssue{e.Field, fieldBody{e}})
	}
	return out
}

// fieldBody prints a field error without its path, which the Error
// holding it prints.
type fieldBody struct{ e *field.Error }

func (b fieldBody) Error() string { return b.e.ErrorBody() }

func (b fieldBody) Unwrap() error { return b.e }
