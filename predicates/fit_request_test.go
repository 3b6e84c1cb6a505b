package predicates

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/resource/resourcegen"
)

// TestPropPodFitRequestFastPath: PodFitRequest's sums without a list
// (cluster.ContainerRequests, for pods whose requests are their
// containers' alone) are those of resource.PodRequests' list.
func TestPropPodFitRequestFastPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pod := resourcegen.Pod().Draw(t, "pod")
		if rapid.Bool().Draw(t, "plain") {
			pod.Spec.InitContainers, pod.Spec.Overhead, pod.Spec.Resources = nil, nil, nil
		}
		got, want := PodFitRequest(pod), podFitRequestList(pod)
		if !got.Equal(want) {
			t.Fatalf("PodFitRequest %+v, through the list %+v", got, want)
		}
	})
}
