package admission

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/resource"
)

func ptr[T any](v T) *T { return &v }

func podWith(f func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns"}}
	p.Spec.Containers = []api.Container{{Name: "c"}}
	if f != nil {
		f(p)
	}
	return p
}

// TestResolvePriority pins the Priority admission plugin on create
// (plugin/pkg/admission/priority TestPodAdmission): named class, global
// default with the lowest value, no default → 0, missing class error,
// conflicting explicit priority, system classes, preemption policy.
func TestResolvePriority(t *testing.T) {
	never := api.PreemptNever
	classes := []api.PriorityClass{
		{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000},
		{ObjectMeta: api.ObjectMeta{Name: "default-a"}, Value: 50, GlobalDefault: true},
		{ObjectMeta: api.ObjectMeta{Name: "default-b"}, Value: 10, GlobalDefault: true},
		{ObjectMeta: api.ObjectMeta{Name: "nopreempt"}, Value: 7, PreemptionPolicy: &never},
	}
	cases := []struct {
		name      string
		pod       *api.Pod
		classes   []api.PriorityClass
		wantName  string
		wantPrio  int32
		wantPol   api.PreemptionPolicy
		wantError string
	}{
		{"named class", podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "high" }), classes, "high", 1000, api.PreemptLowerPriority, ""},
		{"global default, lowest value wins", podWith(nil), classes, "default-b", 10, api.PreemptLowerPriority, ""},
		{"no default class", podWith(nil), nil, "", 0, api.PreemptLowerPriority, ""},
		{"missing class", podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "nope" }), classes, "", 0, "", "no PriorityClass with name nope was found"},
		{"conflicting priority", podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "high"; p.Spec.Priority = ptr(int32(5)) }), classes, "", 0, "", "the integer value of priority (5) must not be provided"},
		{"matching explicit priority", podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "high"; p.Spec.Priority = ptr(int32(1000)) }), classes, "high", 1000, api.PreemptLowerPriority, ""},
		{"system-node-critical", podWith(func(p *api.Pod) { p.Spec.PriorityClassName = SystemNodeCritical }), nil, SystemNodeCritical, SystemNodeCriticalPriority, api.PreemptLowerPriority, ""},
		{"class preemption policy", podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "nopreempt" }), classes, "nopreempt", 7, api.PreemptNever, ""},
		{"conflicting preemption policy", podWith(func(p *api.Pod) {
			p.Spec.PriorityClassName = "nopreempt"
			pl := api.PreemptLowerPriority
			p.Spec.PreemptionPolicy = &pl
		}), classes, "", 0, "", "the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ResolvePriority(c.pod, c.classes)
			if c.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantError) {
					t.Fatalf("err = %v, want %q", err, c.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.pod.Spec.PriorityClassName != c.wantName || *c.pod.Spec.Priority != c.wantPrio || *c.pod.Spec.PreemptionPolicy != c.wantPol {
				t.Errorf("got %q %d %s, want %q %d %s", c.pod.Spec.PriorityClassName, *c.pod.Spec.Priority, *c.pod.Spec.PreemptionPolicy, c.wantName, c.wantPrio, c.wantPol)
			}
		})
	}
	if err := ResolvePriority(podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "x" }), nil); !errors.Is(err, ErrPriorityClassNotFound) {
		t.Errorf("missing class error %v is not ErrPriorityClassNotFound", err)
	}
}

// TestDefault pins SetDefaults_Pod / SetDefaults_PodSpec parts that
// matter to scheduling.
func TestDefault(t *testing.T) {
	p := podWith(func(p *api.Pod) {
		p.Spec.HostNetwork = true
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80}, {ContainerPort: 53, HostPort: 5353, Protocol: api.ProtocolUDP}}
		p.Spec.Containers[0].Resources.Limits = api.ResourceList{"cpu": resource.MustParse("1")}
	})
	Default(p)
	c := p.Spec.Containers[0]
	if p.Spec.SchedulerName != config.DefaultSchedulerName {
		t.Errorf("schedulerName = %q", p.Spec.SchedulerName)
	}
	if c.Ports[0].HostPort != 80 || c.Ports[0].Protocol != api.ProtocolTCP || c.Ports[1].HostPort != 5353 || c.Ports[1].Protocol != api.ProtocolUDP {
		t.Errorf("ports = %+v", c.Ports)
	}
	if q := c.Resources.Requests["cpu"]; q.String() != "1" {
		t.Errorf("cpu request = %s, want 1", q.String())
	}
}

