package resource

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// getPod mirrors upstream's test helper: one container and one init
// container with the same requirements, plus overhead.
func getPod(cpuReq, cpuLim, memReq, memLim, cpuOver, memOver string) *api.Pod {
	r := api.ResourceRequirements{Limits: api.ResourceList{}, Requests: api.ResourceList{}}
	over := api.ResourceList{}
	set := func(l api.ResourceList, k api.ResourceName, v string) {
		if v != "" {
			l[k] = MustParse(v)
		}
	}
	set(r.Limits, "cpu", cpuLim)
	set(r.Limits, "memory", memLim)
	set(r.Requests, "cpu", cpuReq)
	set(r.Requests, "memory", memReq)
	set(over, "cpu", cpuOver)
	set(over, "memory", memOver)
	return &api.Pod{Spec: api.PodSpec{
		Containers:     []api.Container{{Name: "foo", Resources: r}},
		InitContainers: []api.Container{{Name: "init-foo", Resources: r}},
		Overhead:       over,
	}}
}

// TestPodRequestsAndLimits ports component-helpers' TestPodRequestsAndLimits:
// overhead is added to requests, and to limits only where a limit is set.
func TestPodRequestsAndLimits(t *testing.T) {
	cases := []struct {
		name         string
		pod          *api.Pod
		wantRequests api.ResourceList
		wantLimits   api.ResourceList
	}{
		{"just-limit-no-overhead", getPod("", "9", "", "", "", ""), rl(), rl("cpu=9")},
		{"just-overhead", getPod("", "", "", "", "5", "5"), rl("cpu=5", "memory=5"), rl()},
		{"req-and-overhead", getPod("1", "", "10", "", "5", "5"), rl("cpu=6", "memory=15"), rl()},
		{"all-req-lim-and-overhead", getPod("1", "2", "10", "12", "5", "5"), rl("cpu=6", "memory=15"), rl("cpu=7", "memory=17")},
		{"req-some-lim-and-overhead", getPod("1", "2", "10", "", "5", "5"), rl("cpu=6", "memory=15"), rl("cpu=7")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantList(t, "PodRequests", PodRequests(tc.pod, PodResourcesOptions{}), tc.wantRequests)
			wantList(t, "PodLimits", PodLimits(tc.pod, PodResourcesOptions{}), tc.wantLimits)
		})
	}
}

// TestPodRequestsAndLimitsWithoutOverhead ports the upstream test of the
// same name: ExcludeOverhead leaves overhead out; the largest init
// container wins over the sum of containers.
func TestPodRequestsAndLimitsWithoutOverhead(t *testing.T) {
	two := []api.Container{
		ctr("foobar", both(rl("cpu=1", "memory=5"), rl("cpu=2", "memory=10"))),
		ctr("foobar2", both(rl("cpu=4", "memory=12"), rl("cpu=8", "memory=24"))),
	}
	cases := []struct {
		name         string
		pod          *api.Pod
		wantRequests api.ResourceList
		wantLimits   api.ResourceList
	}{
		{
			"two container no overhead - should just be sum of containers",
			&api.Pod{Spec: api.PodSpec{Containers: two}},
			rl("cpu=5", "memory=17"), rl("cpu=10", "memory=34"),
		},
		{
			"two container with overhead - shouldn't consider overhead",
			&api.Pod{Spec: api.PodSpec{Containers: two, Overhead: rl("cpu=3", "memory=8")}},
			rl("cpu=5", "memory=17"), rl("cpu=10", "memory=34"),
		},
		{
			"two container with overhead, massive init - should just be the largest init",
			&api.Pod{Spec: api.PodSpec{Containers: two, Overhead: rl("cpu=3", "memory=8"), InitContainers: []api.Container{
				ctr("small-init", both(rl("cpu=1", "memory=5"), rl("cpu=1", "memory=5"))),
				ctr("big-init", both(rl("cpu=40", "memory=120"), rl("cpu=80", "memory=240"))),
			}}},
			rl("cpu=40", "memory=120"), rl("cpu=80", "memory=240"),
		},
	}
	opts := PodResourcesOptions{ExcludeOverhead: true}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantList(t, "PodRequests", PodRequests(tc.pod, opts), tc.wantRequests)
			wantList(t, "PodLimits", PodLimits(tc.pod, opts), tc.wantLimits)
		})
	}
}

