package cluster

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
)

// NewPodInfo derives a PodInfo from pod: its requests as
// resource.PodRequests computes them with in-place resize status (as
// kube-scheduler's PodInfo.CalculateResource, with pod-level resources
// honoured), its non-zero cpu and memory requests (resource.NonZeroRequests),
// host ports, claims, and its pod (anti-)affinity terms compiled. It never
// fails: quantities are converted as they are and affinity term groups
// that do not compile are left empty, the way upstream's NodeInfo.AddPod
// ignores NewPodInfo's error. NewPodInfoChecked reports both.
func NewPodInfo(pod *api.Pod) *PodInfo {
	p, _ := newPodInfo(pod, false, nil)
	p.compileAffinity()
	return p
}

// NewPodInfoChecked is NewPodInfo that validates the pod: it must not be
// nil and must have a name; every request, overhead and resize status
// quantity, as well as the pod's total requests, must be non-negative and
// fit in an int64 in scheduler units (cpu in millicores); and its pod
// affinity terms must compile. The error names the pod, and the
// container and resource or the affinity term group. It does not make
// the API server's checks (resource.Validate does).
//
// A Snapshot rejects pods with bad quantities but, as kube-scheduler's
// cache, accepts bound pods whose affinity terms do not compile.
func NewPodInfoChecked(pod *api.Pod) (*PodInfo, error) {
	if err := validatePod(pod); err != nil {
		return nil, err
	}
	p, err := newPodInfo(pod, true, nil)
	if err != nil {
		return nil, err
	}
	if err := p.compileAffinity(); err != nil {
		return nil, fmt.Errorf("%w pod %s: %w", ErrInvalid, podName(pod), err)
	}
	return p, nil
}

// compileAffinity compiles the pod's affinity terms, keeping the groups
// that compile.
func (p *PodInfo) compileAffinity() error {
	a := p.Pod.Spec.Affinity
	if a == nil || (a.PodAffinity == nil && a.PodAntiAffinity == nil) {
		return nil
	}
	c, err := affinity.CompilePodAffinity(p.Pod)
	p.RequiredAffinityTerms = c.RequiredAffinity
	p.RequiredAntiAffinityTerms = c.RequiredAntiAffinity
	p.PreferredAffinityTerms = c.PreferredAffinity
	p.PreferredAntiAffinityTerms = c.PreferredAntiAffinity
	return err
}

