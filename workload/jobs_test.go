package workload

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

// TestMatchSuccessPolicy ports rows of upstream's TestMatchSuccessPolicy
// (pkg/controller/job/success_policy_test.go); the succeeded indexes are
// given as upstream's intervals.
func TestMatchSuccessPolicy(t *testing.T) {
	s := func(v string) *string { return &v }
	n := func(v int32) *int32 { return &v }
	rules := func(r ...api.SuccessPolicyRule) *api.SuccessPolicy { return &api.SuccessPolicy{Rules: r} }
	for _, c := range []struct {
		name        string
		policy      *api.SuccessPolicy
		completions int
		succeeded   [][2]int
		want        bool
	}{
		{"successPolicy is null", nil, 10, [][2]int{{0, 0}}, false},
		{"any rules are nothing", rules(), 10, [][2]int{{0, 0}}, false},
		{"rules.succeededIndexes is invalid format", rules(api.SuccessPolicyRule{SucceededIndexes: s("invalid-form")}), 10, [][2]int{{0, 0}}, false},
		{"rules.succeededIndexes is specified; succeededIndexes matched rules", rules(api.SuccessPolicyRule{SucceededIndexes: s("0-2")}), 10, [][2]int{{0, 2}, {4, 7}}, true},
		{"rules.succeededIndexes is specified; succeededIndexes didn't match rules", rules(api.SuccessPolicyRule{SucceededIndexes: s("3")}), 10, [][2]int{{0, 2}}, false},
		{"rules.succeededCount is specified; succeededIndexes matched rules", rules(api.SuccessPolicyRule{SucceededCount: n(2)}), 10, [][2]int{{0, 2}}, true},
		{"rules.succeededCount is specified; succeededIndexes didn't match rules", rules(api.SuccessPolicyRule{SucceededCount: n(4)}), 10, [][2]int{{0, 2}}, false},
		{"multiple rules; rules.succeededIndexes is specified; succeededIndexes met one of rules",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("9")}, api.SuccessPolicyRule{SucceededIndexes: s("7")}), 10, [][2]int{{0, 2}, {4, 7}}, true},
		{"rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes met all rules",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("3-6"), SucceededCount: n(2)}), 10, [][2]int{{0, 2}, {4, 7}}, true},
		{"rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes didn't match rules",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("3-6"), SucceededCount: n(4)}), 10, [][2]int{{0, 2}, {4, 7}}, false},
		{"rules.succeededIndexes is specified; succeededIndexes are nothing", rules(api.SuccessPolicyRule{SucceededIndexes: s("0-2")}), 10, nil, false},
		{"rules.succeededIndexes is specified; succeededIndexes matched rules; rules is proper subset of succeededIndexes",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("1-3"), SucceededCount: n(2)}), 10, [][2]int{{0, 5}}, true},
		{"rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps succeededIndexes at first",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("1-3")}), 10, [][2]int{{2, 4}}, false},
		{"rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps succeededIndexes at first",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("1-3"), SucceededCount: n(2)}), 10, [][2]int{{2, 4}}, true},
		{"rules.succeededIndexes is specified; succeededIndexes didn't match rules; rules overlaps multiple succeededIndexes at last",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("3-7")}), 10, [][2]int{{1, 2}, {4, 5}, {7, 8}}, false},
		{"rules.succeededIndexes and rules.succeededCount are specified; succeededIndexes matched rules; rules overlaps multiple succeededIndexes at last",
			rules(api.SuccessPolicyRule{SucceededIndexes: s("3-7"), SucceededCount: n(3)}), 10, [][2]int{{1, 2}, {4, 5}, {7, 8}}, true},
	} {
		have := map[int]bool{}
		for _, iv := range c.succeeded {
			for i := iv[0]; i <= iv[1]; i++ {
				have[i] = true
			}
		}
		if got := matchSuccessPolicy(c.policy, c.completions, have); got != c.want {
			t.Errorf("%s: met %v, want %v", c.name, got, c.want)
		}
	}
}

// jobDoc is a Job j (uid j1, restartPolicy from restart) with spec and
// status YAML lines, followed by pods (documents).
func jobDoc(restart, spec, status string, pods ...string) string {
	var b strings.Builder
	b.WriteString("kind: Job\napiVersion: batch/v1\nmetadata: {name: j, uid: j1}\nspec:\n  parallelism: 2\n  completions: 4\n" + spec +
		"  selector: {matchLabels: {batch.kubernetes.io/controller-uid: j1}}\n  template: {metadata: {labels: {batch.kubernetes.io/controller-uid: j1}}, spec: {restartPolicy: " + restart + ", containers: [{name: c}]}}\nstatus: {" + status + "}\n")
	for i, p := range pods {
		b.WriteString("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p" + string(rune('a'+i)) + ", uid: u" + string(rune('a'+i)) +
			", labels: {batch.kubernetes.io/controller-uid: j1}, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: j, uid: j1, controller: true}]" + p + "\n")
	}
	return b.String()
}

