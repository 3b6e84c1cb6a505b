package workload_test

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/workload"
)

// The pods a new Deployment's controller would create, and the pod a
// StatefulSet's would, before admission: read the manifests, then
// expand what was read.
func Example() {
	r := manifest.NewReader()
	err := r.Read("web.yaml", strings.NewReader(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: "nginx:1.27"}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: postgres, image: "postgres:17"}]}
`))
	if err != nil {
		panic(err)
	}
	pods, warnings := workload.Expand(manifest.Workloads(r.Objects(), manifest.Options{Seed: 1}))
	for _, p := range pods {
		fmt.Println(p.Namespace+"/"+p.Name, p.OwnerReferences[0].Kind, p.OwnerReferences[0].Name)
	}
	fmt.Println("warnings:", len(warnings))
	// Output:
	// shop/web-69c6f74b8b-25m8m ReplicaSet web-69c6f74b8b
	// shop/web-69c6f74b8b-wwfd8 ReplicaSet web-69c6f74b8b
	// shop/db-0 StatefulSet db
	// warnings: 0
}

// The name the Deployment controller gives a new Deployment's ReplicaSet
// (upstream's controller.ComputeHash gives the same 69c6f74b8b):
// the template as the API server would store it, then its
// pod-template-hash.
func ExamplePodTemplateHash() {
	tpl := []byte(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}`)
	stored, err := workload.DefaultPodTemplate(tpl) // a new Deployment's: defaulted
	if err != nil {
		panic(err)
	}
	hash, err := workload.PodTemplateHash(stored, nil)
	fmt.Println("web-"+hash, err)
	// Output: web-69c6f74b8b <nil>
}

// ExpandAll returns the ReplicaSet a Deployment's controller creates
// before its pods.
func ExampleExpandAll() {
	one := int32(1)
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: api.DeploymentSpec{Replicas: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}},
	}
	created, _ := workload.ExpandAll(&workload.Input{Deployments: []*api.Deployment{d}, Seed: 1})
	rs := created.ReplicaSets[0]
	fmt.Println(len(created.Pods), created.Pods[0].OwnerReferences[0].Name == rs.Name, rs.OwnerReferences[0].Kind, rs.Annotations["deployment.kubernetes.io/revision"])
	// Output: 1 true Deployment 1
}

// ExampleClaimController makes the claim of a pod's template entry, as
// the resourceclaim controller does.
func ExampleClaimController() {
	tpl := &api.ResourceClaimTemplate{ObjectMeta: api.ObjectMeta{Name: "one-gpu", Namespace: "ml"}}
	tpl.Spec.ObjectMeta.Labels = map[string]string{"team": "ml"}
	tpl.Spec.Spec.Devices.Requests = []api.DeviceRequest{{Name: "gpu", Exactly: &api.ExactDeviceRequest{DeviceClassName: "gpu.example.com"}}}
	name := "one-gpu"
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "train", Namespace: "ml"}}
	pod.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "gpu", ResourceClaimTemplateName: &name}}

	c := workload.NewClaimController(rand.New(rand.NewPCG(1, 2)), []*api.ResourceClaimTemplate{tpl}, nil)
	sync := c.Sync(pod)
	claim := sync.Created[0]
	fmt.Println(claim.GenerateName, claim.OwnerReferences[0].Kind, claim.OwnerReferences[0].Name, claim.Labels["team"])
	fmt.Println(claim.Annotations[workload.PodResourceClaimAnnotation])
	fmt.Println(*sync.Pod.Status.ResourceClaimStatuses[0].ResourceClaimName == claim.Name)
	// Output:
	// train-gpu- Pod train ml
	// gpu
	// true
}
