package resource

import (
	"errors"
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/api"
)

func fieldErrorStrings(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var fe *FieldError
		if !errors.As(e, &fe) {
			t.Fatalf("%v is not a *FieldError", e)
		}
		out = append(out, fe.Error())
	}
	return out
}

// TestValidate pins the checks and messages of the API server's pod
// resource validation (validateResourceRequirements,
// ValidateContainerResourceName, validatePodResourceConsistency and the
// restart policy checks), with the API server's paths and order.
func TestValidate(t *testing.T) {
	policy := func(s string) *api.ContainerRestartPolicy { p := api.ContainerRestartPolicy(s); return &p }
	pod := func(cs ...api.Container) *api.Pod { return &api.Pod{Spec: api.PodSpec{Containers: cs}} }
	cases := []struct {
		name string
		pod  *api.Pod
		want []string
	}{
		{"valid", pod(ctr("a", both(rl("cpu=1", "memory=1Gi", "example.com/gpu=1", "hugepages-2Mi=4Mi"), rl("cpu=2", "example.com/gpu=1", "hugepages-2Mi=4Mi")))), nil},
		{"no containers", pod(), []string{"spec.containers: Required value"}},
		// validateContainerCommon: name, then image.
		{"no name, no image", pod(api.Container{}), []string{"spec.containers[0].name: Required value", "spec.containers[0].image: Required value"}},
		{"request over limit", pod(ctr("a", both(rl("cpu=2"), rl("cpu=1")))),
			[]string{`spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`}},
		{"negative", pod(ctr("a", both(rl("memory=-1"), rl("cpu=-1")))),
			[]string{
				`spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
				`spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0`,
			}},
		{"extended must equal limit and be whole", pod(ctr("a", both(rl("example.com/gpu=500m"), rl("example.com/gpu=1")))),
			[]string{
				`spec.containers[0].resources.requests[example.com/gpu]: Invalid value: "500m": must be an integer`,
				`spec.containers[0].resources.requests: Invalid value: "500m": must be equal to example.com/gpu limit of 1`,
			}},
		{"extended without limit", pod(ctr("a", req(rl("example.com/gpu=1")))),
			[]string{`spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`}},
		{"hugepages alone", pod(ctr("a", both(rl("hugepages-2Mi=2Mi"), rl("hugepages-2Mi=2Mi")))),
			[]string{`spec.containers[0].resources: Forbidden: HugePages require cpu or memory`}},
		{"unknown names", pod(ctr("a", req(rl("gpu=1", "pods=1", "kubernetes.io/foo=1")))),
			[]string{
				`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
				`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
				`spec.containers[0].resources.requests[pods]: Invalid value: "pods": must be a standard resource for containers`,
			}},
		{"bad restart policies", &api.Pod{Spec: api.PodSpec{RestartPolicy: "Sometimes",
			Containers:     []api.Container{{Name: "a", RestartPolicy: policy("Never")}},
			InitContainers: []api.Container{{Name: "b", RestartPolicy: policy("Sometimes")}}}},
			[]string{
				`spec.initContainers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"`,
				`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
			}},
		{"names", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}, {}}, InitContainers: []api.Container{{Name: "a"}}}},
			[]string{`spec.containers[1].name: Required value`, `spec.initContainers[0].name: Duplicate value: "a"`}},
		{"overhead", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}, Overhead: rl("cpu=-1")}},
			[]string{`spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`}},
		{"pod level", &api.Pod{Spec: api.PodSpec{
			Containers: []api.Container{ctr("a", both(rl("cpu=2"), rl("cpu=3")))},
			Resources:  &api.ResourceRequirements{Requests: rl("cpu=1", "ephemeral-storage=1Gi"), Limits: rl("cpu=2")}}},
			[]string{
				`spec.resources.requests[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", "memory"`,
				`spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2`,
				`spec.resources.containers[0][cpu].limits: Invalid value: "3": must be less than or equal to pod limits of 2`,
			}},
		// upstream: TestValidateResourceRequirements / validateResourceQuantityHugePageValue
		{"hugepages not a page multiple", pod(ctr("a", both(rl("cpu=1", "hugepages-2Mi=3Mi"), rl("hugepages-2Mi=3Mi")))),
			[]string{
				`spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
				`spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
			}},
		// upstream: ValidatePodSpec's order: containers, init containers,
		// pod-level resources, restartPolicy, preemptionPolicy, overhead;
		// per container name, resources, duplicate name, restartPolicy;
		// unnamed init containers are not duplicates of each other.
		{"API server order", &api.Pod{Spec: api.PodSpec{RestartPolicy: "Sometimes", Overhead: rl("cpu=-1"),
			Containers:     []api.Container{ctr("a", both(rl("cpu=2"), rl("cpu=1"))), {Name: "a", RestartPolicy: policy("Sometimes")}},
			InitContainers: []api.Container{{Name: "a"}, {}, {}},
			Resources:      &api.ResourceRequirements{Requests: rl("memory=-1")}}},
			[]string{
				`spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
				`spec.containers[1].name: Duplicate value: "a"`,
				`spec.containers[1].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"`,
				`spec.initContainers[0].name: Duplicate value: "a"`,
				`spec.initContainers[1].name: Required value`,
				`spec.initContainers[2].name: Required value`,
				`spec.resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0`,
				`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
				`spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "no name, no image" {
				// Every container has an image but in the row on images.
				for _, cs := range [][]api.Container{tc.pod.Spec.Containers, tc.pod.Spec.InitContainers} {
					for i := range cs {
						if cs[i].Image == "" {
							cs[i].Image = "img"
						}
					}
				}
			}
			got := fieldErrorStrings(t, Validate(tc.pod))
			if len(tc.want) == 0 {
				tc.want = nil
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Validate:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
	if Validate(nil) == nil {
		t.Error("Validate(nil) = nil")
	}
}

// TestResourceNameHelpers pins the name classification helpers against
// upstream's v1 helper semantics.
func TestResourceNameHelpers(t *testing.T) {
	cases := []struct {
		name                                 api.ResourceName
		native, extended, scalar, overcommit bool
	}{
		{"cpu", true, false, false, true},
		{"hugepages-2Mi", true, false, true, false},
		{"example.com/gpu", false, true, true, false},
		{"kubernetes.io/foo", true, false, true, true},
		{"foo.kubernetes.io/bar", true, false, true, true},
		{"requests.example.com/gpu", false, false, false, false},
		{"attachable-volumes-aws-ebs", true, false, true, true},
		{"example.com/" + "a_", false, false, false, false},
	}
	for _, tc := range cases {
		if got := IsNativeResource(tc.name); got != tc.native {
			t.Errorf("IsNativeResource(%s) = %v", tc.name, got)
		}
		if got := IsExtendedResourceName(tc.name); got != tc.extended {
			t.Errorf("IsExtendedResourceName(%s) = %v", tc.name, got)
		}
		if got := IsScalarResourceName(tc.name); got != tc.scalar {
			t.Errorf("IsScalarResourceName(%s) = %v", tc.name, got)
		}
		if got := IsOvercommitAllowed(tc.name); got != tc.overcommit {
			t.Errorf("IsOvercommitAllowed(%s) = %v", tc.name, got)
		}
	}
}
