package workload

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// TestClaims ports upstream's TestClaimPods (pkg/controller
// controller_ref_manager_test.go) onto claims.
func TestClaims(t *testing.T) {
	yes := true
	now := api.Time{}
	now.Time = now.Add(1)
	production := map[string]string{"type": "production"}
	test := map[string]string{"type": "testing"}
	sel := affinity.SelectorFromSet(production)
	ctrl := func(uid string, deleting bool) owner {
		m := &api.ObjectMeta{Name: "rc", Namespace: "default", UID: uid}
		if deleting {
			m.DeletionTimestamp = &now
		}
		return owner{"ReplicationController", m}
	}
	pod := func(labels map[string]string, by *owner, deleting bool) *api.ObjectMeta {
		m := &api.ObjectMeta{Name: "p", Namespace: "default", Labels: labels}
		if by != nil {
			m.OwnerReferences = []api.OwnerReference{{Kind: by.kind, Name: by.meta.Name, UID: by.meta.UID, Controller: &yes}}
		}
		if deleting {
			m.DeletionTimestamp = &now
		}
		return m
	}
	c, deleting, other := ctrl("123", false), ctrl("123", true), ctrl("AAAAA", false)
	otherNS := pod(production, nil, false)
	otherNS.Namespace = "fakens"
	for _, row := range []struct {
		name string
		o    owner
		pod  *api.ObjectMeta
		want bool
	}{
		// upstream: TestClaimPods "Claim pods with correct label"
		{"orphan with the label", ctrl("", false), pod(production, nil, false), true},
		{"orphan without the label", ctrl("", false), pod(test, nil, false), false},
		// upstream: TestClaimPods "Controller marked for deletion can not claim pods"
		{"deleted controller, orphan", deleting, pod(production, nil, false), false},
		// upstream: TestClaimPods "Controller marked for deletion can not claim new pods"
		{"deleted controller, own pod", deleting, pod(production, &deleting, false), true},
		// upstream: TestClaimPods "Controller can not claim pods owned by another controller"
		{"own pod", c, pod(production, &c, false), true},
		{"another controller's pod", c, pod(production, &other, false), false},
		// upstream: TestClaimPods "Controller releases claimed pods when selector doesn't match"
		{"own pod, label gone", c, pod(test, &c, false), false},
		// upstream: TestClaimPods "Controller does not claim orphaned pods marked for deletion"
		{"own pod being deleted", c, pod(production, &c, true), true},
		{"orphan being deleted", c, pod(production, nil, true), false},
		// upstream: TestClaimPods "Controller does not claim pods of different namespace"
		{"orphan of another namespace", c, otherNS, false},
		// A controller without a uid (hand-written) is named by kind and
		// name; one with a uid by uid alone.
		{"no uid: by kind and name", ctrl("", false), pod(production, &owner{"ReplicationController", &api.ObjectMeta{Name: "rc", UID: "zzz"}}, false), true},
		{"uid: a reference by name to an older controller", c, pod(production, &owner{"ReplicationController", &api.ObjectMeta{Name: "rc", UID: "old"}}, false), false},
	} {
		if got := claims(row.o, &sel, row.pod); got != row.want {
			t.Errorf("%s: claims = %v, want %v", row.name, got, row.want)
		}
	}
}

// expandYAML reads in and returns the expanded pods' namespace/name,
// sorted, and the warnings.
func expandYAML(t *testing.T, in string) ([]string, map[string]*api.Pod, []string) {
	t.Helper()
	pods, warnings := newExpander(readInput(t, "w.yaml", in), 1).expand()
	var names []string
	byName := map[string]*api.Pod{}
	for _, p := range pods {
		names = append(names, p.Namespace+"/"+p.Name)
		byName[p.Name] = p
	}
	sort.Strings(names)
	var ws []string
	for _, w := range warnings {
		ws = append(ws, w.Object+": "+w.Message)
	}
	return names, byName, ws
}

