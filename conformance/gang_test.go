package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	kfeatures "k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/conformance/internal/controlplane"
	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

// gangSpec is one generated gang case: nodes by CPU, and units created
// in order, each a gang (its pods one after the other) or an ordinary
// pod.
type gangSpec struct {
	nodeCPU []string
	// devices is the number of devices of gangDriver on each node (its
	// ResourceSlice; none for 0).
	devices []int
	units   []gangUnit
}

type gangUnit struct {
	group    string // "" for an ordinary pod
	minCount int
	pods     []string // CPU requests
	// affinity is how the gang's pods relate to each other by pod
	// (anti-)affinity on the gang's label: "" none, or one of
	// gangAffinities.
	affinity string
	// claim: each pod takes one device of gangClass by a claim made
	// from the namespace's template gangTemplate.
	claim bool
}

// The gangs' devices: one class, one driver, a template claim of one
// device.
const (
	gangClass    = "gang-gpu"
	gangDriver   = "gpu.example.com"
	gangTemplate = "gpu"
	gangClaim    = "gpu" // the pods' claim entry
)

// gangDRAObjects are the DRA objects of a spec's cluster in namespace
// ns, for nodes named by node: the class, each node's slice, and the
// template.
func (s gangSpec) gangDRAObjects(ns string, node func(i int) string) (*api.DeviceClass, []*api.ResourceSlice, *api.ResourceClaimTemplate) {
	class := &api.DeviceClass{ObjectMeta: api.ObjectMeta{Name: gangClass}}
	var sls []*api.ResourceSlice
	for i, n := range s.devices {
		if n == 0 {
			continue
		}
		name := node(i)
		sl := &api.ResourceSlice{ObjectMeta: api.ObjectMeta{Name: name + "-gpu"},
			Spec: api.ResourceSliceSpec{Driver: gangDriver, NodeName: &name,
				Pool: api.ResourcePool{Name: name, ResourceSliceCount: 1}}}
		for d := range n {
			sl.Spec.Devices = append(sl.Spec.Devices, api.Device{Name: fmt.Sprintf("gpu-%d", d)})
		}
		sls = append(sls, sl)
	}
	tmpl := &api.ResourceClaimTemplate{ObjectMeta: api.ObjectMeta{Name: gangTemplate, Namespace: ns},
		Spec: api.ResourceClaimTemplateSpec{Spec: api.ResourceClaimSpec{Devices: api.DeviceClaim{Requests: []api.DeviceRequest{{
			Name: "gpu", Exactly: &api.ExactDeviceRequest{DeviceClassName: gangClass, AllocationMode: api.DeviceAllocationModeExactCount, Count: 1}}}}}}}
	return class, sls, tmpl
}

// claims reports whether group's pods take a device.
func (s gangSpec) claims(group string) bool {
	for _, u := range s.units {
		if u.group == group {
			return u.claim
		}
	}
	return false
}

// gangAffinities are the members' pod (anti-)affinity kinds, each on the
// gang's own label: required anti-affinity by hostname (the pods spread
// one a node), required affinity by zone and by hostname (the pods
// together; the first member matches its own term), preferred affinity
// by zone and by hostname, preferred anti-affinity by zone.
var gangAffinities = []string{"anti-host", "req-zone", "req-host", "pref-zone", "pref-host", "pref-anti-zone"}

// zoneOf is the zone of the spec's node i: two zones, alternating.
func zoneOf(i int) string { return fmt.Sprintf("zone-%d", i%2) }

// gangTerm is the term of an affinity kind on group g's label.
func gangTerm(kind, g string) (key string, required, anti bool, weight int32) {
	key = "kubernetes.io/hostname"
	if strings.HasSuffix(kind, "zone") {
		key = "topology.kubernetes.io/zone"
	}
	switch kind {
	case "pref-zone":
		weight = 50
	case "pref-host":
		weight = 20
	case "pref-anti-zone":
		weight = 30
	}
	return key, strings.HasPrefix(kind, "req-") || kind == "anti-host", strings.Contains(kind, "anti"), weight
}

