package resource_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

var quantityEqual = cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })

// refAdd and refMax are upstream's addResourceList and maxResourceList,
// written out plainly for the differential property below.
func refAdd(dst, src api.ResourceList) {
	for k, v := range src {
		cur, ok := dst[k]
		if !ok {
			var c resource.Quantity
			c.Add(v)
			dst[k] = c
			continue
		}
		var sum resource.Quantity
		sum.Add(cur)
		sum.Add(v)
		dst[k] = sum
	}
}

func refMax(dst, src api.ResourceList) {
	for k, v := range src {
		if cur, ok := dst[k]; !ok || v.Cmp(cur) > 0 {
			dst[k] = v
		}
	}
}

func refMaxOf(a api.ResourceList, bs ...api.ResourceList) api.ResourceList {
	out := api.ResourceList{}
	refAdd(out, a)
	for _, b := range bs {
		refMax(out, b)
	}
	return out
}

func findStatus(p *api.Pod, name string) *api.ContainerStatus {
	for i := range p.Status.ContainerStatuses {
		if p.Status.ContainerStatuses[i].Name == name {
			return &p.Status.ContainerStatuses[i]
		}
	}
	for i := range p.Status.InitContainerStatuses {
		if p.Status.InitContainerStatuses[i].Name == name {
			return &p.Status.InitContainerStatuses[i]
		}
	}
	return nil
}

// refAggregate is upstream's aggregateContainerResourcesByFn: a sum over
// containers and sidecars, raised to the largest init-container phase.
func refAggregate(p *api.Pod, nm api.ResourceList, get func(c *api.Container, cs *api.ContainerStatus) api.ResourceList) api.ResourceList {
	eff := func(c *api.Container) api.ResourceList {
		l := get(c, findStatus(p, c.Name))
		if len(nm) == 0 {
			return l
		}
		cp := api.ResourceList{}
		for k, v := range l {
			cp[k] = v
		}
		for k, v := range nm {
			if _, ok := l[k]; !ok {
				cp[k] = v
			}
		}
		return cp
	}
	result := api.ResourceList{}
	for i := range p.Spec.Containers {
		refAdd(result, eff(&p.Spec.Containers[i]))
	}
	sidecars, inits := api.ResourceList{}, api.ResourceList{}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		l := eff(c)
		if c.IsRestartableInit() {
			refAdd(result, l)
			refAdd(sidecars, l)
			l = sidecars
		} else {
			combined := api.ResourceList{}
			refAdd(combined, l)
			refAdd(combined, sidecars)
			l = combined
		}
		refMax(inits, l)
	}
	refMax(result, inits)
	return result
}

// refPodRequests is upstream's PodRequests without pod-level status.
func refPodRequests(p *api.Pod, opts resource.PodResourcesOptions) api.ResourceList {
	reqs := api.ResourceList{}
	if !opts.SkipContainerLevelResources {
		nm := opts.NonMissingContainerRequests
		spec := func(c *api.Container, _ *api.ContainerStatus) api.ResourceList { return c.Resources.Requests }
		if !opts.UseStatusResources {
			reqs = refAggregate(p, nm, spec)
		} else {
			inf := resource.IsPodResizeInfeasible(p)
			alloc := func(c *api.Container, cs *api.ContainerStatus) api.ResourceList {
				if cs != nil && cs.AllocatedResources != nil {
					return cs.AllocatedResources
				}
				if inf {
					return nil
				}
				return c.Resources.Requests
			}
			act := func(c *api.Container, cs *api.ContainerStatus) api.ResourceList {
				if cs != nil && cs.Resources != nil && cs.Resources.Requests != nil {
					return cs.Resources.Requests
				}
				return alloc(c, cs)
			}
			a, b := refAggregate(p, nm, act), refAggregate(p, nm, alloc)
			if inf {
				reqs = refMaxOf(a, b)
			} else {
				reqs = refMaxOf(refAggregate(p, nm, spec), a, b)
			}
		}
	}
	if !opts.SkipPodLevelResources && resource.IsPodLevelRequestsSet(p) {
		for k, v := range p.Spec.Resources.Requests {
			if resource.IsSupportedPodLevelResource(k) {
				reqs[k] = v
			}
		}
	}
	if !opts.ExcludeOverhead && p.Spec.Overhead != nil {
		refAdd(reqs, p.Spec.Overhead)
	}
	return reqs
}

// withStatus draws container statuses and maybe an infeasible resize for
// p, as in-place resize leaves them.
func withStatus(t *rapid.T, p *api.Pod) {
	for _, cs := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for _, c := range cs {
			if !rapid.Bool().Draw(t, "hasStatus") {
				continue
			}
			st := api.ContainerStatus{Name: c.Name}
			if rapid.Bool().Draw(t, "allocated") {
				st.AllocatedResources = resourcegen.ResourceList().Draw(t, "allocated")
			}
			if rapid.Bool().Draw(t, "actuated") {
				st.Resources = &api.ResourceRequirements{Requests: resourcegen.ResourceList().Draw(t, "req"), Limits: resourcegen.ResourceList().Draw(t, "lim")}
			}
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, st)
		}
	}
	if rapid.IntRange(0, 3).Draw(t, "infeasible") == 0 {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodResizePending, Status: api.ConditionTrue, Reason: resource.PodReasonInfeasible}}
	}
}