func matchAll(t *testing.T, name string, got, patterns []string) {
	t.Helper()
	if len(got) != len(patterns) {
		t.Errorf("%s: got %v, want %v", name, got, patterns)
		return
	}
	for i, p := range patterns {
		if !regexp.MustCompile("^" + p + "$").MatchString(got[i]) {
			t.Errorf("%s: [%d] = %s, want %s", name, i, got[i], p)
		}
	}
}

const sfx = "[bcdfghjklmnpqrstvwxz2456789]{5}"

// webTemplate is the template conformance's TestPodTemplateHashPinned
// hashes: 66c46c5b67 (collisionCount nil), 6847c57b7f (0), d7c49564b (1),
// 75b477b4bb (5).
const webTemplate = `
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: "nginx:1.27", resources: {requests: {cpu: 100m, memory: 128Mi}}}]}`

// TestDeploymentHash: a stored Deployment's new ReplicaSet is named with
// the Deployment controller's pod-template-hash, collisionCount included,
// and a name taken by another ReplicaSet bumps the count.
func TestDeploymentHash(t *testing.T) {
	stored := "kind: Deployment\napiVersion: apps/v1\nmetadata: {name: web, uid: d1}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}" + webTemplate + "\n"
	for _, c := range []struct{ name, extra, want string }{
		{"no collisionCount", "", "web-66c46c5b67-" + sfx},
		{"collisionCount 5", "status: {collisionCount: 5}\n", "web-75b477b4bb-" + sfx},
		{"collisionCount 0", "status: {collisionCount: 0}\n", "web-6847c57b7f-" + sfx},
		// upstream: the controller's collision handling (getNewReplicaSet):
		// the name is another ReplicaSet's, so collisionCount 0 → 1.
		{"name taken", "status: {collisionCount: 0}\n---\nkind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: web-6847c57b7f, uid: r9}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: other}}\n  template: {metadata: {labels: {app: other}}, spec: {containers: [{name: c}]}}\n", "web-d7c49564b-" + sfx},
	} {
		got, pods, ws := expandYAML(t, stored+c.extra)
		matchAll(t, c.name, got, []string{"default/" + c.want})
		for _, p := range pods {
			if h := p.Labels[podTemplateHashLabel]; !strings.HasPrefix(p.Name, "web-"+h+"-") {
				t.Errorf("%s: pod %s has pod-template-hash %s", c.name, p.Name, h)
			}
		}
		if len(ws) > 0 {
			t.Errorf("%s: warnings %v", c.name, ws)
		}
	}
	// A timestamp in the template: the hash cannot be the controller's,
	// and a warning says so.
	_, _, ws := expandYAML(t, strings.Replace(stored, "metadata: {labels: {app: web}}", "metadata: {labels: {app: web}, creationTimestamp: \"2024-01-01T00:00:00Z\"}", 1))
	if len(ws) != 1 || !strings.Contains(ws[0], "is not the Deployment controller's: metadata.creationTimestamp: a timestamp in the template") {
		t.Errorf("warnings %v", ws)
	}
}