// TestAdmitAllOrNothing checks that a failing admission leaves the pod as
// it was and returns no pod, and that a passing one does not modify its
// input.
func TestAdmitAllOrNothing(t *testing.T) {
	lr := api.LimitRange{ObjectMeta: api.ObjectMeta{Name: "lr", Namespace: "ns"}, Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{{
		Type: api.LimitTypeContainer,
		Max:  api.ResourceList{"cpu": resource.MustParse("1")},
	}}}}
	big := podWith(func(p *api.Pod) {
		p.Spec.Containers[0].Resources.Limits = api.ResourceList{"cpu": resource.MustParse("2")}
	})
	got, err := Admit(big, Policies{LimitRanges: []api.LimitRange{lr}})
	if err == nil || got != nil {
		t.Fatalf("Admit = %v, %v; want an error", got, err)
	}
	if big.Spec.Containers[0].Resources.Requests != nil || big.Spec.SchedulerName != "" {
		t.Errorf("input modified: %+v", big.Spec)
	}
	small := podWith(func(p *api.Pod) {
		p.Labels = map[string]string{"app": "web", "rev": "3"}
		p.Spec.Containers[0].Resources.Limits = api.ResourceList{"cpu": resource.MustParse("500m")}
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MatchLabelKeys: []string{"rev"}, TopologyKey: "kubernetes.io/hostname",
		}}}}
	})
	got, err = Admit(small, Policies{LimitRanges: []api.LimitRange{lr}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions); n != 1 {
		t.Errorf("merged expressions = %d, want 1", n)
	}
	if n := len(small.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions); n != 0 {
		t.Errorf("input selector modified: %d expressions", n)
	}
	if *got.Spec.Priority != 0 || got.Spec.SchedulerName != config.DefaultSchedulerName {
		t.Errorf("admitted pod = %+v", got.Spec)
	}
}

// TestPriorityErrorTexts pins the API server's Forbidden texts of the
// Priority plugin (admission.NewForbidden around its reasons).
func TestPriorityErrorTexts(t *testing.T) {
	err := ResolvePriority(podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "nope" }), nil)
	if err == nil || err.Error() != `pods "p" is forbidden: no PriorityClass with name nope was found` {
		t.Errorf("missing class: %v", err)
	}
	var fe *ForbiddenError
	if !errors.As(err, &fe) || fe.Resource != "pods" || fe.Name != "p" {
		t.Errorf("not a *ForbiddenError: %#v", err)
	}
	err = ResolvePriority(podWith(func(p *api.Pod) { p.Name, p.GenerateName, p.Spec.Priority = "", "web-", ptr(int32(3)) }), nil)
	if err == nil || err.Error() != `pods "web-" is forbidden: the integer value of priority (3) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name` {
		t.Errorf("conflicting priority: %v", err)
	}
}