// newPodInfo derives everything but the affinity terms; with check it
// rejects bad quantities. A non-nil scratch list is reused for the
// pod's total requests.
func newPodInfo(pod *api.Pod, check bool, scratch api.ResourceList) (*PodInfo, error) {
	p := &PodInfo{Pod: pod, priorityKnown: true}
	if pr := pod.Spec.Priority; pr != nil {
		p.priority = *pr
	}
	if st := pod.Status.StartTime; st != nil {
		p.start, p.hasStart = st.Time, true
	}
	if ok, err := p.containerRequests(check); !ok {
		if err := p.podRequests(check, scratch); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	p.HostPorts = podHostPorts(pod)
	p.PVCs = podPVCs(pod)
	if a := pod.Spec.Affinity; a != nil {
		p.hasAffinity = a.PodAffinity != nil || a.PodAntiAffinity != nil
		p.hasRequiredAntiAffinity = a.PodAntiAffinity != nil &&
			len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0
	}
	if check {
		if err := checkTotals(p); err != nil {
			return nil, fmt.Errorf("pod %s: %w", podName(pod), err)
		}
	}
	return p, nil
}

// podRequests sets the requests and the non-zero requests as
// resource.PodRequests (under resource.SchedulerOptions) and
// resource.NonZeroRequests compute them; with check it rejects bad totals.
func (p *PodInfo) podRequests(check bool, scratch api.ResourceList) error {
	opts := resource.SchedulerOptions()
	opts.Reuse = scratch
	reqs := resource.PodRequests(p.Pod, opts)
	if check {
		for name, q := range reqs {
			if err := checkQuantity(name, q); err != nil {
				return fmt.Errorf("%w pod %s: total requests: %w", ErrInvalid, podName(p.Pod), err)
			}
		}
	}
	p.Requests = ResourceFromList(reqs)
	p.NonZeroMilliCPU, p.NonZeroMemory = resource.NonZeroRequests(p.Pod)
	return nil
}

// maxContainerResources is how many resource names containerRequests
// adds up; pods naming more take podRequests.
const maxContainerResources = 8

// The scheduler's defaults for missing cpu and memory requests, as
// resource.NonZeroRequests adds them. They are only read.
var (
	nonZeroDefaults = resource.DefaultNonZeroRequests()
	defaultCPU      = nonZeroDefaults[api.ResourceCPU]
	defaultMemory   = nonZeroDefaults[api.ResourceMemory]
)

// containerRequests is podRequests for the common pod whose requests are
// its containers' alone: no init containers, pod-level resources or
// overhead, no container or pod-level resource statuses and no infeasible
// resize. For such a
// pod resource.PodRequests adds up each resource over the containers that
// request it, in container order, and resource.NonZeroRequests does the
// same with the defaults standing in for missing cpu and memory requests;
// containerRequests adds up the same quantities in the same order without
// building a list. It reports false, changing nothing, for other pods.
func (p *PodInfo) containerRequests(check bool) (bool, error) {
	r, cpu, mem, ok, err := sumContainerRequests(p.Pod, check)
	if !ok || err != nil {
		return ok, err
	}
	p.Requests = r
	p.NonZeroMilliCPU, p.NonZeroMemory = cpu.MilliValue(), mem.Value()
	return true, nil
}

// ContainerRequests returns the pod's effective requests
// (ResourceFromList of resource.PodRequests with the default options)
// for the common pod whose requests are its containers' alone, as
// containerRequests finds them without building a list, and false for
// other pods.
func ContainerRequests(pod *api.Pod) (Resource, bool) {
	r, _, _, ok, _ := sumContainerRequests(pod, false)
	return r, ok
}

// sumContainerRequests is containerRequests' sums: the requests, and the
// non-zero cpu and memory requests; with check, an error for a bad
// total.
func sumContainerRequests(pod *api.Pod, check bool) (r Resource, cpu, mem quantity.Quantity, ok bool, err error) {
	if len(pod.Spec.InitContainers) > 0 || pod.Spec.Resources != nil || len(pod.Spec.Overhead) > 0 ||
		len(pod.Status.ContainerStatuses) > 0 || len(pod.Status.InitContainerStatuses) > 0 ||
		pod.Status.Resources != nil || pod.Status.AllocatedResources != nil ||
		resource.IsPodResizeInfeasible(pod) {
		return Resource{}, cpu, mem, false, nil
	}
	type sum struct {
		name api.ResourceName
		q    quantity.Quantity
	}
	var sums [maxContainerResources]sum
	n := 0
	for i := range pod.Spec.Containers {
		reqs := pod.Spec.Containers[i].Resources.Requests
		for name, q := range reqs {
			j := 0
			for j < n && sums[j].name != name {
				j++
			}
			if j == n {
				if n == maxContainerResources {
					return Resource{}, cpu, mem, false, nil
				}
				sums[n].name = name
				n++
			}
			sums[j].q.Add(q)
		}
		if q, ok := reqs[api.ResourceCPU]; ok {
			cpu.Add(q)
		} else {
			cpu.Add(defaultCPU)
		}
		if q, ok := reqs[api.ResourceMemory]; ok {
			mem.Add(q)
		} else {
			mem.Add(defaultMemory)
		}
	}
	for _, s := range sums[:n] {
		if check {
			if err := checkQuantity(s.name, s.q); err != nil {
				return Resource{}, cpu, mem, true, fmt.Errorf("%w pod %s: total requests: %w", ErrInvalid, podName(pod), err)
			}
		}
		switch s.name {
		case api.ResourceCPU:
			r.MilliCPU += s.q.MilliValue()
		case api.ResourceMemory:
			r.Memory += s.q.Value()
		case api.ResourceEphemeralStorage:
			r.EphemeralStorage += s.q.Value()
		case api.ResourcePods:
			r.AllowedPodNumber += s.q.Value()
		default:
			if resource.IsScalarResourceName(s.name) {
				r.AddScalar(s.name, s.q.Value())
			}
		}
	}
	return r, cpu, mem, true, nil
}

// newPodInfoForSnapshot validates quantities and compiles affinity
// leniently, as the scheduler's cache does for bound pods.
func newPodInfoForSnapshot(pod *api.Pod, scratch api.ResourceList) (*PodInfo, error) {
	if err := validatePod(pod); err != nil {
		return nil, err
	}
	p, err := newPodInfo(pod, true, scratch)
	if err != nil {
		return nil, err
	}
	p.compileAffinity()
	return p, nil
}

// ErrInvalid is wrapped by every validation error of this package.
var ErrInvalid = errors.New("invalid")

func validatePod(pod *api.Pod) error {
	if pod == nil {
		return fmt.Errorf("%w pod: nil", ErrInvalid)
	}
	if pod.Name == "" {
		return fmt.Errorf("%w pod: empty name (namespace %q, uid %q)", ErrInvalid, pod.Namespace, pod.UID)
	}
	// The description of where a bad quantity is is built only on error.
	fail := func(what, name string, err error) error {
		if name != "" {
			what += " " + name
		}
		return fmt.Errorf("%w pod %s: %s: %w", ErrInvalid, podName(pod), what, err)
	}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		if err := checkList(c.Resources.Requests); err != nil {
			return fail("init container", c.Name+" requests", err)
		}
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if err := checkList(c.Resources.Requests); err != nil {
			return fail("container", c.Name+" requests", err)
		}
	}
	if err := checkList(pod.Spec.Overhead); err != nil {
		return fail("overhead", "", err)
	}
	if pod.Spec.Resources != nil {
		if err := checkList(pod.Spec.Resources.Requests); err != nil {
			return fail("pod-level requests", "", err)
		}
	}
	for _, statuses := range [][]api.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for i := range statuses {
			cs := &statuses[i]
			if err := checkList(cs.AllocatedResources); err != nil {
				return fail("container status", cs.Name+" allocatedResources", err)
			}
			if cs.Resources != nil {
				if err := checkList(cs.Resources.Requests); err != nil {
					return fail("container status", cs.Name+" resources.requests", err)
				}
			}
		}
	}
	return nil
}