// TestFindNewReplicaSet ports upstream's TestFindNewReplicaSet and
// TestEqualIgnoreHash (pkg/controller/deployment/util): a Deployment that
// claims a ReplicaSet with its template (whatever its pod-template-hash)
// creates nothing itself; one whose ReplicaSets all have other templates
// creates a new one.
func TestFindNewReplicaSet(t *testing.T) {
	deploy := "kind: Deployment\napiVersion: apps/v1\nmetadata: {name: web, uid: d1}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}" + webTemplate + "\n"
	rs := func(name, uid, hashLabel, image string, replicas int, owned bool) string {
		own := ""
		if owned {
			own = ", ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true}]"
		}
		return "---\nkind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: " + name + ", uid: " + uid + ", labels: {app: web, pod-template-hash: \"" + hashLabel + "\"}" + own + "}\nspec:\n  replicas: " + strconv.Itoa(replicas) +
			"\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web, pod-template-hash: \"" + hashLabel + "\"}}\n    spec: {containers: [{name: c, image: \"" + image + "\", resources: {requests: {cpu: 100m, memory: 128Mi}}}]}\n"
	}
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		// upstream: TestFindNewReplicaSet "Get new ReplicaSet with the same
		// template as Deployment spec but different pod-template-hash value"
		// (and TestEqualIgnoreHash "Same spec, only pod-template-hash label
		// value is different"): the ReplicaSet stands for the Deployment and
		// creates its own 3 replicas.
		{"same template, other hash", deploy + rs("web-x", "r1", "hash", "nginx:1.27", 3, true),
			[]string{"default/web-x-" + sfx, "default/web-x-" + sfx, "default/web-x-" + sfx}},
		// upstream: TestFindNewReplicaSet "Get nil new ReplicaSet": only an
		// old template; RollingUpdate with 25% surge of 3 (1) above the old
		// ReplicaSet's 3 replicas: one new pod now (TestNewRSNewReplicas).
		{"old template only", deploy + rs("web-old", "r2", "old", "nginx:1.26", 3, true),
			[]string{"default/web-66c46c5b67-" + sfx, "default/web-old-" + sfx, "default/web-old-" + sfx, "default/web-old-" + sfx}},
		// An orphan ReplicaSet the selector matches is adopted, and as the
		// new ReplicaSet scaled from 1 to the Deployment's 3
		// (reconcileNewReplicaSet: NewRSNewReplicas within 25% surge).
		{"orphan adopted", deploy + rs("web-y", "r3", "y", "nginx:1.27", 1, false),
			[]string{"default/web-y-" + sfx, "default/web-y-" + sfx, "default/web-y-" + sfx}},
		// A rollout under way: new ReplicaSet at 1, old at 3, 4 wanted,
		// surge 1: the new one grows to 1 + min(5-4, 4-1) = 2
		// (TestNewRSNewReplicas "scale up"); the old keeps its 3 (no pods
		// read here, so each ReplicaSet creates all of its replicas).
		{"rollout under way", strings.Replace(deploy, "replicas: 3\n", "replicas: 4\n", 1) + rs("web-new", "r4", "n", "nginx:1.27", 1, true) + rs("web-old", "r2", "old", "nginx:1.26", 3, true),
			[]string{"default/web-new-" + sfx, "default/web-new-" + sfx, "default/web-old-" + sfx, "default/web-old-" + sfx, "default/web-old-" + sfx}},
		// A scaling event (the active ReplicaSet records 3 desired
		// replicas, the Deployment wants 5): sync scales the one active
		// ReplicaSet, even an old one, to 5.
		{"scaling event", strings.Replace(deploy, "replicas: 3\n", "replicas: 5\n", 1) + strings.Replace(rs("web-old", "r2", "old", "nginx:1.26", 3, true), "uid: r2,", "uid: r2, annotations: {deployment.kubernetes.io/desired-replicas: \"3\"},", 1),
			[]string{"default/web-old-" + sfx, "default/web-old-" + sfx, "default/web-old-" + sfx, "default/web-old-" + sfx, "default/web-old-" + sfx}},
		// Recreate waits for the old replicas to go.
		{"recreate", strings.Replace(deploy, "replicas: 3\n", "replicas: 3\n  strategy: {type: Recreate}\n", 1) + rs("web-old", "r2", "old", "nginx:1.26", 1, true),
			[]string{"default/web-old-" + sfx}},
		// A paused Deployment does not roll out.
		{"paused", strings.Replace(deploy, "replicas: 3\n", "replicas: 3\n  paused: true\n", 1), nil},
		// A first rollout creates every replica.
		{"first rollout", deploy, []string{"default/web-66c46c5b67-" + sfx, "default/web-66c46c5b67-" + sfx, "default/web-66c46c5b67-" + sfx}},
	} {
		got, _, ws := expandYAML(t, c.in)
		matchAll(t, c.name, got, c.want)
		if len(ws) > 0 {
			t.Errorf("%s: warnings %v", c.name, ws)
		}
	}
}

