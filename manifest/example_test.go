package manifest_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
)

// Schedule the pending pods of a `kubectl get -o yaml` dump.
func Example() {
	c, err := manifest.Load(context.Background(), manifest.Options{}, "testdata/dump.yaml")
	if err != nil {
		panic(err)
	}
	s, _ := scheduler.New(c.Snapshot)
	placements, _ := s.Simulate(context.Background(), c.Pending)
	for _, p := range placements {
		fmt.Println(p.Pod.Name, "→", p.Node, p.Err)
	}
	fmt.Println("skipped:", c.Report.SkippedKinds())
	// Output:
	// pending-1 → node-1 <nil>
	// skipped: [ConfigMap×1]
}

// The name the Deployment controller gives a new Deployment's ReplicaSet
// (upstream's controller.ComputeHash gives the same 69c6f74b8b):
// the template as the API server would store it, then its
// pod-template-hash.
func ExamplePodTemplateHash() {
	tpl := []byte(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}`)
	stored, err := manifest.DefaultPodTemplate(tpl) // a new Deployment's: defaulted
	if err != nil {
		panic(err)
	}
	hash, err := manifest.PodTemplateHash(stored, nil)
	fmt.Println("web-"+hash, err)
	// Output: web-69c6f74b8b <nil>
}