// TestResolveStoredPriority pins the Priority plugin's update path: a
// stored priority and preemption policy are kept (upstream admitPod on
// Update), even when the class changed or is gone.
func TestResolveStoredPriority(t *testing.T) {
	never := api.PreemptNever
	classes := []api.PriorityClass{{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000}}
	p := podWith(func(p *api.Pod) {
		p.Spec.PriorityClassName = "gone"
		p.Spec.Priority = ptr(int32(7))
		p.Spec.PreemptionPolicy = &never
	})
	if err := ResolveStoredPriority(p, classes); err != nil {
		t.Fatal(err)
	}
	if *p.Spec.Priority != 7 || *p.Spec.PreemptionPolicy != api.PreemptNever || p.Spec.PriorityClassName != "gone" {
		t.Errorf("stored priority changed: %+v", p.Spec)
	}
	p = podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "high"; p.Spec.Priority = ptr(int32(5)) })
	if err := ResolveStoredPriority(p, classes); err != nil || *p.Spec.Priority != 5 || *p.Spec.PreemptionPolicy != api.PreemptLowerPriority {
		t.Errorf("stored pod with an out-of-date priority: %v %+v", err, p.Spec)
	}
	p = podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "high" })
	if err := ResolveStoredPriority(p, classes); err != nil || *p.Spec.Priority != 1000 {
		t.Errorf("pod without spec.priority is resolved as on create: %v", err)
	}
	a, err := AdmitStored(podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "gone"; p.Spec.Priority = ptr(int32(7)) }), Policies{PriorityClasses: classes})
	if err != nil || *a.Spec.Priority != 7 || len(a.Spec.Tolerations) != 2 {
		t.Errorf("AdmitStored = %+v, %v", a, err)
	}
	if _, err := Admit(podWith(func(p *api.Pod) { p.Spec.PriorityClassName = "gone"; p.Spec.Priority = ptr(int32(7)) }), Policies{PriorityClasses: classes}); err == nil {
		t.Error("Admit (create) accepted a missing class")
	}
}

// TestAdmitOrder pins the order of the create chain: Priority's
// rejection comes before LimitRanger's validation, and the admitted pod
// carries the default tolerations and LimitRanger's texts.
func TestAdmitOrder(t *testing.T) {
	lr := api.LimitRange{ObjectMeta: api.ObjectMeta{Name: "lr", Namespace: "ns"}, Spec: api.LimitRangeSpec{Limits: []api.LimitRangeItem{{
		Type: api.LimitTypeContainer, Max: api.ResourceList{"cpu": resource.MustParse("1")},
	}}}}
	big := podWith(func(p *api.Pod) {
		p.Spec.PriorityClassName = "nope"
		p.Spec.Containers[0].Resources.Limits = api.ResourceList{"cpu": resource.MustParse("2")}
	})
	_, err := Admit(big, Policies{LimitRanges: []api.LimitRange{lr}})
	if !errors.Is(err, ErrPriorityClassNotFound) {
		t.Errorf("err = %v, want the Priority plugin's", err)
	}
	big.Spec.PriorityClassName = ""
	_, err = Admit(big, Policies{LimitRanges: []api.LimitRange{lr}})
	if err == nil || err.Error() != `pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2` {
		t.Errorf("err = %v", err)
	}
}

// TestResolvePodGroupPriority pins upstream's
// plugin/pkg/admission/priority TestAdmitPodGroup rows: the named
// class, the global default, a missing class and a mismatching priority.
func TestResolvePodGroupPriority(t *testing.T) {
	classes := []api.PriorityClass{
		{ObjectMeta: api.ObjectMeta{Name: "high"}, Value: 1000},
		{ObjectMeta: api.ObjectMeta{Name: "default"}, Value: 10, GlobalDefault: true},
	}
	p := func(v int32) *int32 { return &v }
	tests := []struct {
		name, class string
		priority    *int32
		want        int32
		err         string
	}{
		{name: "named class", class: "high", want: 1000},
		{name: "global default", want: 10},
		{name: "missing class", class: "nope", err: `podgroups.scheduling.k8s.io "g" is forbidden: no PriorityClass with name nope was found`},
		{name: "priority mismatch", class: "high", priority: p(5), err: `podgroups.scheduling.k8s.io "g" is forbidden: priority set in the pod group (5) must match the priority computed (1000) based on the priority class set in the spec`},
		{name: "priority matches", class: "high", priority: p(1000), want: 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg := &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: "g"}, Spec: api.PodGroupSpec{PriorityClassName: tt.class, Priority: tt.priority}}
			err := ResolvePodGroupPriority(pg, classes)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || *pg.Spec.Priority != tt.want {
				t.Fatalf("err %v, priority %v", err, pg.Spec.Priority)
			}
		})
	}
}
