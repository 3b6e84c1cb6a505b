package admission

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// rl builds a resource list from "name=quantity" pairs.
func rl(kv ...string) api.ResourceList {
	l := api.ResourceList{}
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		l[api.ResourceName(k)] = resource.MustParse(v)
	}
	return l
}

func listText(l api.ResourceList) string { return prettyList(l) }

// quotaPod mirrors upstream's validPod: n unnamed containers with the
// same requests and limits, in namespace "test".
func quotaPod(name string, n int, req, lim api.ResourceList) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "test"}}
	for range n {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Image: "foo", Resources: api.ResourceRequirements{Requests: req, Limits: lim}})
	}
	return p
}

func rq(name string, hard, used api.ResourceList, scopes ...api.ResourceQuotaScope) api.ResourceQuota {
	return api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "test"},
		Spec:       api.ResourceQuotaSpec{Hard: hard, Scopes: scopes},
		Status:     api.ResourceQuotaStatus{Hard: hard, Used: used},
	}
}

func int64p(v int64) *int64 { return &v }

// TestCheckQuota ports the ResourceQuota admission tests
// (plugin/pkg/admission/resourcequota/admission_test.go), one row per
// upstream test, with the API server's error texts.
func TestCheckQuota(t *testing.T) {
	std := func() api.ResourceQuota {
		return rq("quota", rl("cpu=3", "memory=100Gi", "pods=5"), rl("cpu=1", "memory=50Gi", "pods=3"))
	}
	cases := []struct {
		name   string
		quotas []api.ResourceQuota
		obj    Counted
		// want is the used list of each quota after admission, or the
		// error text.
		want    []string
		wantErr string
	}{
		// upstream: TestAdmitBelowQuotaLimit
		{name: "below limit", quotas: []api.ResourceQuota{std()},
			obj:  CountedPod(quotaPod("allowed-pod", 1, rl("cpu=100m", "memory=2Gi"), nil)),
			want: []string{"cpu=1100m,memory=52Gi,pods=4"}},
		// upstream: TestAdmitExceedQuotaLimit
		{name: "exceeds", quotas: []api.ResourceQuota{std()},
			obj:     CountedPod(quotaPod("not-allowed-pod", 1, rl("cpu=3", "memory=2Gi"), nil)),
			wantErr: `pods "not-allowed-pod" is forbidden: exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3`},
		// upstream: TestAdmitEnforceQuotaConstraints
		{name: "constraints", quotas: []api.ResourceQuota{rq("quota", rl("cpu=3", "memory=100Gi", "limits.memory=200Gi", "pods=5"), rl("cpu=1", "memory=50Gi", "limits.memory=100Gi", "pods=3"))},
			obj:     CountedPod(quotaPod("not-allowed-pod", 1, rl("cpu=100m", "memory=2Gi"), rl("cpu=200m"))),
			wantErr: `pods "not-allowed-pod" is forbidden: failed quota: quota: must specify limits.memory for: `},
		// upstream: TestAdmitBelowTerminatingQuotaLimit
		{name: "terminating scope", quotas: []api.ResourceQuota{
			rq("quota-non-terminating", rl("cpu=3", "memory=100Gi", "pods=5"), rl("cpu=1", "memory=50Gi", "pods=3"), api.ResourceQuotaScopeNotTerminating),
			rq("quota-terminating", rl("cpu=3", "memory=100Gi", "pods=5"), rl("cpu=1", "memory=50Gi", "pods=3"), api.ResourceQuotaScopeTerminating)},
			obj: func() Counted {
				p := quotaPod("allowed-pod", 1, rl("cpu=100m", "memory=2Gi"), nil)
				p.Spec.ActiveDeadlineSeconds = int64p(60)
				return CountedPod(p)
			}(),
			want: []string{"cpu=1,memory=50Gi,pods=3", "cpu=1100m,memory=52Gi,pods=4"}},
		// upstream: TestAdmitBelowBestEffortQuotaLimit
		{name: "best effort scope", quotas: []api.ResourceQuota{
			rq("quota-besteffort", rl("pods=5"), rl("pods=3"), api.ResourceQuotaScopeBestEffort),
			rq("quota-not-besteffort", rl("pods=5"), rl("pods=3"), api.ResourceQuotaScopeNotBestEffort)},
			obj:  CountedPod(quotaPod("allowed-pod", 1, nil, nil)),
			want: []string{"pods=4", "pods=3"}},
		// upstream: TestAdmitBestEffortQuotaLimitIgnoresBurstable
		{name: "best effort ignores burstable", quotas: []api.ResourceQuota{
			rq("quota", rl("pods=5"), rl("pods=3"), api.ResourceQuotaScopeBestEffort)},
			obj:  CountedPod(quotaPod("allowed-pod", 1, rl("cpu=100m", "memory=1Gi"), nil)),
			want: []string{"pods=3"}},
		// upstream: TestAdmitRejectsNegativeUsage
		{name: "negative usage", quotas: []api.ResourceQuota{rq("quota", rl("persistentvolumeclaims=3", "requests.storage=100Gi"), rl("persistentvolumeclaims=1", "requests.storage=10Gi"))},
			obj:     CountedClaim(&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "not-allowed-pvc", Namespace: "test"}, Spec: api.PersistentVolumeClaimSpec{Resources: api.VolumeResourceRequirements{Requests: rl("storage=-1Gi")}}}),
			wantErr: `persistentvolumeclaims "not-allowed-pvc" is forbidden: quota usage is negative for resource(s): requests.storage`},
		// upstream: TestAdmitRejectsNegativeUsage (the second claim)
		{name: "claim below limit", quotas: []api.ResourceQuota{rq("quota", rl("persistentvolumeclaims=3", "requests.storage=100Gi"), rl("persistentvolumeclaims=1", "requests.storage=10Gi"))},
			obj:  CountedClaim(&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "allowed-pvc", Namespace: "test"}, Spec: api.PersistentVolumeClaimSpec{Resources: api.VolumeResourceRequirements{Requests: rl("storage=1Gi")}}}),
			want: []string{"persistentvolumeclaims=2,requests.storage=11Gi"}},
		// upstream: TestAdmitWhenUnrelatedResourceExceedsQuota
		{name: "unrelated resource over", quotas: []api.ResourceQuota{rq("quota", rl("services=3", "pods=4"), rl("services=4", "pods=1"))},
			obj:  CountedPod(quotaPod("allowed-pod", 1, nil, nil)),
			want: []string{"pods=2,services=4"}},
		// upstream: checkRequest's hasUsageStats
		{name: "status unknown", quotas: []api.ResourceQuota{rq("quota", rl("cpu=3", "pods=5"), rl("pods=1"))},
			obj:     CountedPod(quotaPod("p", 1, rl("cpu=1"), nil)),
			wantErr: `pods "p" is forbidden: status unknown for quota: quota, resources: cpu,pods`},
		// upstream: checkRequest checks quotas in order; the first
		// exceeded one is reported and nothing is charged.
		{name: "first exceeded quota", quotas: []api.ResourceQuota{
			rq("a", rl("pods=5"), rl("pods=1")),
			rq("b", rl("requests.cpu=1", "count/pods=2"), rl("requests.cpu=500m", "count/pods=2")),
			rq("c", rl("pods=1"), rl("pods=1"))},
			obj:     CountedPod(quotaPod("p", 2, rl("cpu=300m"), nil)),
			wantErr: `pods "p" is forbidden: exceeded quota: b, requested: count/pods=1,requests.cpu=600m, used: count/pods=2,requests.cpu=500m, limited: count/pods=2,requests.cpu=1`},
		// A service: services, node ports and load balancers.
		{name: "service load balancer", quotas: []api.ResourceQuota{rq("quota", rl("services=10", "services.loadbalancers=1", "services.nodeports=5"), rl("services=1", "services.loadbalancers=1", "services.nodeports=0"))},
			obj:     CountedService(&api.Service{ObjectMeta: api.ObjectMeta{Name: "lb", Namespace: "test"}, Spec: api.ServiceSpec{Type: api.ServiceTypeLoadBalancer, Ports: []api.ServicePort{{Port: 80}}}}),
			wantErr: `services "lb" is forbidden: exceeded quota: quota, requested: services.loadbalancers=1, used: services.loadbalancers=1, limited: services.loadbalancers=1`},
		// Scopes never match services: a scoped quota ignores them.
		{name: "scoped quota ignores services", quotas: []api.ResourceQuota{rq("quota", rl("services=0"), rl("services=0"), api.ResourceQuotaScopeNotTerminating)},
			obj:  CountedService(&api.Service{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "test"}}),
			want: []string{"services=0"}},
		// count/<resource>.<group> of any other kind.
		{name: "object count", quotas: []api.ResourceQuota{rq("quota", rl("count/deployments.apps=2"), rl("count/deployments.apps=2"))},
			obj:     Counted{Resource: "deployments.apps", Meta: &api.ObjectMeta{Name: "web", Namespace: "test"}},
			wantErr: `deployments.apps "web" is forbidden: exceeded quota: quota, requested: count/deployments.apps=1, used: count/deployments.apps=2, limited: count/deployments.apps=2`},
		// Extended resources and huge pages.
		{name: "extended and huge pages", quotas: []api.ResourceQuota{rq("quota", rl("requests.example.com/gpu=2", "hugepages-2Mi=4Mi", "requests.hugepages-2Mi=4Mi"), rl("requests.example.com/gpu=1", "hugepages-2Mi=0", "requests.hugepages-2Mi=0"))},
			obj:  CountedPod(quotaPod("p", 1, rl("example.com/gpu=1", "hugepages-2Mi=2Mi", "memory=1Gi"), rl("example.com/gpu=1", "hugepages-2Mi=2Mi"))),
			want: []string{"hugepages-2Mi=2Mi,requests.example.com/gpu=2,requests.hugepages-2Mi=2Mi"}},
		// Per storage class claims.
		{name: "storage class", quotas: []api.ResourceQuota{rq("quota", rl("gold.storageclass.storage.k8s.io/requests.storage=10Gi", "gold.storageclass.storage.k8s.io/persistentvolumeclaims=1"), rl("gold.storageclass.storage.k8s.io/requests.storage=0", "gold.storageclass.storage.k8s.io/persistentvolumeclaims=1"))},
			obj: CountedClaim(&api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "test"},
				Spec: api.PersistentVolumeClaimSpec{StorageClassName: strp("gold"), Resources: api.VolumeResourceRequirements{Requests: rl("storage=5Gi")}}}),
			wantErr: `persistentvolumeclaims "c" is forbidden: exceeded quota: quota, requested: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, used: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1, limited: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := make([]string, len(tc.quotas))
			for i := range tc.quotas {
				before[i] = listText(tc.quotas[i].Status.Used)
			}
			out, err := CheckQuota(tc.quotas, tc.obj, time.Time{})
			for i := range tc.quotas {
				if got := listText(tc.quotas[i].Status.Used); got != before[i] {
					t.Errorf("input quota %d modified: %s", i, got)
				}
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v\n want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i := range out {
				got = append(got, listText(out[i].Status.Used))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("used = %q, want %q", got, tc.want)
			}
		})
	}
}

func strp(s string) *string { return &s }

// TestQuotaExceededError: the reason is a *QuotaExceededError inside the
// *ForbiddenError.
func TestQuotaExceededError(t *testing.T) {
	_, err := CheckQuota([]api.ResourceQuota{rq("q", rl("pods=1"), rl("pods=1"))}, CountedPod(quotaPod("p", 1, nil, nil)), time.Time{})
	var qe *QuotaExceededError
	if !errors.As(err, &qe) || qe.Quota != "q" || listText(qe.Limited) != "pods=1" {
		t.Fatalf("err = %#v", err)
	}
}

// TestPodQuotaConstraints ports upstream's TestPodConstraintsFunc.
func TestPodQuotaConstraints(t *testing.T) {
	cpu := api.ResourceRequirements{Requests: rl("cpu=1m"), Limits: rl("cpu=2m")}
	cases := []struct {
		name     string
		pod      *api.Pod
		required []api.ResourceName
		err      string
	}{
		// upstream: TestPodConstraintsFunc "init container resource missing"
		{"init container resource missing", &api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "dummy", Resources: cpu}}}},
			[]api.ResourceName{"memory"}, "must specify memory for: dummy"},
		// upstream: TestPodConstraintsFunc "multiple init container resource missing"
		{"multiple init container resource missing", &api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Name: "foo", Resources: cpu}, {Name: "bar", Resources: cpu}}}},
			[]api.ResourceName{"memory"}, "must specify memory for: bar,foo"},
		// upstream: TestPodConstraintsFunc "container resource missing"
		{"container resource missing", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "dummy", Resources: cpu}}}},
			[]api.ResourceName{"memory"}, "must specify memory for: dummy"},
		// upstream: TestPodConstraintsFunc "multiple container resource missing"
		{"multiple container resource missing", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "foo", Resources: cpu}, {Name: "bar", Resources: cpu}}}},
			[]api.ResourceName{"memory"}, "must specify memory for: bar,foo"},
		// upstream: TestPodConstraintsFunc "container resource missing multiple"
		{"container resource missing multiple", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "foo"}, {Name: "bar"}}}},
			[]api.ResourceName{"memory", "cpu"}, "must specify cpu for: bar,foo; memory for: bar,foo"},
		// upstream: TestPodConstraintsFunc "pod-level resource set, container-level required resources missing"
		{"pod-level resources", &api.Pod{Spec: api.PodSpec{Resources: &api.ResourceRequirements{Requests: rl("cpu=1m")}, Containers: []api.Container{{Name: "foo"}, {Name: "bar"}}}},
			[]api.ResourceName{"memory", "cpu"}, ""},
		// Only cpu and memory names are enforced.
		{"storage not enforced", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "foo"}}}},
			[]api.ResourceName{"requests.ephemeral-storage", "pods"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := podEval{pod: tc.pod}.constraints(tc.required)
			if got := errText(err); got != tc.err {
				t.Errorf("err = %q, want %q", got, tc.err)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestPodQuotaUsage ports rows of upstream's TestPodEvaluatorUsage.
func TestPodQuotaUsage(t *testing.T) {
	deleted := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	cases := []struct {
		name string
		pod  *api.Pod
		want string
	}{
		// upstream: TestPodEvaluatorUsage "init container CPU"
		{"init container cpu", &api.Pod{Spec: api.PodSpec{InitContainers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu=1m"), Limits: rl("cpu=2m")}}}}},
			"count/pods=1,cpu=1m,limits.cpu=2m,pods=1,requests.cpu=1m"},
		// upstream: TestPodEvaluatorUsage "container local ephemeral storage"
		{"ephemeral storage", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("ephemeral-storage=32Mi"), Limits: rl("ephemeral-storage=64Mi")}}}}},
			"count/pods=1,ephemeral-storage=32Mi,limits.ephemeral-storage=64Mi,pods=1,requests.ephemeral-storage=32Mi"},
		// upstream: TestPodEvaluatorUsage "container hugepages"
		{"huge pages", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("hugepages-1Gi=1Gi")}}}}},
			"count/pods=1,hugepages-1Gi=1Gi,pods=1,requests.hugepages-1Gi=1Gi"},
		// upstream: TestPodEvaluatorUsage "container extended resources"
		{"extended", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("example.com/dongle=3"), Limits: rl("example.com/dongle=3")}}}}},
			"count/pods=1,pods=1,requests.example.com/dongle=3"},
		// upstream: TestPodEvaluatorUsage "container implicit extended resources"
		{"implicit extended", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{
			Requests: rl("deviceclass.resource.kubernetes.io/dongle=3"), Limits: rl("deviceclass.resource.kubernetes.io/dongle=3")}}}}},
			"count/pods=1,pods=1,requests.deviceclass.resource.kubernetes.io/dongle=3"},
		// upstream: TestPodEvaluatorUsage "pod-level CPU"
		{"pod-level cpu", &api.Pod{Spec: api.PodSpec{Resources: &api.ResourceRequirements{Requests: rl("cpu=1m"), Limits: rl("cpu=2m")}}},
			"count/pods=1,cpu=1m,limits.cpu=2m,pods=1,requests.cpu=1m"},
		// upstream: TestPodEvaluatorUsage "terminated generic count still appears"
		{"terminated", &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu=1")}}}}, Status: api.PodStatus{Phase: api.PodSucceeded}},
			"count/pods=1"},
		// upstream: TestPodEvaluatorUsage "pod deletion timestamp exceeded"
		{"deleted past grace", &api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &deleted, DeletionGracePeriodSeconds: int64p(30)},
			Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu=1")}}}}},
			"count/pods=1"},
		// upstream: TestPodEvaluatorUsage "init container maximums override sum of containers"
		{"init maximum", &api.Pod{Spec: api.PodSpec{
			InitContainers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu=4", "memory=100M"), Limits: rl("cpu=8", "memory=200M")}}},
			Containers:     []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu=1", "memory=50M"), Limits: rl("cpu=2", "memory=100M")}}, {Resources: api.ResourceRequirements{Requests: rl("cpu=1", "memory=50M"), Limits: rl("cpu=2", "memory=100M")}}}}},
			"count/pods=1,cpu=4,limits.cpu=8,limits.memory=200M,memory=100M,pods=1,requests.cpu=4,requests.memory=100M"},
		// upstream: TestPodEvaluatorUsage "count pod overhead as usage"
		{"overhead", &api.Pod{Spec: api.PodSpec{Overhead: rl("cpu=1", "memory=1Gi"), Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu=1", "memory=1Gi"), Limits: rl("cpu=2", "memory=2Gi")}}}}},
			"count/pods=1,cpu=2,limits.cpu=3,limits.memory=3Gi,memory=2Gi,pods=1,requests.cpu=2,requests.memory=2Gi"},
	}
	now := deleted.Add(time.Hour)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := listText(PodQuotaUsage(tc.pod, now)); got != tc.want {
				t.Errorf("usage = %s\n want %s", got, tc.want)
			}
		})
	}
}

// TestPodQuotaScopes ports upstream's TestPodEvaluatorMatchingScopes.
func TestPodQuotaScopes(t *testing.T) {
	sel := func(scope api.ResourceQuotaScope, op api.ScopeSelectorOperator, vals ...string) api.ScopedResourceSelectorRequirement {
		return api.ScopedResourceSelectorRequirement{ScopeName: scope, Operator: op, Values: vals}
	}
	exists := func(s api.ResourceQuotaScope) api.ScopedResourceSelectorRequirement {
		return sel(s, api.ScopeSelectorOpExists)
	}
	besteffort := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{}}}}
	burstable := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Resources: api.ResourceRequirements{Requests: rl("cpu=1")}}}}}
	terminating := &api.Pod{Spec: api.PodSpec{ActiveDeadlineSeconds: int64p(1), Containers: []api.Container{{}}}}
	class := &api.Pod{Spec: api.PodSpec{PriorityClassName: "class1", Containers: []api.Container{{}}}}
	cross := &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{PodAffinity: &api.PodAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{Namespaces: []string{"ns1"}, TopologyKey: "zone"}}}}, Containers: []api.Container{{}}}}
	all := []api.ScopedResourceSelectorRequirement{
		exists(api.ResourceQuotaScopeTerminating), exists(api.ResourceQuotaScopeNotTerminating),
		exists(api.ResourceQuotaScopeBestEffort), exists(api.ResourceQuotaScopeNotBestEffort),
		exists(api.ResourceQuotaScopePriorityClass), exists(api.ResourceQuotaScopeCrossNamespacePodAffinity),
		sel(api.ResourceQuotaScopePriorityClass, api.ScopeSelectorOpIn, "class1", "class2"),
		sel(api.ResourceQuotaScopePriorityClass, api.ScopeSelectorOpNotIn, "class1"),
		sel(api.ResourceQuotaScopePriorityClass, api.ScopeSelectorOpDoesNotExist),
	}
	names := []string{"Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity", "PriorityClass In", "PriorityClass NotIn", "PriorityClass DoesNotExist"}
	cases := []struct {
		name string
		pod  *api.Pod
		want []string
	}{
		// upstream: TestPodEvaluatorMatchingScopes "EmptyPod" / "BestEffort"
		{"best effort", besteffort, []string{"NotTerminating", "BestEffort", "PriorityClass NotIn", "PriorityClass DoesNotExist"}},
		// upstream: TestPodEvaluatorMatchingScopes "NotBestEffort"
		{"burstable", burstable, []string{"NotTerminating", "NotBestEffort", "PriorityClass NotIn", "PriorityClass DoesNotExist"}},
		// upstream: TestPodEvaluatorMatchingScopes "Terminating"
		{"terminating", terminating, []string{"Terminating", "BestEffort", "PriorityClass NotIn", "PriorityClass DoesNotExist"}},
		// upstream: TestPodEvaluatorMatchingScopes "PriorityClass" rows
		{"priority class", class, []string{"NotTerminating", "BestEffort", "PriorityClass", "PriorityClass In"}},
		// upstream: TestPodEvaluatorMatchingScopes "CrossNamespacePodAffinity"
		{"cross namespace", cross, []string{"NotTerminating", "BestEffort", "CrossNamespacePodAffinity", "PriorityClass NotIn", "PriorityClass DoesNotExist"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for i, s := range all {
				ok, err := podEval{pod: tc.pod}.matchesScope(s)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					got = append(got, names[i])
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("scopes = %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := (podEval{pod: class}).matchesScope(sel(api.ResourceQuotaScopePriorityClass, api.ScopeSelectorOpIn)); err == nil {
		t.Error("In without values: no error")
	}
}

// TestServiceQuotaUsage ports upstream's TestServiceEvaluatorUsage.
func TestServiceQuotaUsage(t *testing.T) {
	f := false
	cases := []struct {
		name string
		svc  api.ServiceSpec
		want string
	}{
		// upstream: TestServiceEvaluatorUsage "loadbalancer"
		{"loadbalancer", api.ServiceSpec{Type: api.ServiceTypeLoadBalancer}, "count/services=1,services=1,services.loadbalancers=1,services.nodeports=0"},
		// upstream: TestServiceEvaluatorUsage "loadbalancer_ports"
		{"loadbalancer ports", api.ServiceSpec{Type: api.ServiceTypeLoadBalancer, Ports: []api.ServicePort{{Port: 27443}}}, "count/services=1,services=1,services.loadbalancers=1,services.nodeports=1"},
		// upstream: TestServiceEvaluatorUsage "loadbalancer_2_ports"
		{"loadbalancer 2 ports", api.ServiceSpec{Type: api.ServiceTypeLoadBalancer, Ports: []api.ServicePort{{Port: 27443}, {Port: 27444}}}, "count/services=1,services=1,services.loadbalancers=1,services.nodeports=2"},
		// upstream: TestServiceEvaluatorUsage "clusterip"
		{"clusterip", api.ServiceSpec{Type: api.ServiceTypeClusterIP}, "count/services=1,services=1,services.loadbalancers=0,services.nodeports=0"},
		// upstream: TestServiceEvaluatorUsage "nodeports"
		{"nodeports", api.ServiceSpec{Type: api.ServiceTypeNodePort, Ports: []api.ServicePort{{Port: 27443}}}, "count/services=1,services=1,services.loadbalancers=0,services.nodeports=1"},
		// upstream: TestServiceEvaluatorUsage "multi-nodeports"
		{"multi nodeports", api.ServiceSpec{Type: api.ServiceTypeNodePort, Ports: []api.ServicePort{{Port: 27443}, {Port: 27444}}}, "count/services=1,services=1,services.loadbalancers=0,services.nodeports=2"},
		// upstream: TestServiceEvaluatorUsage "nodeports-disabled"
		{"node ports not allocated", api.ServiceSpec{Type: api.ServiceTypeLoadBalancer, AllocateLoadBalancerNodePorts: &f, Ports: []api.ServicePort{{Port: 27443}, {Port: 27444, NodePort: 32001}}}, "count/services=1,services=1,services.loadbalancers=1,services.nodeports=1"},
	}
	for _, tc := range cases {
		if got := listText(ServiceQuotaUsage(&api.Service{Spec: tc.svc})); got != tc.want {
			t.Errorf("%s: usage = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestClaimQuotaUsage ports upstream's
// TestPersistentVolumeClaimEvaluatorUsage and ..MatchingResources.
func TestClaimQuotaUsage(t *testing.T) {
	gold := "gold"
	cases := []struct {
		name string
		pvc  *api.PersistentVolumeClaim
		want string
	}{
		// upstream: TestPersistentVolumeClaimEvaluatorUsage "pvc-usage-by-class"
		{"usage", &api.PersistentVolumeClaim{Spec: api.PersistentVolumeClaimSpec{StorageClassName: &gold, Resources: api.VolumeResourceRequirements{Requests: rl("storage=10Gi")}}},
			"count/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/requests.storage=10Gi,persistentvolumeclaims=1,requests.storage=10Gi"},
		// upstream: TestPersistentVolumeClaimEvaluatorUsage "pvc-usage-by-class-rounded"
		{"rounded", &api.PersistentVolumeClaim{Spec: api.PersistentVolumeClaimSpec{StorageClassName: &gold, Resources: api.VolumeResourceRequirements{Requests: rl("storage=1m")}}},
			"count/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/requests.storage=1,persistentvolumeclaims=1,requests.storage=1"},
		// upstream: TestPersistentVolumeClaimEvaluatorUsage "pvc-usage-higher-allocated-resource"
		{"allocated higher", &api.PersistentVolumeClaim{Spec: api.PersistentVolumeClaimSpec{StorageClassName: &gold, Resources: api.VolumeResourceRequirements{Requests: rl("storage=10Gi")}},
			Status: api.PersistentVolumeClaimStatus{AllocatedResources: rl("storage=20Gi")}},
			"count/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/requests.storage=20Gi,persistentvolumeclaims=1,requests.storage=20Gi"},
		// upstream: TestPersistentVolumeClaimEvaluatorUsage "pvc-usage-lower-allocated-resource"
		{"allocated lower", &api.PersistentVolumeClaim{Spec: api.PersistentVolumeClaimSpec{StorageClassName: &gold, Resources: api.VolumeResourceRequirements{Requests: rl("storage=10Gi")}},
			Status: api.PersistentVolumeClaimStatus{AllocatedResources: rl("storage=5Gi")}},
			"count/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/persistentvolumeclaims=1,gold.storageclass.storage.k8s.io/requests.storage=10Gi,persistentvolumeclaims=1,requests.storage=10Gi"},
		// The beta annotation wins over spec.storageClassName.
		{"beta annotation", &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{api.BetaStorageClassAnnotation: "silver"}}, Spec: api.PersistentVolumeClaimSpec{StorageClassName: &gold}},
			"count/persistentvolumeclaims=1,persistentvolumeclaims=1,silver.storageclass.storage.k8s.io/persistentvolumeclaims=1"},
	}
	for _, tc := range cases {
		if got := listText(ClaimQuotaUsage(tc.pvc)); got != tc.want {
			t.Errorf("%s: usage = %s\n want %s", tc.name, got, tc.want)
		}
	}
	// upstream: TestPersistentVolumeClaimEvaluatorMatchingResources
	in := []api.ResourceName{"count/persistentvolumeclaims", "requests.storage", "persistentvolumeclaims", "gold.storageclass.storage.k8s.io/requests.storage", "gold.storageclass.storage.k8s.io/persistentvolumeclaims", "requests.cpu", "cpu", "storage"}
	got := claimEval{}.matching(in)
	if want := in[:5]; !reflect.DeepEqual(got, want) {
		t.Errorf("matching = %v, want %v", got, want)
	}
}

// TestQuotaStatus: what the quota controller writes in status.used,
// measured on a namespace's objects (scopes applied, other namespaces
// and terminal pods left out, untracked names kept from the old status).
func TestQuotaStatus(t *testing.T) {
	q := rq("q", rl("pods=10", "requests.cpu=10", "count/pods=10", "services=5", "count/deployments.apps=3", "example.com/unknown=1"), nil, api.ResourceQuotaScopeNotBestEffort)
	q.Status = api.ResourceQuotaStatus{Used: rl("example.com/unknown=1")}
	objs := NamespaceObjects{
		Pods: []*api.Pod{
			quotaPod("a", 1, rl("cpu=500m"), nil),
			quotaPod("b", 2, rl("cpu=250m"), nil),
			quotaPod("besteffort", 1, nil, nil),
			func() *api.Pod { p := quotaPod("done", 1, rl("cpu=1"), nil); p.Status.Phase = api.PodFailed; return p }(),
			func() *api.Pod { p := quotaPod("other-ns", 1, rl("cpu=1"), nil); p.Namespace = "other"; return p }(),
		},
		Services: []*api.Service{{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "test"}}},
		Others:   []Counted{{Resource: "deployments.apps", Meta: &api.ObjectMeta{Name: "d", Namespace: "test"}}},
	}
	st := QuotaStatus(&q, objs)
	// The failed pod is still NotBestEffort and counted by count/pods;
	// services and deployments never match a scoped quota.
	if got, want := listText(st.Used), "count/deployments.apps=0,count/pods=3,example.com/unknown=1,pods=2,requests.cpu=1,services=0"; got != want {
		t.Errorf("used = %s\n want %s", got, want)
	}
	if !resource.Equals(st.Hard, q.Spec.Hard) {
		t.Errorf("hard = %v", st.Hard)
	}
	filled := FillQuotaStatus([]api.ResourceQuota{{ObjectMeta: api.ObjectMeta{Name: "u", Namespace: "test"}, Spec: api.ResourceQuotaSpec{Hard: rl("pods=3")}}}, objs)
	if got := listText(filled[0].Status.Used); got != "pods=3" {
		t.Errorf("filled used = %s", got)
	}
}

// TestChain: usage after admission is kept across admissions, a rejected
// pod changes nothing, quotas of other namespaces are not charged.
func TestChain(t *testing.T) {
	quotas := []api.ResourceQuota{rq("q", rl("pods=2", "requests.cpu=1"), rl("pods=0", "requests.cpu=0"))}
	other := rq("elsewhere", rl("pods=0"), rl("pods=0"))
	other.Namespace = "other"
	c := NewChain(Policies{ResourceQuotas: append(quotas, other)}, time.Time{})
	var admitted []string
	var errs []string
	for _, name := range []string{"a", "b", "c"} {
		p := quotaPod(name, 1, rl("cpu=400m"), nil)
		if _, err := c.AdmitPod(p); err != nil {
			errs = append(errs, err.Error())
		} else {
			admitted = append(admitted, name)
		}
	}
	if !reflect.DeepEqual(admitted, []string{"a", "b"}) {
		t.Errorf("admitted %v; errors %q", admitted, errs)
	}
	want := `pods "c" is forbidden: exceeded quota: q, requested: pods=1,requests.cpu=400m, used: pods=2,requests.cpu=800m, limited: pods=2,requests.cpu=1`
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errors %q\n want %s", errs, want)
	}
	got := c.Quotas()
	sort.Slice(got, func(i, j int) bool { return got[i].Name < got[j].Name })
	if listText(got[1].Status.Used) != "pods=2,requests.cpu=800m" || listText(got[0].Status.Used) != "pods=0" {
		t.Errorf("quotas after = %v / %v", got[0].Status.Used, got[1].Status.Used)
	}
	// upstream: TestAdmitPodInNamespaceWithoutQuota
	p := quotaPod("x", 1, nil, nil)
	p.Namespace = "free"
	if _, err := c.AdmitPod(p); err != nil {
		t.Errorf("namespace without quota: %v", err)
	}
	// LimitRanger's defaults are charged (LimitRanger runs first).
	lr := api.LimitRange{ObjectMeta: api.ObjectMeta{Name: "lr", Namespace: "test"}, Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{{
		Type: api.LimitTypeContainer, DefaultRequest: rl("cpu=300m"), Default: rl("cpu=300m")}}}}
	c = NewChain(Policies{LimitRanges: []api.LimitRange{lr}, ResourceQuotas: quotas}, time.Time{})
	if _, err := c.AdmitPod(quotaPod("d", 1, nil, nil)); err != nil {
		t.Fatal(err)
	}
	if got := listText(c.Quotas()[0].Status.Used); got != "pods=1,requests.cpu=300m" {
		t.Errorf("after LimitRanger defaults: %s", got)
	}
	if err := c.AdmitObject(CountedService(&api.Service{ObjectMeta: api.ObjectMeta{Name: "s"}}), "test"); err != nil {
		t.Errorf("service: %v", err)
	}
}

// TestCheckQuotaLimited ports the ResourceQuota plugin's limitedResources
// checks (k8s.io/apiserver resourcequota controller CheckRequest:
// limitedByDefault, UncoveredQuotaScopes; upstream admission_test.go
// TestAdmitLimitedResourceNoQuota, TestAdmitLimitedResourceWithQuota,
// TestAdmitLimitedScopeWithoutQuota).
func TestCheckQuotaLimited(t *testing.T) {
	cpuPod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c",
		Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": resource.MustParse("1")}}}}, PriorityClassName: "high"}}
	memPod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "mem", Namespace: "ns"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c",
		Resources: api.ResourceRequirements{Requests: api.ResourceList{"memory": resource.MustParse("1Gi")}}}}}}
	limitedCPU := []LimitedResource{{Resource: "pods", MatchContains: []string{"requests.cpu"}}}
	cpuQuota := api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "ns"},
		Status: api.ResourceQuotaStatus{Hard: api.ResourceList{"requests.cpu": resource.MustParse("4")}, Used: api.ResourceList{"requests.cpu": resource.MustParse("0")}}}
	scope := api.ScopedResourceSelectorRequirement{ScopeName: "PriorityClass", Operator: "In", Values: []string{"high"}}
	for _, c := range []struct {
		name    string
		quotas  []api.ResourceQuota
		pod     *api.Pod
		limited []LimitedResource
		want    string
	}{
		{"no quota, limited cpu consumed", nil, cpuPod, limitedCPU, `pods "web" is forbidden: insufficient quota to consume: requests.cpu`},
		{"no quota, cpu not consumed", nil, memPod, limitedCPU, ""},
		{"a quota covers it", []api.ResourceQuota{cpuQuota}, cpuPod, limitedCPU, ""},
		{"another resource's entry", nil, cpuPod, []LimitedResource{{Resource: "persistentvolumeclaims", MatchContains: []string{"requests.cpu"}}}, ""},
		{"limited scope without a quota", nil, cpuPod, []LimitedResource{{Resource: "pods", MatchScopes: []api.ScopedResourceSelectorRequirement{scope}}},
			`insufficient quota to match these scopes: [{PriorityClass In [high]}]`},
		{"limited scope, pod out of it", nil, memPod, []LimitedResource{{Resource: "pods", MatchScopes: []api.ScopedResourceSelectorRequirement{scope}}}, ""},
	} {
		_, err := CheckQuotaLimited(c.quotas, CountedPod(c.pod), time.Now(), c.limited)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
