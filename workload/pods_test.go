package workload

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseIndexes pins parseIndexesFromString on status strings.
// upstream: pkg/controller/job TestCalculateSucceededIndexes "prev interval
// out of range", "prev interval partially out of range", "prev and new
// separate" (their status parts).
func TestParseIndexes(t *testing.T) {
	for _, c := range []struct {
		s           string
		completions int
		want        []int
	}{
		{"0-5,8-10", 8, []int{0, 1, 2, 3, 4, 5}},
		{"0-5,8-10", 10, []int{0, 1, 2, 3, 4, 5, 8, 9}},
		{"0,4,5,10-12", 13, []int{0, 4, 5, 10, 11, 12}},
		{"", 5, nil},
		{"x,2,3-y,4", 5, []int{2, 4}}, // corrupted intervals are skipped
		{"3,1", 5, []int{1, 3}},
	} {
		m := map[int]bool{}
		parseIndexes(c.s, c.completions, m)
		var got []int
		for i := range m {
			got = append(got, i)
		}
		sort.Ints(got)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%q (completions %d): (-want +got)\n%s", c.s, c.completions, diff)
		}
	}
}

// TestIndexedPrefix ports upstream's TestPodGenerateNameWithIndex.
func TestIndexedPrefix(t *testing.T) {
	for _, c := range []struct{ job, want string }{
		{"indexed-job", "indexed-job-1-"},
		{"hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooo", "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-"},
		{"hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhoo", "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-"},
	} {
		if got := indexedPrefix(c.job, 1); got != c.want {
			t.Errorf("%s: %s, want %s", c.job, got, c.want)
		}
	}
}

// indexedJob is an Indexed Job j (uid j1) with its pods: active holds the
// active pods' completion index annotations ("" for none), succeeded the
// succeeded pods' (with the job-tracking finalizer).
func indexedJob(parallelism, completions int, spec, status string, active, succeeded []string) string {
	var b strings.Builder
	b.WriteString("kind: Job\napiVersion: batch/v1\nmetadata: {name: j, uid: j1}\nspec:\n  parallelism: " + strconv.Itoa(parallelism) +
		"\n  completions: " + strconv.Itoa(completions) + "\n  completionMode: Indexed\n" + spec +
		"  selector: {matchLabels: {batch.kubernetes.io/controller-uid: j1}}\n  template: {metadata: {labels: {batch.kubernetes.io/controller-uid: j1}}, spec: {restartPolicy: Never, containers: [{name: c}]}}\nstatus: {" + status + "}\n")
	pod := func(n int, idx, phase, extra string) {
		ann := ""
		if idx != "" {
			ann = ", annotations: {batch.kubernetes.io/job-completion-index: \"" + idx + "\"}"
		}
		b.WriteString("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p" + strings.ToLower(phase) + strconv.Itoa(n) + ", uid: u" + phase + strconv.Itoa(n) +
			", labels: {batch.kubernetes.io/controller-uid: j1}" + ann + extra +
			", ownerReferences: [{apiVersion: batch/v1, kind: Job, name: j, uid: j1, controller: true}]}\nspec: {containers: [{name: c}]}\nstatus: {phase: " + phase + "}\n")
	}
	for i, idx := range active {
		pod(i, idx, "Running", "")
	}
	for i, idx := range succeeded {
		pod(i, idx, "Succeeded", ", finalizers: [batch.kubernetes.io/job-tracking]")
	}
	return b.String()
}

