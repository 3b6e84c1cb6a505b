package regression

import (
	"errors"
	"regexp"
	"sort"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
	"github.com/schedkit/schedkit/resource"
)

// KindValidation compares resource.Validate with the API server's pod
// validation on create.
const KindValidation = "validation"

func init() { evaluators[KindValidation] = decodeEval(EvalValidation) }

// ValidationInput is a pod being created; both sides apply the API
// server's defaulting (limits → requests) before validating it.
type ValidationInput struct {
	Pod *api.Pod `json:"pod"`
}

// ValidationAnswer is the validation errors on the fields
// resource.Validate checks, sorted; and, when upstream's order does not
// depend on Go's map order (every requests and limits list names at most
// one resource), in the API server's order.
type ValidationAnswer struct {
	Errors  []string `json:"errors,omitempty"`
	Ordered []string `json:"ordered,omitempty"`
}

// validatedField matches the paths resource.Validate reports on.
var validatedField = regexp.MustCompile(`^spec\.(containers|initContainers)(\[\d+\]\.(name|restartPolicy|resources(\..*|\[.*)?))?$|^spec\.(resources|overhead)([.\[].*)?$|^spec\.(restartPolicy|preemptionPolicy)$`)

// ValidatedField reports whether an error on path is one
// resource.Validate checks.
func ValidatedField(path string) bool { return validatedField.MatchString(path) }

// ValidationOrdered reports whether upstream's order of errors for pod is
// fixed: every requests and limits list names at most one resource.
func ValidationOrdered(pod *api.Pod) bool {
	small := func(r *api.ResourceRequirements) bool { return len(r.Requests) <= 1 && len(r.Limits) <= 1 }
	for _, cs := range [][]api.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			if !small(&cs[i].Resources) {
				return false
			}
		}
	}
	if pod.Spec.Resources != nil && !small(pod.Spec.Resources) {
		return false
	}
	return len(pod.Spec.Overhead) <= 1
}

// EvalValidation is schedkit's answer for a validation input.
func EvalValidation(in *ValidationInput) ValidationAnswer {
	p := in.Pod.DeepCopy()
	resource.DefaultRequestsFromLimits(p)
	var a ValidationAnswer
	err := resource.Validate(p)
	var list field.ErrorList
	if err != nil && !errors.As(err, &list) {
		return ValidationAnswer{Errors: []string{"not a field.ErrorList: " + err.Error()}}
	}
	for _, e := range list {
		if ValidatedField(e.Field) {
			a.Errors = append(a.Errors, e.Error())
		}
	}
	if ValidationOrdered(p) {
		a.Ordered = append([]string(nil), a.Errors...)
	}
	sort.Strings(a.Errors)
	return a
}
