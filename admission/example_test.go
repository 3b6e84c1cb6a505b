package admission_test

import (
	"fmt"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/resource"
)

// A pod written by hand only limits its resources; the API server turns
// the limits into requests before anything reads the pod, which makes it
// Guaranteed.
func ExampleAdmit() {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web"}}
	pod.Spec.PriorityClassName = "high"
	pod.Spec.Containers = []api.Container{{Name: "c", Resources: api.ResourceRequirements{
		Limits: api.ResourceList{"cpu": resource.MustParse("1"), "memory": resource.MustParse("1Gi")},
	}}}
	classes := []api.PriorityClass{{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000}}

	admitted, err := admission.Admit(pod, admission.Objects{PriorityClasses: classes})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(qos.Compute(pod), qos.Compute(admitted))
	fmt.Println(admitted.Namespace, admitted.Spec.SchedulerName, *admitted.Spec.Priority)
	// Output:
	// Burstable Guaranteed
	// default default-scheduler 1000
}
