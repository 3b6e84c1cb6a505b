package preemption_test

import (
	"errors"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/preemption"
)

// upstream: pkg/registry/core/pod/storage/eviction_test.go
// (TestEviction, TestEvictionIgnorePDB, TestEvictionPDBStatus): the
// eviction subresource's decisions and messages.
func TestBudgetsEvict(t *testing.T) {
	now := time.Unix(100, 0)
	running := func(name string, ready bool, labels ...string) *api.Pod {
		p := mkPod(name, label("app", "web"))
		if len(labels) == 0 {
			p.Labels = nil
		}
		p.Status.Phase = api.PodRunning
		st := api.ConditionFalse
		if ready {
			st = api.ConditionTrue
		}
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st}}
		return p
	}
	web := map[string]string{"app": "web"}
	withHealth := func(b *api.PodDisruptionBudget, cur, desired int32) *api.PodDisruptionBudget {
		b.Status.CurrentHealthy, b.Status.DesiredHealthy = cur, desired
		return b
	}
	always := "AlwaysAllow"
	alwaysAllow := pdb("b", web, 0)
	alwaysAllow.Spec.UnhealthyPodEvictionPolicy = &always
	stale := pdb("b", web, 1)
	stale.Generation = 2
	tests := []struct {
		name  string
		pdbs  []*api.PodDisruptionBudget
		pod   *api.Pod
		code  int
		msg   string
		after int32 // disruptionsAllowed of the first budget afterwards
	}{
		{name: "no budget", pod: running("p", true, "l")},
		{name: "budget allows one", pdbs: []*api.PodDisruptionBudget{pdb("b", web, 1)}, pod: running("p", true, "l"), after: 0},
		{name: "budget allows none", pdbs: []*api.PodDisruptionBudget{withHealth(pdb("b", web, 0), 2, 2)}, pod: running("p", true, "l"),
			code: 429, msg: "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget b needs 2 healthy pods and has 2 currently"},
		{name: "budget allows none, more healthy than desired", pdbs: []*api.PodDisruptionBudget{withHealth(pdb("b", web, 0), 3, 2)}, pod: running("p", true, "l"),
			code: 429, msg: "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget b does not allow evicting pods currently"},
		{name: "two budgets", pdbs: []*api.PodDisruptionBudget{pdb("a", web, 1), pdb("b", web, 1)}, pod: running("p", true, "l"),
			code: 500, msg: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", after: 1},
		{name: "negative disruptionsAllowed", pdbs: []*api.PodDisruptionBudget{pdb("b", web, -1)}, pod: running("p", true, "l"),
			code: 403, msg: `poddisruptionbudget.policy "b" is forbidden: pdb disruptions allowed is negative The disruption budget b does not allow evicting pods currently: pdb disruptions allowed is negative`, after: -1},
		{name: "budget not yet observed", pdbs: []*api.PodDisruptionBudget{stale}, pod: running("p", true, "l"),
			code: 429, msg: "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget b is still being processed by the server.", after: 1},
		{name: "unready pod, AlwaysAllow", pdbs: []*api.PodDisruptionBudget{alwaysAllow}, pod: running("p", false, "l")},
		{name: "unready pod, enough healthy", pdbs: []*api.PodDisruptionBudget{withHealth(pdb("b", web, 0), 2, 2)}, pod: running("p", false, "l")},
		{name: "pending pod ignores budgets", pdbs: []*api.PodDisruptionBudget{pdb("b", web, 0)}, pod: func() *api.Pod { p := running("p", true, "l"); p.Status.Phase = api.PodPending; return p }()},
		{name: "empty selector matches every pod", pdbs: []*api.PodDisruptionBudget{func() *api.PodDisruptionBudget {
			b := withHealth(pdb("b", nil, 0), 1, 1)
			b.Spec.Selector = &api.LabelSelector{}
			return b
		}()}, pod: running("p", true),
			code: 429, msg: "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget b needs 1 healthy pods and has 1 currently"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := preemption.NewBudgets(tc.pdbs)
			err := b.Evict(tc.pod, now)
			var ee *preemption.EvictionError
			switch {
			case tc.code == 0 && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.code != 0 && (!errors.As(err, &ee) || ee.Code != tc.code || err.Error() != tc.msg):
				t.Fatalf("err = %v (%+v), want %d %q", err, ee, tc.code, tc.msg)
			}
			if len(tc.pdbs) > 0 {
				got, _ := b.Budget("default", tc.pdbs[0].Name)
				if got.Status.DisruptionsAllowed != tc.after {
					t.Errorf("disruptionsAllowed = %d, want %d", got.Status.DisruptionsAllowed, tc.after)
				}
				if tc.pdbs[0].Status.DisruptedPods != nil {
					t.Error("the input budget was modified")
				}
			}
		})
	}
}
