package live

import (
	"context"
	"testing"
	"time"

	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fakediscovery "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// TestGangKindsFollowDiscovery: Workloads and PodGroups are watched when
// the server serves scheduling.k8s.io/v1beta1's workloads and podgroups
// (v1.37.2 with GenericWorkload on), and left unwatched when it does not
// (the gate's default), so that the informers still sync.
func TestGangKindsFollowDiscovery(t *testing.T) {
	pg := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "g"},
		Spec: schedulingv1beta1.PodGroupSpec{SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{
			Gang: &schedulingv1beta1.GangSchedulingPolicy{MinCount: 2}}}}
	wl := &schedulingv1beta1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "w"},
		Spec: schedulingv1beta1.WorkloadSpec{PodGroupTemplates: []schedulingv1beta1.PodGroupTemplate{{Name: "t",
			SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{Basic: &schedulingv1beta1.BasicSchedulingPolicy{}}}}}}
	for _, served := range []bool{false, true} {
		client := fake.NewClientset(pg, wl)
		if served {
			client.Discovery().(*fakediscovery.FakeDiscovery).Resources = []*metav1.APIResourceList{{
				GroupVersion: "scheduling.k8s.io/v1beta1",
				APIResources: []metav1.APIResource{{Name: "workloads", Kind: "Workload", Namespaced: true},
					{Name: "podgroups", Kind: "PodGroup", Namespaced: true}, {Name: "podgroups/status", Kind: "PodGroup"}},
			}}
		}
		c, err := NewFromClient(client)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c.Start(ctx)
		if err := c.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		_, gotPG := cluster.GetObject[api.PodGroup](c.View().Objects(), "a", "g")
		_, gotWL := cluster.GetObject[api.Workload](c.View().Objects(), "a", "w")
		cancel()
		c.Shutdown()
		if gotPG != served || gotWL != served {
			t.Errorf("served %v: PodGroup in the snapshot %v, Workload %v", served, gotPG, gotWL)
		}
		if st := c.Stats(); st.Failed != 0 {
			t.Errorf("served %v: %d failed events: %v", served, st.Failed, st.LastError)
		}
	}
}