func checkList(l api.ResourceList) error {
	for name, q := range l {
		if err := checkQuantity(name, q); err != nil {
			return err
		}
	}
	return nil
}

// Bounds of a quantity that converts to int64 scheduler units. They are
// never modified.
var (
	maxMilliQuantity = quantity.NewMilliQuantity(math.MaxInt64, quantity.DecimalSI)
	maxQuantity      = quantity.NewQuantity(math.MaxInt64, quantity.DecimalSI)
)

// checkQuantity rejects negative quantities and quantities that do not
// fit in an int64 in the resource's scheduler unit.
func checkQuantity(name api.ResourceName, q quantity.Quantity) error {
	if q.Sign() < 0 {
		return fmt.Errorf("%s: negative quantity %s", name, q.String())
	}
	bound := maxQuantity
	if name == api.ResourceCPU {
		bound = maxMilliQuantity
	}
	if q.Cmp(bound) > 0 {
		return fmt.Errorf("%s: quantity %s overflows int64", name, q.String())
	}
	return nil
}

// checkTotals rejects pods whose summed requests wrapped around.
func checkTotals(p *PodInfo) error {
	r := p.Requests
	if r.MilliCPU < 0 || r.Memory < 0 || r.EphemeralStorage < 0 || r.AllowedPodNumber < 0 ||
		p.NonZeroMilliCPU < 0 || p.NonZeroMemory < 0 {
		return fmt.Errorf("%w: total requests overflow int64", ErrInvalid)
	}
	for _, s := range r.Scalars {
		if s.Value < 0 {
			return fmt.Errorf("%w: total %s requests overflow int64", ErrInvalid, s.Name)
		}
	}
	return nil
}

// podName is "namespace/name" for messages.
func podName(pod *api.Pod) string {
	return podNamespace(pod) + "/" + pod.Name
}

func podNamespace(pod *api.Pod) string {
	if pod.Namespace == "" {
		return "default"
	}
	return pod.Namespace
}

// podHostPorts lists the host ports of the pod's sidecar init containers
// and containers (upstream schedutil.GetHostPorts), sanitized.
func podHostPorts(pod *api.Pod) []HostPort {
	var ports []HostPort
	add := func(c *api.Container) {
		for _, p := range c.Ports {
			if p.HostPort > 0 {
				ports = append(ports, NewHostPort(p.HostIP, p.Protocol, p.HostPort))
			}
		}
	}
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].IsRestartableInit() {
			add(&pod.Spec.InitContainers[i])
		}
	}
	for i := range pod.Spec.Containers {
		add(&pod.Spec.Containers[i])
	}
	return ports
}

// podPVCs lists "namespace/claim" for each PVC volume of the pod.
func podPVCs(pod *api.Pod) []string {
	var keys []string
	for i := range pod.Spec.Volumes {
		if v := pod.Spec.Volumes[i].PersistentVolumeClaim; v != nil {
			keys = append(keys, pod.Namespace+"/"+v.ClaimName)
		}
	}
	return keys
}
