package resource

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
)

// The helpers below mirror the LimitRanger admission test's helpers
// (createLimitRange, validPod, validPodInit, getComputeResourceList).

func compute(cpu, memory string) api.ResourceList {
	l := api.ResourceList{}
	if cpu != "" {
		l["cpu"] = MustParse(cpu)
	}
	if memory != "" {
		l["memory"] = MustParse(memory)
	}
	return l
}

func storage(s string) api.ResourceList {
	l := api.ResourceList{}
	if s != "" {
		l["ephemeral-storage"] = MustParse(s)
	}
	return l
}

func createLimitRange(typ api.LimitType, min, max, def, defReq, ratio api.ResourceList) api.LimitRange {
	return api.LimitRange{
		ObjectMeta: api.ObjectMeta{Name: "abc", Namespace: "test"},
		Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{{
			Type: typ, Min: min, Max: max, Default: def, DefaultRequest: defReq, MaxLimitRequestRatio: ratio,
		}}},
	}
}

func validLimitRange() api.LimitRange {
	return api.LimitRange{
		ObjectMeta: api.ObjectMeta{Name: "abc", Namespace: "test"},
		Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{
			{Type: api.LimitTypePod, Max: compute("200m", "4Gi"), Min: compute("50m", "2Mi")},
			{Type: api.LimitTypeContainer, Max: compute("100m", "2Gi"), Min: compute("25m", "1Mi"),
				Default: compute("75m", "10Mi"), DefaultRequest: compute("50m", "5Mi")},
		}},
	}
}

func validLimitRangeNoDefaults() api.LimitRange {
	return api.LimitRange{
		ObjectMeta: api.ObjectMeta{Name: "abc", Namespace: "test"},
		Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{
			{Type: api.LimitTypePod, Max: compute("200m", "4Gi"), Min: compute("50m", "2Mi")},
			{Type: api.LimitTypeContainer, Max: compute("100m", "2Gi"), Min: compute("25m", "1Mi")},
		}},
	}
}

func validPod(name string, n int, r api.ResourceRequirements) api.Pod {
	p := api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "test"}}
	for i := range n {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{
			Name: fmt.Sprintf("foo-%d", i), Image: fmt.Sprintf("foo:V%d", i), Resources: cloneRequirements(r)})
	}
	return p
}

func validPodInit(p api.Pod, rs ...api.ResourceRequirements) api.Pod {
	for i, r := range rs {
		p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{
			Name: fmt.Sprintf("foo-%d", i), Image: fmt.Sprintf("foo:V%d", i), Resources: cloneRequirements(r)})
	}
	return p
}

func withPodLevel(p api.Pod, r api.ResourceRequirements) api.Pod {
	p.Spec.Resources = &r
	return p
}

func withSidecar(p api.Pod, r api.ResourceRequirements) api.Pod {
	c := sidecar(fmt.Sprintf("foo-%d", len(p.Spec.InitContainers)), r)
	p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	return p
}

func cloneRequirements(r api.ResourceRequirements) api.ResourceRequirements {
	return api.ResourceRequirements{Requests: Clone(r.Requests), Limits: Clone(r.Limits)}
}

var none = api.ResourceList{}

// messages returns the upstream messages of a joined LimitRange error.
func messages(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var lre *LimitRangeError
		if !errors.As(e, &lre) {
			t.Fatalf("error %v is not a *LimitRangeError", e)
		}
		out = append(out, lre.Message)
	}
	return out
}

// TestDefaultContainerResourceRequirements ports the admission test of
// the same name: the Container item's default and defaultRequest.
func TestDefaultContainerResourceRequirements(t *testing.T) {
	lr := validLimitRange()
	reqs, lims := containerDefaults(&lr)
	wantList(t, "requests", reqs, compute("50m", "5Mi"))
	wantList(t, "limits", lims, compute("75m", "10Mi"))
}

