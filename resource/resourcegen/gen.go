// Package resourcegen holds pgregory.net/rapid generators of valid
// resource objects for property tests: resource lists, containers, init
// containers (some of them sidecars), pods and LimitRanges. Every object
// they draw passes resource.Validate (pods) or is a LimitRange the API
// server would accept.
//
// Quantities come in the forms manifests use: millicores and whole cores
// for cpu, binary and decimal suffixes or plain bytes for memory and
// storage, whole numbers for extended resources, and multiples of 2Mi for
// hugepages-2Mi.
package resourcegen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// Resource names the generators use.
const (
	// GPU is the extended resource the generators request.
	GPU api.ResourceName = "example.com/gpu"
	// HugePages2Mi is the huge page resource the generators request.
	HugePages2Mi api.ResourceName = "hugepages-2Mi"
)

// CPU draws a cpu quantity from 0 to 8 cores, written as millicores
// ("250m") or cores ("2", "0.5").
func CPU() *rapid.Generator[resource.Quantity] {
	return rapid.Custom(func(t *rapid.T) resource.Quantity {
		m := rapid.Int64Range(0, 8000).Draw(t, "millicores")
		switch rapid.IntRange(0, 2).Draw(t, "cpuForm") {
		case 0:
			return resource.MustParse(fmt.Sprintf("%dm", m))
		case 1:
			return resource.MustParse(fmt.Sprintf("%d", m/1000))
		default:
			return resource.NewMilliQuantity(m, resource.DecimalSI)
		}
	})
}

// Bytes draws a memory or storage quantity from 0 to 16Gi, written with a
// binary suffix ("512Mi"), a decimal one ("500M") or as plain bytes.
func Bytes() *rapid.Generator[resource.Quantity] {
	return rapid.Custom(func(t *rapid.T) resource.Quantity {
		switch rapid.IntRange(0, 2).Draw(t, "bytesForm") {
		case 0:
			return resource.MustParse(fmt.Sprintf("%dMi", rapid.Int64Range(0, 16*1024).Draw(t, "mebibytes")))
		case 1:
			return resource.MustParse(fmt.Sprintf("%dM", rapid.Int64Range(0, 16000).Draw(t, "megabytes")))
		default:
			return resource.NewQuantity(rapid.Int64Range(0, 16<<30).Draw(t, "bytes"), resource.BinarySI)
		}
	})
}

// Count draws a whole-number quantity from 0 to 8, as extended resources
// need.
func Count() *rapid.Generator[resource.Quantity] {
	return rapid.Custom(func(t *rapid.T) resource.Quantity {
		return resource.NewQuantity(rapid.Int64Range(0, 8).Draw(t, "count"), resource.DecimalSI)
	})
}

// HugePages draws a multiple of 2Mi from 0 to 1Gi.
func HugePages() *rapid.Generator[resource.Quantity] {
	return rapid.Custom(func(t *rapid.T) resource.Quantity {
		return resource.MustParse(fmt.Sprintf("%dMi", 2*rapid.Int64Range(0, 512).Draw(t, "pages")))
	})
}

// quantityFor returns the generator for name.
func quantityFor(name api.ResourceName) *rapid.Generator[resource.Quantity] {
	switch name {
	case api.ResourceCPU:
		return CPU()
	case GPU:
		return Count()
	case HugePages2Mi:
		return HugePages()
	default:
		return Bytes()
	}
}

// ResourceList draws a list of some of cpu, memory, ephemeral-storage,
// hugepages-2Mi and example.com/gpu with non-negative quantities. It may
// be empty or nil.
func ResourceList() *rapid.Generator[api.ResourceList] {
	return rapid.Custom(func(t *rapid.T) api.ResourceList {
		if rapid.IntRange(0, 9).Draw(t, "nilList") == 0 {
			return nil
		}
		l := api.ResourceList{}
		for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage, HugePages2Mi, GPU} {
			if rapid.Bool().Draw(t, "has "+string(name)) {
				l[name] = quantityFor(name).Draw(t, string(name))
			}
		}
		return l
	})
}

