package live_test

import (
	"context"
	"fmt"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/k8s/live"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/scheduler"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// A snapshot built from informers explains where a pod would go. The
// fake clientset stands in for kubernetes.NewForConfig.
func Example() {
	client := fake.NewClientset(
		exampleNode("small", "1"),
		exampleNode("large", "8"),
		&corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "db", UID: "uid-db"},
			Spec: corev1.PodSpec{NodeName: "large", Containers: []corev1.Container{{Name: "db", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("6")},
			}}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning},
		},
	)
	c, err := live.NewFromClient(client)
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer func() { cancel(); c.Shutdown() }()
	c.Start(ctx)
	if err := c.WaitForSync(ctx); err != nil {
		panic(err)
	}

	s, err := scheduler.New(c.Snapshot())
	if err != nil {
		panic(err)
	}
	defer s.Close()
	web := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "shop", Name: "web"}}
	web.Spec.Containers = []api.Container{{Name: "web", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{"cpu": resource.MustParse("1500m")},
	}}}
	ex, err := s.Explain(ctx, web)
	if err != nil {
		panic(err)
	}
	for _, n := range ex.Nodes {
		if n.Feasible {
			fmt.Printf("%s: feasible, score %d\n", n.Name, n.Total)
		} else {
			fmt.Printf("%s: %s\n", n.Name, n.Status.Message())
		}
	}
	fmt.Println("pick:", ex.Node)
	// Output:
	// large: feasible, score 421
	// small: Insufficient cpu
	// pick: large
}

func exampleNode(name, cpu string) *corev1.Node {
	rl := corev1.ResourceList{
		corev1.ResourceCPU:    k8sresource.MustParse(cpu),
		corev1.ResourceMemory: k8sresource.MustParse("16Gi"),
		corev1.ResourcePods:   k8sresource.MustParse("110"),
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status:     corev1.NodeStatus{Capacity: rl, Allocatable: rl},
	}
}
