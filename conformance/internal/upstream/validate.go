package upstream

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/internal/testing/regression"
)

// Validation is the API server's pod validation on create
// (ValidatePodCreate with the options the feature gates give), after the
// pod defaulting, restricted to the fields resource.Validate checks.
func Validation(in *regression.ValidationInput) regression.ValidationAnswer {
	p := MustConvert[v1.Pod](in.Pod)
	corev1defaults.SetObjectDefaults_Pod(p)
	pod := &core.Pod{}
	if err := corev1defaults.Convert_v1_Pod_To_core_Pod(p, pod, nil); err != nil {
		panic(err)
	}
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&pod.Spec, nil, &pod.ObjectMeta, nil)
	var a regression.ValidationAnswer
	errs := validation.ValidatePodCreate(pod, opts)
	seen := map[string]bool{}
	for _, e := range errs {
		if !regression.ValidatedField(e.Field) {
			continue
		}
		if m := e.Error(); !seen[m] {
			seen[m] = true
			a.Errors = append(a.Errors, m)
		}
	}
	if regression.ValidationOrdered(Back[api.Pod](p)) {
		a.Ordered = append([]string(nil), a.Errors...)
	}
	sort.Strings(a.Errors)
	return a
}
