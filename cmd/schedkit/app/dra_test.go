package app

import (
	"encoding/json"
	"strings"
	"testing"
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
