package main

import (
	"os"
)

// The README's main command, on a two-node cluster.
func Example() {
	manifests := `
kind: Node
metadata: {name: small}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
kind: Node
metadata: {name: big}
status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}
---
kind: Pod
metadata: {name: web, namespace: default}
spec: {containers: [{name: c, resources: {requests: {cpu: "4"}}}]}
`
	f, _ := os.CreateTemp("", "example-*.yaml")
	defer os.Remove(f.Name())
	f.WriteString(manifests)
	f.Close()
	run([]string{"simulate", "-f", f.Name()}, nil, os.Stdout)
	// Output:
	// cluster: 2 nodes, 0 bound pods; scheduling 1 pending pods
	// plugins of the default profile not in this build (not evaluated): VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone, PodTopologySpread, DynamicResources, DefaultPreemption, NodeDeclaredFeatures
	//
	// POD          PRIORITY  NODE  FEASIBLE  REASON
	// default/web  0         big   1/2
}