func drawOptions(t *rapid.T) resource.PodResourcesOptions {
	o := resource.PodResourcesOptions{
		UseStatusResources:          rapid.Bool().Draw(t, "useStatus"),
		ExcludeOverhead:             rapid.Bool().Draw(t, "excludeOverhead"),
		SkipPodLevelResources:       rapid.Bool().Draw(t, "skipPodLevel"),
		SkipContainerLevelResources: rapid.IntRange(0, 4).Draw(t, "skipContainers") == 0,
	}
	if rapid.Bool().Draw(t, "nonMissing") {
		o.NonMissingContainerRequests = resource.DefaultNonZeroRequests()
	}
	return o
}

// TestPodRequestsMatchesReference checks PodRequests, PodRequest and
// Totals against a plain transcription of upstream's map-based algorithm
// on random pods, statuses and options.
func TestPodRequestsMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		withStatus(t, p)
		opts := drawOptions(t)
		want := refPodRequests(p, opts)
		got := resource.PodRequests(p, opts)
		if !resource.Equals(got, want) {
			t.Fatalf("PodRequests = %v, reference %v", got, want)
		}
		for k, w := range want {
			q, ok := resource.PodRequest(p, k, opts)
			if !ok || q.Cmp(w) != 0 {
				t.Fatalf("PodRequest(%s) = %v %v, want %v", k, q.String(), ok, w.String())
			}
		}
		if _, ok := resource.PodRequest(p, "example.com/absent", opts); ok {
			t.Fatal("PodRequest of an absent name reports present")
		}
		reuse := api.ResourceList{"stale": resource.MustParse("1")}
		opts.Reuse = reuse
		if again := resource.PodRequests(p, opts); !resource.Equals(again, want) || !resource.Equals(reuse, want) {
			t.Fatalf("with Reuse: %v", again)
		}
		var tot resource.Totals
		tot.Set(p, opts)
		cpu, mem := want[api.ResourceCPU], want[api.ResourceMemory]
		if tot.MilliCPU != cpu.MilliValue() || tot.Memory != mem.Value() {
			t.Fatalf("Totals = %+v, want cpu %d memory %d", tot, cpu.MilliValue(), mem.Value())
		}
		if gpu := want[resourcegen.GPU]; tot.Scalar[resourcegen.GPU] != gpu.Value() {
			t.Fatalf("Totals gpu = %d, want %d", tot.Scalar[resourcegen.GPU], gpu.Value())
		}
	})
}

// TestPodRequestsCoverContainers: the pod requests at least what any one
// of its containers requests.
func TestPodRequestsCoverContainers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		reqs := resource.PodRequests(p, resource.PodResourcesOptions{})
		for _, cs := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
			for _, c := range cs {
				for k, v := range c.Resources.Requests {
					if r, ok := reqs[k]; !ok || r.Cmp(v) < 0 {
						t.Fatalf("%s requests %s=%s but the pod %s", c.Name, k, v.String(), r.String())
					}
				}
			}
		}
		lims := resource.PodLimits(p, resource.PodResourcesOptions{})
		for _, c := range p.Spec.Containers {
			for k, v := range c.Resources.Limits {
				if r, ok := lims[k]; !ok || r.Cmp(v) < 0 {
					t.Fatalf("%s limits %s=%s but the pod %s", c.Name, k, v.String(), r.String())
				}
			}
		}
	})
}

// TestAddingContainerNeverLowersRequests: a further container or init
// container (regular or sidecar) never lowers any request.
func TestAddingContainerNeverLowersRequests(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		p.Spec.Resources = nil
		before := resource.PodRequests(p, resource.PodResourcesOptions{})
		q := p.DeepCopy()
		if rapid.Bool().Draw(t, "init") {
			c := resourcegen.InitContainer().Draw(t, "init")
			at := rapid.IntRange(0, len(q.Spec.InitContainers)).Draw(t, "at")
			q.Spec.InitContainers = append(q.Spec.InitContainers[:at], append([]api.Container{c}, q.Spec.InitContainers[at:]...)...)
		} else {
			q.Spec.Containers = append(q.Spec.Containers, resourcegen.Container().Draw(t, "container"))
		}
		after := resource.PodRequests(q, resource.PodResourcesOptions{})
		if ok, over := resource.LessThanOrEqual(before, after); !ok {
			t.Fatalf("requests fell for %v: %v -> %v", over, before, after)
		}
		for k := range before {
			if _, ok := after[k]; !ok {
				t.Fatalf("%s disappeared", k)
			}
		}
	})
}