// Requirements draws valid container requests and limits: for cpu, memory
// and ephemeral storage any of none, a request, a limit, or a request at
// most the limit; for huge pages and the GPU equal requests and limits;
// and cpu or memory whenever huge pages are set.
func Requirements() *rapid.Generator[api.ResourceRequirements] {
	return rapid.Custom(func(t *rapid.T) api.ResourceRequirements {
		var r api.ResourceRequirements
		set := func(l *api.ResourceList, k api.ResourceName, q resource.Quantity) {
			if *l == nil {
				*l = api.ResourceList{}
			}
			(*l)[k] = q
		}
		for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage} {
			g := quantityFor(name)
			switch rapid.IntRange(0, 3).Draw(t, "shape "+string(name)) {
			case 1:
				set(&r.Requests, name, g.Draw(t, "request"))
			case 2:
				set(&r.Limits, name, g.Draw(t, "limit"))
			case 3:
				a, b := g.Draw(t, "request"), g.Draw(t, "limit")
				if a.Cmp(b) > 0 {
					a, b = b, a
				}
				set(&r.Requests, name, a)
				set(&r.Limits, name, b)
			}
		}
		for _, name := range []api.ResourceName{HugePages2Mi, GPU} {
			if rapid.IntRange(0, 4).Draw(t, "has "+string(name)) == 0 {
				q := quantityFor(name).Draw(t, string(name))
				set(&r.Requests, name, q)
				set(&r.Limits, name, q)
			}
		}
		if _, ok := r.Requests[HugePages2Mi]; ok {
			_, rc := r.Requests[api.ResourceCPU]
			_, rm := r.Requests[api.ResourceMemory]
			_, lc := r.Limits[api.ResourceCPU]
			_, lm := r.Limits[api.ResourceMemory]
			if !rc && !rm && !lc && !lm {
				set(&r.Requests, api.ResourceMemory, Bytes().Draw(t, "memory for hugepages"))
			}
		}
		return r
	})
}

// Container draws a regular container named c-<n> with valid
// Requirements.
func Container() *rapid.Generator[api.Container] {
	return rapid.Custom(func(t *rapid.T) api.Container {
		return api.Container{
			Name:      fmt.Sprintf("c-%d", rapid.IntRange(0, 1000).Draw(t, "name")),
			Image:     rapid.SampledFrom([]string{"nginx:1.27", "busybox", "registry.k8s.io/pause:3.10"}).Draw(t, "image"),
			Resources: Requirements().Draw(t, "resources"),
		}
	})
}

// InitContainer draws an init container; about a third of them are
// sidecars (restartPolicy: Always).
func InitContainer() *rapid.Generator[api.Container] {
	return rapid.Custom(func(t *rapid.T) api.Container {
		c := Container().Draw(t, "container")
		c.Name = "init-" + c.Name
		if rapid.IntRange(0, 2).Draw(t, "sidecar") == 0 {
			always := api.ContainerRestartPolicyAlways
			c.RestartPolicy = &always
		}
		return c
	})
}

// Pod draws a valid pod: one to four containers and up to three init
// containers (some sidecars) with unique names, sometimes an overhead,
// sometimes pod-level cpu and memory requests and limits (at least what
// the containers request and limit), and sometimes a priority.
func Pod() *rapid.Generator[*api.Pod] {
	return rapid.Custom(func(t *rapid.T) *api.Pod {
		p := &api.Pod{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%d", rapid.IntRange(0, 1000).Draw(t, "pod")), Namespace: "default"},
		}
		for i := range rapid.IntRange(1, 4).Draw(t, "containers") {
			c := Container().Draw(t, "container")
			c.Name = fmt.Sprintf("c%d", i)
			p.Spec.Containers = append(p.Spec.Containers, c)
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "initContainers") {
			c := InitContainer().Draw(t, "initContainer")
			c.Name = fmt.Sprintf("init%d", i)
			p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		}
		if rapid.IntRange(0, 3).Draw(t, "hasOverhead") == 0 {
			p.Spec.Overhead = api.ResourceList{
				api.ResourceCPU:    CPU().Draw(t, "overheadCPU"),
				api.ResourceMemory: Bytes().Draw(t, "overheadMemory"),
			}
		}
		if rapid.IntRange(0, 3).Draw(t, "hasPriority") == 0 {
			prio := rapid.Int32Range(-100, 2000000000).Draw(t, "priority")
			p.Spec.Priority = &prio
		}
		if rapid.IntRange(0, 3).Draw(t, "hasPodLevel") == 0 {
			p.Spec.Resources = podLevel(t, p)
		}
		return p
	})
}

