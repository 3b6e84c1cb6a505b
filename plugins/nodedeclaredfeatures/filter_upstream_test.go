package nodedeclaredfeatures

import (
	"context"
	"errors"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// upstream: nodedeclaredfeatures TestPreFilter and TestFilter. Upstream
// registers two mock features; the rows run here on v1.37.2's real ones
// (RestartAllContainersOnContainerExits and
// UserNamespacesHostNetworkSupport stand for TestFeature1 and 2). Not
// ported: "plugin disabled" (the plugin is GA and always on) and
// "Feature not required, version > MaxVersion" (no v1.37.2 feature has
// a MaxVersion before 1.37.2).
func TestNodeDeclaredFeaturesUpstream(t *testing.T) {
	const f1, f2 = "RestartAllContainersOnContainerExits", "UserNamespacesHostNetworkSupport"
	no := false
	pod := func(restartAll, userNS bool) *api.Pod {
		p := volPod("test-pod", "")
		if restartAll {
			p.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{Action: api.ContainerRestartRuleActionRestartAllContainers}}
		}
		if userNS {
			p.Spec.HostNetwork, p.Spec.HostUsers = true, &no
		}
		return p
	}
	unsatisfied := framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonNodeDeclaredFeatures)
	tests := []struct {
		name     string
		pod      *api.Pod
		declared []string
		pre      *framework.Status
		want     *framework.Status
	}{
		// TestPreFilter
		{name: "Pod with feature requirements", pod: pod(true, false), declared: []string{f1}},
		{name: "Pod with multiple feature requirements", pod: pod(true, true), declared: []string{f1, f2}},
		{name: "Pod with no requirements", pod: pod(false, false), pre: framework.NewStatus(framework.Skip)},
		// TestFilter
		{name: "Node matches requirements", pod: pod(true, false), declared: []string{f1}},
		{name: "Node does not match requirements", pod: pod(true, false), declared: []string{f2}, want: unsatisfied},
		{name: "Node with multiple features, pod requires subset", pod: pod(true, false), declared: []string{f1, f2}},
		{name: "Node has no declared features", pod: pod(true, false), want: unsatisfied},
		{name: "Node with some but not all required features", pod: pod(true, true), declared: []string{f1}, want: unsatisfied},
	}
	p, _ := New(nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := testNode("n", nil)
			node.Status.DeclaredFeatures = tc.declared
			s := storageSnap(t, []*api.Node{node}, nil)
			pre, got := runFilter(t, p, s, tc.pod, "n")
			checkStatus(t, "PreFilter", pre, tc.pre)
			if pre == nil {
				checkStatus(t, "Filter", got, tc.want)
			}
		})
	}
	// TestFilter "Error getting pre-filter state"
	t.Run("Error getting pre-filter state", func(t *testing.T) {
		s := storageSnap(t, []*api.Node{testNode("n", nil)}, nil)
		ni, _ := s.View().Get("n")
		got := p.(framework.FilterPlugin).Filter(context.Background(), framework.NewCycleState(), pod(true, false), ni)
		checkStatus(t, "Filter", got, framework.AsStatus(errors.New(`error reading "PreFilterNodeDeclaredFeatures" from cycle-state: not found`)))
	})
}