// skGangAffinity is schedkit's affinity of a member of group g.
func skGangAffinity(kind, g string) *api.Affinity {
	if kind == "" {
		return nil
	}
	key, required, anti, weight := gangTerm(kind, g)
	term := api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"gang": g}}, TopologyKey: key}
	var req []api.PodAffinityTerm
	var pref []api.WeightedPodAffinityTerm
	if required {
		req = []api.PodAffinityTerm{term}
	} else {
		pref = []api.WeightedPodAffinityTerm{{Weight: weight, PodAffinityTerm: term}}
	}
	if anti {
		return &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}}
	}
	return &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}}
}

// upGangAffinity is skGangAffinity for upstream.
func upGangAffinity(kind, g string) *v1.Affinity {
	if kind == "" {
		return nil
	}
	key, required, anti, weight := gangTerm(kind, g)
	term := v1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"gang": g}}, TopologyKey: key}
	var req []v1.PodAffinityTerm
	var pref []v1.WeightedPodAffinityTerm
	if required {
		req = []v1.PodAffinityTerm{term}
	} else {
		pref = []v1.WeightedPodAffinityTerm{{Weight: weight, PodAffinityTerm: term}}
	}
	if anti {
		return &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}}
	}
	return &v1.Affinity{PodAffinity: &v1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}}
}

// genGangSpec draws a small cluster and a mix of gangs (most with
// minCount their size, some with fewer, some waiting for members that
// never come; half of them with pod (anti-)affinity among their
// members, gangAffinities) and ordinary pods. The nodes are in two
// zones.
func genGangSpec(seed uint64) gangSpec {
	r := rand.New(rand.NewPCG(seed, seed*7919))
	var s gangSpec
	// Distinct sizes: nodes of equal score are rare, so the pick does
	// not hang on how upstream's parallel filter orders them.
	sizes := []string{"2", "3", "4", "5", "6", "8"}
	r.Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	s.nodeCPU = sizes[:3+r.IntN(4)]
	// A small device pool: 0 to 2 devices a node.
	for range s.nodeCPU {
		s.devices = append(s.devices, r.IntN(3))
	}
	cpus := []string{"500m", "1", "1500m", "2"}
	for g := range 3 + r.IntN(3) {
		size := 2 + r.IntN(4)
		minCount := size
		switch r.IntN(5) {
		case 0:
			minCount = size - 1
		case 1:
			minCount = size + 1
		}
		u := gangUnit{group: fmt.Sprintf("g%d", g), minCount: minCount}
		cpu := cpus[r.IntN(len(cpus))]
		if r.IntN(2) == 0 {
			u.affinity = gangAffinities[r.IntN(len(gangAffinities))]
		}
		u.claim = r.IntN(3) == 0
		for range size {
			u.pods = append(u.pods, cpu)
		}
		s.units = append(s.units, u)
		for range r.IntN(3) {
			s.units = append(s.units, gangUnit{pods: []string{[]string{"500m", "1", "2"}[r.IntN(3)]}})
		}
	}
	return s
}

// podNames names the spec's pods in creation order, with their groups.
func (s gangSpec) podNames() (names, groups []string) {
	solo := 0
	for _, u := range s.units {
		for i := range u.pods {
			if u.group == "" {
				names = append(names, fmt.Sprintf("solo-%d", solo))
				solo++
			} else {
				names = append(names, fmt.Sprintf("%s-%d", u.group, i))
			}
			groups = append(groups, u.group)
		}
	}
	return names, groups
}

// affinity is the affinity kind of group's pods.
func (s gangSpec) affinity(group string) string {
	for _, u := range s.units {
		if u.group == group {
			return u.affinity
		}
	}
	return ""
}

func (s gangSpec) cpus() []string {
	var out []string
	for _, u := range s.units {
		out = append(out, u.pods...)
	}
	return out
}

