package app

import (
	"io"
	"os"
	"strings"
)

// Explaining one pending pod on a two-node cluster read from standard
// input: the node too small says why, the other is chosen with its scores.
func Example() {
	manifests := `
apiVersion: v1
kind: Node
metadata: {name: small}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: big}
status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec: {containers: [{name: c, image: img, resources: {requests: {cpu: "4"}}}]}
`
	run([]string{"explain", "-f", "-"}, strings.NewReader(manifests), os.Stdout, io.Discard)
	// Output:
	// default/web → big
	//   note: one feasible node: kube-scheduler does not score then
	//   NODE  VERDICT  TOTAL
	//   big   chosen   -
	//   REJECTED NODE  VERDICT       REASONS
	//   small          Unresolvable  NodeResourcesFit: Insufficient cpu
	//
	// 1 pod(s): 1 placed, 0 preempting, 0 unschedulable, 0 gated
}
