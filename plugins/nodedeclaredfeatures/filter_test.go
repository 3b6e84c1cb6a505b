package nodedeclaredfeatures

import (
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/predicates"
)

// upstream: nodedeclaredfeatures TestPreFilter, TestFilter
func TestNodeDeclaredFeatures(t *testing.T) {
	no := false
	restartAll := volPod("p", "")
	restartAll.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{Action: api.ContainerRestartRuleActionRestartAllContainers}}
	restartOne := volPod("p", "")
	restartOne.Spec.Containers[0].RestartPolicyRules = []api.ContainerRestartRule{{Action: api.ContainerRestartRuleActionRestart}}
	userNS := volPod("p", "")
	userNS.Spec.HostNetwork, userNS.Spec.HostUsers = true, &no
	userNSNoHostNet := volPod("p", "")
	userNSNoHostNet.Spec.HostUsers = &no
	bind := volPod("p", "")
	bind.Spec.EphemeralContainers = []api.EphemeralContainer{{Container: api.Container{Name: "dbg", VolumeMounts: []api.VolumeMount{{Name: "v", BindMountOptions: []string{"ro"}}}}}}
	unres := framework.NewStatus(framework.UnschedulableAndUnresolvable, predicates.ErrReasonNodeDeclaredFeatures)
	tests := []struct {
		name     string
		pod      *api.Pod
		declared []string
		required []string
		want     *framework.Status
	}{
		{name: "pod without requirements", pod: volPod("p", ""), declared: nil},
		{name: "restart rule Restart requires nothing", pod: restartOne},
		{name: "host users alone requires nothing", pod: userNSNoHostNet},
		{name: "node has the feature", pod: restartAll, declared: []string{"RestartAllContainersOnContainerExits"}, required: []string{"RestartAllContainersOnContainerExits"}},
		{name: "node lacks the feature", pod: restartAll, declared: []string{"DRANodeAllocatableResources"}, required: []string{"RestartAllContainersOnContainerExits"}, want: unres},
		{name: "user namespace with host network", pod: userNS, declared: []string{"UserNamespacesHostNetworkSupport", "Unknown"}, required: []string{"UserNamespacesHostNetworkSupport"}},
		{name: "bind mount options of an ephemeral container", pod: bind, declared: nil, required: []string{"VolumeBindMountOptions"}, want: unres},
		// Unsorted declarations are matched in one pass, as upstream's
		// TryMap: a feature listed after a greater name is missed.
		{name: "unsorted declaration missed", pod: restartAll, declared: []string{"VolumeBindMountOptions", "RestartAllContainersOnContainerExits"}, required: []string{"RestartAllContainersOnContainerExits"}, want: unres},
	}
	p, _ := New(nil, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := testNode("n", nil)
			node.Status.DeclaredFeatures = tc.declared
			s := storageSnap(t, []*api.Node{node}, nil)
			if got := predicates.RequiredNodeFeatures(tc.pod); !slices.Equal(got, tc.required) {
				t.Errorf("RequiredNodeFeatures = %v, want %v", got, tc.required)
			}
			pre, got := runFilter(t, p, s, tc.pod, "n")
			if len(tc.required) == 0 {
				checkStatus(t, "PreFilter", pre, framework.NewStatus(framework.Skip))
				return
			}
			checkStatus(t, "Filter", got, tc.want)
			ni, _ := s.Get("n")
			checkStatus(t, "NodeDeclaredFeatures", predicates.NodeDeclaredFeatures(tc.pod, ni), tc.want)
		})
	}
}