// schedkitGangs runs the spec through schedkit's Simulate with
// GenericWorkload on and returns each pod's node ("" when not placed).
func schedkitGangs(t *testing.T, s gangSpec) (nodes map[string]string, messages map[string]string) {
	t.Helper()
	var skNodes []*api.Node
	for i, cpu := range s.nodeCPU {
		name := fmt.Sprintf("node-%d", i)
		alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("110")}
		skNodes = append(skNodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zoneOf(i)}},
			Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}})
	}
	snap, err := cluster.NewSnapshot(skNodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	class, sls, tmpl := s.gangDRAObjects("default", func(i int) string { return fmt.Sprintf("node-%d", i) })
	if err := snap.AddObject(class); err != nil {
		t.Fatal(err)
	}
	if err := snap.AddObject(tmpl); err != nil {
		t.Fatal(err)
	}
	for _, sl := range sls {
		if err := snap.AddObject(sl); err != nil {
			t.Fatal(err)
		}
	}
	zero := int32(0)
	for _, u := range s.units {
		if u.group == "" {
			continue
		}
		pg := &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: u.group, Namespace: "default"},
			Spec: api.PodGroupSpec{Priority: &zero, SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: int32(u.minCount)}}}}
		if err := snap.AddObject(pg); err != nil {
			t.Fatal(err)
		}
	}
	names, groups := s.podNames()
	policy := api.PreemptLowerPriority
	var pods []*api.Pod
	for i, cpu := range s.cpus() {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: names[i], Namespace: "default", UID: names[i]},
			Spec: api.PodSpec{SchedulerName: "default-scheduler", Priority: &zero, PreemptionPolicy: &policy,
				Containers: []api.Container{{Name: "c", Image: "pause",
					Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu)}}}}}}
		if g := groups[i]; g != "" {
			p.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &g}
			if kind := s.affinity(g); kind != "" {
				p.Labels = map[string]string{"gang": g}
				p.Spec.Affinity = skGangAffinity(kind, g)
			}
			if s.claims(g) {
				// The claim the resourceclaim controller makes from the
				// template: owned by the pod, named in its status.
				name, entry, template := p.Name+"-gpu", gangClaim, gangTemplate
				yes := true
				claim := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default",
					OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID, Controller: &yes, BlockOwnerDeletion: &yes}}},
					Spec: tmpl.Spec.Spec}
				if err := snap.AddObject(claim); err != nil {
					t.Fatal(err)
				}
				p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: entry, ResourceClaimTemplateName: &template}}
				p.Spec.Containers[0].Resources.Claims = []api.ContainerResourceClaim{{Name: entry}}
				p.Status.ResourceClaimStatuses = []api.PodResourceClaimStatus{{Name: entry, ResourceClaimName: &name}}
			}
		}
		pods = append(pods, p)
	}
	sched, err := scheduler.New(snap, scheduler.WithFeatureGates(features.MustParse("GenericWorkload=true")))
	if err != nil {
		t.Fatal(err)
	}
	placements, err := sched.Simulate(context.Background(), pods)
	if err != nil {
		t.Fatal(err)
	}
	nodes, messages = map[string]string{}, map[string]string{}
	for _, pl := range placements {
		nodes[pl.Pod.Name] = pl.Node
		if pl.Err != nil {
			messages[pl.Pod.Name] = pl.Err.Error()
		}
	}
	return nodes, messages
}

