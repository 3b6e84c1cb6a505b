package resource

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

// TestDefaultPodLevelResources ports rows of upstream's
// TestApplyPodLevelResourceDefaults (pkg/registry/core/pod
// strategy_test.go), with PodLevelResources and
// PodLevelResourcesFixDefaulting on as in v1.37.
func TestDefaultPodLevelResources(t *testing.T) {
	withReqLim := func(r, l api.ResourceList) *api.ResourceRequirements {
		return &api.ResourceRequirements{Requests: r, Limits: l}
	}
	cases := []struct {
		name           string
		ctrs, inits    []api.Container
		pod            *api.ResourceRequirements
		wantR, wantL   api.ResourceList
		nilReq, nilLim bool
	}{
		{name: "nil resources struct", ctrs: []api.Container{ctr("c1", both(rl("cpu=100m", "memory=128Mi"), rl("cpu=200m", "memory=256Mi")))}, nilReq: true, nilLim: true},
		{name: "empty requests and limits maps", ctrs: []api.Container{ctr("c1", both(rl("cpu=100m"), rl("cpu=200m")))},
			pod: withReqLim(api.ResourceList{}, api.ResourceList{}), wantR: api.ResourceList{}, wantL: api.ResourceList{}},
		{name: "memory request set, container limits set for CPU",
			ctrs: []api.Container{ctr("c1", both(rl("cpu=100m", "memory=128Mi"), rl("cpu=100m"))), ctr("c2", both(rl("cpu=200m", "memory=128Mi"), rl("cpu=200m")))},
			pod:  withReqLim(rl("memory=256Mi"), nil), wantR: rl("cpu=300m", "memory=256Mi"), wantL: rl("cpu=300m")},
		{name: "memory request set, containers have CPU reqs (5m, 6m) and limits (9m, 10m)",
			ctrs: []api.Container{ctr("c1", both(rl("cpu=5m"), rl("cpu=9m"))), ctr("c2", both(rl("cpu=6m"), rl("cpu=10m")))},
			pod:  withReqLim(rl("memory=256Mi"), nil), wantR: rl("cpu=11m", "memory=256Mi"), wantL: rl("cpu=19m")},
		{name: "limits not defaulted when container missing limits",
			ctrs: []api.Container{ctr("c1", both(rl("cpu=50m", "memory=64Mi"), rl("cpu=100m", "memory=128Mi"))), ctr("c2", req(rl("cpu=50m", "memory=64Mi")))},
			pod:  withReqLim(rl("cpu=200m", "memory=256Mi"), nil), wantR: rl("cpu=200m", "memory=256Mi"), nilLim: true},
		{name: "limit raised to pod request when aggr limit less than request",
			ctrs: []api.Container{ctr("c1", both(rl("cpu=100m", "memory=128Mi"), rl("cpu=100m", "memory=128Mi")))},
			pod:  withReqLim(rl("cpu=500m", "memory=512Mi"), nil), wantR: rl("cpu=500m", "memory=512Mi"), wantL: rl("cpu=500m", "memory=512Mi")},
		{name: "pod requests defaulted from container requests when limits set",
			ctrs: []api.Container{ctr("c1", both(rl("cpu=100m", "memory=128Mi"), rl("cpu=200m", "memory=256Mi")))},
			pod:  withReqLim(nil, rl("cpu=500m", "memory=512Mi")), wantR: rl("cpu=100m", "memory=128Mi"), wantL: rl("cpu=500m", "memory=512Mi")},
		{name: "init container missing limits - no limit defaulting",
			ctrs:  []api.Container{ctr("c1", both(rl("cpu=100m"), rl("cpu=100m")))},
			inits: []api.Container{ctr("i1", req(rl("cpu=50m")))},
			pod:   withReqLim(rl("cpu=200m"), nil), wantR: rl("cpu=200m"), nilLim: true},
		// The issue 21 case: pod-level limits alone give the requests.
		{name: "limits only", ctrs: []api.Container{ctr("c", api.ResourceRequirements{})},
			pod: withReqLim(nil, rl("cpu=2", "memory=1Gi")), wantR: rl("cpu=2", "memory=1Gi"), wantL: rl("cpu=2", "memory=1Gi")},
	}
	for _, c := range cases {
		p := &api.Pod{Spec: api.PodSpec{Containers: c.ctrs, InitContainers: c.inits, Resources: c.pod}}
		DefaultPodLevelResources(p)
		if p.Spec.Resources == nil {
			if !c.nilReq || !c.nilLim {
				t.Errorf("%s: resources nil", c.name)
			}
			continue
		}
		r := p.Spec.Resources
		if c.nilReq != (r.Requests == nil) || (!c.nilReq && !Equals(r.Requests, c.wantR)) {
			t.Errorf("%s: requests %s, want %s", c.name, show(r.Requests), show(c.wantR))
		}
		if c.nilLim != (r.Limits == nil) || (!c.nilLim && !Equals(r.Limits, c.wantL)) {
			t.Errorf("%s: limits %s, want %s", c.name, show(r.Limits), show(c.wantL))
		}
	}
}