// TestIndexedJobPendingIndexes: the indexes an Indexed Job's pods get.
// The upstream rows test firstPendingIndexes with a count; here the count
// is what manageJob derives (parallelism chosen to give it).
func TestIndexedJobPendingIndexes(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		want []int
		warn string
	}{
		// upstream: TestFirstPendingIndexes "cnt greater than completions"
		{"cnt greater than completions", indexedJob(5, 3, "", "", nil, nil), []int{0, 1, 2}, ""},
		// upstream: TestFirstPendingIndexes "cnt less than completions"
		{"cnt less than completions", indexedJob(2, 5, "", "", nil, nil), []int{0, 1}, ""},
		// upstream: TestFirstPendingIndexes "first pods active"
		{"first pods active", indexedJob(5, 10, "", "", []string{"0", "1"}, nil), []int{2, 3, 4}, ""},
		// upstream: TestFirstPendingIndexes "last pods active or succeeded"
		// with the out-of-range active pod 6 left out (manageJob deletes
		// it first, see "active pod out of range"): the count is 4.
		{"last pods active or succeeded", indexedJob(4, 6, "", "completedIndexes: \"4-5\"", nil, nil), []int{0, 1, 2, 3}, ""},
		// upstream: TestFirstPendingIndexes "mixed" (succeeded 2-4 and 9,
		// from the status and from pods; without the row's active pods
		// of no index and index -3, which manageJob deletes first)
		{"mixed", indexedJob(8, 20, "", "completedIndexes: \"2-3\"", []string{"3", "5", "8"}, []string{"4", "9"}), []int{0, 1, 6, 7, 10}, ""},
		// upstream: TestFirstPendingIndexes "with failed indexes"
		{"with failed indexes", indexedJob(7, 20, "  backoffLimitPerIndex: 1\n", "completedIndexes: \"1,5,9\", failedIndexes: \"2,6-7\"", []string{"3", "9"}, nil), []int{0, 4, 8, 10, 11}, ""},
		// upstream: syncJob's backoffLimitPerIndex checks (JobReasonFailedIndexes,
		// JobReasonMaxFailedIndexesExceeded): the Job fails, creating none.
		{"failed and completed indexes short of completions", indexedJob(3, 3, "  backoffLimitPerIndex: 1\n", "completedIndexes: \"0\", failedIndexes: \"1\"", nil, nil), []int{2}, ""},
		{"failed and completed indexes reach completions", indexedJob(3, 3, "  backoffLimitPerIndex: 1\n", "completedIndexes: \"0,2\", failedIndexes: \"1\"", nil, nil), nil, ""},
		{"maxFailedIndexes exceeded", indexedJob(3, 3, "  backoffLimitPerIndex: 1\n  maxFailedIndexes: 0\n", "failedIndexes: \"1\"", nil, nil), nil, ""},
		// failedIndexes count only with backoffLimitPerIndex.
		{"failed indexes without backoffLimitPerIndex", indexedJob(2, 20, "", "failedIndexes: \"0-5\"", nil, nil), []int{0, 1}, ""},
		// upstream: TestCalculateSucceededIndexes "prev interval out of
		// range": all 8 done, nothing to create.
		{"all completed", indexedJob(3, 8, "", "completedIndexes: \"0-5,8-10\"", nil, []string{"6", "7"}), nil, ""},
		// A succeeded pod without the finalizer is in the status already
		// (or not counted): its index is pending again.
		{"succeeded pod without finalizer", strings.Replace(indexedJob(2, 3, "", "", nil, []string{"0"}), ", finalizers: [batch.kubernetes.io/job-tracking]", "", 1), []int{0, 1}, ""},
		// upstream: TestAppendDuplicatedIndexPodsForRemoval's cases (no
		// index, out of range, repeated): manageJob deletes, creates none.
		{"active pod without index", indexedJob(3, 5, "", "", []string{"0", ""}, nil), nil, "deletes 1 active pods"},
		{"active pod out of range", indexedJob(3, 5, "", "", []string{"5"}, nil), nil, "deletes 1 active pods"},
		{"repeated index", indexedJob(4, 5, "", "", []string{"1", "1", "1"}, nil), nil, "deletes 2 active pods"},
	} {
		_, byName, ws := expandYAML(t, c.in)
		if c.warn != "" {
			if len(ws) != 1 || !strings.Contains(ws[0], c.warn) {
				t.Errorf("%s: warnings %v, want %s", c.name, ws, c.warn)
			}
			ws = nil
		}
		var got []int
		for name, p := range byName {
			i := completionIndex(p)
			got = append(got, i)
			idx := strconv.Itoa(i)
			if !strings.HasPrefix(name, "j-"+idx+"-") || p.Labels[jobCompletionIndexKey] != idx || p.Spec.Hostname != "j-"+idx ||
				!hasFinalizer(&p.ObjectMeta, jobTrackingFinalizer) || p.Labels["batch.kubernetes.io/job-name"] != "j" {
				t.Errorf("%s: pod %s: labels %v, annotations %v, hostname %q, finalizers %v", c.name, name, p.Labels, p.Annotations, p.Spec.Hostname, p.Finalizers)
			}
		}
		sort.Ints(got)
		if diff := cmp.Diff(c.want, got); diff != "" || len(ws) > 0 {
			t.Errorf("%s: indexes (-want +got)\n%s\nwarnings %v", c.name, diff, ws)
		}
	}
}

// TestJobCounts: succeeded pods count as manageJob counts them, and
// podReplacementPolicy Failed waits for terminating pods.
func TestJobCounts(t *testing.T) {
	job := func(spec, status string) string {
		return "kind: Job\napiVersion: batch/v1\nmetadata: {name: j, uid: j1}\nspec:\n  parallelism: 3\n  completions: 4\n" + spec +
			"  selector: {matchLabels: {batch.kubernetes.io/controller-uid: j1}}\n  template: {metadata: {labels: {batch.kubernetes.io/controller-uid: j1}}, spec: {restartPolicy: Never, containers: [{name: c}]}}\nstatus: {" + status + "}\n"
	}
	pod := func(name, meta, phase string) string {
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", uid: u-" + name + ", labels: {batch.kubernetes.io/controller-uid: j1}" + meta +
			", ownerReferences: [{apiVersion: batch/v1, kind: Job, name: j, uid: j1, controller: true}]}\nspec: {containers: [{name: c}]}\nstatus: {phase: " + phase + "}\n"
	}
	fin := ", finalizers: [batch.kubernetes.io/job-tracking]"
	del := ", deletionTimestamp: \"2024-01-01T00:00:00Z\""
	for _, c := range []struct {
		name string
		in   string
		want int
	}{
		{"status.succeeded counts", job("", "succeeded: 2"), 2},
		{"succeeded pods with the finalizer add to it", job("", "succeeded: 1") + pod("a", fin, "Succeeded") + pod("b", fin, "Succeeded"), 1},
		{"succeeded pods without it are in the status", job("", "succeeded: 1") + pod("a", "", "Succeeded"), 3},
		{"terminating pods are replaced by default", job("", "") + pod("a", fin+del, "Running"), 3},
		{"podReplacementPolicy Failed waits for them", job("  podReplacementPolicy: Failed\n", "") + pod("a", fin+del, "Running"), 2},
		// upstream: SetDefaults_Job (pkg/apis/batch/v1).
		{"as by default with a podFailurePolicy", job("  podFailurePolicy: {rules: []}\n", "") + pod("a", fin+del, "Running"), 2},
	} {
		got, _, ws := expandYAML(t, c.in)
		if len(got) != c.want || len(ws) > 0 {
			t.Errorf("%s: created %v, want %d; warnings %v", c.name, got, c.want, ws)
		}
	}
}