// TestEqualIgnoreHash ports upstream's TestEqualIgnoreHash on the JSON
// form of templates.
func TestEqualIgnoreHash(t *testing.T) {
	tpl := func(labels string) any {
		v, err := decodeJSONValue([]byte(`{"metadata":{"labels":` + labels + `},"spec":{"nodeName":"foo-node","containers":[{"name":"foo"}]}}`))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	e := &expander{}
	for _, c := range []struct {
		name string
		a, b string
		want bool
	}{
		{"Same spec, same labels", `{"pod-template-hash":"value-1","something":"else"}`, `{"pod-template-hash":"value-1","something":"else"}`, true},
		{"Same spec, only pod-template-hash label value is different", `{"pod-template-hash":"value-1","something":"else"}`, `{"pod-template-hash":"value-2","something":"else"}`, true},
		{"Same spec, the former doesn't have pod-template-hash label", `{"something":"else"}`, `{"pod-template-hash":"value-2","something":"else"}`, true},
		{"Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels", `{"something":"else"}`, `{"pod-template-hash":"value-2"}`, false},
		{"Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels", `{"pod-template-hash":"value-1"}`, `{"something":"else"}`, false},
		{"Same spec, the label is different, and the pod-template-hash label value is the same", `{"pod-template-hash":"value-1"}`, `{"pod-template-hash":"value-1","something":"else"}`, false},
	} {
		a, b := tpl(c.a), tpl(c.b)
		for _, order := range [][2]any{{a, b}, {b, a}} {
			got, why := e.equalIgnoreHash(order[0], order[1], &api.PodTemplateSpec{}, &api.PodTemplateSpec{})
			if got != c.want || why != "" {
				t.Errorf("%s: %v %q, want %v", c.name, got, why, c.want)
			}
		}
	}
}

// TestNewRSNewReplicas ports upstream's TestNewRSNewReplicas
// (pkg/controller/deployment/util): an old ReplicaSet of 5 replicas.
func TestNewRSNewReplicas(t *testing.T) {
	for _, c := range []struct {
		name                                    string
		recreate                                bool
		depReplicas, newRSReplicas, surge, want int
	}{
		{"can not scale up - to newRSReplicas", false, 1, 5, 1, 5},
		{"scale up - to depReplicas", false, 6, 2, 10, 6},
		{"recreate - to depReplicas", true, 3, 1, 1, 3},
	} {
		if got := newRSNewReplicas(c.recreate, c.depReplicas, c.surge, 5+c.newRSReplicas, c.newRSReplicas); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		v    *api.IntOrString
		want int
	}{{nil, 1}, {&api.IntOrString{IsString: true, StrVal: "50%"}, 2}, {&api.IntOrString{IntVal: 2}, 2}} {
		if got, err := maxSurge(&api.RollingUpdateDeployment{MaxSurge: c.v}, 3); err != nil || got != c.want {
			t.Errorf("maxSurge(%v) = %d, %v; want %d", c.v, got, err, c.want)
		}
	}
}

// TestControllersClaim: the ReplicaSet, StatefulSet, Job and DaemonSet
// expansions count the pods they claim (upstream: ReplicaSet
// TestSyncReplicaSetDormancy-style counts, StatefulSet OrderedReady, Job
// parallelism and completions, DaemonSet target nodes).
func TestControllersClaim(t *testing.T) {
	node := "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\n---\n"
	pod := func(name, labels, owner, extra string) string {
		own := ""
		if owner != "" {
			own = ", ownerReferences: [" + owner + "]"
		}
		if strings.HasPrefix(extra, "deleted") {
			own += ", deletionTimestamp: \"2024-01-01T00:00:00Z\""
			extra = ""
		}
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", uid: u-" + name + ", labels: " + labels + own + "}\nspec: {containers: [{name: c}]" + extra + "}\n"
	}
	rsRef := "{apiVersion: apps/v1, kind: ReplicaSet, name: api, uid: r1, controller: true}"
	rs := "kind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: api, uid: r1}\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: api}}\n  template: {metadata: {labels: {app: api}}, spec: {containers: [{name: c}]}}\n"
	ss := "kind: StatefulSet\napiVersion: apps/v1\nmetadata: {name: db, uid: s1}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: db}}\n  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c}]}}\n"
	ssRef := "{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: s1, controller: true}"
	job := "kind: Job\napiVersion: batch/v1\nmetadata: {name: j, uid: j1}\nspec:\n  parallelism: 3\n  completions: 4\n  selector: {matchLabels: {batch.kubernetes.io/controller-uid: j1}}\n  template: {metadata: {labels: {batch.kubernetes.io/controller-uid: j1}}, spec: {restartPolicy: Never, containers: [{name: c}]}}\n"
	jobRef := "{apiVersion: batch/v1, kind: Job, name: j, uid: j1, controller: true}"
	ds := "kind: DaemonSet\napiVersion: apps/v1\nmetadata: {name: agent, uid: a1}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: c}]}}\n"
	dsRef := "{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: a1, controller: true}"
	for _, c := range []struct {
		name, in string
		want     []string
	}{
		{"replicaset: own, adopted, released, other's, inactive", rs +
			pod("own", "{app: api}", rsRef, "") +
			pod("orphan", "{app: api}", "", "") +
			pod("released", "{app: other}", rsRef, "") +
			pod("others", "{app: api}", "{apiVersion: apps/v1, kind: ReplicaSet, name: api, uid: OLD, controller: true}", "") +
			pod("failed", "{app: api}", rsRef, "}\nstatus: {phase: Failed") +
			pod("going", "{app: api}", rsRef, "deleted"),
			[]string{"default/api-" + sfx, "default/api-" + sfx}}, // 4 - own - adopted orphan
		{"statefulset OrderedReady: one at a time", ss,
			[]string{"default/db-0"}},
		{"statefulset OrderedReady: waits for db-0 to be ready", ss + pod("db-0", "{app: db}", ssRef, ""),
			nil},
		{"statefulset OrderedReady: after a ready db-0, db-1", ss + pod("db-0", "{app: db}", ssRef, "}\nstatus: {phase: Running, conditions: [{type: Ready, status: \"True\"}]"),
			[]string{"default/db-1"}},
		{"statefulset: a failed pod is replaced", ss + pod("db-0", "{app: db}", ssRef, "}\nstatus: {phase: Failed"),
			[]string{"default/db-0"}},
		{"job: 1 active, 1 succeeded of 4: 2 more", job +
			pod("j-a", "{batch.kubernetes.io/controller-uid: j1}", jobRef, "") +
			pod("j-b", "{batch.kubernetes.io/controller-uid: j1}", jobRef, "}\nstatus: {phase: Succeeded"),
			[]string{"default/j-" + sfx, "default/j-" + sfx}},
		{"job: suspended", strings.Replace(job, "parallelism: 3", "parallelism: 3\n  suspend: true", 1), nil},
		{"daemonset: a pending pod bound to n1 by affinity counts", node + ds + pod("agent-x", "{app: agent}", dsRef,
			", affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]}}}"),
			[]string{"default/agent-" + sfx}},
	} {
		got, _, ws := expandYAML(t, c.in)
		matchAll(t, c.name, got, c.want)
		for _, w := range ws {
			// OrderedReady says why the later ordinals are not there yet.
			if !strings.Contains(w, "podManagementPolicy OrderedReady: ") || !strings.HasPrefix(w, "StatefulSet default/db: ") {
				t.Errorf("%s: warning %v", c.name, w)
			}
		}
	}
}

// TestReplicaSetSync ports upstream's ReplicaSet controller tests
// (pkg/controller/replicaset replica_set_test.go) on what a sync creates.
func TestReplicaSetSync(t *testing.T) {
	rs := func(meta string) string {
		return "kind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: foo, uid: rs1" + meta + "}\nspec:\n  replicas: 2\n  selector: {matchLabels: {foo: bar}}\n  template: {metadata: {labels: {foo: bar}}, spec: {containers: [{name: c}]}}\n"
	}
	pod := func(name, meta, status string) string {
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", uid: u-" + name + ", labels: {foo: bar}" + meta + "}\nspec: {nodeName: n1, containers: [{name: c}]}\nstatus: {phase: " + status + "}\n"
	}
	own := ", ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: foo, uid: rs1, controller: true}]"
	other := ", ownerReferences: [{apiVersion: v1beta1, kind: ReplicaSet, name: AnotherRS, uid: x, controller: true}]"
	for _, c := range []struct {
		name, in string
		created  int
	}{
		// upstream: TestSyncReplicaSetDoesNothing
		{"2 running pods, 2 replicas", rs("") + pod("a", own, "Running") + pod("b", own, "Running"), 0},
		// upstream: TestDoNotPatchPodWithOtherControlRef
		{"a matching pod of another controller", rs("") + pod("a", other, "Running"), 2},
		// upstream: TestDoNotAdoptOrCreateIfBeingDeleted
		{"being deleted: no adoption, no creation", rs(", deletionTimestamp: \"2024-01-01T00:00:00Z\"") + pod("a", "", "Running"), 0},
		// upstream: TestDeletionTimestamp (a pod being deleted is not
		// counted: its replacement is created)
		{"a pod being deleted", rs("") + pod("a", own+", deletionTimestamp: \"2024-01-01T00:00:00Z\"", "Running") + pod("b", own, "Running"), 1},
		// controller.FilterActivePods: failed and succeeded pods do not count.
		{"terminal pods", rs("") + pod("a", own, "Failed") + pod("b", own, "Succeeded"), 2},
		// An orphan is adopted (TestClaimPods "Claim pods with correct label").
		{"an orphan", rs("") + pod("a", "", "Pending"), 1},
	} {
		got, _, ws := expandYAML(t, c.in)
		if len(ws) == 1 && strings.HasPrefix(ws[0], "ReplicaSet default/AnotherRS: not among the objects") {
			ws = nil // the other controller is not in the input
		}
		if len(got) != c.created || len(ws) > 0 {
			t.Errorf("%s: created %v, want %d; warnings %v", c.name, got, c.created, ws)
		}
	}
}

// TestExpandCap: a workload that would create more than MaxExpandedPods
// pods is cut there, with a warning.
func TestExpandCap(t *testing.T) {
	in := "kind: ReplicaSet\napiVersion: apps/v1\nmetadata: {name: big}\nspec:\n  replicas: 2000000000\n  selector: {matchLabels: {a: b}}\n  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c}]}}\n"
	got, _, ws := expandYAML(t, in)
	if len(got) != MaxExpandedPods || len(ws) != 1 || ws[0] != "ReplicaSet default/big: would create 2000000000 pods: expanded to the first 100000" {
		t.Errorf("%d pods, warnings %v", len(got), ws)
	}
}

// Pods whose controller is not among the objects (a Deployment dumped
// without its ReplicaSets) get a warning naming the controller and the
// kubectl kind to add, and the Deployment invents no pods on top of
// them: its controller would find its ReplicaSet in the cluster.
func TestAbsentOwners(t *testing.T) {
	dep := "kind: Deployment\napiVersion: apps/v1\nmetadata: {name: web, namespace: default, uid: d1}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c}]}}\n"
	rsRef := "{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f, uid: rs1, controller: true}"
	pod := func(name, ref string) string {
		return "---\nkind: Pod\napiVersion: v1\nmetadata: {name: " + name + ", namespace: default, uid: " + name +
			", labels: {app: web, pod-template-hash: 5d8f}, ownerReferences: [" + ref + "]}\nspec: {nodeName: n1, containers: [{name: c}]}\n"
	}
	in := dep + pod("web-5d8f-a", rsRef) + pod("web-5d8f-b", rsRef) + pod("web-5d8f-c", rsRef) +
		pod("agent-x", "{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: ds1, controller: true}")
	got, _, ws := expandYAML(t, in)
	if len(got) != 0 {
		t.Errorf("created %v, want none", got)
	}
	want := []string{
		"ReplicaSet default/web-5d8f: not among the objects, and 3 active pod(s) name it their controller (the first web-5d8f-a): its controller is not emulated and its pods are taken as they are; add it to the input (kubectl get replicasets)",
		"DaemonSet default/agent: not among the objects, and 1 active pod(s) name it their controller (the first agent-x): its controller is not emulated and its pods are taken as they are; add it to the input (kubectl get daemonsets)",
		"Deployment default/web: its pods are owned by ReplicaSet default/web-5d8f, which is not among the objects: the Deployment is not expanded (no pods are created for it) and its pods are taken as they are; add its ReplicaSets to the input (kubectl get replicasets)",
	}
	if strings.Join(ws, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(ws, "\n"), strings.Join(want, "\n"))
	}
}

