package manifest

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

const workloads = `
apiVersion: v1
kind: Node
metadata: {name: a}
---
apiVersion: v1
kind: Node
metadata: {name: b}
spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
---
apiVersion: v1
kind: Node
metadata: {name: c, labels: {disk: ssd}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: web}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: api-5d8f, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: api-5d8f-abcde
  namespace: shop
  labels: {app: api}
  uid: u1
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: api-5d8f, uid: r1, controller: true}]
spec: {nodeName: a, containers: [{name: c}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 2
  podManagementPolicy: Parallel
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 2
  completions: 4
  completionMode: Indexed
  template:
    spec: {restartPolicy: Never, containers: [{name: c}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: kube-system}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{matchExpressions: [{key: disk, operator: DoesNotExist}]}, {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}]
      containers: [{name: c}]
`

// TestExpandWorkloads checks the pods the controllers would create, and
// their names as the controllers name them.
func TestExpandWorkloads(t *testing.T) {
	r := NewReader()
	if err := r.Read("w.yaml", strings.NewReader(workloads)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), r.Report(), Options{ExpandWorkloads: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Report.Rejected) > 0 {
		t.Fatalf("rejected: %v", c.Report.Rejected)
	}
	suffix := "[" + nameAlphabet + "]{5}"
	patterns := []string{
		"kube-system/agent-" + suffix, // node a (b is tainted, c matches the second term)
		"kube-system/agent-" + suffix,
		"ml/train-0-" + suffix,
		"ml/train-1-" + suffix,
		"shop/api-5d8f-" + suffix, // 2 replicas, one already running
		"shop/db-0",
		"shop/db-1",
		"shop/web-[" + nameAlphabet + "]+-" + suffix,
		"shop/web-[" + nameAlphabet + "]+-" + suffix,
		"shop/web-[" + nameAlphabet + "]+-" + suffix,
	}
	var got []string
	byName := map[string]*api.Pod{}
	for _, p := range c.Pending {
		got = append(got, p.Namespace+"/"+p.Name)
		byName[p.Name] = p
	}
	sort.Strings(got)
	if len(got) != len(patterns) {
		t.Fatalf("pending %v", got)
	}
	for i, pat := range patterns {
		if !regexp.MustCompile("^" + pat + "$").MatchString(got[i]) {
			t.Errorf("pending[%d] = %s, want %s", i, got[i], pat)
		}
	}
	db := byName["db-1"]
	if db == nil || len(db.Spec.Volumes) != 1 || db.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-db-1" {
		t.Errorf("db-1 volumes: %+v", db)
	}
	var nodes []string
	for _, p := range c.Pending {
		if strings.HasPrefix(p.Name, "agent-") {
			terms := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
			if len(terms) != 1 || len(terms[0].MatchExpressions) != 0 {
				t.Errorf("daemon pod affinity %+v", terms)
			}
			nodes = append(nodes, terms[0].MatchFields[0].Values[0])
			if len(p.Spec.Tolerations) != 6 {
				t.Errorf("daemon pod tolerations %v", p.Spec.Tolerations)
			}
		}
		if strings.HasPrefix(p.Name, "train-1-") && p.Annotations["batch.kubernetes.io/job-completion-index"] != "1" {
			t.Errorf("job pod annotations %v", p.Annotations)
		}
	}
	sort.Strings(nodes)
	if diff := cmp.Diff([]string{"a", "c"}, nodes); diff != "" {
		t.Errorf("daemon pods' nodes (-want +got):\n%s", diff)
	}
	// The same seed gives the same names.
	again, _ := NewCluster(r.Objects(), &Report{}, Options{ExpandWorkloads: true, Seed: 1})
	for i := range c.Pending {
		if c.Pending[i].Name != again.Pending[i].Name {
			t.Fatalf("names differ with the same seed: %s, %s", c.Pending[i].Name, again.Pending[i].Name)
		}
	}
}