// podLevel draws pod-level cpu and memory requirements that are valid for
// p: requests at least the containers' aggregate, limits at least the
// requests and every container's limit.
func podLevel(t *rapid.T, p *api.Pod) *api.ResourceRequirements {
	r := &api.ResourceRequirements{Requests: api.ResourceList{}, Limits: api.ResourceList{}}
	agg := resource.AggregateContainerRequests(p, resource.PodResourcesOptions{})
	for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
		shape := rapid.IntRange(0, 3).Draw(t, "podLevel "+string(name))
		if shape == 0 {
			continue
		}
		g := quantityFor(name)
		req := g.Draw(t, "extra request")
		req.Add(agg[name])
		if shape&1 != 0 {
			r.Requests[name] = req
		}
		if shape&2 != 0 {
			lim := g.Draw(t, "extra limit")
			floor := req
			for _, cs := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
				for i := range cs {
					if l, ok := cs[i].Resources.Limits[name]; ok && l.Cmp(floor) > 0 {
						floor = l
					}
				}
			}
			lim.Add(floor)
			r.Limits[name] = lim
		}
	}
	return r
}

// LimitItem draws a valid LimitRange item of type Container or Pod: for
// each of cpu and memory maybe a min and a max (min ≤ max), for Container
// items maybe a default limit and default request between them, and maybe
// a maxLimitRequestRatio of at least 1.
func LimitItem() *rapid.Generator[api.LimitRangeItem] {
	return rapid.Custom(func(t *rapid.T) api.LimitRangeItem {
		it := api.LimitRangeItem{Type: rapid.SampledFrom([]api.LimitType{api.LimitTypeContainer, api.LimitTypePod}).Draw(t, "type")}
		put := func(l *api.ResourceList, k api.ResourceName, q resource.Quantity) {
			if *l == nil {
				*l = api.ResourceList{}
			}
			(*l)[k] = q
		}
		for _, name := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
			g := quantityFor(name)
			// Four values in order: min ≤ defaultRequest ≤ default ≤ max.
			v := make([]resource.Quantity, 4)
			for i := range v {
				v[i] = g.Draw(t, "bound")
				if i > 0 {
					v[i].Add(v[i-1])
				}
			}
			if rapid.Bool().Draw(t, "min "+string(name)) {
				put(&it.Min, name, v[0])
			}
			if rapid.Bool().Draw(t, "max "+string(name)) {
				put(&it.Max, name, v[3])
			}
			if it.Type == api.LimitTypeContainer {
				if rapid.Bool().Draw(t, "defaultRequest "+string(name)) {
					put(&it.DefaultRequest, name, v[1])
				}
				if rapid.Bool().Draw(t, "default "+string(name)) {
					put(&it.Default, name, v[2])
				}
			}
			if rapid.IntRange(0, 3).Draw(t, "ratio "+string(name)) == 0 {
				put(&it.MaxLimitRequestRatio, name, resource.MustParse(rapid.SampledFrom([]string{"1", "1.5", "2", "4", "10"}).Draw(t, "ratio")))
			}
		}
		return it
	})
}

// LimitRange draws a LimitRange named limits-<n> in namespace default
// with one to three items.
func LimitRange() *rapid.Generator[api.LimitRange] {
	return rapid.Custom(func(t *rapid.T) api.LimitRange {
		lr := api.LimitRange{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "LimitRange"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("limits-%d", rapid.IntRange(0, 100).Draw(t, "name")), Namespace: "default"},
		}
		for range rapid.IntRange(1, 3).Draw(t, "items") {
			lr.Spec.Limits = append(lr.Spec.Limits, LimitItem().Draw(t, "item"))
		}
		return lr
	})
}
