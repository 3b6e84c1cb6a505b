package cluster

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
)

// NewPodInfo derives a PodInfo from pod: its requests as
// resource.PodRequests computes them with in-place resize status (as
// kube-scheduler's PodInfo.CalculateResource, with pod-level resources
// honoured), its non-zero cpu and memory requests (resource.NonZeroRequests),
// host ports, claims and affinity. It never fails: quantities are
// converted as they are (see NewPodInfoChecked to reject bad ones), the
// way upstream's NodeInfo.AddPod ignores NewPodInfo's error.
func NewPodInfo(pod *api.Pod) *PodInfo {
	p, _ := newPodInfo(pod, false)
	return p
}

// NewPodInfoChecked is NewPodInfo that validates the pod: it must not be
// nil and must have a name, and every request, overhead and resize
// status quantity, as well as the pod's total requests, must be
// non-negative and fit in an int64 in scheduler units (cpu in
// millicores). The error names the pod, the container and the resource.
// It does not make the API server's checks (resource.Validate does).
func NewPodInfoChecked(pod *api.Pod) (*PodInfo, error) {
	if err := validatePod(pod); err != nil {
		return nil, err
	}
	return newPodInfo(pod, true)
}

func newPodInfo(pod *api.Pod, check bool) (*PodInfo, error) {
	p := &PodInfo{Pod: pod}
	reqs := resource.PodRequests(pod, resource.PodResourcesOptions{UseStatusResources: true})
	if check {
		for name, q := range reqs {
			if err := checkQuantity(name, q); err != nil {
				return nil, fmt.Errorf("%w pod %s: total requests: %w", ErrInvalid, podName(pod), err)
			}
		}
	}
	p.Requests = ResourceFromList(reqs)
	p.NonZeroMilliCPU, p.NonZeroMemory = resource.NonZeroRequests(pod)
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

// ErrInvalid is wrapped by every validation error of this package.
var ErrInvalid = errors.New("invalid")

func validatePod(pod *api.Pod) error {
	if pod == nil {
		return fmt.Errorf("%w pod: nil", ErrInvalid)
	}
	if pod.Name == "" {
		return fmt.Errorf("%w pod: empty name (namespace %q, uid %q)", ErrInvalid, pod.Namespace, pod.UID)
	}
	check := func(where string, l api.ResourceList) error {
		for name, q := range l {
			if err := checkQuantity(name, q); err != nil {
				return fmt.Errorf("%w pod %s: %s: %w", ErrInvalid, podName(pod), where, err)
			}
		}
		return nil
	}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		if err := check("init container "+c.Name+" requests", c.Resources.Requests); err != nil {
			return err
		}
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if err := check("container "+c.Name+" requests", c.Resources.Requests); err != nil {
			return err
		}
	}
	if err := check("overhead", pod.Spec.Overhead); err != nil {
		return err
	}
	if pod.Spec.Resources != nil {
		if err := check("pod-level requests", pod.Spec.Resources.Requests); err != nil {
			return err
		}
	}
	for _, statuses := range [][]api.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for i := range statuses {
			cs := &statuses[i]
			if err := check("container status "+cs.Name+" allocatedResources", cs.AllocatedResources); err != nil {
				return err
			}
			if cs.Resources != nil {
				if err := check("container status "+cs.Name+" resources.requests", cs.Resources.Requests); err != nil {
					return err
				}
			}
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
