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
