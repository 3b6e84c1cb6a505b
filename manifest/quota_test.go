package manifest

import (
	"strings"
	"testing"
)

const quotaCluster = `apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: q, namespace: team}
spec: {hard: {pods: "2", requests.cpu: "1"}}
---
apiVersion: v1
kind: Pod
metadata: {name: running, namespace: team, uid: u1}
spec: {nodeName: n1, containers: [{name: c, image: img, resources: {requests: {cpu: 500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: team}
spec: {containers: [{name: c, image: img, resources: {requests: {cpu: 400m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: team}
spec: {containers: [{name: c, image: img, resources: {requests: {cpu: 100m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: other, namespace: elsewhere}
spec: {containers: [{name: c, image: img, resources: {requests: {cpu: "2"}}}]}
`

// New pods are charged to their namespace's quotas in reading order, the
// quota's status computed from the stored pods when the dump has none; a
// pod the quota refuses is reported with the API server's message and the
// others go on.
func TestLoadResourceQuota(t *testing.T) {
	r := NewReader()
	if err := r.Read("q.yaml", strings.NewReader(quotaCluster)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), r.Report(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pending []string
	for _, p := range c.Pending {
		pending = append(pending, p.Namespace+"/"+p.Name)
	}
	if got, want := strings.Join(pending, ","), "team/a,elsewhere/other"; got != want {
		t.Errorf("pending %s, want %s", got, want)
	}
	if len(c.Report.Rejected) != 1 {
		t.Fatalf("rejected %v", c.Report.Rejected)
	}
	want := `pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2`
	if got := c.Report.Rejected[0].Err.Error(); got != want {
		t.Errorf("rejection\n got %s\nwant %s", got, want)
	}
}
