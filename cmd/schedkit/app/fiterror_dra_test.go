package app

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestFitErrorPostFilterWithoutDRAState pins kube-scheduler v1.37.2's
// message for a pod that a PreFilter before DynamicResources rejects as
// unresolvable: DynamicResources' PostFilter then finds no state and
// its error, the cycle state's "not found", ends the fit error (checked
// against the control plane: conformance/testdata/e2e/immediate).
func TestFitErrorPostFilterWithoutDRAState(t *testing.T) {
	in := `
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: std}
provisioner: example.com/x
volumeBindingMode: Immediate
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec: {accessModes: [ReadWriteOnce], storageClassName: std, resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: c, image: img}]
  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
`
	var out bytes.Buffer
	run([]string{"simulate", "-f", "-", "-o", "json"}, strings.NewReader(in), &out, io.Discard)
	want := `0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found`
	if !strings.Contains(out.String(), want) {
		t.Errorf("simulate's output lacks %q:\n%s", want, out.String())
	}
}
