package workload

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/workload/internal/podhash"
)

// revisionDoc is a ControllerRevision document as the StatefulSet (or
// DaemonSet) controller writes it for a template (tpl, stored JSON).
func revisionDoc(t *testing.T, name, tpl string, revision int, meta string) string {
	t.Helper()
	v, err := decodeJSONValue([]byte(tpl))
	if err != nil {
		t.Fatal(err)
	}
	data, err := podhash.StatefulSetPatch(v)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":%q,"namespace":"default","labels":{"app":"web"}%s},"data":%s,"revision":%d}`+"\n", name, meta, data, revision)
}

// ssTemplate is TestStatefulSetPodIdentity's template, whose revision the
// StatefulSet controller names web-66d7d9f69d (collisionCount 0);
// ssOldTemplate the same with another image.
const (
	ssTemplate    = `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`
	ssOldTemplate = `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.26","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`
	ssOwner       = `,"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"s1","controller":true}]`
)

func statefulSetDoc(replicas int, strategy, status string) string {
	return fmt.Sprintf(`{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web","namespace":"default","uid":"s1"},"spec":{"replicas":%d,"podManagementPolicy":"Parallel","serviceName":"svc","selector":{"matchLabels":{"app":"web"}},"template":%s%s},"status":{%s}}`+"\n",
		replicas, ssTemplate, strategy, status)
}

