package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// capacityDRACluster is two GPU nodes of 3 and 2 devices (one of the
// 3 held by a claim already allocated) and a CPU-only node, 8 cpu each.
const capacityDRACluster = `apiVersion: v1
kind: List
items:
- {kind: Node, apiVersion: v1, metadata: {name: gpu-a, labels: {kubernetes.io/hostname: gpu-a}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}
- {kind: Node, apiVersion: v1, metadata: {name: gpu-b, labels: {kubernetes.io/hostname: gpu-b}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}
- {kind: Node, apiVersion: v1, metadata: {name: cpu-c, labels: {kubernetes.io/hostname: cpu-c}}, status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}}
- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: gpu}
  spec: {selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]}
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: gpu-a}
  spec:
    driver: gpu.example.com
    nodeName: gpu-a
    pool: {name: gpu-a, generation: 1, resourceSliceCount: 1}
    devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}]
- apiVersion: resource.k8s.io/v1
  kind: ResourceSlice
  metadata: {name: gpu-b}
  spec:
    driver: gpu.example.com
    nodeName: gpu-b
    pool: {name: gpu-b, generation: 1, resourceSliceCount: 1}
    devices: [{name: gpu-0}, {name: gpu-1}]
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata: {name: held, namespace: default, uid: held-uid}
  spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
  status:
    allocation:
      devices: {results: [{request: gpu, driver: gpu.example.com, pool: gpu-a, device: gpu-0}]}
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaimTemplate
  metadata: {name: one-gpu, namespace: default}
  spec: {spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}}
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaimTemplate
  metadata: {name: two-gpus, namespace: default}
  spec: {spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu, count: 2}}]}}}
- apiVersion: resource.k8s.io/v1
  kind: ResourceClaim
  metadata: {name: shared, namespace: default}
  spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu}}]}}
`

func capacityShape(name, claim string) string {
	return `apiVersion: v1
kind: Pod
metadata: {name: ` + name + `, namespace: default}
spec:
  resourceClaims: [{name: gpu, ` + claim + `}]
  containers: [{name: c, image: i, resources: {requests: {cpu: "1"}, claims: [{name: gpu}]}}]
`
}

// TestCapacityDRA: each copy of a shape with a claim template gets its
// own claim, and the devices it is allocated are gone for the next copy;
// copies sharing a claim by name share its devices, so cpu limits them.
func TestCapacityDRA(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cl := write("cluster.yaml", capacityDRACluster)
	for _, c := range []struct {
		shape   string
		fits    int
		perNode map[string]int
		next    string
	}{
		// 2 free devices on gpu-a, 2 on gpu-b: four one-device copies.
		{capacityShape("one", "resourceClaimTemplateName: one-gpu"), 4, map[string]int{"gpu-a": 2, "gpu-b": 2},
			"0/3 nodes are available: 3 cannot allocate all claims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
		// Two-device copies: one per GPU node.
		{capacityShape("two", "resourceClaimTemplateName: two-gpus"), 2, map[string]int{"gpu-a": 1, "gpu-b": 1},
			"0/3 nodes are available: 3 cannot allocate all claims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
		// One claim shared by name: once allocated on a node, every copy
		// goes there, until the node's 8 cpu are used.
		{capacityShape("shared", "resourceClaimName: shared"), 8, nil, ""},
	} {
		shape := write("shape.yaml", c.shape)
		code, out, errOut := runCmd(t, "", "capacity", "-f", cl, "--pod", shape, "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s\n%s", code, out, errOut)
		}
		var doc struct {
			Shapes []capacityResult `json:"shapes"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		r := doc.Shapes[0]
		if r.Fits != c.fits {
			t.Errorf("%s: %d copies fit, want %d: %+v", r.Pod, r.Fits, c.fits, r)
		}
		for n, k := range c.perNode {
			if r.PerNode[n] != k {
				t.Errorf("%s: %d on %s, want %d: %+v", r.Pod, r.PerNode[n], n, k, r)
			}
		}
		if c.next != "" && r.Next != c.next {
			t.Errorf("%s: next copy:\n%s\nwant\n%s", r.Pod, r.Next, c.next)
		}
	}
}
