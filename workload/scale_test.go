package workload

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
)

func i32(n int32) *int32 { return &n }

// scaleRS is upstream's rs() test helper, with the replicas annotations
// SetReplicasAnnotations writes (desired, desired+maxSurge).
func scaleRS(name string, n int32, at time.Time, desired, maxReplicas int32) *api.ReplicaSet {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: api.Time{Time: at}}}
	rs.Spec.Replicas = i32(n)
	rs.Annotations = map[string]string{desiredReplicasAnnotation: fmt.Sprint(desired), maxReplicasAnnotation: fmt.Sprint(maxReplicas)}
	return rs
}

// TestScale ports the rows of upstream's TestScale
// (pkg/controller/deployment/sync_test.go): the replicas the Deployment
// controller's scale gives the new and old ReplicaSets.
func TestScale(t *testing.T) {
	newT := time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
	oldT := time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	olderT := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	type set struct {
		name string
		n    int32
		at   time.Time
	}
	for _, c := range []struct {
		name            string
		replicas, surge int32 // the Deployment's now
		oldReplicas     int32 // before the scaling event (the annotations)
		oldSurge        int32
		newRS           *set
		oldRSs          []set
		desired         map[string]int32 // desired-replicas annotations that differ
		available       int32            // the new ReplicaSet's available replicas
		wantNew         int32
		wantOld         []int32
	}{
		{name: "normal scaling event: 10 -> 12", replicas: 12, oldReplicas: 10, newRS: &set{"foo-v1", 10, newT}, wantNew: 12},
		{name: "normal scaling event: 10 -> 5", replicas: 5, oldReplicas: 10, newRS: &set{"foo-v1", 10, newT}, wantNew: 5},
		{name: "proportional scaling: 5 -> 10", replicas: 10, oldReplicas: 5, newRS: &set{"foo-v2", 2, newT}, oldRSs: []set{{"foo-v1", 3, oldT}}, wantNew: 4, wantOld: []int32{6}},
		{name: "proportional scaling: 5 -> 3", replicas: 3, oldReplicas: 5, newRS: &set{"foo-v2", 2, newT}, oldRSs: []set{{"foo-v1", 3, oldT}}, wantNew: 1, wantOld: []int32{2}},
		{name: "proportional scaling: 9 -> 4", replicas: 4, oldReplicas: 9, newRS: &set{"foo-v2", 8, newT}, oldRSs: []set{{"foo-v1", 1, oldT}}, wantNew: 4, wantOld: []int32{0}},
		{name: "proportional scaling: 7 -> 10", replicas: 10, oldReplicas: 7, newRS: &set{"foo-v3", 2, newT}, oldRSs: []set{{"foo-v2", 3, oldT}, {"foo-v1", 2, olderT}}, wantNew: 3, wantOld: []int32{4, 3}},
		{name: "proportional scaling: 13 -> 8", replicas: 8, oldReplicas: 13, newRS: &set{"foo-v3", 2, newT}, oldRSs: []set{{"foo-v2", 8, oldT}, {"foo-v1", 3, olderT}}, wantNew: 1, wantOld: []int32{5, 2}},
		{name: "leftover distribution: 3 -> 4", replicas: 4, oldReplicas: 3, newRS: &set{"foo-v3", 1, newT}, oldRSs: []set{{"foo-v2", 1, oldT}, {"foo-v1", 1, olderT}}, wantNew: 2, wantOld: []int32{1, 1}},
		{name: "leftover distribution: 3 -> 2", replicas: 2, oldReplicas: 3, newRS: &set{"foo-v3", 1, newT}, oldRSs: []set{{"foo-v2", 1, oldT}, {"foo-v1", 1, olderT}}, wantNew: 1, wantOld: []int32{1, 0}},
		{name: "proportional scaling (no new rs): 4 -> 5", replicas: 5, oldReplicas: 4, oldRSs: []set{{"foo-v2", 2, oldT}, {"foo-v1", 2, olderT}}, wantOld: []int32{3, 2}},
		{name: "proportional scaling: 6 -> 0", replicas: 0, oldReplicas: 6, newRS: &set{"foo-v3", 3, newT}, oldRSs: []set{{"foo-v2", 2, oldT}, {"foo-v1", 1, olderT}}, wantNew: 0, wantOld: []int32{0, 0}},
		{name: "proportional scaling: 0 -> 6", replicas: 6, oldReplicas: 6, newRS: &set{"foo-v3", 0, newT}, oldRSs: []set{{"foo-v2", 0, oldT}, {"foo-v1", 0, olderT}}, wantNew: 6, wantOld: []int32{0, 0}},
		// upstream's row fails foo-v3's and foo-v1's updates; what
		// scale computes for them is what they already have.
		{name: "failed rs update", replicas: 5, oldReplicas: 5, newRS: &set{"foo-v3", 2, newT}, oldRSs: []set{{"foo-v2", 1, oldT}, {"foo-v1", 1, olderT}},
			desired: map[string]int32{"foo-v2": 3}, wantNew: 2, wantOld: []int32{2, 1}},
		{name: "deployment with surge pods", replicas: 20, surge: 2, oldReplicas: 10, oldSurge: 2, newRS: &set{"foo-v2", 6, newT}, oldRSs: []set{{"foo-v1", 6, oldT}}, wantNew: 11, wantOld: []int32{11}},
		{name: "change both surge and size", replicas: 50, surge: 6, oldReplicas: 10, oldSurge: 3, newRS: &set{"foo-v2", 5, newT}, oldRSs: []set{{"foo-v1", 8, oldT}}, wantNew: 22, wantOld: []int32{34}},
		{name: "change both size and template", replicas: 14, oldReplicas: 10, oldRSs: []set{{"foo-v2", 7, newT}, {"foo-v1", 3, oldT}}, wantOld: []int32{10, 4}},
		// scale: a saturated new ReplicaSet (all replicas available)
		// scales the old active ones down to zero.
		{name: "saturated new replica set", replicas: 2, surge: 1, oldReplicas: 2, oldSurge: 1, newRS: &set{"foo-v2", 2, newT}, oldRSs: []set{{"foo-v1", 1, oldT}}, available: 2, wantNew: 2, wantOld: []int32{0}},
		{name: "saturated but broken new replica set does not affect old pods", replicas: 2, surge: 1, oldReplicas: 2, oldSurge: 1, newRS: &set{"foo-v2", 2, newT}, oldRSs: []set{{"foo-v1", 1, oldT}}, wantNew: 2, wantOld: []int32{1}},
	} {
		d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "foo", Namespace: "default"}}
		d.Spec.Replicas = i32(c.replicas)
		d.Spec.Strategy = api.DeploymentStrategy{Type: "RollingUpdate", RollingUpdate: &api.RollingUpdateDeployment{
			MaxSurge: &api.IntOrString{IntVal: c.surge}, MaxUnavailable: &api.IntOrString{IntVal: 0}}}
		mk := func(s set) *api.ReplicaSet {
			desired := c.oldReplicas
			if v, ok := c.desired[s.name]; ok {
				desired = v
			}
			return scaleRS(s.name, s.n, s.at, desired, desired+c.oldSurge)
		}
		var newRS *api.ReplicaSet
		if c.newRS != nil {
			newRS = mk(*c.newRS)
			newRS.Status.AvailableReplicas = c.available
		}
		var oldRSs []*api.ReplicaSet
		for _, s := range c.oldRSs {
			oldRSs = append(oldRSs, mk(s))
		}
		// The expander holds old ReplicaSets oldest first (FindNewReplicaSet's order).
		for i, j := 0, len(oldRSs)-1; i < j; i, j = i+1, j-1 {
			oldRSs[i], oldRSs[j] = oldRSs[j], oldRSs[i]
		}
		e := newExpander(&Input{}, 1)
		e.scale(d, "Deployment default/foo", int(c.replicas), newRS, oldRSs)
		got := func(rs *api.ReplicaSet) int32 {
			if n, ok := e.rsReplicas[rs]; ok {
				return int32(n)
			}
			return *rs.Spec.Replicas
		}
		if newRS != nil && got(newRS) != c.wantNew {
			t.Errorf("%s: new replicas %d, want %d", c.name, got(newRS), c.wantNew)
		}
		for i, want := range c.wantOld {
			rs := oldRSs[len(oldRSs)-1-i]
			if got(rs) != want {
				t.Errorf("%s: old %s replicas %d, want %d", c.name, rs.Name, got(rs), want)
			}
		}
		if len(e.warnings) > 0 {
			t.Errorf("%s: warnings %v", c.name, e.warnings)
		}
	}
}