// upstreamGangs creates the spec's objects in a control plane whose
// components run with GenericWorkload on, in creation order, and returns
// each pod's node once bindings have been quiet for a while.
func upstreamGangs(t *testing.T, cp *controlplane.ControlPlane, s gangSpec, ns string) (nodes map[string]string, messages map[string]string) {
	t.Helper()
	ctx := context.Background()
	cs := cp.Client()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cp.WaitForServiceAccount(ctx, ns); err != nil {
		t.Fatal(err)
	}
	for i, cpu := range s.nodeCPU {
		name := fmt.Sprintf("%s-node-%d", ns, i)
		alloc := v1.ResourceList{v1.ResourceCPU: k8sresource.MustParse(cpu), v1.ResourceMemory: k8sresource.MustParse("8Gi"), v1.ResourcePods: k8sresource.MustParse("110")}
		n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": zoneOf(i), "case": ns}},
			Spec:   v1.NodeSpec{Taints: nil},
			Status: v1.NodeStatus{Capacity: alloc, Allocatable: alloc}}
		created, err := cs.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Status = n.Status
		if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	class, sls, tmpl := s.gangDRAObjects(ns, func(i int) string { return fmt.Sprintf("%s-node-%d", ns, i) })
	if _, err := cs.ResourceV1().DeviceClasses().Create(ctx, upstream.MustConvert[resourceapi.DeviceClass](class), metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	if _, err := cs.ResourceV1().ResourceClaimTemplates(ns).Create(ctx, upstream.MustConvert[resourceapi.ResourceClaimTemplate](tmpl), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, sl := range sls {
		if _, err := cs.ResourceV1().ResourceSlices().Create(ctx, upstream.MustConvert[resourceapi.ResourceSlice](sl), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// Unit by unit: a gang's pods first, then its PodGroup, so that the
	// queue forms the group with all its pods at once (pods whose group
	// does not exist yet wait aside); the next unit once this one's pods
	// are bound or their cycle has failed. Creating the pods before the
	// group avoids a cycle of the first minCount pods alone, which
	// depends on how fast they are created.
	names, groups := s.podNames()
	cpus := s.cpus()
	i := 0
	for _, u := range s.units {
		first := i
		for range u.pods {
			p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: names[i], Namespace: ns},
				Spec: v1.PodSpec{
					// Only this case's nodes.
					NodeSelector: map[string]string{"case": ns},
					Containers: []v1.Container{{Name: "c", Image: "pause",
						Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: k8sresource.MustParse(cpus[i])}}}}}}
			if g := groups[i]; g != "" {
				p.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: &g}
				if kind := s.affinity(g); kind != "" {
					p.Labels = map[string]string{"gang": g}
					p.Spec.Affinity = upGangAffinity(kind, g)
				}
				if s.claims(g) {
					template := gangTemplate
					p.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: gangClaim, ResourceClaimTemplateName: &template}}
					p.Spec.Containers[0].Resources.Claims = []v1.ResourceClaim{{Name: gangClaim}}
				}
			}
			if _, err := cs.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			i++
		}
		if u.group != "" {
			pg := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: u.group, Namespace: ns},
				Spec: schedulingv1beta1.PodGroupSpec{SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{Gang: &schedulingv1beta1.GangSchedulingPolicy{MinCount: int32(u.minCount)}}}}
			if _, err := cs.SchedulingV1beta1().PodGroups(ns).Create(ctx, pg, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		settleUnit(t, cp, ns, u, names[first:i])
	}
	// A gang that failed is retried after its backoff (at most 10 s),
	// not on cluster events: its pods' messages settle once it has been
	// tried after the last unit. Bindings and messages quiet for 12 s.
	last, quietSince := "", time.Now()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		nodes, messages = map[string]string{}, map[string]string{}
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, p := range list.Items {
			nodes[p.Name] = strings.TrimPrefix(p.Spec.NodeName, ns+"-")
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
					messages[p.Name] = c.Message
				}
			}
			fmt.Fprintf(&b, "%s=%s:%s;", p.Name, nodes[p.Name], messages[p.Name])
		}
		if b.String() != last {
			last, quietSince = b.String(), time.Now()
		} else if time.Since(quietSince) > 12*time.Second {
			break
		}
	}
	return nodes, messages
}

