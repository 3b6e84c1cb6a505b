package cluster

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// Scheduler defaults for containers that request no cpu or memory, used
// only for the non-zero requests (upstream schedutil.DefaultMilliCPURequest
// and DefaultMemoryRequest).
const (
	DefaultMilliCPURequest int64 = 100               // 0.1 core
	DefaultMemoryRequest   int64 = 200 * 1024 * 1024 // 200 MiB
)

// NewPodInfo derives a PodInfo from pod. It never fails: quantities are
// converted as they are (see NewPodInfoChecked to reject bad ones), the
// way upstream's NodeInfo.AddPod ignores NewPodInfo's error.
func NewPodInfo(pod *api.Pod) *PodInfo {
	p := &PodInfo{Pod: pod}
	p.Requests, p.NonZeroMilliCPU, p.NonZeroMemory = podRequests(pod)
	p.HostPorts = podHostPorts(pod)
	p.PVCs = podPVCs(pod)
	if a := pod.Spec.Affinity; a != nil {
		p.hasAffinity = a.PodAffinity != nil || a.PodAntiAffinity != nil
		p.hasRequiredAntiAffinity = a.PodAntiAffinity != nil &&
			len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) > 0
	}
	return p
}

// NewPodInfoChecked is NewPodInfo that first validates the pod: it must
// not be nil, must have a name, and every request and overhead quantity
// must be non-negative and fit in an int64 in scheduler units (cpu in
// millicores), as must the pod's totals. The error names the pod, the
// container and the resource.
func NewPodInfoChecked(pod *api.Pod) (*PodInfo, error) {
	if err := validatePod(pod); err != nil {
		return nil, err
	}
	p := NewPodInfo(pod)
	if err := checkTotals(p); err != nil {
		return nil, fmt.Errorf("pod %s: %w", podName(pod), err)
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

// podRequests computes the pod's effective requests and its non-zero cpu
// and memory requests.
//
// TODO(resource): switch to resource.PodRequests and the non-zero
// variant once package resource exports them. Until then this follows
// upstream for container specs only: containers summed, restartable
// (sidecar) init containers added to the sum and to every later init
// container, the maximum over init containers taken, then overhead
// added; pod-level resources and in-place resize status are ignored.
func podRequests(pod *api.Pod) (req Resource, non0CPU, non0Mem int64) {
	var non0 Resource
	addContainer := func(dst, dstNon0 *Resource, c *api.Container) {
		r := ResourceFromList(c.Resources.Requests)
		dst.Add(r)
		dstNon0.Add(nonZero(r, c.Resources.Requests))
	}
	for i := range pod.Spec.Containers {
		addContainer(&req, &non0, &pod.Spec.Containers[i])
	}
	var sidecars, sidecarsNon0, initMax, initMaxNon0 Resource
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		if c.IsRestartableInit() {
			addContainer(&req, &non0, c)
			addContainer(&sidecars, &sidecarsNon0, c)
			initMax.SetMax(sidecars)
			initMaxNon0.SetMax(sidecarsNon0)
			continue
		}
		use, useNon0 := sidecars.Clone(), sidecarsNon0.Clone()
		addContainer(&use, &useNon0, c)
		initMax.SetMax(use)
		initMaxNon0.SetMax(useNon0)
	}
	req.SetMax(initMax)
	non0.SetMax(initMaxNon0)
	if len(pod.Spec.Overhead) > 0 {
		o := ResourceFromList(pod.Spec.Overhead)
		req.Add(o)
		non0.Add(o)
	}
	return req, non0.MilliCPU, non0.Memory
}

// nonZero returns r with the scheduler's defaults for cpu and memory
// when the list has no entry for them (an explicit zero stays zero).
func nonZero(r Resource, l api.ResourceList) Resource {
	if _, ok := l[api.ResourceCPU]; !ok {
		r.MilliCPU = DefaultMilliCPURequest
	}
	if _, ok := l[api.ResourceMemory]; !ok {
		r.Memory = DefaultMemoryRequest
	}
	return r
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