// TestNonZeroRequestsAtLeastRequests: the scheduler's non-zero view never
// counts less than the plain requests.
func TestNonZeroRequestsAtLeastRequests(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		withStatus(t, p)
		cpu, mem := resource.NonZeroRequests(p)
		reqs := resource.PodRequests(p, resource.PodResourcesOptions{UseStatusResources: true})
		c, m := reqs[api.ResourceCPU], reqs[api.ResourceMemory]
		if cpu < c.MilliValue() || mem < m.Value() {
			t.Fatalf("NonZeroRequests = %d, %d below requests %d, %d", cpu, mem, c.MilliValue(), m.Value())
		}
	})
}

// TestGeneratedPodsAreValid: resourcegen draws only pods that Validate
// accepts.
func TestGeneratedPodsAreValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		if err := resource.Validate(p); err != nil {
			t.Fatalf("generated pod invalid: %v", err)
		}
	})
}

// TestPodDeepCopySharesNothing: the copy equals the original, and
// changing the copy leaves the original alone.
func TestPodDeepCopySharesNothing(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		withStatus(t, p)
		orig := p.DeepCopy()
		c := p.DeepCopy()
		if d := cmp.Diff(p, c, quantityEqual); d != "" {
			t.Fatalf("copy differs:\n%s", d)
		}
		for i := range c.Spec.Containers {
			r := &c.Spec.Containers[i].Resources
			for k, v := range r.Requests {
				v.Add(resource.MustParse("1"))
				r.Requests[k] = v
			}
			r.Limits = nil
			c.Spec.Containers[i].Name += "-x"
		}
		if c.Spec.Priority != nil {
			*c.Spec.Priority++
		}
		if c.Spec.Resources != nil {
			c.Spec.Resources.Requests["cpu"] = resource.MustParse("123")
		}
		for i := range c.Status.ContainerStatuses {
			for k, v := range c.Status.ContainerStatuses[i].AllocatedResources {
				v.Neg()
				c.Status.ContainerStatuses[i].AllocatedResources[k] = v
			}
		}
		if d := cmp.Diff(orig, p, quantityEqual); d != "" {
			t.Fatalf("original changed through the copy:\n%s", d)
		}
	})
}

// TestApplyLimitRangesProperties: admission with defaulted LimitRanges is
// idempotent, and a failed admission leaves the pod unchanged.
func TestApplyLimitRangesProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := resourcegen.Pod().Draw(t, "pod")
		ranges := rapid.SliceOfN(resourcegen.LimitRange(), 0, 3).Draw(t, "ranges")
		// LimitRanges from an API server are always defaulted; only for
		// those is admission idempotent (an undefaulted default limit
		// without a default request makes a request on the next pass).
		defaulted := rapid.Bool().Draw(t, "defaulted")
		if defaulted {
			for i := range ranges {
				resource.DefaultLimitRange(&ranges[i])
			}
		}
		before := p.DeepCopy()
		err := resource.ApplyLimitRanges(p, ranges)
		if err != nil {
			if d := cmp.Diff(before, p, quantityEqual); d != "" {
				t.Fatalf("failed admission changed the pod:\n%s", d)
			}
			return
		}
		if !defaulted {
			return
		}
		once := p.DeepCopy()
		if err := resource.ApplyLimitRanges(p, ranges); err != nil {
			t.Fatalf("second admission failed: %v", err)
		}
		if d := cmp.Diff(once, p, quantityEqual); d != "" {
			t.Fatalf("second admission changed the pod:\n%s", d)
		}
		// Every container now has what the LimitRanges default.
		for _, lr := range ranges {
			for _, it := range lr.Spec.Limits {
				if it.Type != api.LimitTypeContainer {
					continue
				}
				for _, c := range p.Spec.Containers {
					for k := range it.Default {
						if _, ok := c.Resources.Limits[k]; !ok {
							t.Fatalf("%s has no %s limit after admission", c.Name, k)
						}
					}
				}
			}
		}
	})
}

// TestListArithmetic: Subtract undoes Add, and Max is an upper bound.
func TestListArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := resourcegen.ResourceList().Draw(t, "a")
		b := resourcegen.ResourceList().Draw(t, "b")
		back := resource.Subtract(resource.Add(a, b), b)
		for k, v := range a {
			if w := back[k]; w.Cmp(v) != 0 {
				t.Fatalf("%s: %s back as %s", k, v.String(), w.String())
			}
		}
		m := resource.Max(a, b)
		if ok, _ := resource.LessThanOrEqual(a, m); !ok {
			t.Fatal("a > Max(a, b)")
		}
		if ok, _ := resource.LessThanOrEqual(b, m); !ok {
			t.Fatal("b > Max(a, b)")
		}
		if !resource.Equals(resource.Clone(a), a) {
			t.Fatal("Clone differs")
		}
	})
}
