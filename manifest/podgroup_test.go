package manifest

import (
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

const gangYAML = `apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: train, namespace: default}
spec:
  controllerRef: {apiGroup: batch, kind: Job, name: train}
  podGroupTemplates:
  - name: workers
    schedulingPolicy: {gang: {minCount: 2}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train-workers, namespace: default}
spec:
  workloadRef: {workloadName: train, templateName: workers}
  schedulingPolicy: {gang: {minCount: 2}}
status:
  conditions: [{type: PodGroupInitiallyScheduled, status: "True", reason: Scheduled, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}]
---
apiVersion: v1
kind: Pod
metadata: {name: w0, namespace: default}
spec:
  schedulingGroup: {podGroupName: train-workers}
  containers: [{name: c, image: i}]
`

// TestReadGangObjects reads Workloads, PodGroups and spec.schedulingGroup
// in scheduling.k8s.io/v1beta1, the version v1.37.2 serves them in.
func TestReadGangObjects(t *testing.T) {
	r := NewReader()
	if err := r.Read("f", strings.NewReader(gangYAML)); err != nil {
		t.Fatal(err)
	}
	o := r.Objects()
	if len(o.Workloads) != 1 || len(o.PodGroups) != 1 || len(o.Pods) != 1 {
		t.Fatalf("read %d workloads, %d pod groups, %d pods", len(o.Workloads), len(o.PodGroups), len(o.Pods))
	}
	if g := o.Pods[0].Spec.SchedulingGroup; g == nil || *g.PodGroupName != "train-workers" {
		t.Fatalf("schedulingGroup = %+v", g)
	}
	// A new PodGroup's status is dropped on create.
	if n := len(o.PodGroups[0].Status.Conditions); n != 0 {
		t.Errorf("new PodGroup kept %d conditions", n)
	}
	if o.PodGroups[0].MinCount() != 2 {
		t.Errorf("minCount = %d", o.PodGroups[0].MinCount())
	}
}

func TestReadGangErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"alpha version", "apiVersion: scheduling.k8s.io/v1alpha3\nkind: PodGroup\nmetadata: {name: g}\nspec: {schedulingPolicy: {basic: {}}}\n",
			`no matches for kind "PodGroup" in version "scheduling.k8s.io/v1alpha3": Kubernetes v1.37.2 serves PodGroup in scheduling.k8s.io/v1beta1 only`},
		{"no policy", "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\nspec: {schedulingPolicy: {}}\n",
			"spec.schedulingPolicy: Invalid value: \"\": must specify one of: `basic`, `gang`"},
		{"min count", "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\nspec: {schedulingPolicy: {gang: {minCount: 0}}}\n",
			"spec.schedulingPolicy.gang.minCount: Invalid value: 0: must be greater than or equal to 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader()
			err := r.Read("f", strings.NewReader(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestAdmitGangObjects: a pod with a bad spec.schedulingGroup is
// rejected by validation, and a new PodGroup gets its class's priority.
func TestAdmitGangObjects(t *testing.T) {
	in := gangYAML + `---
apiVersion: v1
kind: Pod
metadata: {name: bad, namespace: default}
spec: {schedulingGroup: {podGroupName: Bad}, containers: [{name: c, image: i}]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 100
globalDefault: true
`
	r := NewReader()
	if err := r.Read("f", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Report.Rejected) != 1 || !strings.Contains(c.Report.Rejected[0].Err.Error(), `spec.schedulingGroup.podGroupName: Invalid value: "Bad": a lowercase RFC 1123 subdomain`) {
		t.Fatalf("rejected: %+v", c.Report.Rejected)
	}
	pgs := cluster.ListObjects[api.PodGroup](c.Snapshot.Objects(), "default")
	if len(pgs) != 1 || pgs[0].Spec.Priority == nil || *pgs[0].Spec.Priority != 100 || pgs[0].Spec.PriorityClassName != "high" {
		t.Fatalf("pod groups: %+v", pgs)
	}
}
