// Command quickstart shows the shortest path from a cluster dump to
// decisions: package manifest reads the bundled manifests (as kubectl
// reads files) into a snapshot and the admitted pending pods, and the
// default scheduler places them in queue order, each seeing the ones
// before it: a pod that fits only by preempting evicts its victims and
// lands in a later cycle, and the Deployment's replicas, kept apart by
// their required pod anti-affinity, take one node each.
//
// Run it from the repository root: go run ./examples/quickstart.
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
)

// manifests is the bundled data from the repository root; go test runs
// the example from its own folder, where it is ../manifests.
func manifests() string {
	if _, err := os.Stat("examples/manifests"); err == nil {
		return "examples/manifests"
	}
	return "../manifests"
}

func main() {
	ctx := context.Background()
	c, err := manifest.Load(ctx, manifest.Options{ExpandWorkloads: true, Seed: 1}, manifests())
	if err != nil {
		log.Fatal(err)
	}
	s, err := scheduler.New(c.Snapshot, scheduler.WithSeed(1))
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	placements, err := s.Simulate(ctx, c.Pending)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range placements {
		switch {
		case p.Node != "" && len(p.Preemptions) > 0:
			fmt.Printf("%s/%s → %s, after preempting %d pod(s)\n", p.Pod.Namespace, p.Pod.Name, p.Node, len(p.Preemptions[0].Victims))
		case p.Node != "":
			fmt.Printf("%s/%s → %s\n", p.Pod.Namespace, p.Pod.Name, p.Node)
		default:
			fmt.Printf("%s/%s pending: %v\n", p.Pod.Namespace, p.Pod.Name, p.Err)
		}
	}
}