// TestMergePodResourceRequirements ports the admission test of the same
// name: only missing values are defaulted, and the annotation lists what
// was set, per container.
func TestMergePodResourceRequirements(t *testing.T) {
	lr := validLimitRange()

	p := validPod("empty-resources", 1, api.ResourceRequirements{})
	if err := ApplyLimitRanges(&p, []api.LimitRange{{Spec: api.LimitRangeSpec{Limits: lr.Spec.Limits[1:]}}}); err != nil {
		t.Fatal(err)
	}
	wantList(t, "requests", p.Spec.Containers[0].Resources.Requests, compute("50m", "5Mi"))
	wantList(t, "limits", p.Spec.Containers[0].Resources.Limits, compute("75m", "10Mi"))
	if got, want := p.Annotations[LimitRangerAnnotation], "LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0"; got != want {
		t.Errorf("annotation = %q, want %q", got, want)
	}

	in := api.ResourceRequirements{Requests: compute("", "512Mi")}
	p = validPodInit(validPod("limit-memory", 1, in), in)
	mergeLimitRangeDefaults(&p, &lr)
	for _, c := range append(p.Spec.Containers, p.Spec.InitContainers...) {
		wantList(t, c.Name+" requests", c.Resources.Requests, compute("50m", "512Mi"))
		wantList(t, c.Name+" limits", c.Resources.Limits, compute("75m", "10Mi"))
	}
	if got, want := p.Annotations[LimitRangerAnnotation], "LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0; cpu request for init container foo-0; cpu, memory limit for init container foo-0"; got != want {
		t.Errorf("annotation = %q, want %q", got, want)
	}

	in = both(compute("100m", "512Mi"), compute("200m", "1G"))
	initIn := both(compute("200m", "1G"), compute("400m", "2G"))
	p = validPodInit(validPod("limit-memory", 1, in), initIn)
	mergeLimitRangeDefaults(&p, &lr)
	wantList(t, "requests", p.Spec.Containers[0].Resources.Requests, in.Requests)
	wantList(t, "limits", p.Spec.Containers[0].Resources.Limits, in.Limits)
	wantList(t, "init requests", p.Spec.InitContainers[0].Resources.Requests, initIn.Requests)
	wantList(t, "init limits", p.Spec.InitContainers[0].Resources.Limits, initIn.Limits)
	if a, ok := p.Annotations[LimitRangerAnnotation]; ok {
		t.Errorf("unexpected annotation %q", a)
	}
}

// TestPodLimitFuncApplyDefault ports the admission test of the same
// name: an empty container and init container get the defaults.
func TestPodLimitFuncApplyDefault(t *testing.T) {
	lr := validLimitRange()
	p := validPodInit(validPod("foo", 1, both(none, none)), both(none, none))
	if err := ApplyLimitRanges(&p, []api.LimitRange{lr}); err != nil {
		t.Fatalf("ApplyLimitRanges: %v", err)
	}
	for _, c := range append(p.Spec.Containers, p.Spec.InitContainers...) {
		wantList(t, c.Name+" limits", c.Resources.Limits, compute("75m", "10Mi"))
		wantList(t, c.Name+" requests", c.Resources.Requests, compute("50m", "5Mi"))
	}
}

// TestLimitRangerAdmitPod ports the admission test of the same name: with
// no defaults, a pod without resources fails the Container minimums.
func TestLimitRangerAdmitPod(t *testing.T) {
	p := validPod("testPod", 1, api.ResourceRequirements{})
	before := p.DeepCopy()
	err := ApplyLimitRanges(&p, []api.LimitRange{validLimitRangeNoDefaults()})
	if err == nil {
		t.Fatal("expected an error since the pod did not specify resource limits")
	}
	if d := podDiff(before, &p); d != "" {
		t.Errorf("pod changed although admission failed:\n%s", d)
	}
	want := []string{
		"minimum cpu usage per Container is 25m.  No request is specified",
		"minimum memory usage per Container is 1Mi.  No request is specified",
		"maximum cpu usage per Container is 100m.  No limit is specified",
		"maximum memory usage per Container is 2Gi.  No limit is specified",
	}
	got := messages(t, err)
	// The Pod item (listed first) adds its own errors before these.
	if len(got) < len(want) || !reflect.DeepEqual(got[len(got)-len(want):], want) {
		t.Errorf("messages = %q, want to end with %q", got, want)
	}
	var fe *ForbiddenError
	if !errors.As(err, &fe) || fe.LimitRange != "test/abc" || fe.Pod != "testPod" {
		t.Fatalf("error %#v is not a *ForbiddenError of test/abc for testPod", err)
	}
	if !strings.HasPrefix(err.Error(), `pods "testPod" is forbidden: [minimum cpu usage per Pod is 50m.  No request is specified, `) {
		t.Errorf("error text:\n%v", err)
	}
	if got := fe.Violations[4].Error(); got != `LimitRange "test/abc": container "foo-0" (spec.containers[0]): minimum cpu usage per Container is 25m.  No request is specified` {
		t.Errorf("violation text: %s", got)
	}
}

