// Package dump writes the generated cluster dump of internal/testing/gendump, for
// the command's and package manifest's speed and memory measurements.
package dump

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
)

type obj = map[string]any

// Write writes a kubectl-style JSON List (as `kubectl get nodes,pods -A
// -o json` prints it) of nodes nodes in 3 zones and pods pods, the first
// pending of them without spec.nodeName; it is deterministic for a seed.
func Write(w io.Writer, nodes, pods, pending int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0))
	if _, err := io.WriteString(w, `{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[`+"\n"); err != nil {
		return err
	}
	enc := func(first bool, v obj) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if !first {
			io.WriteString(w, ",\n")
		}
		_, err = w.Write(b)
		return err
	}
	zones := []string{"zone-a", "zone-b", "zone-c"}
	for i := range nodes {
		name := fmt.Sprintf("node-%04d", i)
		zone := zones[i%3]
		n := obj{"apiVersion": "v1", "kind": "Node", "metadata": obj{
			"name": name, "uid": fmt.Sprintf("uid-node-%d", i), "resourceVersion": fmt.Sprint(1000 + i),
			"creationTimestamp": "2026-01-01T00:00:00Z",
			"labels": obj{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
				"topology.kubernetes.io/zone": zone, "topology.kubernetes.io/region": "region-1",
				"node.kubernetes.io/instance-type": "m6i.4xlarge"},
		}, "spec": obj{"podCIDR": fmt.Sprintf("10.%d.%d.0/24", i/256, i%256), "providerID": "aws:///" + zone + "/i-" + name},
			"status": obj{
				"capacity":    obj{"cpu": "16", "memory": "65536Mi", "pods": "110", "ephemeral-storage": "200Gi"},
				"allocatable": obj{"cpu": "15890m", "memory": "63000Mi", "pods": "110", "ephemeral-storage": "180Gi"},
				"conditions": []obj{{"type": "Ready", "status": "True", "reason": "KubeletReady", "message": "kubelet is posting ready status",
					"lastHeartbeatTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}},
				"addresses": []obj{{"type": "InternalIP", "address": fmt.Sprintf("10.0.%d.%d", i/256, i%256)}, {"type": "Hostname", "address": name}},
				"nodeInfo":  obj{"kubeletVersion": "v1.37.2", "containerRuntimeVersion": "containerd://2.0.0", "operatingSystem": "linux", "architecture": "amd64"},
				"images": []obj{{"names": []string{"registry.k8s.io/pause:3.10"}, "sizeBytes": 750000},
					{"names": []string{fmt.Sprintf("shop/app-%d:1.0", i%20)}, "sizeBytes": 150000000}},
			}}
		if err := enc(i == 0, n); err != nil {
			return err
		}
	}
	for i := range pods {
		app := fmt.Sprintf("app-%d", i%200)
		name := fmt.Sprintf("%s-%08x-%05d", app, rng.Uint32(), i)
		cpu := []string{"100m", "250m", "500m", "1"}[rng.IntN(4)]
		mem := []string{"128Mi", "256Mi", "512Mi", "1Gi"}[rng.IntN(4)]
		spec := obj{
			"containers": []obj{{"name": "main", "image": fmt.Sprintf("shop/%s:1.0", app), "imagePullPolicy": "IfNotPresent",
				"ports":     []obj{{"containerPort": 8080, "protocol": "TCP"}},
				"resources": obj{"requests": obj{"cpu": cpu, "memory": mem}, "limits": obj{"memory": mem}}}},
			"restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
			"serviceAccountName": "default", "schedulerName": "default-scheduler", "priority": 0,
			"enableServiceLinks": true, "preemptionPolicy": "PreemptLowerPriority",
			"tolerations": []obj{{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
				{"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}},
		}
		status := obj{"phase": "Pending", "qosClass": "Burstable"}
		if i >= pending {
			spec["nodeName"] = fmt.Sprintf("node-%04d", rng.IntN(nodes))
			status = obj{"phase": "Running", "qosClass": "Burstable", "podIP": "10.1.2.3", "hostIP": "10.0.0.1",
				"startTime":  "2026-01-01T00:00:00Z",
				"conditions": []obj{{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}}}
		}
		p := obj{"apiVersion": "v1", "kind": "Pod", "metadata": obj{
			"name": name, "namespace": fmt.Sprintf("team-%d", i%30), "uid": fmt.Sprintf("uid-pod-%d", i),
			"resourceVersion": fmt.Sprint(100000 + i), "creationTimestamp": "2026-01-01T00:00:00Z",
			"labels":          obj{"app": app, "pod-template-hash": "6d4cf56db6"},
			"ownerReferences": []obj{{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": app + "-6d4cf56db6", "uid": "uid-rs-" + app, "controller": true, "blockOwnerDeletion": true}},
		}, "spec": spec, "status": status}
		if err := enc(false, p); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n]}\n")
	return err
}
