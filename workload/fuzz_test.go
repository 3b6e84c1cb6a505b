package workload

import (
	"strings"
	"testing"
)

// FuzzExpand reads arbitrary manifests and expands their workloads: pods
// and warnings, never a panic; expanded pods have names unique in their
// namespace among the pods read and created.
func FuzzExpand(f *testing.F) {
	f.Add(workloads)
	f.Add("kind: Deployment\napiVersion: apps/v1\nmetadata: {name: web, uid: d1}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}" + webTemplate + "\n")
	f.Add("kind: Job\napiVersion: batch/v1\nmetadata: {name: j}\nspec: {completions: 3, completionMode: Indexed, template: {spec: {containers: [{name: c}]}}}\n")
	f.Add("kind: Deployment\napiVersion: apps/v1\nmetadata: {generateName: w-}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}, creationTimestamp: x}, spec: {containers: [{name: c, resources: {limits: {cpu: 1e30}}}]}}}\n")
	// ControllerRevisions of a partitioned StatefulSet and of a DaemonSet,
	// a Deployment's scaling event, a Job's failure policy.
	f.Add("kind: ControllerRevision\napiVersion: apps/v1\nmetadata: {name: db-old, labels: {app: db}}\ndata: {spec: {template: {$patch: replace, metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: v1}]}}}}\nrevision: 1\n---\n" +
		"kind: StatefulSet\napiVersion: apps/v1\nmetadata: {name: db, uid: s1}\nspec: {replicas: 3, selector: {matchLabels: {app: db}}, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}, template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: v2}]}}}\nstatus: {currentRevision: db-old}\n---\n" +
		"kind: Node\napiVersion: v1\nmetadata: {name: n}\n---\nkind: ControllerRevision\napiVersion: apps/v1\nmetadata: {name: ag-1, labels: {app: ag, controller-revision-hash: h}}\ndata: {spec: {template: {$patch: replace}}}\nrevision: 2\n---\n" +
		"kind: DaemonSet\napiVersion: apps/v1\nmetadata: {name: ag, uid: a1}\nspec: {selector: {matchLabels: {app: ag}}, template: {metadata: {labels: {app: ag}}, spec: {containers: [{name: c}]}}}\n")
	f.Add("kind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: w-1, uid: r1, labels: {app: w}, annotations: {deployment.kubernetes.io/desired-replicas: \"5\", deployment.kubernetes.io/max-replicas: \"6\"}, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: w, uid: d1, controller: true}]}\nspec: {replicas: 3, selector: {matchLabels: {app: w}}, template: {metadata: {labels: {app: w}}, spec: {containers: [{name: c, image: a}]}}}\n---\n" +
		"kind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: w-2, uid: r2, labels: {app: w}, annotations: {deployment.kubernetes.io/desired-replicas: \"5\", deployment.kubernetes.io/max-replicas: \"0\"}, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: w, uid: d1, controller: true}]}\nspec: {replicas: 2, selector: {matchLabels: {app: w}}, template: {metadata: {labels: {app: w}}, spec: {containers: [{name: c, image: b}]}}}\n---\n" +
		"kind: Deployment\napiVersion: apps/v1\nmetadata: {name: w, uid: d1}\nspec: {replicas: 10, selector: {matchLabels: {app: w}}, template: {metadata: {labels: {app: w}}, spec: {containers: [{name: c, image: b}]}}}\nstatus: {replicas: 5}\n")
	f.Add(jobDoc("Never", "  backoffLimit: 1\n  activeDeadlineSeconds: 5\n  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [42]}}, {action: Ignore, onPodConditions: [{type: DisruptionTarget, status: \"True\"}]}]}\n", "startTime: \"2026-01-01T00:00:00Z\", failed: 1", failedPod("42", "{type: DisruptionTarget, status: \"True\"}")))
	f.Fuzz(func(t *testing.T, in string) {
		objs, _, _ := readYAML("in", in)
		pods, _ := newExpander(objs, 1).expand()
		seen := map[[2]string]bool{}
		for _, p := range objs.Pods {
			seen[[2]string{p.Namespace, p.Name}] = true
		}
		for _, p := range pods {
			k := [2]string{p.Namespace, p.Name}
			if seen[k] && !strings.Contains(p.OwnerReferences[0].Kind, "StatefulSet") {
				t.Fatalf("pod name %s/%s given twice", p.Namespace, p.Name)
			}
			seen[k] = true
		}
	})
}