// TestGetReplicaSetFraction ports upstream's TestGetReplicaSetFraction
// (pkg/controller/deployment/util).
func TestGetReplicaSetFraction(t *testing.T) {
	for _, c := range []struct {
		name                            string
		replicas, statusReplicas, surge int32
		rsReplicas                      int32
		annotations                     map[string]string
		want                            int32
	}{
		{"empty deployment always scales to 0", 0, 0, 0, 10, nil, -10},
		{"unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)", 10, 0, 0, 5, nil, 0},
		{"unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", 10, 0, 0, 5, map[string]string{maxReplicasAnnotation: "0"}, 0},
		{"scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)", 120, 100, 0, 50, nil, 10},
		{"scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", 120, 100, 0, 50, map[string]string{maxReplicasAnnotation: "0"}, 10},
		{"scale up by 1/5 should increase RS replicas by 1/5", 120, 0, 0, 50, map[string]string{maxReplicasAnnotation: "100"}, 10},
		{"scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5", 120, 0, 10, 50, map[string]string{maxReplicasAnnotation: "110"}, 9},
		{"scale down by 1/6 should decrease RS replicas by 1/6", 10, 0, 0, 6, map[string]string{maxReplicasAnnotation: "12"}, -1},
		{"scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6", 100, 0, 10, 50, map[string]string{maxReplicasAnnotation: "130"}, -8},
		// getNonNegativeInt32FromAnnotation: a value that is not a
		// non-negative int32 counts as missing.
		{"negative annotation", 120, 100, 0, 50, map[string]string{maxReplicasAnnotation: "-100"}, 10},
		{"annotation beyond int32", 120, 100, 0, 50, map[string]string{maxReplicasAnnotation: "4294967296"}, 10},
	} {
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Annotations: c.annotations}}
		rs.Spec.Replicas = i32(c.rsReplicas)
		if got := replicaSetFraction(rs, c.replicas, c.surge, c.statusReplicas); got != c.want {
			t.Errorf("%s: fraction %d, want %d", c.name, got, c.want)
		}
	}
}