// TestStatefulSetRevisions pins which revision each new pod of a
// StatefulSet is made from (newVersionedStatefulSetPod over the current
// and update revisions of getStatefulSetRevisions, templates restored by
// ApplyRevision).
func TestStatefulSetRevisions(t *testing.T) {
	old := revisionDoc(t, "web-old", ssOldTemplate, 1, ssOwner)
	cur := revisionDoc(t, "web-66d7d9f69d", ssTemplate, 2, ssOwner)
	partition := func(n int) string {
		return fmt.Sprintf(`,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":%d}}`, n)
	}
	v, _ := decodeJSONValue([]byte(ssTemplate))
	patch, _ := podhash.StatefulSetPatch(v)
	defaulted, err := DefaultPodTemplate([]byte(ssTemplate))
	if err != nil {
		t.Fatal(err)
	}
	cc1 := int32(1)
	collided := podhash.RevisionName("web", podhash.RevisionHash(patch, &cc1))
	for _, c := range []struct {
		name, in string
		// want is each pod's image and revision label, by ordinal.
		want     []string
		warnings []string
	}{
		// upstream: TestStatefulSetControlRollingUpdateWithPartition
		// "burst image update and scale up": ordinals below the
		// partition from the current revision, the others from the
		// update revision.
		{"partition 2", old + cur + statefulSetDoc(5, partition(2), `"currentRevision":"web-old","updateRevision":"web-66d7d9f69d"`),
			[]string{"nginx:1.26 web-old", "nginx:1.26 web-old", "nginx:1.27 web-66d7d9f69d", "nginx:1.27 web-66d7d9f69d", "nginx:1.27 web-66d7d9f69d"}, nil},
		// upstream: TestStatefulSetControlRollingUpdate: partition 0
		// (the default) updates every ordinal.
		{"partition 0", old + cur + statefulSetDoc(2, partition(0), `"currentRevision":"web-old"`),
			[]string{"nginx:1.27 web-66d7d9f69d", "nginx:1.27 web-66d7d9f69d"}, nil},
		// newVersionedStatefulSetPod: a RollingUpdate without parameters
		// keeps the first status.currentReplicas ordinals at the current
		// revision.
		{"RollingUpdate without rollingUpdate", old + cur + statefulSetDoc(3, `,"updateStrategy":{"type":"RollingUpdate"}`, `"currentRevision":"web-old","currentReplicas":1`),
			[]string{"nginx:1.26 web-old", "nginx:1.27 web-66d7d9f69d", "nginx:1.27 web-66d7d9f69d"}, nil},
		// upstream: TestStatefulSetControlOnDeleteUpdate "monotonic image
		// update" (validateRestart): the pods OnDelete recreates are at
		// the update revision.
		{"OnDelete", old + cur + statefulSetDoc(2, `,"updateStrategy":{"type":"OnDelete"}`, `"currentRevision":"web-old"`),
			[]string{"nginx:1.27 web-66d7d9f69d", "nginx:1.27 web-66d7d9f69d"}, nil},
		// The current revision is not in the dump: upstream would find
		// it; the pods get the update revision, with a warning.
		{"current revision not read", cur + statefulSetDoc(2, partition(1), `"currentRevision":"web-old"`),
			[]string{"nginx:1.27 web-66d7d9f69d", "nginx:1.27 web-66d7d9f69d"},
			[]string{"StatefulSet default/web: ControllerRevision web-old (status.currentRevision) is not among the objects: the pods the controller makes from it get the update revision web-66d7d9f69d"}},
		// getStatefulSetRevisions: an existing revision with the set's
		// data is the update revision, whatever its name (upstream:
		// TestStatefulSetControlRollback, rolling back to an equal
		// revision).
		{"equal revision under another name", old + revisionDoc(t, "web-rolledback", ssTemplate, 1, ssOwner) + statefulSetDoc(1, "", ""),
			[]string{"nginx:1.27 web-rolledback"}, nil},
		// upstream: setMatchesLatestExistingRevision (the
		// StatefulSetSemanticRevisionComparison mitigation): the latest
		// revision's bytes differ (written before the defaults) but
		// restoring it, defaulted, gives the set's data.
		{"latest revision restores to the set", revisionDoc(t, "web-legacy", ssTemplate, 1, ssOwner) + strings.Replace(statefulSetDoc(1, "", ""), ssTemplate, string(defaulted), 1),
			[]string{"nginx:1.27 web-legacy"}, nil},
		// A revision of another set (its controller reference has
		// another uid) is not the set's.
		{"another set's revision", revisionDoc(t, "web-other", ssTemplate, 1, `,"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","uid":"s2","controller":true}]`) + statefulSetDoc(1, "", ""),
			[]string{"nginx:1.27 web-66d7d9f69d"}, nil},
		// CreateControllerRevision: the name is taken by a revision with
		// other data, so the collision count goes up.
		{"name collision", revisionDoc(t, "web-66d7d9f69d", ssOldTemplate, 1, `,"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"db","uid":"s2","controller":true}]`) + statefulSetDoc(1, "", ""),
			[]string{"nginx:1.27 " + collided}, nil},
	} {
		_, byName, ws := expandYAML(t, c.in)
		var got []string
		for i := range len(byName) {
			p := byName[fmt.Sprintf("web-%d", i)]
			if p == nil {
				t.Fatalf("%s: pods %v", c.name, byName)
			}
			got = append(got, p.Spec.Containers[0].Image+" "+p.Labels[controllerRevisionHashLabel])
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: pods (-want +got):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(c.warnings, ws); diff != "" {
			t.Errorf("%s: warnings (-want +got):\n%s", c.name, diff)
		}
	}
}

// TestDaemonSetRevisions pins the controller-revision-hash a DaemonSet's
// new pods get from its ControllerRevisions (constructHistory: Match,
// dedupCurHistories, snapshot's name collisions).
func TestDaemonSetRevisions(t *testing.T) {
	// TestDaemonSetPodLabels' template: ComputeHash 66c46c5b67.
	const tpl = `{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`
	oldTpl := strings.Replace(tpl, "1.27", "1.26", 1)
	ds := `{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}}` + "\n" +
		`{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"default","uid":"a1"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":` + tpl + `}}` + "\n"
	owned := `,"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"agent","uid":"a1","controller":true}]`
	other := `,"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"x","uid":"x1","controller":true}]`
	labelled := func(hash, meta string) string {
		return `,"labels":{"app":"web","controller-revision-hash":"` + hash + `"}` + meta
	}
	rev := func(name, tpl string, revision int, meta string) string {
		// revisionDoc's labels are replaced when meta has its own.
		d := revisionDoc(t, name, tpl, revision, meta)
		if strings.Contains(meta, `"labels"`) {
			d = strings.Replace(d, `"labels":{"app":"web"},`, "", 1)
		}
		return d
	}
	v, _ := decodeJSONValue([]byte(tpl))
	cc1 := int32(1)
	bumped, err := podhash.Hash(v, &cc1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, in, want string }{
		{"no revision: the one the controller creates", ds, "66c46c5b67"},
		// Match: the revision whose data is the DaemonSet's patch is the
		// current one, its hash label what the pods get.
		{"matching revision", rev("agent-abc", tpl, 2, labelled("abc", owned)) + ds, "abc"},
		// constructHistory labels a revision without the label with its
		// name first.
		{"matching revision without the label", rev("agent-old-name", tpl, 2, owned) + ds, "agent-old-name"},
		// dedupCurHistories keeps the highest revision.
		{"two matching revisions", rev("agent-a", tpl, 3, labelled("a", owned)) + rev("agent-b", tpl, 1, labelled("b", owned)) + ds, "a"},
		{"old revision only", rev("agent-old", oldTpl, 1, labelled("old", owned)) + ds, "66c46c5b67"},
		// An orphan the selector matches is adopted (ClaimObject).
		{"orphan adopted", rev("agent-orphan", tpl, 1, labelled("orphan", "")) + ds, "orphan"},
		{"another DaemonSet's revision", rev("agent-x", tpl, 1, labelled("x", other)) + ds, "66c46c5b67"},
		// snapshot: the name is taken by other data, the collision
		// count goes up.
		{"name collision", rev("agent-66c46c5b67", oldTpl, 1, labelled("66c46c5b67", other)) + ds, bumped},
	} {
		_, byName, ws := expandYAML(t, c.in)
		if len(byName) != 1 || len(ws) > 0 {
			t.Errorf("%s: pods %v, warnings %v", c.name, byName, ws)
			continue
		}
		for _, p := range byName {
			if got := p.Labels[controllerRevisionHashLabel]; got != c.want {
				t.Errorf("%s: controller-revision-hash %q, want %q", c.name, got, c.want)
			}
		}
	}
}
