package admission_test

import (
	"fmt"
	"time"

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

	admitted, err := admission.Admit(pod, admission.Policies{PriorityClasses: classes})
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

// "Can team X deploy three more replicas?": a Chain admits pods one after
// another against the namespace's quota (its status computed from the
// pods already there, as the quota controller would) and rejects the one
// that no longer fits, with the API server's message.
func ExampleChain() {
	quota := api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: "team-x", Namespace: "x"},
		Spec:       api.ResourceQuotaSpec{Hard: api.ResourceList{"requests.cpu": resource.MustParse("1800m"), "pods": resource.MustParse("10")}},
	}
	replica := func(name string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "x"}}
		p.Spec.Containers = []api.Container{{Name: "app", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{"cpu": resource.MustParse("500m")}}}}
		return p
	}
	running := []*api.Pod{replica("web-0")}
	quotas := admission.FillQuotaStatus([]api.ResourceQuota{quota}, admission.NamespaceObjects{Pods: running})
	chain := admission.NewChain(admission.Policies{ResourceQuotas: quotas}, time.Now())
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		if _, err := chain.AdmitPod(replica(name)); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(name, "admitted")
	}
	used := chain.Quotas()[0].Status.Used["requests.cpu"]
	fmt.Println("requests.cpu used:", used.String())
	// Output:
	// web-1 admitted
	// web-2 admitted
	// pods "web-3" is forbidden: exceeded quota: team-x, requested: requests.cpu=500m, used: requests.cpu=1500m, limited: requests.cpu=1800m
	// requests.cpu used: 1500m
}

// The DefaultTolerationSeconds plugin gives every pod five minutes on a
// node that becomes not-ready or unreachable before it is evicted.
func ExampleAddDefaultTolerations() {
	pod := &api.Pod{}
	admission.AddDefaultTolerations(pod)
	for _, t := range pod.Spec.Tolerations {
		fmt.Println(t.Key, t.Operator, t.Effect, *t.TolerationSeconds)
	}
	// Output:
	// node.kubernetes.io/not-ready Exists NoExecute 300
	// node.kubernetes.io/unreachable Exists NoExecute 300
}