// TestDaemonSetPodLabels pins the labels of a daemon pod (conformance:
// TestDaemonSetPodLabels compares them with upstream's CreatePodTemplate
// on random DaemonSets). The template is podhash's pinned one, whose
// ComputeHash is 66c46c5b67 (collisionCount nil) and 75b477b4bb (5).
func TestDaemonSetPodLabels(t *testing.T) {
	const tpl = `{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`
	node := `{"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}}` + "\n"
	ds := func(meta, status string) string {
		return node + `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"default"` + meta +
			`},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":` + tpl + `},"status":{` + status + `}}`
	}
	for _, c := range []struct {
		name, in  string
		hash, gen string
	}{
		{"stored, generation 3", ds(`,"uid":"a1","annotations":{"deprecated.daemonset.template.generation":"3"}`, ""), "66c46c5b67", "3"},
		{"stored, collisionCount 5", ds(`,"uid":"a1","annotations":{"deprecated.daemonset.template.generation":"2"}`, `"collisionCount":5`), "75b477b4bb", "2"},
		{"stored, no annotation: no generation label", ds(`,"uid":"a1"`, ""), "66c46c5b67", ""},
		{"stored, unparsable annotation: no generation label", ds(`,"uid":"a1","annotations":{"deprecated.daemonset.template.generation":"x"}`, ""), "66c46c5b67", ""},
		// Create defaults the template, clears the status and sets
		// generation 1.
		{"new", ds("", `"collisionCount":5`), newHash(t, tpl), "1"},
	} {
		_, byName, ws := expandYAML(t, c.in)
		if len(byName) != 1 || len(ws) > 0 {
			t.Errorf("%s: pods %v, warnings %v", c.name, byName, ws)
			continue
		}
		for _, p := range byName {
			gen, has := p.Labels[daemonSetTemplateGenerationLabel]
			if p.Labels[controllerRevisionHashLabel] != c.hash || gen != c.gen || has != (c.gen != "") || p.Labels["app"] != "web" {
				t.Errorf("%s: labels %v, want hash %s, generation %q", c.name, p.Labels, c.hash, c.gen)
			}
		}
	}
}

func newHash(t *testing.T, tpl string) string {
	t.Helper()
	def, err := DefaultPodTemplate([]byte(tpl))
	if err != nil {
		t.Fatal(err)
	}
	h, err := PodTemplateHash(def, nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestStatefulSetPodIdentity pins a StatefulSet pod's identity and its
// revision label (conformance: TestStatefulSetRevisionPinned logs these
// names from upstream's history.NewControllerRevision;
// TestStatefulSetPodIdentity compares on random sets).
func TestStatefulSetPodIdentity(t *testing.T) {
	const tpl = `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`
	for _, c := range []struct{ status, want string }{
		{"", "web-66d7d9f69d"},
		{`,"status":{"collisionCount":5}`, "web-66d7d9f6b7"},
	} {
		doc := `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"web","namespace":"default","uid":"s1"},"spec":{"serviceName":"svc","selector":{"matchLabels":{"app":"web"}},"template":` + tpl + `}` + c.status + `}`
		_, byName, ws := expandYAML(t, doc)
		p := byName["web-0"]
		if p == nil || len(byName) != 1 || len(ws) > 0 {
			t.Fatalf("pods %v, warnings %v", byName, ws)
		}
		want := map[string]string{"app": "web", "controller-revision-hash": c.want,
			"statefulset.kubernetes.io/pod-name": "web-0", "apps.kubernetes.io/pod-index": "0"}
		if diff := cmp.Diff(want, p.Labels); diff != "" || p.Spec.Hostname != "web-0" || p.Spec.Subdomain != "svc" {
			t.Errorf("status %q: labels (-want +got)\n%s\nhostname %q, subdomain %q", c.status, diff, p.Spec.Hostname, p.Spec.Subdomain)
		}
	}
}
