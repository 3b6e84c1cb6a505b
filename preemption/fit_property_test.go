package preemption_test

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/preemption"
)

// refSelectVictims is upstream's SelectVictimsOnNode written the plain
// way, through the profile's RunPreFilterExtensionRemovePod/AddPod and
// RunFilterPluginsWithNominatedPods: the reference the dry run's
// shortcuts (plugins listed once per dry run, statuses built only when
// returned, memory reused) must agree with.
func refSelectVictims(ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo, pdbs []preemption.PDB) ([]*api.Pod, int, *framework.Status) {
	prio := framework.PodPriority(pod)
	infos := map[*api.Pod]*cluster.PodInfo{}
	var potential []*api.Pod
	for _, pi := range ni.Pods {
		if framework.PodPriority(pi.Pod) < prio {
			potential = append(potential, pi.Pod)
			infos[pi.Pod] = pi
		}
	}
	if len(potential) == 0 {
		return nil, 0, framework.NewStatus(framework.UnschedulableAndUnresolvable, preemption.NoVictimsFound)
	}
	remove := func(p *api.Pod) *framework.Status {
		if err := ni.RemovePod(p); err != nil {
			return framework.AsStatus(err)
		}
		return prof.RunPreFilterExtensionRemovePod(ctx, state, pod, infos[p], ni)
	}
	for _, p := range potential {
		if st := remove(p); !st.IsSuccess() {
			return nil, 0, st
		}
	}
	if st := prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, nil); !st.IsSuccess() {
		return nil, 0, st
	}
	sort.Slice(potential, func(i, j int) bool { return preemption.MoreImportantPod(potential[i], potential[j]) })
	violating, nonViolating := preemption.FilterPodsWithPDBViolation(potential, pdbs)
	var victims []*api.Pod
	reprieve := func(p *api.Pod) (bool, *framework.Status) {
		ni.AddPod(infos[p])
		if st := prof.RunPreFilterExtensionAddPod(ctx, state, pod, infos[p], ni); !st.IsSuccess() {
			return false, st
		}
		fits := prof.RunFilterPluginsWithNominatedPods(ctx, state, pod, ni, nil).IsSuccess()
		if !fits {
			if st := remove(p); !st.IsSuccess() {
				return false, st
			}
			victims = append(victims, p)
		}
		return fits, nil
	}
	n := 0
	for _, p := range violating {
		fits, st := reprieve(p)
		if st != nil {
			return nil, 0, framework.AsStatus(st.AsError())
		}
		if !fits {
			n++
		}
	}
	for _, p := range nonViolating {
		if _, st := reprieve(p); st != nil {
			return nil, 0, framework.AsStatus(st.AsError())
		}
	}
	if len(violating) != 0 && len(nonViolating) != 0 {
		sort.Slice(victims, func(i, j int) bool { return preemption.MoreImportantPod(victims[i], victims[j]) })
	}
	return victims, n, nil
}

// TestSelectVictimsMatchesReference: on generated nodes (pods with
// labels, host ports, budgets; a preemptor with or without a topology
// spread constraint, required anti-affinity or a host port, so that the
// PreFilter extensions are active or skipped), SelectVictimsOnNode gives
// the reference's victims, violations and status, and the dry run
// (Preempt) each node's verdict the reference finds.
func TestSelectVictimsMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWorld(t)
		apps := []string{"a", "b"}
		for _, p := range w.pods {
			if rapid.IntRange(0, 2).Draw(t, "labelled") > 0 {
				p.Labels = map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "app")}
			}
			if rapid.IntRange(0, 5).Draw(t, "hostPort") == 0 {
				p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}}
			}
		}
		pod := w.preemptor
		pod.Labels = map[string]string{"app": "a"}
		sel := &api.LabelSelector{MatchLabels: map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "selApp")}}
		switch rapid.IntRange(0, 3).Draw(t, "constraint") {
		case 1:
			pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: int32(rapid.IntRange(1, 2).Draw(t, "skew")),
				TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: api.DoNotSchedule, LabelSelector: sel}}
		case 2:
			pod.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
				LabelSelector: sel, TopologyKey: "kubernetes.io/hostname"}}}}
		case 3:
			pod.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: api.ProtocolTCP}}
		}
		var budgets []*api.PodDisruptionBudget
		for i := range rapid.IntRange(0, 2).Draw(t, "pdbs") {
			budgets = append(budgets, pdb(fmt.Sprintf("b%d", i), map[string]string{"app": rapid.SampledFrom(apps).Draw(t, "pdbApp")}, int32(rapid.IntRange(0, 2).Draw(t, "allowed"))))
		}
		h, err := newHandle(w.nodes, w.pods, budgets, w.seed, nil, framework.ProfileConfig{})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		state := framework.NewCycleState()
		if _, st, _ := h.prof.RunPreFilterPlugins(ctx, state, pod, h.snap.Nodes()); !st.IsSuccess() {
			return
		}
		pdbs := preemption.CompilePDBs(budgets)
		ref := map[string]string{}
		var all []string
		for _, ni := range h.snap.Nodes() {
			name := ni.Node().Name
			all = append(all, name)
			rv, rn, rst := refSelectVictims(ctx, h.prof, state.Clone(), pod, ni.Clone(), pdbs)
			gv, gn, gst := preemption.SelectVictimsOnNode(ctx, h.prof, state.Clone(), pod, ni.Clone(), nil, pdbs)
			want := fmt.Sprintf("%s %d %v %s %q", names(rv), rn, rst.Code(), rst.Plugin(), rst.Reasons())
			got := fmt.Sprintf("%s %d %v %s %q", names(gv), gn, gst.Code(), gst.Plugin(), gst.Reasons())
			if got != want {
				t.Fatalf("%s: SelectVictimsOnNode %s, reference %s", name, got, want)
			}
			if rst.IsSuccess() && len(rv) == 0 {
				// The dry run's status for a node that fits without
				// evicting anyone.
				want = fmt.Sprintf(" 0 Error  [%q]", fmt.Sprintf("expected at least one victim pod on node %q", name))
			}
			ref[name] = want
		}
		// The dry run tries every node here (fewer than 100): each
		// verdict is the reference's.
		o := h.preempt(pod, unsched(all...))
		for _, d := range o.DryRun {
			got := fmt.Sprintf("%s %d %v %s %q", names(d.Victims), d.NumPDBViolations, d.Status.Code(), d.Status.Plugin(), d.Status.Reasons())
			want := ref[d.Node]
			if got != want {
				t.Fatalf("%s: dry run %s, reference %s", d.Node, got, want)
			}
		}
	})
}