// TestProportionalScalingPods expands a Deployment scaled from 5 to 10
// in the middle of a rollout: upstream's "proportional scaling: 5 -> 10"
// row, through the pods each ReplicaSet then creates.
func TestProportionalScalingPods(t *testing.T) {
	rs := func(name, image, at string, n int) string {
		return fmt.Sprintf(`apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: %s
  namespace: default
  uid: %s
  creationTimestamp: "%s"
  labels: {app: web}
  annotations: {deployment.kubernetes.io/desired-replicas: "5", deployment.kubernetes.io/max-replicas: "5"}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true}]
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, pod-template-hash: %s}}
    spec: {containers: [{name: c, image: %q}]}
---
`, name, name, at, n, strings.TrimPrefix(name, "web-"), image)
	}
	in := rs("web-v1", "web:1", "2016-05-20T01:00:00Z", 3) + rs("web-v2", "web:2", "2016-05-20T02:00:00Z", 2) + `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, uid: d1, creationTimestamp: "2016-05-20T00:00:00Z"}
spec:
  replicas: 10
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: "web:2"}]}
`
	names, _, ws := expandYAML(t, in)
	v1, v2 := 0, 0
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "default/web-v1-"):
			v1++
		case strings.HasPrefix(n, "default/web-v2-"):
			v2++
		}
	}
	if v1 != 6 || v2 != 4 || len(names) != 10 || len(ws) > 0 {
		t.Errorf("pods %v (web-v1 %d, want 6; web-v2 %d, want 4), warnings %v", names, v1, v2, ws)
	}
}

// TestProportionalScaleProperty: whatever the ReplicaSets' sizes and
// annotations, proportional scaling leaves no ReplicaSet below zero and
// the active ReplicaSets adding up to the allowed size (replicas plus
// surge, 0 when replicas is) unless the leftover would take the first
// below zero; ReplicaSets that were not active stay as they are.
func TestProportionalScaleProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		want := rapid.Int32Range(0, 50).Draw(rt, "replicas")
		surge := rapid.Int32Range(0, 5).Draw(rt, "surge")
		status := rapid.Int32Range(0, 60).Draw(rt, "statusReplicas")
		n := rapid.IntRange(1, 6).Draw(rt, "replicaSets")
		var all []*api.ReplicaSet
		for i := range n {
			rs := scaleRS(fmt.Sprint("rs", i), rapid.Int32Range(0, 40).Draw(rt, "size"),
				time.Unix(rapid.Int64Range(0, 3).Draw(rt, "created"), 0), 0, rapid.Int32Range(0, 60).Draw(rt, "maxReplicas"))
			if rapid.Bool().Draw(rt, "noAnnotation") {
				rs.Annotations = nil
			}
			all = append(all, rs)
		}
		out := proportionalScale(want, surge, status, all[0], all[1:])
		allowed := int32(0)
		if want > 0 {
			allowed = want + surge
		}
		var sum int32
		clamped := false
		for _, rs := range all {
			n, ok := out[rs]
			if *rs.Spec.Replicas == 0 {
				if ok {
					rt.Fatalf("%s was not active but is scaled to %d", rs.Name, n)
				}
				continue
			}
			if !ok {
				rt.Fatalf("active %s not scaled", rs.Name)
			}
			if n < 0 {
				rt.Fatalf("%s scaled to %d", rs.Name, n)
			}
			if n == 0 {
				clamped = true
			}
			sum += n
		}
		if len(out) > 0 && sum != allowed && !(clamped && sum > allowed) {
			rt.Fatalf("active ReplicaSets add up to %d, allowed %d: %v", sum, allowed, out)
		}
	})
}
