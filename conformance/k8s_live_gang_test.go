package conformance

import (
	"context"
	"os"
	"reflect"
	"testing"
	"time"

	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	kfeatures "k8s.io/kubernetes/pkg/features"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/conformance/internal/controlplane"
	"github.com/schedkit/schedkit/k8s/convert"
	"github.com/schedkit/schedkit/k8s/live"
)

// TestLiveGangsAgainstAPIServer: with GenericWorkload on, the API server
// serves scheduling.k8s.io/v1beta1, and a live snapshot watches its
// Workloads and PodGroups: each object the server stores (defaulted, with
// its status) is in the snapshot as convert gives it, and converts back
// to the server's object. Without the gate, TestLiveAgainstAPIServer
// syncs with them unwatched. SCHEDKIT_CONTROLPLANE=0 skips it.
func TestLiveGangsAgainstAPIServer(t *testing.T) {
	if os.Getenv("SCHEDKIT_CONTROLPLANE") == "0" {
		t.Skip("SCHEDKIT_CONTROLPLANE=0")
	}
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, kfeatures.GenericWorkload, true)
	ctx := context.Background()
	cp, err := controlplane.Start(ctx, controlplane.Options{Logf: t.Logf,
		RuntimeConfig: map[string]string{"scheduling.k8s.io/v1beta1": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Stop()
	cs := cp.Client()
	if err := cp.WaitForServiceAccount(ctx, "default"); err != nil {
		t.Fatal(err)
	}
	wl := &schedulingv1beta1.Workload{ObjectMeta: metav1.ObjectMeta{Name: "train"},
		Spec: schedulingv1beta1.WorkloadSpec{PodGroupTemplates: []schedulingv1beta1.PodGroupTemplate{
			{Name: "workers", SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{Gang: &schedulingv1beta1.GangSchedulingPolicy{MinCount: 4}}},
			{Name: "driver", SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{Basic: &schedulingv1beta1.BasicSchedulingPolicy{}}},
		}}}
	mustCreate(t, func() error {
		_, err := cs.SchedulingV1beta1().Workloads("default").Create(ctx, wl, metav1.CreateOptions{})
		return err
	})
	pg := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: "train-workers"},
		Spec: schedulingv1beta1.PodGroupSpec{
			WorkloadRef:      &schedulingv1beta1.WorkloadReference{WorkloadName: "train", TemplateName: "workers"},
			SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{Gang: &schedulingv1beta1.GangSchedulingPolicy{MinCount: 4}}}}
	mustCreate(t, func() error {
		_, err := cs.SchedulingV1beta1().PodGroups("default").Create(ctx, pg, metav1.CreateOptions{})
		return err
	})

	lc, err := live.NewFromClient(cs)
	if err != nil {
		t.Fatal(err)
	}
	lctx, cancel := context.WithCancel(ctx)
	defer func() { cancel(); lc.Shutdown() }()
	lc.Start(lctx)
	if err := lc.WaitForSync(lctx); err != nil {
		t.Fatal(err)
	}
	// The PodGroup's status is the scheduler's to write: compare the
	// server's latest state once the snapshot holds it.
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		gotWL, gotPG, ok := liveGangObjects(t, lc)
		if !ok {
			return false, nil
		}
		srvWL, err := cs.SchedulingV1beta1().Workloads("default").Get(ctx, "train", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		srvPG, err := cs.SchedulingV1beta1().PodGroups("default").Get(ctx, "train-workers", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if gotPG.ResourceVersion != srvPG.ResourceVersion || gotWL.ResourceVersion != srvWL.ResourceVersion {
			return false, nil
		}
		wantWL, err := convert.ToAPI(srvWL)
		if err != nil {
			t.Fatal(err)
		}
		wantPG, err := convert.ToAPI(srvPG)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotWL, wantWL) || !reflect.DeepEqual(gotPG, wantPG) {
			t.Fatalf("live snapshot:\n%+v\n%+v\nthe server's, converted:\n%+v\n%+v", gotWL, gotPG, wantWL, wantPG)
		}
		for _, obj := range []any{gotWL, gotPG} {
			back, err := convert.FromAPI(obj)
			if err != nil {
				t.Fatal(err)
			}
			again, err := convert.ToAPI(back)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again, obj) {
				t.Errorf("%T does not round-trip: %+v, then %+v", obj, obj, again)
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := lc.Stats(); st.Failed > 0 {
		t.Errorf("%d events failed, last: %v", st.Failed, st.LastError)
	}
}

// liveGangObjects returns the live snapshot's Workload and PodGroup of
// the test, ok once both are there.
func liveGangObjects(t *testing.T, lc *live.Cluster) (*api.Workload, *api.PodGroup, bool) {
	t.Helper()
	wl, ok1 := cluster.GetObject[api.Workload](lc.View().Objects(), "default", "train")
	pg, ok2 := cluster.GetObject[api.PodGroup](lc.View().Objects(), "default", "train-workers")
	return wl, pg, ok1 && ok2
}
