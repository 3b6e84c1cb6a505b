package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bundledDRA is the GPU node pool with DRA, read with the bundled cluster.
const bundledDRA = bundled + "/dra"

// TestDRABundled runs the commands on the bundled cluster with its DRA
// GPU pool: the Job's pods get claims from the template, the notebook's
// allocated claim holds a device, and only the 80Gi GPUs are picked.
func TestDRABundled(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"describe", "-f", bundled, "-f", bundledDRA}, 0, []string{
			"POD                CLAIM  RESOURCECLAIM             ALLOCATION\n",
			"ml/notebook        gpu    notebook-gpu              gpu.example.com/dra-gpu-1/gpu-0\n",
			"ml/finetune-4blzd  gpu    finetune-4blzd-gpu-m72kk  pending\n",
			"NODE       DEVICECLASS      DEVICES  ALLOCATED  FREE\n",
			"dra-gpu-2  gpu.example.com  4        0          4\n",
			"dra-gpu-1  gpu.example.com  4        1          3\n",
		}},
		{[]string{"explain", "-f", bundled, "-f", bundledDRA, "--pod", "ml/finetune-klhd8"}, 0, []string{
			"ml/finetune-klhd8 → dra-gpu-2",
			"dra-gpu-1      Unresolvable   DynamicResources: cannot allocate all claims",
			"  devices on dra-gpu-2: gpu/gpu: gpu.example.com/dra-gpu-2/gpu-2, gpu.example.com/dra-gpu-2/gpu-3\n",
			// A node another plugin rejects carries DynamicResources' own verdict.
			"node-c1        Unschedulable  NodeResourcesFit: Insufficient cpu; DynamicResources: cannot allocate all claims\n",
		}},
		{[]string{"explain", "-f", bundled, "-f", bundledDRA, "--pod", "ml/finetune-klhd8", "-o", "wide"}, 0, []string{
			"CPU IF PLACED HERE  MEMORY IF PLACED HERE  DEVICES\n",
			"4→8/16              16Gi→32Gi/64Gi         gpu/gpu: gpu.example.com/dra-gpu-2/gpu-2, gpu.example.com/dra-gpu-2/gpu-3\n",
		}},
		// Each copy gets its own claim; the copies are limited by the
		// 80Gi GPUs free (the notebook's A100 and the 40Gi ones never
		// qualify).
		{[]string{"capacity", "-f", bundled, "-f", bundledDRA, "--pod", bundledDRA + "/shapes/finetune.yaml"}, 0, []string{"ml/finetune  0 ", "2 cannot allocate all claims"}},
		{[]string{"simulate", "-f", bundled, "-f", bundledDRA}, 1, []string{"8 pod(s): 7 placed, 1 preempting, 0 unschedulable, 0 gated", "dra-gpu-2  8/16           32Gi/64Gi         ml/finetune-4blzd, ml/finetune-klhd8"}},
	} {
		code, out, errOut := runCmd(t, "", c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s\n%s", c.args, code, c.code, out, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
}

// TestDescribeDRAJSON: describe's JSON has the claims and devices.
func TestDescribeDRAJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "", "describe", "-f", bundled, "-f", bundledDRA, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Pods  []describedPod  `json:"pods"`
		Nodes []describedNode `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	claims, devices := 0, 0
	for _, p := range doc.Pods {
		claims += len(p.Claims)
	}
	for _, n := range doc.Nodes {
		for _, d := range n.Devices {
			devices += d.Total
		}
	}
	if claims != 3 || devices != 8 {
		t.Errorf("%d claims, %d devices; want 3 and 8", claims, devices)
	}
}

// TestExplainDRAJSON: explain's JSON has each node's devices: the
// allocator's pick where DynamicResources passes, its reasons elsewhere.
func TestExplainDRAJSON(t *testing.T) {
	code, out, errOut := runCmd(t, "", "explain", "-f", bundled, "-f", bundledDRA, "--pod", "ml/finetune-4blzd", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Pods []podResult `json:"pods"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Pods) != 1 {
		t.Fatalf("%d pods", len(doc.Pods))
	}
	nodes := doc.Pods[0].Nodes
	got := nodes["dra-gpu-2"].Devices
	want := &nodeDevices{Code: "Success", Claims: []claimDevices{{PodClaim: "gpu", Claim: "finetune-4blzd-gpu-m72kk", Devices: []deviceResult{
		{Request: "gpu", Driver: "gpu.example.com", Pool: "dra-gpu-2", Device: "gpu-0"},
		{Request: "gpu", Driver: "gpu.example.com", Pool: "dra-gpu-2", Device: "gpu-1"}}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dra-gpu-2 devices (-want +got):\n%s", diff)
	}
	if d := nodes["node-a1"].Devices; d == nil || d.Code != "UnschedulableAndUnresolvable" || len(d.Reasons) != 1 || d.Reasons[0] != "cannot allocate all claims" {
		t.Errorf("node-a1 devices %+v", d)
	}
	// A pod without claims has no devices.
	code, out, _ = runCmd(t, "", "explain", "-f", bundled, "-f", bundledDRA, "--pod", "shop/checkout", "-o", "json")
	if code > 1 || strings.Contains(out, `"devices"`) {
		t.Errorf("exit %d; a pod without claims has devices:\n%s", code, out)
	}
}

// TestExplainDRAHTML: the report has the devices per node and class,
// before and after the placements, and each pod's chosen devices.
func TestExplainDRAHTML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.html")
	code, out, errOut := runCmd(t, "", "explain", "-f", bundled, "-f", bundledDRA, "--html", path)
	if code > 1 {
		t.Fatalf("exit %d: %s\n%s", code, out, errOut)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		"<tr><td>dra-gpu-1</td><td>gpu.example.com</td><td>4</td><td>1 → 1</td><td>3</td></tr>",
		"<tr><td>dra-gpu-2</td><td>gpu.example.com</td><td>4</td><td>0 → 4</td><td>0</td></tr>",
		`<p class="devices">devices on dra-gpu-2: gpu/gpu: gpu.example.com/dra-gpu-2/gpu-0, gpu.example.com/dra-gpu-2/gpu-1</p>`,
	} {
		if !strings.Contains(string(b), w) {
			t.Errorf("report lacks %q", w)
		}
	}
}

// TestRequestPolicyGate: a ResourceSlice's capacity request policy is
// validated as a default v1.37.2 API server validates it, with
// DRAFractionalCapacityRange off (500m and 1 are then the same value),
// and as one with the gate on under --feature-gates.
func TestRequestPolicyGate(t *testing.T) {
	dir := t.TempDir()
	slice := `apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s1}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    allowMultipleAllocations: true
    capacity:
      memory:
        value: "2"
        requestPolicy:
          default: 500m
          validValues: ["500m", "1"]
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
`
	path := filepath.Join(dir, "slice.yaml")
	if err := os.WriteFile(path, []byte(slice), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "", "simulate", "-f", path)
	want := `spec.devices[0].capacity[memory].requestPolicy.validValues[1]: Duplicate value: "1"`
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("gate off: exit %d, stderr %q, want 2 and %s", code, stderr, want)
	}
	code, out, stderr := runCmd(t, "", "simulate", "-f", path, "--feature-gates", "DRAFractionalCapacityRange=true")
	if code != 0 {
		t.Errorf("gate on: exit %d\n%s\n%s", code, out, stderr)
	}
}