// failedPod is a failed pod holding the job-tracking finalizer, with a
// terminated container's exit code and pod conditions.
func failedPod(exit string, conditions string) string {
	return ", finalizers: [batch.kubernetes.io/job-tracking]}\nspec: {containers: [{name: c}]}\nstatus: {phase: Failed, conditions: [" + conditions +
		"], containerStatuses: [{name: c, ready: false, restartCount: 0, state: {terminated: {exitCode: " + exit + "}}}]}"
}

// TestJobFailureAndSuccess pins the Jobs the Job controller fails or
// succeeds in a sync, creating no pods (syncJob's failure and success
// scenarios before manageJob).
func TestJobFailureAndSuccess(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	policy := "  podFailurePolicy:\n    rules:\n    - {action: FailJob, onExitCodes: {operator: In, values: [42]}}\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget, status: \"True\"}]}\n"
	runningPod := func(restarts string) string {
		return "}\nspec: {containers: [{name: c}]}\nstatus: {phase: Running, containerStatuses: [{name: c, ready: true, restartCount: " + restarts + "}]}"
	}
	for _, c := range []struct {
		name     string
		in       string
		now      time.Time
		pods     int
		warnings []string
	}{
		{"nothing failed", jobDoc("Never", "", ""), start, 2, nil},
		// upstream: TestSyncJobWithJobPodFailurePolicy "fail job based on
		// OnExitCodes".
		{"FailJob on an exit code", jobDoc("Never", policy, "", failedPod("42", "")), start, 0, nil},
		// upstream: TestSyncJobWithJobPodFailurePolicy "fail job based on
		// OnExitCodes with NotIn operator".
		{"FailJob on NotIn", jobDoc("Never", "  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: NotIn, values: [5, 6, 7]}}]}\n", "", failedPod("42", "")), start, 0, nil},
		// upstream: TestSyncJobWithJobPodFailurePolicy "default handling
		// for pod failure if the container matching the exit codes does
		// not match the containerName restriction".
		{"containerName restriction", jobDoc("Never", "  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {containerName: other, operator: In, values: [42]}}]}\n", "", failedPod("42", "")), start, 2, nil},
		// upstream: TestSyncJobWithJobPodFailurePolicy "fail job based on
		// OnExitCodes for InitContainer".
		{"FailJob on an init container", jobDoc("Never", policy, "", strings.Replace(failedPod("0", ""), "containerStatuses:", "initContainerStatuses: [{name: i, ready: false, restartCount: 0, state: {terminated: {exitCode: 42}}}], containerStatuses:", 1)), start, 0, nil},
		// upstream: TestSyncJobWithJobPodFailurePolicy "fail job based on
		// OnPodConditions".
		{"FailJob on a pod condition", jobDoc("Never", "  podFailurePolicy: {rules: [{action: FailJob, onPodConditions: [{type: ConfigIssue, status: \"True\"}]}]}\n", "", failedPod("1", "{type: ConfigIssue, status: \"True\"}")), start, 0, nil},
		// upstream: TestSyncJobWithJobPodFailurePolicy "default job based
		// on OnExitCodes": no rule matches, the failure counts.
		{"exit code no rule matches: counted", jobDoc("Never", policy+"  backoffLimit: 1\n", "", failedPod("5", "")), start, 2, nil},
		// upstream: TestSyncJobWithJobPodFailurePolicy "ignore pod failure
		// based on OnPodConditions": the failure does not count towards
		// the backoff limit.
		{"Ignore rule: not counted", jobDoc("Never", policy+"  backoffLimit: 0\n", "", failedPod("5", "{type: DisruptionTarget, status: \"True\"}")), start, 2, nil},
		{"not ignored: past backoffLimit 0", jobDoc("Never", policy+"  backoffLimit: 0\n", "", failedPod("5", "")), start, 0, nil},
		// upstream: TestJobBackoffOnRestartPolicyNever "not enough
		// failures with backoffLimit 1 - single pod" / "too many failures
		// with backoffLimit 1 - single pod": status.failed plus the failed
		// pods not yet counted, against backoffLimit.
		{"failures at the backoff limit", jobDoc("Never", "  backoffLimit: 2\n", "failed: 1", failedPod("1", "")), start, 2, nil},
		{"failures past the backoff limit", jobDoc("Never", "  backoffLimit: 1\n", "failed: 1", failedPod("1", "")), start, 0, nil},
		// A failed pod without the finalizer is in status.failed already.
		{"counted failure not counted twice", jobDoc("Never", "  backoffLimit: 1\n", "failed: 1", strings.Replace(failedPod("1", ""), ", finalizers: [batch.kubernetes.io/job-tracking]", "", 1)), start, 2, nil},
		// upstream: TestJobBackoffForOnFailure "backoffLimit 1 with
		// restartCount 1 and podRunning should have 0 pod active" and
		// "backoffLimit 0 should have 1 pod active".
		{"OnFailure restarts reach the limit", jobDoc("OnFailure", "  backoffLimit: 1\n", "", runningPod("1")), start, 0, nil},
		{"OnFailure, no restart", jobDoc("OnFailure", "  backoffLimit: 0\n", "", runningPod("0")), start, 1, nil},
		// The pod failure backoff (kept in the controller's memory):
		// a failure less than 10 minutes old may hold the pods back.
		{"recent failure", jobDoc("Never", "", "", strings.Replace(failedPod("1", ""), "exitCode: 1", "exitCode: 1, finishedAt: \"2025-12-31T23:59:00Z\"", 1)), start, 2,
			[]string{"Job default/j: a pod failed at 2025-12-31T23:59:00Z: the Job controller may hold back the pods created here for its pod failure backoff (up to 10m0s), which a dump does not show"}},
		{"old failure", jobDoc("Never", "", "", strings.Replace(failedPod("1", ""), "exitCode: 1", "exitCode: 1, finishedAt: \"2025-12-31T23:40:00Z\"", 1)), start, 2, nil},
		// upstream: TestSyncJobPastDeadline "activeDeadlineSeconds less
		// than single pod execution" and a Job within its deadline.
		{"past the active deadline", jobDoc("Never", "  activeDeadlineSeconds: 10\n", "startTime: \"2026-01-01T00:00:00Z\""), start.Add(10 * time.Second), 0, nil},
		{"within the active deadline", jobDoc("Never", "  activeDeadlineSeconds: 10\n", "startTime: \"2026-01-01T00:00:00Z\""), start.Add(9 * time.Second), 2, nil},
		{"active deadline without a time reference", jobDoc("Never", "  activeDeadlineSeconds: 10\n", "startTime: \"2026-01-01T00:00:00Z\""), time.Time{}, 0,
			[]string{"Job default/j: spec.activeDeadlineSeconds judged against this machine's clock (no time reference given)"}},
		// syncJob: a FailureTarget or SuccessCriteriaMet condition True
		// finishes the Job (upstream: TestSyncJobWithJobPodFailurePolicy
		// "job marked already as failure target with failed pod";
		// TestControllerSyncJob "FailureTarget=False condition added
		// manually is ignored").
		{"FailureTarget", jobDoc("Never", "", "conditions: [{type: FailureTarget, status: \"True\"}]"), start, 0, nil},
		{"SuccessCriteriaMet", jobDoc("Never", "", "conditions: [{type: SuccessCriteriaMet, status: \"True\"}]"), start, 0, nil},
		{"FailureTarget False", jobDoc("Never", "", "conditions: [{type: FailureTarget, status: \"False\"}]"), start, 2, nil},
		// upstream: TestSyncJobWithJobSuccessPolicy "job with successPolicy;
		// job has SuccessCriteriaMet condition when job meets to
		// successPolicy and some pods still are running": the rule is met
		// by the completed indexes.
		{"successPolicy met", jobDoc("Never", "  completionMode: Indexed\n  successPolicy: {rules: [{succeededIndexes: \"0,1\"}]}\n", "completedIndexes: \"0-1\""), start, 0, nil},
		{"successPolicy not met", jobDoc("Never", "  completionMode: Indexed\n  successPolicy: {rules: [{succeededIndexes: \"0-2\"}]}\n", "completedIndexes: \"0-1\""), start, 2, nil},
	} {
		objs, readWarnings, err := readYAML("j.yaml", c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(readWarnings) > 0 {
			t.Fatalf("%s: read warnings %v", c.name, readWarnings)
		}
		e := newExpander(objs, 1)
		e.now = c.now
		pods, warnings := e.expand()
		var ws []string
		for _, w := range warnings {
			ws = append(ws, w.Object+": "+w.Message)
		}
		if len(pods) != c.pods {
			t.Errorf("%s: %d pods, want %d", c.name, len(pods), c.pods)
		}
		if diff := cmp.Diff(c.warnings, ws); diff != "" {
			t.Errorf("%s: warnings (-want +got):\n%s", c.name, diff)
		}
	}
}