type limitCase struct {
	pod  api.Pod
	lr   api.LimitRange
	want []string // upstream messages, for error cases
}

// TestPodLimitFunc ports the admission test of the same name: every
// success case passes, and every error case fails with upstream's
// message (which the admission test does not check; the messages here
// follow the LimitRanger's format strings).
func TestPodLimitFunc(t *testing.T) {
	C, P := api.LimitTypeContainer, api.LimitTypePod
	success := []limitCase{
		{pod: validPod("ctr-min-cpu-request", 1, both(compute("100m", ""), compute("", ""))), lr: createLimitRange(C, compute("50m", ""), none, none, none, none)},
		{pod: validPod("ctr-min-cpu-request-limit", 1, both(compute("100m", ""), compute("200m", ""))), lr: createLimitRange(C, compute("50m", ""), none, none, none, none)},
		{pod: validPod("ctr-min-memory-request", 1, both(compute("", "60Mi"), compute("", ""))), lr: createLimitRange(C, compute("", "50Mi"), none, none, none, none)},
		{pod: validPod("ctr-min-memory-request-limit", 1, both(compute("", "60Mi"), compute("", "100Mi"))), lr: createLimitRange(C, compute("", "50Mi"), none, none, none, none)},
		{pod: validPod("ctr-max-cpu-request-limit", 1, both(compute("500m", ""), compute("1", ""))), lr: createLimitRange(C, none, compute("2", ""), none, none, none)},
		{pod: validPod("ctr-max-cpu-limit", 1, both(compute("", ""), compute("1", ""))), lr: createLimitRange(C, none, compute("2", ""), none, none, none)},
		{pod: validPod("ctr-max-mem-request-limit", 1, both(compute("", "250Mi"), compute("", "500Mi"))), lr: createLimitRange(C, none, compute("", "1Gi"), none, none, none)},
		{pod: validPod("ctr-max-cpu-ratio", 1, both(compute("500m", ""), compute("750m", ""))), lr: createLimitRange(C, none, none, none, none, compute("1.5", ""))},
		{pod: validPod("ctr-max-mem-limit", 1, both(compute("", ""), compute("", "500Mi"))), lr: createLimitRange(C, none, compute("", "1Gi"), none, none, none)},
		{pod: validPod("pod-min-cpu-request", 2, both(compute("75m", ""), compute("", ""))), lr: createLimitRange(P, compute("100m", ""), none, none, none, none)},
		{pod: validPod("pod-min-cpu-request-limit", 2, both(compute("75m", ""), compute("200m", ""))), lr: createLimitRange(P, compute("100m", ""), none, none, none, none)},
		{pod: validPod("pod-min-memory-request", 2, both(compute("", "60Mi"), compute("", ""))), lr: createLimitRange(P, compute("", "100Mi"), none, none, none, none)},
		{pod: validPod("pod-min-memory-request-limit", 2, both(compute("", "60Mi"), compute("", "100Mi"))), lr: createLimitRange(P, compute("", "100Mi"), none, none, none, none)},
		{pod: validPodInit(validPod("pod-init-min-memory-request", 2, both(compute("", "60Mi"), compute("", ""))), both(compute("", "100Mi"), compute("", ""))), lr: createLimitRange(P, compute("", "100Mi"), none, none, none, none)},
		{pod: validPodInit(validPod("pod-init-min-memory-request-limit", 2, both(compute("", "60Mi"), compute("", "100Mi"))), both(compute("", "80Mi"), compute("", "100Mi"))), lr: createLimitRange(P, compute("", "100Mi"), none, none, none, none)},
		{pod: validPod("pod-max-cpu-request-limit", 2, both(compute("500m", ""), compute("1", ""))), lr: createLimitRange(P, none, compute("2", ""), none, none, none)},
		{pod: validPod("pod-max-cpu-limit", 2, both(compute("", ""), compute("1", ""))), lr: createLimitRange(P, none, compute("2", ""), none, none, none)},
		{pod: validPodInit(validPod("pod-init-max-cpu-request-limit", 2, both(compute("500m", ""), compute("1", ""))), both(compute("1", ""), compute("2", "")), both(compute("1", ""), compute("1", ""))), lr: createLimitRange(P, none, compute("2", ""), none, none, none)},
		{pod: validPodInit(validPod("pod-init-max-cpu-limit", 2, both(compute("", ""), compute("1", ""))), both(compute("", ""), compute("2", "")), both(compute("", ""), compute("2", ""))), lr: createLimitRange(P, none, compute("2", ""), none, none, none)},
		{pod: validPod("pod-max-mem-request-limit", 2, both(compute("", "250Mi"), compute("", "500Mi"))), lr: createLimitRange(P, none, compute("", "1Gi"), none, none, none)},
		{pod: validPod("pod-max-mem-limit", 2, both(compute("", ""), compute("", "500Mi"))), lr: createLimitRange(P, none, compute("", "1Gi"), none, none, none)},
		{pod: validPod("pod-max-mem-ratio", 3, both(compute("", "300Mi"), compute("", "450Mi"))), lr: createLimitRange(P, none, compute("", "2Gi"), none, none, compute("", "1.5"))},
		{pod: validPod("ctr-1-min-local-ephemeral-storage-request", 1, both(storage("60Mi"), storage(""))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none)},
		{pod: validPod("ctr-1-min-local-ephemeral-storage-request-limit", 1, both(storage("60Mi"), storage("100Mi"))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none)},
		{pod: validPod("ctr-1-max-local-ephemeral-storage-request-limit", 1, both(storage("250Mi"), storage("500Mi"))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none)},
		{pod: validPod("ctr-1-max-local-ephemeral-storage-limit", 1, both(storage(""), storage("500Mi"))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none)},
		{pod: validPod("ctr-2-min-local-ephemeral-storage-request", 2, both(storage("60Mi"), storage(""))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none)},
		{pod: validPod("ctr-2-min-local-ephemeral-storage-request-limit", 2, both(storage("60Mi"), storage("100Mi"))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none)},
		{pod: validPod("ctr-2-max-local-ephemeral-storage-request-limit", 2, both(storage("250Mi"), storage("500Mi"))), lr: createLimitRange(C, none, storage("600Mi"), none, none, none)},
		{pod: validPod("ctr-2-max-local-ephemeral-storage-limit", 2, both(storage(""), storage("500Mi"))), lr: createLimitRange(C, none, storage("600Mi"), none, none, none)},
		{pod: validPod("pod-min-local-ephemeral-storage-request", 2, both(storage("60Mi"), storage(""))), lr: createLimitRange(P, storage("100Mi"), none, none, none, none)},
		{pod: validPod("pod-min-local-ephemeral-storage-request-limit", 2, both(storage("60Mi"), storage("100Mi"))), lr: createLimitRange(P, storage("100Mi"), none, none, none, none)},
		{pod: validPodInit(validPod("pod-init-min-local-ephemeral-storage-request", 2, both(storage("60Mi"), storage(""))), both(storage("100Mi"), storage(""))), lr: createLimitRange(P, storage("100Mi"), none, none, none, none)},
		{pod: validPodInit(validPod("pod-init-min-local-ephemeral-storage-request-limit", 2, both(storage("60Mi"), storage("100Mi"))), both(storage("80Mi"), storage("100Mi"))), lr: createLimitRange(P, storage("100Mi"), none, none, none, none)},
		{pod: validPod("pod-max-local-ephemeral-storage-request-limit", 2, both(storage("250Mi"), storage("500Mi"))), lr: createLimitRange(P, none, storage("1Gi"), none, none, none)},
		{pod: validPod("pod-max-local-ephemeral-storage-limit", 2, both(storage(""), storage("500Mi"))), lr: createLimitRange(P, none, storage("1Gi"), none, none, none)},
		{pod: validPod("pod-max-local-ephemeral-storage-ratio", 3, both(storage("300Mi"), storage("450Mi"))), lr: createLimitRange(P, none, storage("2Gi"), none, none, storage("1.5"))},
		{pod: withPodLevel(validPod("pod-level-resources-with-min-max", 3, both(compute("100m", "60Mi"), compute("200m", "100Mi"))), both(compute("200m", "180Mi"), compute("400m", "200Mi"))), lr: createLimitRange(P, none, compute("400m", "200Mi"), none, none, none)},
		{pod: withPodLevel(validPod("pod-level-requests-with-min", 3, both(compute("50m", "60Mi"), compute("", ""))), both(compute("160m", "200Mi"), compute("", ""))), lr: createLimitRange(P, compute("160m", "200Mi"), compute("", ""), none, none, none)},
		{pod: withPodLevel(validPod("pod-level-limits-with-max", 3, both(compute("", ""), compute("50m", "60Mi"))), both(compute("", ""), compute("160m", "200Mi"))), lr: createLimitRange(P, compute("", ""), compute("160m", "200Mi"), none, none, none)},
	}
	for _, tc := range success {
		t.Run(tc.pod.Name, func(t *testing.T) {
			if err := ApplyLimitRanges(&tc.pod, []api.LimitRange{tc.lr}); err != nil {
				t.Errorf("unexpected error: %v", err)
			}
		})
	}

	errs := []limitCase{
		{pod: validPod("ctr-min-cpu-request", 1, both(compute("40m", ""), compute("", ""))), lr: createLimitRange(C, compute("50m", ""), none, none, none, none),
			want: []string{"minimum cpu usage per Container is 50m, but request is 40m"}},
		{pod: validPod("ctr-min-cpu-request-limit", 1, both(compute("40m", ""), compute("200m", ""))), lr: createLimitRange(C, compute("50m", ""), none, none, none, none),
			want: []string{"minimum cpu usage per Container is 50m, but request is 40m"}},
		{pod: validPod("ctr-min-cpu-no-request-limit", 1, both(compute("", ""), compute("", ""))), lr: createLimitRange(C, compute("50m", ""), none, none, none, none),
			want: []string{"minimum cpu usage per Container is 50m.  No request is specified"}},
		{pod: validPod("ctr-min-memory-request", 1, both(compute("", "40Mi"), compute("", ""))), lr: createLimitRange(C, compute("", "50Mi"), none, none, none, none),
			want: []string{"minimum memory usage per Container is 50Mi, but request is 40Mi"}},
		{pod: validPod("ctr-min-memory-request-limit", 1, both(compute("", "40Mi"), compute("", "100Mi"))), lr: createLimitRange(C, compute("", "50Mi"), none, none, none, none),
			want: []string{"minimum memory usage per Container is 50Mi, but request is 40Mi"}},
		{pod: validPod("ctr-min-memory-no-request-limit", 1, both(compute("", ""), compute("", ""))), lr: createLimitRange(C, compute("", "50Mi"), none, none, none, none),
			want: []string{"minimum memory usage per Container is 50Mi.  No request is specified"}},
		{pod: validPod("ctr-max-cpu-request-limit", 1, both(compute("500m", ""), compute("2500m", ""))), lr: createLimitRange(C, none, compute("2", ""), none, none, none),
			want: []string{"maximum cpu usage per Container is 2, but limit is 2500m"}},
		{pod: validPod("ctr-max-cpu-limit", 1, both(compute("", ""), compute("2500m", ""))), lr: createLimitRange(C, none, compute("2", ""), none, none, none),
			want: []string{"maximum cpu usage per Container is 2, but limit is 2500m"}},
		{pod: validPod("ctr-max-cpu-no-request-limit", 1, both(compute("", ""), compute("", ""))), lr: createLimitRange(C, none, compute("2", ""), none, none, none),
			want: []string{"maximum cpu usage per Container is 2.  No limit is specified"}},
		{pod: validPod("ctr-max-cpu-ratio", 1, both(compute("1250m", ""), compute("2500m", ""))), lr: createLimitRange(C, none, none, none, none, compute("1", "")),
			want: []string{"cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000"}},
		{pod: validPod("ctr-max-mem-request-limit", 1, both(compute("", "250Mi"), compute("", "2Gi"))), lr: createLimitRange(C, none, compute("", "1Gi"), none, none, none),
			want: []string{"maximum memory usage per Container is 1Gi, but limit is 2Gi"}},
		{pod: validPod("ctr-max-mem-limit", 1, both(compute("", ""), compute("", "2Gi"))), lr: createLimitRange(C, none, compute("", "1Gi"), none, none, none),
			want: []string{"maximum memory usage per Container is 1Gi, but limit is 2Gi"}},
		{pod: validPod("ctr-max-mem-no-request-limit", 1, both(compute("", ""), compute("", ""))), lr: createLimitRange(C, none, compute("", "1Gi"), none, none, none),
			want: []string{"maximum memory usage per Container is 1Gi.  No limit is specified"}},
		{pod: validPod("pod-min-cpu-request", 1, both(compute("75m", ""), compute("", ""))), lr: createLimitRange(P, compute("100m", ""), none, none, none, none),
			want: []string{"minimum cpu usage per Pod is 100m, but request is 75m"}},
		{pod: validPod("pod-min-cpu-request-limit", 1, both(compute("75m", ""), compute("200m", ""))), lr: createLimitRange(P, compute("100m", ""), none, none, none, none),
			want: []string{"minimum cpu usage per Pod is 100m, but request is 75m"}},
		{pod: validPod("pod-min-memory-request", 1, both(compute("", "60Mi"), compute("", ""))), lr: createLimitRange(P, compute("", "100Mi"), none, none, none, none),
			want: []string{"minimum memory usage per Pod is 100Mi, but request is 60Mi"}},
		{pod: validPod("pod-min-memory-request-limit", 1, both(compute("", "60Mi"), compute("", "100Mi"))), lr: createLimitRange(P, compute("", "100Mi"), none, none, none, none),
			want: []string{"minimum memory usage per Pod is 100Mi, but request is 60Mi"}},
		{pod: validPod("pod-max-cpu-request-limit", 3, both(compute("500m", ""), compute("1", ""))), lr: createLimitRange(P, none, compute("2", ""), none, none, none),
			want: []string{"maximum cpu usage per Pod is 2, but limit is 3"}},
		{pod: validPod("pod-max-cpu-limit", 3, both(compute("", ""), compute("1", ""))), lr: createLimitRange(P, none, compute("2", ""), none, none, none),
			want: []string{"maximum cpu usage per Pod is 2, but limit is 3"}},
		{pod: validPod("pod-max-mem-request-limit", 3, both(compute("", "250Mi"), compute("", "500Mi"))), lr: createLimitRange(P, none, compute("", "1Gi"), none, none, none),
			want: []string{"maximum memory usage per Pod is 1Gi, but limit is 1500Mi"}},
		{pod: validPod("pod-max-mem-limit", 3, both(compute("", ""), compute("", "500Mi"))), lr: createLimitRange(P, none, compute("", "1Gi"), none, none, none),
			want: []string{"maximum memory usage per Pod is 1Gi, but limit is 1500Mi"}},
		{pod: validPodInit(validPod("pod-init-max-mem-limit", 1, both(compute("", ""), compute("", "500Mi"))), both(compute("", ""), compute("", "1.5Gi"))), lr: createLimitRange(P, none, compute("", "1Gi"), none, none, none),
			want: []string{"maximum memory usage per Pod is 1Gi, but limit is 1536Mi"}},
		{pod: validPod("pod-max-mem-ratio", 3, both(compute("", "250Mi"), compute("", "500Mi"))), lr: createLimitRange(P, none, compute("", "2Gi"), none, none, compute("", "1.5")),
			want: []string{"memory max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000"}},
		{pod: validPod("ctr-1-min-local-ephemeral-storage-request", 1, both(storage("40Mi"), storage(""))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi"}},
		{pod: validPod("ctr-1-min-local-ephemeral-storage-request-limit", 1, both(storage("40Mi"), storage("100Mi"))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi"}},
		{pod: validPod("ctr-1-min-local-ephemeral-storage-no-request-limit", 1, both(storage(""), storage(""))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Container is 50Mi.  No request is specified"}},
		{pod: validPod("ctr-1-max-local-ephemeral-storage-request-limit", 1, both(storage("250Mi"), storage("2Gi"))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi"}},
		{pod: validPod("ctr-1-max-local-ephemeral-storage-limit", 1, both(storage(""), storage("2Gi"))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi"}},
		{pod: validPod("ctr-1-max-local-ephemeral-storage-no-request-limit", 1, both(storage(""), storage(""))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Container is 1Gi.  No limit is specified"}},
		{pod: validPod("ctr-2-min-local-ephemeral-storage-request", 2, both(storage("40Mi"), storage(""))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi", "minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi"}},
		{pod: validPod("ctr-2-min-local-ephemeral-storage-request-limit", 2, both(storage("40Mi"), storage("100Mi"))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi", "minimum ephemeral-storage usage per Container is 50Mi, but request is 40Mi"}},
		{pod: validPod("ctr-2-min-local-ephemeral-storage-no-request-limit", 2, both(storage(""), storage(""))), lr: createLimitRange(C, storage("50Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Container is 50Mi.  No request is specified", "minimum ephemeral-storage usage per Container is 50Mi.  No request is specified"}},
		{pod: validPod("ctr-2-max-local-ephemeral-storage-request-limit", 2, both(storage("250Mi"), storage("2Gi"))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi", "maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi"}},
		{pod: validPod("ctr-2-max-local-ephemeral-storage-limit", 2, both(storage(""), storage("2Gi"))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi", "maximum ephemeral-storage usage per Container is 1Gi, but limit is 2Gi"}},
		{pod: validPod("ctr-2-max-local-ephemeral-storage-no-request-limit", 2, both(storage(""), storage(""))), lr: createLimitRange(C, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Container is 1Gi.  No limit is specified", "maximum ephemeral-storage usage per Container is 1Gi.  No limit is specified"}},
		{pod: validPod("pod-min-local-ephemeral-storage-request", 1, both(storage("60Mi"), storage(""))), lr: createLimitRange(P, storage("100Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Pod is 100Mi, but request is 60Mi"}},
		{pod: validPod("pod-min-local-ephemeral-storage-request-limit", 1, both(storage("60Mi"), storage("100Mi"))), lr: createLimitRange(P, storage("100Mi"), none, none, none, none),
			want: []string{"minimum ephemeral-storage usage per Pod is 100Mi, but request is 60Mi"}},
		{pod: validPod("pod-max-local-ephemeral-storage-request-limit", 3, both(storage("250Mi"), storage("500Mi"))), lr: createLimitRange(P, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1500Mi"}},
		{pod: validPod("pod-max-local-ephemeral-storage-limit", 3, both(storage(""), storage("500Mi"))), lr: createLimitRange(P, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1500Mi"}},
		{pod: validPodInit(validPod("pod-init-max-local-ephemeral-storage-limit", 1, both(storage(""), storage("500Mi"))), both(storage(""), storage("1.5Gi"))), lr: createLimitRange(P, none, storage("1Gi"), none, none, none),
			want: []string{"maximum ephemeral-storage usage per Pod is 1Gi, but limit is 1536Mi"}},
		{pod: validPod("pod-max-local-ephemeral-storage-ratio", 3, both(storage("250Mi"), storage("500Mi"))), lr: createLimitRange(P, none, storage("2Gi"), none, none, storage("1.5")),
			want: []string{"ephemeral-storage max limit to request ratio per Pod is 1500m, but provided ratio is 2.000000"}},
		{pod: withSidecar(validPod("ctr-max-cpu-limit-restartable-init-container", 1, both(compute("1000m", ""), compute("1500m", ""))), req(compute("1500m", ""))), lr: createLimitRange(P, none, compute("2", ""), none, none, none),
			want: []string{"maximum cpu usage per Pod is 2, but request is 2500m"}},
		{pod: withPodLevel(validPod("pod-level-resources-exceeding-max", 3, both(compute("100m", "60Mi"), compute("200m", "100Mi"))), both(compute("200m", "180Mi"), compute("500m", "280Mi"))), lr: createLimitRange(P, none, compute("400m", "200Mi"), none, none, none),
			want: []string{"maximum cpu usage per Pod is 400m, but limit is 500m", "maximum memory usage per Pod is 200Mi, but limit is 280Mi"}},
		{pod: withPodLevel(validPod("pod-level-requests-less-than-min", 3, both(compute("50m", "60Mi"), compute("", ""))), both(compute("100m", "200Mi"), compute("", ""))), lr: createLimitRange(P, compute("160m", "200Mi"), compute("", ""), none, none, none),
			want: []string{"minimum cpu usage per Pod is 160m, but request is 100m"}},
		{pod: withPodLevel(validPod("pod-level-limits-exceeding-max", 3, both(compute("", ""), compute("50m", "60Mi"))), both(compute("", ""), compute("160m", "300Mi"))), lr: createLimitRange(P, compute("", ""), compute("160m", "200Mi"), none, none, none),
			want: []string{"maximum memory usage per Pod is 200Mi, but limit is 300Mi"}},
	}
	for _, tc := range errs {
		t.Run(tc.pod.Name, func(t *testing.T) {
			before := tc.pod.DeepCopy()
			err := ApplyLimitRanges(&tc.pod, []api.LimitRange{tc.lr})
			if err == nil {
				t.Fatal("expected an error")
			}
			if got := messages(t, err); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("messages:\n got  %q\n want %q", got, tc.want)
			}
			if d := podDiff(before, &tc.pod); d != "" {
				t.Errorf("pod changed although admission failed:\n%s", d)
			}
		})
	}
}

// TestApplyLimitRangesAcrossRanges pins how several LimitRanges combine:
// the first to default a resource wins, later items of one LimitRange
// override earlier ones, validation stops at the first violated
// LimitRange, and limits set
// without requests make the requests before defaults apply.
func TestApplyLimitRangesAcrossRanges(t *testing.T) {
	first := createLimitRange(api.LimitTypeContainer, none, none, compute("1", ""), compute("500m", ""), none)
	first.Spec.Limits = append(first.Spec.Limits, api.LimitRangeItem{Type: api.LimitTypeContainer, DefaultRequest: compute("250m", "")})
	second := createLimitRange(api.LimitTypeContainer, none, none, compute("2", "1Gi"), compute("2", "512Mi"), none)
	second.Name = "second"

	p := validPod("p", 2, api.ResourceRequirements{})
	p.Spec.Containers[1].Resources = lim(compute("", "2Gi"))
	if err := ApplyLimitRanges(&p, []api.LimitRange{first, second}); err != nil {
		t.Fatal(err)
	}
	wantList(t, "c0 requests", p.Spec.Containers[0].Resources.Requests, compute("250m", "512Mi"))
	wantList(t, "c0 limits", p.Spec.Containers[0].Resources.Limits, compute("1", "1Gi"))
	wantList(t, "c1 requests", p.Spec.Containers[1].Resources.Requests, compute("250m", "2Gi"))
	wantList(t, "c1 limits", p.Spec.Containers[1].Resources.Limits, compute("1", "2Gi"))
	if got, want := p.Annotations[LimitRangerAnnotation], "LimitRanger plugin set: memory request for container foo-0; memory limit for container foo-0"; got != want {
		t.Errorf("annotation = %q, want %q", got, want)
	}

	// upstream: runLimitFunc stops at the first violated LimitRange.
	maxCPU := createLimitRange(api.LimitTypeContainer, none, compute("100m", ""), none, none, none)
	maxMem := createLimitRange(api.LimitTypePod, none, compute("", "1Gi"), none, none, none)
	maxMem.Name = "pod-max"
	p = validPod("q", 1, both(compute("200m", "2Gi"), compute("200m", "2Gi")))
	err := ApplyLimitRanges(&p, []api.LimitRange{maxCPU, maxMem})
	want := []string{"maximum cpu usage per Container is 100m, but limit is 200m"}
	if got := messages(t, err); !reflect.DeepEqual(got, want) {
		t.Errorf("messages = %q, want %q", got, want)
	}
	if err == nil || err.Error() != `pods "q" is forbidden: maximum cpu usage per Container is 100m, but limit is 200m` {
		t.Errorf("error text:\n%v", err)
	}
	err = ApplyLimitRanges(&p, []api.LimitRange{maxMem, maxCPU})
	if err == nil || err.Error() != `pods "q" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 2Gi` {
		t.Errorf("error text, Pod item first:\n%v", err)
	}
	// upstream: utilerrors aggregate prints a repeated message once.
	p = validPod("r", 2, both(compute("200m", ""), compute("200m", "")))
	err = ApplyLimitRanges(&p, []api.LimitRange{maxCPU})
	if err == nil || err.Error() != `pods "r" is forbidden: maximum cpu usage per Container is 100m, but limit is 200m` {
		t.Errorf("error text, repeated message:\n%v", err)
	}
	p.Name, p.GenerateName = "", "gen-"
	if err := ApplyLimitRanges(&p, []api.LimitRange{maxCPU}); err == nil || !strings.HasPrefix(err.Error(), `pods "gen-" is forbidden: `) {
		t.Errorf("generateName: %v", err)
	}
	if err := ApplyLimitRanges(nil, nil); err == nil {
		t.Error("nil pod: no error")
	}
}

// TestDefaultLimitRange pins the API server's LimitRange defaulting.
func TestDefaultLimitRange(t *testing.T) {
	lr := createLimitRange(api.LimitTypeContainer, compute("10m", "1Mi"), compute("1", "1Gi"), compute("", "512Mi"), nil, none)
	DefaultLimitRange(&lr)
	it := lr.Spec.Limits[0]
	wantList(t, "default", it.Default, compute("1", "512Mi"))
	wantList(t, "defaultRequest", it.DefaultRequest, compute("1", "512Mi"))
	lr = createLimitRange(api.LimitTypeContainer, compute("10m", ""), nil, nil, nil, nil)
	DefaultLimitRange(&lr)
	wantList(t, "defaultRequest from min", lr.Spec.Limits[0].DefaultRequest, compute("10m", ""))
	pod := createLimitRange(api.LimitTypePod, nil, compute("1", ""), nil, nil, nil)
	DefaultLimitRange(&pod)
	if pod.Spec.Limits[0].Default != nil {
		t.Error("Pod item defaulted")
	}
}