type podCase struct {
	name                  string
	opts                  PodResourcesOptions
	overhead              api.ResourceList
	conditions            []api.PodCondition
	initContainers        []api.Container
	initContainerStatuses []api.ContainerStatus
	containers            []api.Container
	containerStatuses     []api.ContainerStatus
	want                  api.ResourceList
}

func (c *podCase) pod() *api.Pod {
	return &api.Pod{
		Spec: api.PodSpec{Containers: c.containers, InitContainers: c.initContainers, Overhead: c.overhead},
		Status: api.PodStatus{
			ContainerStatuses:     c.containerStatuses,
			InitContainerStatuses: c.initContainerStatuses,
			Conditions:            c.conditions,
		},
	}
}

// TestPodResourceRequests ports component-helpers' TestPodResourceRequests:
// init containers against containers, overhead, in-place resize status
// (including an infeasible resize, where the spec stops counting), and the
// sidecar accumulation of restartable init containers.
func TestPodResourceRequests(t *testing.T) {
	useStatus := PodResourcesOptions{UseStatusResources: true}
	cases := []podCase{
		{name: "nil options, larger init container", want: rl("cpu=4"),
			initContainers: []api.Container{ctr("", req(rl("cpu=4")))},
			containers:     []api.Container{ctr("", req(rl("cpu=1")))}},
		{name: "nil options, larger containers", want: rl("cpu=5"),
			initContainers: []api.Container{ctr("", req(rl("cpu=2")))},
			containers:     []api.Container{ctr("", req(rl("cpu=2"))), ctr("", req(rl("cpu=3")))}},
		{name: "pod overhead excluded", want: rl("cpu=5"), opts: PodResourcesOptions{ExcludeOverhead: true}, overhead: rl("cpu=1"),
			initContainers: []api.Container{ctr("", req(rl("cpu=2")))},
			containers:     []api.Container{ctr("", req(rl("cpu=2"))), ctr("", req(rl("cpu=3")))}},
		{name: "pod overhead included", want: rl("cpu=6", "memory=1Gi"), overhead: rl("cpu=1", "memory=1Gi"),
			initContainers: []api.Container{ctr("", both(rl("cpu=2"), rl("cpu=2")))},
			containers:     []api.Container{ctr("", req(rl("cpu=2"))), ctr("", req(rl("cpu=3")))}},
		{name: "resized, infeasible", want: rl("cpu=2"), conditions: infeasible, opts: useStatus,
			containers:        []api.Container{ctr("container-1", req(rl("cpu=4")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(req(rl("cpu=2")))}}},
		{name: "resized, infeasible & in-progress", want: rl("cpu=4"), conditions: infeasible, opts: useStatus,
			containers: []api.Container{ctr("container-1", req(rl("cpu=6")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", AllocatedResources: rl("cpu=4"),
				Resources: statusResources(req(rl("cpu=2")))}}},
		{name: "resized, no resize status", want: rl("cpu=4"), opts: useStatus,
			containers:        []api.Container{ctr("container-1", req(rl("cpu=4")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(req(rl("cpu=2")))}}},
		{name: "resized: per-resource 3-way maximum", want: rl("cpu=30m", "memory=30M", "ephemeral-storage=30G"), opts: useStatus,
			containers: []api.Container{ctr("container-1", req(rl("cpu=30m", "memory=20M", "ephemeral-storage=10G")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1",
				AllocatedResources: rl("cpu=20m", "memory=10M", "ephemeral-storage=30G"),
				Resources:          statusResources(req(rl("cpu=10m", "memory=30M", "ephemeral-storage=20G")))}}},
		{name: "resized, infeasible, but don't use status", want: rl("cpu=4"), conditions: infeasible,
			containers:        []api.Container{ctr("container-1", req(rl("cpu=4")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(req(rl("cpu=2")))}}},
		{name: "resized, restartable init container, infeasible", want: rl("cpu=2"), conditions: infeasible, opts: useStatus,
			initContainers:        []api.Container{sidecar("restartable-init-1", req(rl("cpu=4")))},
			initContainerStatuses: []api.ContainerStatus{{Name: "restartable-init-1", Resources: statusResources(req(rl("cpu=2")))}}},
		{name: "resized, restartable init container, no resize status", want: rl("cpu=4"), opts: useStatus,
			initContainers:        []api.Container{sidecar("restartable-init-1", req(rl("cpu=4")))},
			initContainerStatuses: []api.ContainerStatus{{Name: "restartable-init-1", Resources: statusResources(req(rl("cpu=2")))}}},
		{name: "resized, restartable init container, infeasible, but don't use status", want: rl("cpu=4"), conditions: infeasible,
			initContainers:        []api.Container{sidecar("restartable-init-1", req(rl("cpu=4")))},
			initContainerStatuses: []api.ContainerStatus{{Name: "restartable-init-1", Resources: statusResources(req(rl("cpu=2")))}}},
		{name: "restartable init container", want: rl("cpu=2"),
			initContainers: []api.Container{sidecar("restartable-init-1", req(rl("cpu=1")))},
			containers:     []api.Container{ctr("container-1", req(rl("cpu=1")))}},
		// max(5, restartable init containers (3+2+1) + regular (1)) = 7
		{name: "multiple restartable init containers", want: rl("cpu=7"),
			initContainers: []api.Container{
				ctr("init-1", req(rl("cpu=5"))),
				sidecar("restartable-init-1", req(rl("cpu=1"))),
				sidecar("restartable-init-2", req(rl("cpu=2"))),
				sidecar("restartable-init-3", req(rl("cpu=3"))),
			},
			containers: []api.Container{ctr("container-1", req(rl("cpu=1")))}},
		// init-2 runs with the sidecars started before it: 5 + 1 + 2 = 8.
		{name: "multiple restartable and regular init containers", want: rl("cpu=8"),
			initContainers: []api.Container{
				ctr("init-1", req(rl("cpu=5"))),
				sidecar("restartable-init-1", req(rl("cpu=1"))),
				sidecar("restartable-init-2", req(rl("cpu=2"))),
				ctr("init-2", req(rl("cpu=5"))),
				sidecar("restartable-init-3", req(rl("cpu=3"))),
			},
			containers: []api.Container{ctr("container-1", req(rl("cpu=1")))}},
		{name: "restartable-init, init and regular", want: rl("cpu=210"),
			initContainers: []api.Container{
				sidecar("restartable-init-1", req(rl("cpu=10"))),
				ctr("init-1", req(rl("cpu=200"))),
			},
			containers: []api.Container{ctr("container-1", req(rl("cpu=100")))}},
		{name: "aggregate request resolves max of sums instead of sum of maxes", want: rl("cpu=3"), opts: useStatus,
			containers: []api.Container{ctr("c1", req(rl("cpu=1"))), ctr("c2", req(rl("cpu=2")))},
			containerStatuses: []api.ContainerStatus{
				{Name: "c1", AllocatedResources: rl("cpu=2")},
				{Name: "c2", AllocatedResources: rl("cpu=1")},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantList(t, "PodRequests", PodRequests(tc.pod(), tc.opts), tc.want)
		})
	}
}

// TestPodResourceRequestsReuse ports the upstream test of the same name:
// the Reuse map is cleared, filled and returned.
func TestPodResourceRequestsReuse(t *testing.T) {
	want := rl("cpu=1")
	p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{ctr("", req(want))}}}
	opts := PodResourcesOptions{Reuse: rl("cpu=25", "memory=1")}
	got := PodRequests(p, opts)
	wantList(t, "PodRequests", got, want)
	wantList(t, "Reuse", opts.Reuse, want)
}

// TestPodResourceLimits ports component-helpers' TestPodResourceLimits:
// unlimited containers, overhead only on set limits, sidecars, and
// resize status for limits.
func TestPodResourceLimits(t *testing.T) {
	useStatus := PodResourcesOptions{UseStatusResources: true}
	cases := []podCase{
		{name: "nil options, larger init container", want: rl("cpu=4"),
			initContainers: []api.Container{ctr("", lim(rl("cpu=4")))},
			containers:     []api.Container{ctr("", lim(rl("cpu=1")))}},
		{name: "nil options, larger containers", want: rl("cpu=5"),
			initContainers: []api.Container{ctr("", lim(rl("cpu=2")))},
			containers:     []api.Container{ctr("", lim(rl("cpu=2"))), ctr("", lim(rl("cpu=3")))}},
		{name: "pod overhead excluded", want: rl("cpu=5"), opts: PodResourcesOptions{ExcludeOverhead: true}, overhead: rl("cpu=1"),
			initContainers: []api.Container{ctr("", lim(rl("cpu=2")))},
			containers:     []api.Container{ctr("", lim(rl("cpu=2"))), ctr("", lim(rl("cpu=3")))}},
		// Overhead is added only to non-zero limits: no memory limit.
		{name: "pod overhead included", want: rl("cpu=6"), overhead: rl("cpu=1", "memory=1Gi"),
			initContainers: []api.Container{ctr("", lim(rl("cpu=2")))},
			containers:     []api.Container{ctr("", lim(rl("cpu=2"))), ctr("", lim(rl("cpu=3")))}},
		{name: "no limited containers should result in no limits for the pod", want: rl(),
			initContainers: []api.Container{}, containers: []api.Container{{}}},
		{name: "one limited and one unlimited container", want: rl("cpu=2", "memory=2Gi"),
			containers: []api.Container{ctr("", lim(rl("cpu=2", "memory=2Gi"))), {}}},
		{name: "one limited and one unlimited init container", want: rl("cpu=2", "memory=2Gi"),
			initContainers: []api.Container{ctr("", lim(rl("cpu=2", "memory=2Gi"))), {}},
			containers:     []api.Container{ctr("", lim(rl("cpu=1", "memory=1Gi")))}},
		{name: "restartable init container", want: rl("cpu=2"),
			initContainers: []api.Container{sidecar("restartable-init-1", lim(rl("cpu=1")))},
			containers:     []api.Container{ctr("container-1", lim(rl("cpu=1")))}},
		{name: "multiple restartable init containers", want: rl("cpu=7"),
			initContainers: []api.Container{
				ctr("init-1", lim(rl("cpu=5"))),
				sidecar("restartable-init-1", lim(rl("cpu=1"))),
				sidecar("restartable-init-2", lim(rl("cpu=2"))),
				sidecar("restartable-init-3", lim(rl("cpu=3"))),
			},
			containers: []api.Container{ctr("container-1", lim(rl("cpu=1")))}},
		{name: "multiple restartable and regular init containers", want: rl("cpu=8"),
			initContainers: []api.Container{
				ctr("init-1", lim(rl("cpu=5"))),
				sidecar("restartable-init-1", lim(rl("cpu=1"))),
				sidecar("restartable-init-2", lim(rl("cpu=2"))),
				ctr("init-2", lim(rl("cpu=5"))),
				sidecar("restartable-init-3", lim(rl("cpu=3"))),
			},
			containers: []api.Container{ctr("container-1", lim(rl("cpu=1")))}},
		{name: "restartable-init, init and regular", want: rl("cpu=210"),
			initContainers: []api.Container{
				sidecar("restartable-init-1", lim(rl("cpu=10"))),
				ctr("init-1", lim(rl("cpu=200"))),
			},
			containers: []api.Container{ctr("container-1", lim(rl("cpu=100")))}},
		{name: "pod scaled up", want: rl("memory=2Gi"), opts: useStatus,
			containers:        []api.Container{ctr("container-1", lim(rl("memory=2Gi")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(lim(rl("memory=1Gi")))}}},
		{name: "pod scaled down", want: rl("memory=2Gi"), opts: useStatus,
			containers:        []api.Container{ctr("container-1", lim(rl("memory=1Gi")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(lim(rl("memory=2Gi")))}}},
		{name: "pod scaled down, don't use status", want: rl("memory=1Gi"),
			containers:        []api.Container{ctr("container-1", lim(rl("memory=1Gi")))},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(lim(rl("memory=2Gi")))}}},
		{name: "pod scaled up with restartable init containers", want: rl("memory=2Gi"), opts: useStatus,
			initContainers:        []api.Container{sidecar("restartable-init-1", lim(rl("memory=2Gi")))},
			initContainerStatuses: []api.ContainerStatus{{Name: "restartable-init-1", Resources: statusResources(lim(rl("memory=1Gi")))}}},
		{name: "pod scaled down with restartable init containers", want: rl("memory=2Gi"), opts: useStatus,
			initContainers:        []api.Container{sidecar("restartable-init-1", lim(rl("memory=1Gi")))},
			initContainerStatuses: []api.ContainerStatus{{Name: "restartable-init-1", Resources: statusResources(lim(rl("memory=2Gi")))}}},
		{name: "pod scaled down with restartable init containers, don't use status", want: rl("memory=1Gi"),
			initContainers:        []api.Container{sidecar("restartable-init-1", lim(rl("memory=1Gi")))},
			initContainerStatuses: []api.ContainerStatus{{Name: "restartable-init-1", Resources: statusResources(lim(rl("memory=2Gi")))}}},
		{name: "aggregate limit resolves max of sums instead of sum of maxes", want: rl("cpu=3"), opts: useStatus,
			containers: []api.Container{ctr("c1", lim(rl("cpu=1"))), ctr("c2", lim(rl("cpu=2")))},
			containerStatuses: []api.ContainerStatus{
				{Name: "c1", Resources: statusResources(lim(rl("cpu=2")))},
				{Name: "c2", Resources: statusResources(lim(rl("cpu=1")))},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantList(t, "PodLimits", PodLimits(tc.pod(), tc.opts), tc.want)
		})
	}
}

// TestIsPodLevelResourcesSet ports the upstream tests of
// IsPodLevelResourcesSet and IsPodLevelLimitsSet: only cpu, memory and
// huge pages make pod-level resources count as set.
func TestIsPodLevelResourcesSet(t *testing.T) {
	cases := []struct {
		name                  string
		r                     *api.ResourceRequirements
		set, limits, requests bool
	}{
		{"nil resources struct", nil, false, false, false},
		{"empty resources struct", &api.ResourceRequirements{}, false, false, false},
		{"only unsupported resource requests set", &api.ResourceRequirements{Requests: rl("ephemeral-storage=1Mi")}, false, false, false},
		{"only unsupported resource limits set", &api.ResourceRequirements{Limits: rl("ephemeral-storage=1Mi")}, false, false, false},
		{"unsupported and supported resources requests set", &api.ResourceRequirements{Requests: rl("ephemeral-storage=1Mi", "cpu=1m")}, true, false, true},
		{"unsupported and supported resources limits set", &api.ResourceRequirements{Limits: rl("ephemeral-storage=1Mi", "cpu=1m")}, true, true, false},
		{"only resource requests set", &api.ResourceRequirements{Requests: rl("memory=100Mi")}, true, false, true},
		{"hugepages limits set", &api.ResourceRequirements{Limits: rl("hugepages-2Mi=2Mi")}, true, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &api.Pod{Spec: api.PodSpec{Resources: tc.r}}
			if got := IsPodLevelResourcesSet(p); got != tc.set {
				t.Errorf("IsPodLevelResourcesSet = %v, want %v", got, tc.set)
			}
			if got := IsPodLevelLimitsSet(p); got != tc.limits {
				t.Errorf("IsPodLevelLimitsSet = %v, want %v", got, tc.limits)
			}
			if got := IsPodLevelRequestsSet(p); got != tc.requests {
				t.Errorf("IsPodLevelRequestsSet = %v, want %v", got, tc.requests)
			}
		})
	}
}

// TestIsSupportedPodLevelResource ports the upstream test of the same
// name.
func TestIsSupportedPodLevelResource(t *testing.T) {
	for name, want := range map[api.ResourceName]bool{
		"cpu": true, "memory": true, "ephemeral-storage": false, "hugepages-2Mi": true, "hugepages-1Gi": true,
		"example.com/gpu": false, "storage": false,
	} {
		if got := IsSupportedPodLevelResource(name); got != want {
			t.Errorf("IsSupportedPodLevelResource(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestPodLevelResourceRequests ports component-helpers'
// TestPodLevelResourceRequests: pod-level cpu, memory and huge pages
// replace the containers' total; other pod-level names are ignored.
func TestPodLevelResourceRequests(t *testing.T) {
	skip := PodResourcesOptions{SkipPodLevelResources: true}
	cases := []struct {
		name           string
		opts           PodResourcesOptions
		podResources   api.ResourceRequirements
		initContainers []api.Container
		containers     []api.Container
		want           api.ResourceList
	}{
		{name: "nil", want: rl()},
		{name: "pod level memory resource with SkipPodLevelResources true", podResources: req(rl("memory=2Mi")), opts: skip, want: rl()},
		{name: "pod level memory resource with SkipPodLevelResources false", podResources: req(rl("memory=2Mi")), want: rl("memory=2Mi")},
		{name: "pod level memory and container level cpu resources", podResources: req(rl("memory=2Mi")),
			containers: []api.Container{ctr("", req(rl("cpu=2m")))}, want: rl("memory=2Mi", "cpu=2m")},
		{name: "pod level unsupported resources set at both pod-level and container-level", podResources: req(rl("storage=2Mi")),
			containers: []api.Container{ctr("", req(rl("storage=3Mi")))}, want: rl("storage=3Mi")},
		{name: "pod level unsupported resources set at pod-level", podResources: req(rl("storage=2Mi")),
			containers: []api.Container{ctr("", req(rl("memory=3Mi")))}, want: rl("memory=3Mi")},
		{name: "only container level resources set",
			containers: []api.Container{ctr("", req(rl("memory=3Mi", "cpu=2m")))}, want: rl("memory=3Mi", "cpu=2m")},
		{name: "both container-level and pod-level resources set", podResources: req(rl("memory=6Mi", "cpu=8m")),
			containers: []api.Container{ctr("", req(rl("memory=3Mi", "cpu=2m")))}, want: rl("memory=6Mi", "cpu=8m")},
		{name: "container-level resources and init container set",
			containers:     []api.Container{ctr("", req(rl("memory=3Mi", "cpu=2m")))},
			initContainers: []api.Container{ctr("", req(rl("memory=5Mi", "cpu=4m")))}, want: rl("memory=5Mi", "cpu=4m")},
		{name: "container-level resources and init container set with SkipPodLevelResources true", opts: skip,
			containers:     []api.Container{ctr("", req(rl("memory=3Mi", "cpu=2m")))},
			initContainers: []api.Container{ctr("", req(rl("memory=5Mi", "cpu=4m")))}, want: rl("memory=5Mi", "cpu=4m")},
		{name: "container-level resources and sidecar container set",
			containers:     []api.Container{ctr("", req(rl("memory=3Mi", "cpu=2m")))},
			initContainers: []api.Container{sidecar("", req(rl("memory=5Mi", "cpu=4m")))}, want: rl("memory=8Mi", "cpu=6m")},
		{name: "container-level resources, init and sidecar container set",
			containers: []api.Container{ctr("", req(rl("memory=3Mi", "cpu=2m")))},
			initContainers: []api.Container{
				sidecar("", req(rl("memory=5Mi", "cpu=4m"))),
				ctr("", req(rl("memory=6Mi", "cpu=8m"))),
			}, want: rl("memory=11Mi", "cpu=12m")},
		{name: "pod-level resources, container-level resources, init and sidecar container set",
			podResources: req(rl("memory=15Mi", "cpu=18m")),
			containers:   []api.Container{ctr("", req(rl("memory=3Mi", "cpu=2m")))},
			initContainers: []api.Container{
				sidecar("", req(rl("memory=5Mi", "cpu=4m"))),
				ctr("", req(rl("memory=6Mi", "cpu=8m"))),
			}, want: rl("memory=15Mi", "cpu=18m")},
		{name: "pod-level resources, hugepage request/limit single page size",
			podResources: both(rl("memory=10Mi", "hugepages-2Mi=2Mi"), rl("hugepages-2Mi=2Mi")),
			want:         rl("memory=10Mi", "hugepages-2Mi=2Mi")},
		{name: "pod-level resources, hugepage request/limit multiple page sizes",
			podResources: both(rl("cpu=1", "hugepages-2Mi=2Mi", "hugepages-1Gi=1Gi"), rl("hugepages-2Mi=2Mi", "hugepages-1Gi=1Gi")),
			want:         rl("cpu=1", "hugepages-2Mi=2Mi", "hugepages-1Gi=1Gi")},
		{name: "pod-level resources, container-level resources, hugepage request/limit single page size",
			podResources: both(rl("cpu=1", "hugepages-2Mi=10Mi"), rl("hugepages-2Mi=10Mi")),
			containers:   []api.Container{ctr("", both(rl("hugepages-2Mi=6Mi"), rl("hugepages-2Mi=6Mi")))},
			want:         rl("cpu=1", "hugepages-2Mi=10Mi")},
		{name: "pod-level resources, container-level resources, hugepage request/limit multiple page sizes",
			podResources: both(rl("cpu=1", "hugepages-2Mi=10Mi", "hugepages-1Gi=2Gi"), rl("hugepages-2Mi=10Mi", "hugepages-1Gi=2Gi")),
			containers:   []api.Container{ctr("", both(rl("cpu=1", "hugepages-1Gi=2Gi"), rl("hugepages-1Gi=2Gi")))},
			want:         rl("cpu=1", "hugepages-2Mi=10Mi", "hugepages-1Gi=2Gi")},
		{name: "pod-level resources, container-level resources, hugepage multiple page sizes between pod-level and container-level",
			podResources: both(rl("cpu=1", "hugepages-2Mi=10Mi"), rl("hugepages-2Mi=10Mi")),
			containers:   []api.Container{ctr("", both(rl("memory=4Mi", "hugepages-1Gi=1Gi"), rl("hugepages-1Gi=1Gi")))},
			want:         rl("cpu=1", "memory=4Mi", "hugepages-2Mi=10Mi", "hugepages-1Gi=1Gi")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.podResources
			p := &api.Pod{Spec: api.PodSpec{Resources: &r, Containers: tc.containers, InitContainers: tc.initContainers}}
			wantList(t, "PodRequests", PodRequests(p, tc.opts), tc.want)
		})
	}
}

// TestAggregateContainerRequestsAndLimits ports the upstream test of the
// same name (the cases without pod-level status, which schedkit's api
// does not model).
func TestAggregateContainerRequestsAndLimits(t *testing.T) {
	useStatus := PodResourcesOptions{UseStatusResources: true}
	cases := []struct {
		podCase
		wantLimits api.ResourceList
	}{
		{podCase{name: "one container with limits", want: rl(),
			containers: []api.Container{ctr("", lim(rl("cpu=9")))}}, rl("cpu=9")},
		{podCase{name: "two containers with limits", want: rl(),
			containers: []api.Container{ctr("", lim(rl("cpu=9"))), ctr("", lim(rl("cpu=9")))}}, rl("cpu=18")},
		{podCase{name: "one container with requests", want: rl("cpu=9"),
			containers: []api.Container{ctr("", req(rl("cpu=9")))}}, rl()},
		{podCase{name: "two containers with requests", want: rl("cpu=18"),
			containers: []api.Container{ctr("", req(rl("cpu=9"))), ctr("", req(rl("cpu=9")))}}, rl()},
		{podCase{name: "regular and init containers with requests", want: rl("cpu=9"),
			containers:     []api.Container{ctr("", req(rl("cpu=9")))},
			initContainers: []api.Container{ctr("", req(rl("cpu=9")))}}, rl()},
		{podCase{name: "regular, init and sidecar containers with requests", want: rl("cpu=17"),
			containers:     []api.Container{ctr("", req(rl("cpu=9")))},
			initContainers: []api.Container{sidecar("", req(rl("cpu=8"))), ctr("", req(rl("cpu=6")))}}, rl()},
		{podCase{name: "regular and init containers with limits", want: rl(),
			containers:     []api.Container{ctr("", lim(rl("cpu=9")))},
			initContainers: []api.Container{ctr("", lim(rl("cpu=9")))}}, rl("cpu=9")},
		{podCase{name: "regular, init and sidecar containers with limits", want: rl(),
			containers:     []api.Container{ctr("", lim(rl("cpu=9")))},
			initContainers: []api.Container{sidecar("", lim(rl("cpu=8"))), ctr("", lim(rl("cpu=6")))}}, rl("cpu=17")},
		{podCase{name: "regular containers with empty requests, but status with non-empty requests", want: rl("cpu=2"), opts: useStatus,
			containers:        []api.Container{ctr("container-1", api.ResourceRequirements{})},
			containerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(req(rl("cpu=2")))}}}, rl()},
		{podCase{name: "always-restart init containers with empty requests, but status with non-empty requests", want: rl("cpu=2"), opts: useStatus,
			initContainers:        []api.Container{sidecar("container-1", api.ResourceRequirements{})},
			initContainerStatuses: []api.ContainerStatus{{Name: "container-1", Resources: statusResources(req(rl("cpu=2")))}}}, rl()},
		{podCase{name: "aggregate container request resolves max of sums instead of sum of maxes", want: rl("cpu=3"), opts: useStatus,
			containers: []api.Container{ctr("c1", req(rl("cpu=1"))), ctr("c2", req(rl("cpu=2")))},
			containerStatuses: []api.ContainerStatus{
				{Name: "c1", AllocatedResources: rl("cpu=2")},
				{Name: "c2", AllocatedResources: rl("cpu=1")},
			}}, rl()},
		{podCase{name: "aggregate container limit resolves max of sums instead of sum of maxes", want: rl(), opts: useStatus,
			containers: []api.Container{ctr("c1", lim(rl("cpu=1"))), ctr("c2", lim(rl("cpu=2")))},
			containerStatuses: []api.ContainerStatus{
				{Name: "c1", Resources: statusResources(lim(rl("cpu=2")))},
				{Name: "c2", Resources: statusResources(lim(rl("cpu=1")))},
			}}, rl("cpu=3")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pod()
			wantList(t, "AggregateContainerRequests", AggregateContainerRequests(p, tc.opts), tc.want)
			wantList(t, "AggregateContainerLimits", AggregateContainerLimits(p, tc.opts), tc.wantLimits)
		})
	}
}

// TestPodRequestsAndLimitsVerticalScalingWrappers ports the cases of the
// upstream test of the same name that use container status only: an
// infeasible resize counts the actuated limits, and non-missing requests
// apply to init containers and regular containers alike.
func TestPodRequestsAndLimitsVerticalScalingWrappers(t *testing.T) {
	nm := PodResourcesOptions{NonMissingContainerRequests: rl("memory=100Mi")}
	cases := []struct {
		podCase
		wantLimits api.ResourceList
	}{
		{podCase{name: "container limits aggregation with infeasible resize", want: rl(),
			opts: PodResourcesOptions{UseStatusResources: true}, conditions: infeasible,
			containers:        []api.Container{ctr("c1", lim(rl("cpu=10")))},
			containerStatuses: []api.ContainerStatus{{Name: "c1", Resources: statusResources(lim(rl("cpu=6")))}}}, rl("cpu=6")},
		{podCase{name: "non missing container requests applied to init container", want: rl("cpu=1", "memory=100Mi"), opts: nm,
			initContainers: []api.Container{ctr("i1", req(rl("cpu=1")))}}, rl()},
		{podCase{name: "non missing container requests applied to regular container", want: rl("cpu=1", "memory=100Mi"), opts: nm,
			containers: []api.Container{ctr("c1", req(rl("cpu=1")))}}, rl()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pod()
			wantList(t, "PodRequests", PodRequests(p, tc.opts), tc.want)
			wantList(t, "PodLimits", PodLimits(p, tc.opts), tc.wantLimits)
		})
	}
}

// TestResizeConditions ports upstream's TestResizeConditionsAndSupportedResources.
func TestResizeConditions(t *testing.T) {
	p := &api.Pod{Status: api.PodStatus{Conditions: []api.PodCondition{{Type: api.PodResizePending, Status: api.ConditionTrue, Reason: PodReasonDeferred}}}}
	if !IsPodResizeDeferred(p) || IsPodResizeInfeasible(p) {
		t.Errorf("Deferred: deferred=%v infeasible=%v", IsPodResizeDeferred(p), IsPodResizeInfeasible(p))
	}
	p.Status.Conditions[0].Reason = "Other"
	if IsPodResizeDeferred(p) {
		t.Error("Other reason taken as deferred")
	}
	if !Contains(SupportedPodLevelResources(), api.ResourceCPU) {
		t.Error("SupportedPodLevelResources lacks cpu")
	}
}