// The objects the controllers create besides pods (ExpandAll): a
// StatefulSet's claims (getPersistentVolumeClaims: name, labels, and the
// retention policy's owner reference) and the ControllerRevisions a
// StatefulSet and a DaemonSet create for a template no revision holds
// (history.NewControllerRevision: the pods' controller-revision-hash,
// template labels, revision 1).
func TestExpandAllCreated(t *testing.T) {
	in := "kind: StatefulSet\napiVersion: apps/v1\nmetadata: {name: db, namespace: default, uid: s1}\nspec:\n  replicas: 2\n  podManagementPolicy: Parallel\n" +
		"  selector: {matchLabels: {app: db}}\n  template: {metadata: {labels: {app: db, tier: data}}, spec: {containers: [{name: c, image: x}]}}\n" +
		"  volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]\n---\n" +
		"kind: PersistentVolumeClaim\napiVersion: v1\nmetadata: {name: data-db-1, namespace: default}\nspec: {resources: {requests: {storage: 1Gi}}}\n---\n" +
		"kind: Node\napiVersion: v1\nmetadata: {name: n1}\n---\n" +
		"kind: DaemonSet\napiVersion: apps/v1\nmetadata: {name: agent, namespace: default, uid: d1}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: c, image: x}]}}\n"
	e := newExpander(readInput(t, "w.yaml", in), 1)
	pods, _ := e.expand()
	if len(pods) != 3 {
		t.Fatalf("%d pods", len(pods))
	}
	if len(e.claims) != 1 || e.claims[0].Name != "data-db-0" || e.claims[0].Labels["app"] != "db" || len(e.claims[0].OwnerReferences) != 0 {
		t.Errorf("claims %+v (data-db-1 exists; Retain: no owner)", e.claims)
	}
	if len(e.revisions) != 2 {
		t.Fatalf("revisions %v", e.revisions)
	}
	for i, p := range []*api.Pod{pods[0], pods[2]} {
		cr := e.revisions[i]
		h := p.Labels["controller-revision-hash"]
		if cr.Labels["controller-revision-hash"] == "" || (cr.Name != h && !strings.HasSuffix(cr.Name, "-"+h)) || cr.Revision != 1 || cr.OwnerReferences[0].Kind != p.OwnerReferences[0].Kind || cr.Labels["app"] == "" {
			t.Errorf("revision %s %v (revision %d, owner %v) for pod %s labelled %s", cr.Name, cr.Labels, cr.Revision, cr.OwnerReferences, p.Name, h)
		}
	}
}