// settleUnit waits until the unit's pods are all bound, or its cycle has
// failed: the PodGroup's PodGroupInitiallyScheduled condition, an
// ordinary pod's PodScheduled=False. A gang waiting for members has no
// cycle; it is given a few seconds.
func settleUnit(t *testing.T, cp *controlplane.ControlPlane, ns string, u gangUnit, names []string) {
	t.Helper()
	ctx := context.Background()
	cs := cp.Client()
	wait := 20 * time.Second
	if u.group != "" && u.minCount > len(u.pods) {
		wait = 3 * time.Second
	}
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		bound, failed := 0, false
		for _, n := range names {
			p, err := cs.CoreV1().Pods(ns).Get(ctx, n, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Spec.NodeName != "" {
				bound++
			}
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
					failed = true
				}
			}
		}
		if u.group != "" {
			pg, err := cs.SchedulingV1beta1().PodGroups(ns).Get(ctx, u.group, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range pg.Status.Conditions {
				if c.Type == schedulingv1beta1.PodGroupInitiallyScheduled && c.Status == metav1.ConditionFalse {
					failed = true
				}
			}
		}
		if bound == len(names) || failed {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestGangsAgainstUpstream runs generated gangs mixed with ordinary pods
// through kube-scheduler v1.37.2 with GenericWorkload on (the in-process
// control plane: the real queue, PodGroup cycle, GangScheduling, Permit
// and binding) and through schedkit's Simulate, and requires every
// group's outcome (how many of its pods are bound) and every pod's node
// to agree. Each case runs in its own namespace on its own nodes.
// SCHEDKIT_CONTROLPLANE=0 skips it; GANG_SEEDS sets the number of cases.
func TestGangsAgainstUpstream(t *testing.T) {
	if os.Getenv("SCHEDKIT_CONTROLPLANE") == "0" {
		t.Skip("SCHEDKIT_CONTROLPLANE=0")
	}
	cases := 4
	if v := os.Getenv("GANG_SEEDS"); v != "" {
		fmt.Sscan(v, &cases)
	}
	// The process's gates, which every component reads, are restored
	// when the test ends: the other tests run with the defaults.
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, kfeatures.GenericWorkload, true)
	cp, err := controlplane.Start(context.Background(), controlplane.Options{Logf: t.Logf,
		RuntimeConfig: map[string]string{"scheduling.k8s.io/v1beta1": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Stop()
	for seed := range uint64(cases) {
		spec := genGangSpec(seed + 1)
		ns := fmt.Sprintf("gang-%d", seed+1)
		t.Run(ns, func(t *testing.T) {
			up, upMsg := upstreamGangs(t, cp, spec, ns)
			sk, skMsg := schedkitGangs(t, spec)
			names, groups := spec.podNames()
			placedUp, placedSk := map[string]int{}, map[string]int{}
			for i, n := range names {
				// Node names differ by the namespace prefix only.
				if up[n] != "" {
					placedUp[groups[i]]++
				}
				if sk[n] != "" {
					placedSk[groups[i]]++
				}
			}
			var keys []string
			for _, u := range spec.units {
				if u.group != "" {
					keys = append(keys, u.group)
				}
			}
			var summary []string
			for _, u := range spec.units {
				if u.group != "" {
					what := u.affinity
					if u.claim {
						what = strings.TrimPrefix(what+"+claim", "+")
					}
					if what != "" {
						what = ", " + what
					}
					summary = append(summary, fmt.Sprintf("%s %d/%d (minCount %d%s)", u.group, placedUp[u.group], len(u.pods), u.minCount, what))
				}
			}
			t.Logf("upstream bound: %s; ordinary pods bound %d", strings.Join(summary, ", "), placedUp[""])
			for _, g := range keys {
				if placedUp[g] != placedSk[g] {
					t.Errorf("gang %s: upstream bound %d pods, schedkit placed %d", g, placedUp[g], placedSk[g])
				}
			}
			for _, n := range names {
				if up[n] != sk[n] {
					t.Errorf("pod %s: upstream %q, schedkit %q", n, up[n], sk[n])
				}
				// An unschedulable pod's message, word for word (the
				// node count is the case's own: upstream's cluster also
				// has no other nodes left).
				if m, ok := upMsg[n]; ok && up[n] == "" && m != skMsg[n] {
					t.Errorf("pod %s: upstream says %q, schedkit %q", n, m, skMsg[n])
				}
			}
			if t.Failed() {
				t.Logf("spec: nodes %v, units %+v", spec.nodeCPU, spec.units)
			}
			// The next case sees only its own nodes.
			for i := range spec.nodeCPU {
				_ = cp.Client().CoreV1().Nodes().Delete(context.Background(), fmt.Sprintf("%s-node-%d", ns, i), metav1.DeleteOptions{})
			}
		})
	}
}

// preemptSpec is a workload-aware preemption case: low-priority pods
// created first, one by one, then low-priority gangs whose PodGroups
// have disruption mode All (a victim evicted whole), then gangs of high
// priority.
type preemptSpec struct {
	nodeCPU  []string
	low      []string // CPU of each low-priority pod
	lowGangs [][]string
	gangs    [][]string
}

func genPreemptSpec(seed uint64) preemptSpec {
	r := rand.New(rand.NewPCG(seed, seed*104729))
	sizes := []string{"2", "3", "4", "5", "6"}
	r.Shuffle(len(sizes), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	s := preemptSpec{nodeCPU: sizes[:3+r.IntN(2)]}
	for range 3 + r.IntN(5) {
		s.low = append(s.low, []string{"500m", "1", "1500m", "2"}[r.IntN(4)])
	}
	for range r.IntN(3) {
		var g []string
		cpu := []string{"500m", "1"}[r.IntN(2)]
		for range 2 + r.IntN(2) {
			g = append(g, cpu)
		}
		s.lowGangs = append(s.lowGangs, g)
	}
	for range 1 + r.IntN(2) {
		var g []string
		cpu := []string{"1", "1500m", "2"}[r.IntN(3)]
		for range 2 + r.IntN(3) {
			g = append(g, cpu)
		}
		s.gangs = append(s.gangs, g)
	}
	return s
}

// TestGangPreemptionAgainstUpstream: gangs of high priority arriving in
// a cluster full of low-priority pods preempt as v1.37.2's
// workload-aware preemption does: the same pods evicted, the same nodes,
// the same messages for what stays pending. Each unit (a low pod, a gang)
// is created once the previous one settled; a stand-in kubelet removes
// the victims once their deletion starts. schedkit simulates the units
// one after another on one scheduler.
func TestGangPreemptionAgainstUpstream(t *testing.T) {
	if os.Getenv("SCHEDKIT_CONTROLPLANE") == "0" {
		t.Skip("SCHEDKIT_CONTROLPLANE=0")
	}
	cases := 2 // about 25 s each
	if v := os.Getenv("GANG_SEEDS"); v != "" {
		fmt.Sscan(v, &cases)
	}
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, kfeatures.GenericWorkload, true)
	cp, err := controlplane.Start(context.Background(), controlplane.Options{Logf: t.Logf,
		RuntimeConfig: map[string]string{"scheduling.k8s.io/v1beta1": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Stop()
	ctx := context.Background()
	cs := cp.Client()
	for name, value := range map[string]int32{"gang-low": 10, "gang-high": 1000} {
		if _, err := cs.SchedulingV1().PriorityClasses().Create(ctx, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for seed := range uint64(cases) {
		spec := genPreemptSpec(seed + 1)
		ns := fmt.Sprintf("preempt-%d", seed+1)
		t.Run(ns, func(t *testing.T) {
			up, upMsg := upstreamPreempt(t, cp, spec, ns)
			sk, skMsg := schedkitPreempt(t, spec)
			var names []string
			for n := range sk {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				if up[n] != sk[n] {
					t.Errorf("pod %s: upstream %q, schedkit %q", n, up[n], sk[n])
				}
				if m, ok := upMsg[n]; ok && up[n] == "" && m != skMsg[n] {
					t.Errorf("pod %s: upstream says %q, schedkit %q", n, m, skMsg[n])
				}
			}
			t.Logf("spec %+v: upstream %v", spec, up)
			for i := range spec.nodeCPU {
				_ = cs.CoreV1().Nodes().Delete(ctx, fmt.Sprintf("%s-node-%d", ns, i), metav1.DeleteOptions{})
			}
		})
	}
}

// units lists the case's pods unit by unit: name, CPU, group ("" for a
// low pod; "v<i>" for a low gang, "g<i>" for a high one).
func (s preemptSpec) units() [][][3]string {
	var out [][][3]string
	for i, cpu := range s.low {
		out = append(out, [][3]string{{fmt.Sprintf("low-%d", i), cpu, ""}})
	}
	for g, pods := range s.lowGangs {
		var u [][3]string
		for i, cpu := range pods {
			u = append(u, [3]string{fmt.Sprintf("v%d-%d", g, i), cpu, fmt.Sprintf("v%d", g)})
		}
		out = append(out, u)
	}
	for g, pods := range s.gangs {
		var u [][3]string
		for i, cpu := range pods {
			u = append(u, [3]string{fmt.Sprintf("g%d-%d", g, i), cpu, fmt.Sprintf("g%d", g)})
		}
		out = append(out, u)
	}
	return out
}

func upstreamPreempt(t *testing.T, cp *controlplane.ControlPlane, s preemptSpec, ns string) (nodes, messages map[string]string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cs := cp.Client()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cp.WaitForServiceAccount(ctx, ns); err != nil {
		t.Fatal(err)
	}
	for i, cpu := range s.nodeCPU {
		name := fmt.Sprintf("%s-node-%d", ns, i)
		alloc := v1.ResourceList{v1.ResourceCPU: k8sresource.MustParse(cpu), v1.ResourceMemory: k8sresource.MustParse("8Gi"), v1.ResourcePods: k8sresource.MustParse("110")}
		n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name, "case": ns}},
			Status: v1.NodeStatus{Capacity: alloc, Allocatable: alloc}}
		created, err := cs.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Status = n.Status
		if _, err := cs.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// The stand-in kubelet: a victim whose deletion started is gone.
	done := make(chan struct{})
	go func() {
		defer close(done)
		zero := int64(0)
		for ctx.Err() == nil {
			list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
			if err == nil {
				for _, p := range list.Items {
					if p.DeletionTimestamp != nil {
						_ = cs.CoreV1().Pods(ns).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
					}
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	defer func() { cancel(); <-done }()
	snapshot := func() (map[string]string, map[string]string, string) {
		nodes, messages := map[string]string{}, map[string]string{}
		list, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, p := range list.Items {
			nodes[p.Name] = strings.TrimPrefix(p.Spec.NodeName, ns+"-")
			for _, c := range p.Status.Conditions {
				if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
					messages[p.Name] = c.Message
				}
			}
			fmt.Fprintf(&b, "%s=%s:%s:%s:%v;", p.Name, nodes[p.Name], p.Status.NominatedNodeName, messages[p.Name], p.DeletionTimestamp != nil)
		}
		return nodes, messages, b.String()
	}
	settle := func(quiet time.Duration) {
		last, since := "", time.Now()
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(150 * time.Millisecond) {
			if _, _, st := snapshot(); st != last {
				last, since = st, time.Now()
			} else if time.Since(since) > quiet {
				return
			}
		}
	}
	for _, u := range s.units() {
		class := "gang-low"
		group := u[0][2]
		if strings.HasPrefix(group, "g") {
			class = "gang-high"
		}
		for _, p := range u {
			pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p[0], Namespace: ns},
				Spec: v1.PodSpec{PriorityClassName: class, NodeSelector: map[string]string{"case": ns},
					Containers: []v1.Container{{Name: "c", Image: "pause",
						Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: k8sresource.MustParse(p[1])}}}}}}
			if group != "" {
				g := group
				pod.Spec.SchedulingGroup = &v1.PodSchedulingGroup{PodGroupName: &g}
			}
			if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if group != "" {
			pg := &schedulingv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Name: group, Namespace: ns},
				Spec: schedulingv1beta1.PodGroupSpec{PriorityClassName: class,
					SchedulingPolicy: schedulingv1beta1.PodGroupSchedulingPolicy{Gang: &schedulingv1beta1.GangSchedulingPolicy{MinCount: int32(len(u))}}}}
			if class == "gang-low" {
				pg.Spec.DisruptionMode = &schedulingv1beta1.DisruptionMode{All: &schedulingv1beta1.AllDisruptionMode{}}
			}
			if _, err := cs.SchedulingV1beta1().PodGroups(ns).Create(ctx, pg, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		settle(2 * time.Second)
	}
	settle(12 * time.Second)
	nodes, messages, _ = snapshot()
	return nodes, messages
}

// schedkitPreempt simulates the units one after another: the nodes of
// the pods left (a pod evicted is absent) and the messages of those
// pending.
func schedkitPreempt(t *testing.T, s preemptSpec) (nodes, messages map[string]string) {
	t.Helper()
	var skNodes []*api.Node
	for i, cpu := range s.nodeCPU {
		name := fmt.Sprintf("node-%d", i)
		alloc := api.ResourceList{api.ResourceCPU: quantity.MustParse(cpu), api.ResourceMemory: quantity.MustParse("8Gi"), api.ResourcePods: quantity.MustParse("110")}
		skNodes = append(skNodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
			Status: api.NodeStatus{Capacity: alloc, Allocatable: alloc}})
	}
	snap, err := cluster.NewSnapshot(skNodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	low, high := int32(10), int32(1000)
	for g, pods := range s.lowGangs {
		pg := &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("v%d", g), Namespace: "default"},
			Spec: api.PodGroupSpec{PriorityClassName: "gang-low", Priority: &low,
				SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: int32(len(pods))}},
				DisruptionMode:   &api.DisruptionMode{All: &api.AllDisruptionMode{}}}}
		if err := snap.AddObject(pg); err != nil {
			t.Fatal(err)
		}
	}
	for g, pods := range s.gangs {
		pg := &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("g%d", g), Namespace: "default"},
			Spec: api.PodGroupSpec{PriorityClassName: "gang-high", Priority: &high,
				SchedulingPolicy: api.PodGroupSchedulingPolicy{Gang: &api.GangSchedulingPolicy{MinCount: int32(len(pods))}}}}
		if err := snap.AddObject(pg); err != nil {
			t.Fatal(err)
		}
	}
	sched, err := scheduler.New(snap, scheduler.WithFeatureGates(features.MustParse("GenericWorkload=true")))
	if err != nil {
		t.Fatal(err)
	}
	policy := api.PreemptLowerPriority
	nodes, messages = map[string]string{}, map[string]string{}
	var all []*api.Pod
	for _, u := range s.units() {
		var pods []*api.Pod
		for _, p := range u {
			prio := &low
			if strings.HasPrefix(p[2], "g") {
				prio = &high
			}
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: p[0], Namespace: "default", UID: p[0]},
				Spec: api.PodSpec{SchedulerName: "default-scheduler", Priority: prio, PreemptionPolicy: &policy,
					Containers: []api.Container{{Name: "c", Image: "pause",
						Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: quantity.MustParse(p[1])}}}}}}
			if g := p[2]; g != "" {
				pod.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &g}
			}
			pods = append(pods, pod)
		}
		all = append(all, pods...)
		placements, err := sched.Simulate(context.Background(), pods)
		if err != nil {
			t.Fatal(err)
		}
		for _, pl := range placements {
			if pl.Err != nil {
				messages[pl.Pod.Name] = pl.Err.Error()
			}
		}
	}
	present := map[string]string{}
	for _, ni := range sched.Snapshot().View().Nodes() {
		for _, pi := range ni.Pods {
			present[pi.Pod.Name] = ni.Node().Name
		}
	}
	for _, p := range all {
		node, ok := present[p.Name]
		switch {
		case ok:
			nodes[p.Name] = node
		case messages[p.Name] != "":
			nodes[p.Name] = ""
		}
		// An evicted pod is absent, as upstream's deleted victims are.
	}
	return nodes, messages
}

// TestDefaultPluginsFollowGates: the default profile's multiPoint
// plugins, in order and with their weights, are kube-scheduler's for
// GenericWorkload off and on.
func TestDefaultPluginsFollowGates(t *testing.T) {
	for _, on := range []bool{false, true} {
		t.Run(fmt.Sprintf("GenericWorkload=%v", on), func(t *testing.T) {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, kfeatures.GenericWorkload, on)
			cfg, err := latest.Default()
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range cfg.Profiles[0].Plugins.MultiPoint.Enabled {
				want = append(want, fmt.Sprintf("%s/%d", p.Name, p.Weight))
			}
			var got []string
			for _, p := range framework.DefaultPluginsFor(features.MustParse(fmt.Sprintf("GenericWorkload=%v", on))) {
				got = append(got, fmt.Sprintf("%s/%d", p.Name, p.Weight))
			}
			if !slices.Equal(got, want) {
				t.Errorf("schedkit %v\nupstream %v", got, want)
			}
		})
	}
}
