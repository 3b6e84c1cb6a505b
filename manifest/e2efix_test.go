package manifest

import (
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// The ControllerRevisions the DaemonSet controller creates are in the
// Cluster, named as the pods' controller-revision-hash says (e2e daemons:
// "ControllerRevision monitoring/...: exists: upstream yes, schedkit no").
func TestLoadDaemonSetControllerRevision(t *testing.T) {
	c := loadYAML(t, `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: monitoring}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: a, image: agent}]}
`+nsDocs("monitoring"), Options{ExpandWorkloads: true})
	if len(c.ControllerRevisions) != 1 {
		t.Fatalf("ControllerRevisions %d, want 1", len(c.ControllerRevisions))
	}
	cr := c.ControllerRevisions[0]
	hash := c.Pending[0].Labels["controller-revision-hash"]
	if cr.Name != "agent-"+hash || cr.Namespace != "monitoring" {
		t.Errorf("revision %s/%s, pods' hash %q", cr.Namespace, cr.Name, hash)
	}
}

// A pod read with spec.nodeName and no trace of the API server (no uid,
// resourceVersion, creationTimestamp) is a new pod: the API server admits
// it (Priority, DefaultTolerationSeconds) and stores it bound (e2e
// daemons: "spec.priority: upstream 600000, schedkit unset").
func TestLoadNewBoundPodAdmitted(t *testing.T) {
	c := loadYAML(t, `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 600000
---
apiVersion: v1
kind: Pod
metadata: {name: pinned, namespace: default}
spec:
  nodeName: n1
  priorityClassName: high
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
status: {phase: Running}
`, Options{})
	pi, _, ok := c.Snapshot.Pod("default", "pinned")
	if !ok {
		t.Fatal("pinned pod not in the snapshot")
	}
	p := pi.Pod
	if p.Spec.Priority == nil || *p.Spec.Priority != 600000 {
		t.Errorf("priority %v, want 600000", p.Spec.Priority)
	}
	var keys []string
	for _, tol := range p.Spec.Tolerations {
		keys = append(keys, tol.Key)
	}
	if got := strings.Join(keys, ","); got != "node.kubernetes.io/not-ready,node.kubernetes.io/unreachable" {
		t.Errorf("tolerations %s", got)
	}
}

const ephemeralPod = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/disk
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: Pod
metadata: {name: report, namespace: batch}
spec:
  containers: [{name: c, image: x}]
  volumes:
  - name: scratch
    ephemeral:
      volumeClaimTemplate:
        metadata: {labels: {use: scratch}, annotations: {note: tmp}}
        spec:
          accessModes: [ReadWriteOnce]
          resources: {requests: {storage: 1Gi}}
`

// The ephemeral volume controller (pkg/controller/volume/ephemeral,
// handleVolume) creates <pod>-<volume> owned by the pod (controller,
// blockOwnerDeletion), with the template's labels, annotations and spec;
// DefaultStorageClass sets its class as on any claim create.
func TestLoadEphemeralClaims(t *testing.T) {
	for _, expand := range []bool{false, true} {
		in := ephemeralPod
		if expand {
			in = strings.Replace(ephemeralPod, `apiVersion: v1
kind: Pod
metadata: {name: report, namespace: batch}
spec:
`, `apiVersion: batch/v1
kind: Job
metadata: {name: report, namespace: batch}
spec:
  template:
   spec:
    restartPolicy: Never
`, 1)
			in = strings.ReplaceAll(in, "\n  containers:", "\n    containers:")
			in = strings.ReplaceAll(in, "\n  volumes:\n  - name: scratch\n    ephemeral:\n      volumeClaimTemplate:\n        metadata: {labels: {use: scratch}, annotations: {note: tmp}}\n        spec:\n          accessModes: [ReadWriteOnce]\n          resources: {requests: {storage: 1Gi}}\n",
				"\n    volumes:\n    - name: scratch\n      ephemeral:\n        volumeClaimTemplate:\n          metadata: {labels: {use: scratch}, annotations: {note: tmp}}\n          spec:\n            accessModes: [ReadWriteOnce]\n            resources: {requests: {storage: 1Gi}}\n")
		}
		c := loadYAML(t, in+nsDocs("batch"), Options{ExpandWorkloads: true})
		if len(c.Pending) != 1 {
			t.Fatalf("expand %v: pending %d, report %+v", expand, len(c.Pending), c.Report)
		}
		p := c.Pending[0]
		name := p.Name + "-scratch"
		pvc, ok := cluster.GetObject[api.PersistentVolumeClaim](c.Snapshot.Objects(), "batch", name)
		if !ok {
			t.Fatalf("expand %v: claim %s not in the store", expand, name)
		}
		if pvc.Spec.StorageClassName == nil || *pvc.Spec.StorageClassName != "fast" {
			t.Errorf("expand %v: class %v", expand, pvc.Spec.StorageClassName)
		}
		if pvc.Labels["use"] != "scratch" || pvc.Annotations["note"] != "tmp" {
			t.Errorf("expand %v: labels %v annotations %v", expand, pvc.Labels, pvc.Annotations)
		}
		if len(pvc.OwnerReferences) != 1 {
			t.Fatalf("expand %v: owners %v", expand, pvc.OwnerReferences)
		}
		o := pvc.OwnerReferences[0]
		if o.Kind != "Pod" || o.Name != p.Name || o.UID != p.UID || o.Controller == nil || !*o.Controller || o.BlockOwnerDeletion == nil || !*o.BlockOwnerDeletion {
			t.Errorf("expand %v: owner %+v", expand, o)
		}
	}
}

// NamespaceLifecycle: a new object in a namespace that is neither read,
// built in, nor holding a stored object is refused with the API server's
// text; a stored pod implies its namespace (a dump without Namespaces).
func TestLoadNamespaceExistence(t *testing.T) {
	c := loadYAML(t, `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: new, namespace: batch}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: ok, namespace: kube-system}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: dumped, namespace: shop, uid: 0b5c, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: next, namespace: shop}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Namespace
metadata: {name: web}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: web}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: gone}
spec:
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: nginx}]}
`, Options{ExpandWorkloads: true})
	var rejected []string
	for _, r := range c.Report.Rejected {
		name := r.Object
		if r.Pod != nil {
			name = "Pod " + r.Pod.Namespace + "/" + r.Pod.Name
		}
		rejected = append(rejected, name+": "+r.Err.Error())
	}
	want := `Pod batch/new: namespaces "batch" not found; Deployment gone/api: namespaces "gone" not found`
	if got := strings.Join(rejected, "; "); got != want {
		t.Errorf("rejected %s\nwant %s", got, want)
	}
	var pending []string
	for _, p := range c.Pending {
		pending = append(pending, p.Namespace)
	}
	if got := strings.Join(pending, ","); got != "shop,kube-system,shop,web" {
		t.Errorf("pending namespaces %s", got)
	}
}

// nsDocs are Namespace documents for names, to append to an input whose
// new objects are in them (NamespaceLifecycle).
func nsDocs(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString("---\napiVersion: v1\nkind: Namespace\nmetadata: {name: " + n + "}\n")
	}
	return b.String()
}
