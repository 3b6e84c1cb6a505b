package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// placements are simulate's NODE column, pod by pod.
func placements(t *testing.T, out string) []string {
	t.Helper()
	var nodes []string
	for _, l := range strings.Split(out, "\n")[1:] {
		f := strings.Fields(l)
		if len(f) < 3 {
			break
		}
		nodes = append(nodes, f[3])
	}
	return nodes
}

// A Deployment's replicas land where the same template as a ReplicaSet
// lands: the Deployment's new ReplicaSet is in the object store, so the
// system default spreading finds its selector (issue 21: c1, c1, a1
// against c1, a1, b1 before).
func TestDeploymentSpreadsAsReplicaSet(t *testing.T) {
	dir := t.TempDir()
	tpl := `
  replicas: 3
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - {name: api, image: "nginx:1.27", resources: {requests: {cpu: 100m, memory: 128Mi}}}
`
	dep := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: default}\nspec:" + tpl
	rs := "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: api, namespace: default}\nspec:" + tpl
	for name, s := range map[string]string{"dep.yaml": dep, "rs.yaml": rs} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cluster := filepath.Join(bundled, "cluster.yaml")
	var got [2][]string
	for i, f := range []string{"dep.yaml", "rs.yaml"} {
		code, out, stderr := runCmd(t, "", "simulate", "-f", cluster, "-f", filepath.Join(dir, f))
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", f, code, out, stderr)
		}
		got[i] = placements(t, out)
	}
	if strings.Join(got[0], ",") != strings.Join(got[1], ",") || len(got[0]) != 3 {
		t.Errorf("Deployment lands on %v, ReplicaSet on %v", got[0], got[1])
	}
	seen := map[string]bool{}
	for _, n := range got[0] {
		if seen[n] {
			t.Errorf("two replicas on %s (%v): default spreading skipped", n, got[0])
		}
		seen[n] = true
	}
}

// Nodes reach the scheduler in the order the API server lists them, by
// name as strings (etcd keys), as the informer fills kube-scheduler's
// node tree: ip-10-0-0-10 before ip-10-0-0-9 whatever the file's order,
// so ties are broken as the cluster breaks them.
func TestNodesInListOrder(t *testing.T) {
	node := func(n string) string {
		return "apiVersion: v1\nkind: Node\nmetadata: {name: " + n + ", labels: {kubernetes.io/hostname: " + n + "}}\nstatus: {allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}}\n---\n"
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]}\n"
	for _, in := range []string{node("ip-10-0-0-9") + node("ip-10-0-0-10") + pod, node("ip-10-0-0-10") + node("ip-10-0-0-9") + pod} {
		code, out, stderr := runCmd(t, in, "explain", "-f", "-", "-o", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got := decodeExplain(t, out).Pods[0]
		if got.Node != "ip-10-0-0-10" || strings.Join(got.Tied, ",") != "ip-10-0-0-10,ip-10-0-0-9" {
			t.Errorf("node %s, tied %v, want ip-10-0-0-10 first", got.Node, got.Tied)
		}
	}
}
