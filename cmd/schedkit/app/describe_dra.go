package app

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
)

// describedClaim is one of a pod's spec.resourceClaims entries in
// describe's JSON.
type describedClaim struct {
	// Name is the entry's name.
	Name string `json:"name"`
	// ResourceClaim is the claim it uses: the one it names, or the one
	// the resourceclaim controller generated from its template; empty
	// when none was made.
	ResourceClaim string `json:"resourceClaim"`
	// Template is the entry's resourceClaimTemplateName, if any.
	Template string `json:"template,omitempty"`
	// Allocation lists the allocated devices as driver/pool/device, or
	// is empty while the claim is pending.
	Allocation []string `json:"allocation,omitempty"`
}

// describedDevices counts one DeviceClass's devices on a node.
type describedDevices struct {
	DeviceClass string `json:"deviceClass"`
	Total       int    `json:"total"`
	Allocated   int    `json:"allocated"`
	Free        int    `json:"free"`
}

// describeClaims lists p's claim entries with the claims in the store,
// and the claim of its status.extendedResourceClaimStatus last.
func describeClaims(objs *cluster.Objects, p *api.Pod) []describedClaim {
	var out []describedClaim
	for _, pc := range p.Spec.ResourceClaims {
		d := describedClaim{Name: pc.Name}
		switch {
		case pc.ResourceClaimName != nil:
			d.ResourceClaim = *pc.ResourceClaimName
		case pc.ResourceClaimTemplateName != nil:
			d.Template = *pc.ResourceClaimTemplateName
			for _, st := range p.Status.ResourceClaimStatuses {
				if st.Name == pc.Name && st.ResourceClaimName != nil {
					d.ResourceClaim = *st.ResourceClaimName
				}
			}
		}
		if d.ResourceClaim != "" {
			if c, ok := cluster.GetObject[api.ResourceClaim](objs, p.Namespace, d.ResourceClaim); ok && c.Status.Allocation != nil {
				for _, r := range c.Status.Allocation.Devices.Results {
					d.Allocation = append(d.Allocation, r.Driver+"/"+r.Pool+"/"+r.Device)
				}
			}
		}
		out = append(out, d)
	}
	if st := p.Status.ExtendedResourceClaimStatus; st != nil {
		// The claim DynamicResources made for the pod's extended
		// resources, as its PreBind names it in the pod's status.
		d := describedClaim{Name: extendedClaimEntry, ResourceClaim: st.ResourceClaimName}
		if c, ok := cluster.GetObject[api.ResourceClaim](objs, p.Namespace, st.ResourceClaimName); ok && c.Status.Allocation != nil {
			for _, r := range c.Status.Allocation.Devices.Results {
				d.Allocation = append(d.Allocation, r.Driver+"/"+r.Pool+"/"+r.Device)
			}
		}
		out = append(out, d)
	}
	return out
}

// extendedClaimEntry names, in describe, the claim of the pod's
// status.extendedResourceClaimStatus: it has no spec.resourceClaims
// entry.
const extendedClaimEntry = "<extended-resources>"

// deviceCounter counts the devices each DeviceClass selects per node.
type deviceCounter struct {
	classes   []*api.DeviceClass
	selectors map[string][]*cel.Selector
	bad       map[string]bool
	slices    []*api.ResourceSlice
	nodeSel   map[*api.ResourceSlice]*affinity.NodeSelector
	allocated *dra.AllocatedState
}

func newDeviceCounter(objs *cluster.Objects) *deviceCounter {
	dc := &deviceCounter{selectors: map[string][]*cel.Selector{}, bad: map[string]bool{}, nodeSel: map[*api.ResourceSlice]*affinity.NodeSelector{}}
	for c := range cluster.AllObjects[api.DeviceClass](objs) {
		dc.classes = append(dc.classes, c)
	}
	for s := range cluster.AllObjects[api.ResourceSlice](objs) {
		dc.slices = append(dc.slices, s)
		if s.Spec.NodeSelector != nil {
			dc.nodeSel[s] = affinity.CompileNodeSelector(s.Spec.NodeSelector)
		}
	}
	var claims []*api.ResourceClaim
	for c := range cluster.AllObjects[api.ResourceClaim](objs) {
		claims = append(claims, c)
	}
	dc.allocated = dra.NewAllocatedState(claims)
	if len(dc.classes) == 0 || len(dc.slices) == 0 {
		return dc
	}
	comp, err := cel.NewCompiler(0)
	for _, c := range dc.classes {
		for _, s := range c.Spec.Selectors {
			if s.CEL == nil {
				continue
			}
			var sel *cel.Selector
			if err == nil {
				sel, err = comp.Compile(s.CEL.Expression)
			}
			if err != nil {
				dc.bad[c.Name] = true
				err = nil
				continue
			}
			dc.selectors[c.Name] = append(dc.selectors[c.Name], sel)
		}
	}
	return dc
}

// onNode reports whether the slice's devices are available on node.
func (dc *deviceCounter) onNode(s *api.ResourceSlice, node *api.Node) bool {
	switch {
	case s.Spec.NodeName != nil:
		return *s.Spec.NodeName == node.Name
	case s.Spec.AllNodes != nil && *s.Spec.AllNodes:
		return true
	case dc.nodeSel[s] != nil:
		ok, err := dc.nodeSel[s].Match(node)
		return ok && err == nil
	}
	return false
}

// count is, per DeviceClass that selects some device on node, how many
// it selects and how many of those other claims hold.
func (dc *deviceCounter) count(node *api.Node) []describedDevices {
	var out []describedDevices
	for _, c := range dc.classes {
		if dc.bad[c.Name] {
			continue
		}
		d := describedDevices{DeviceClass: c.Name}
		for _, s := range dc.slices {
			if !dc.onNode(s, node) {
				continue
			}
			for i := range s.Spec.Devices {
				dev := &s.Spec.Devices[i]
				if !dc.selects(c.Name, s.Spec.Driver, dev) {
					continue
				}
				d.Total++
				id := dra.DeviceID{Driver: s.Spec.Driver, Pool: s.Spec.Pool.Name, Device: dev.Name}
				if _, held := dc.allocated.Devices[id]; held {
					d.Allocated++
				}
			}
		}
		if d.Total > 0 {
			d.Free = d.Total - d.Allocated
			out = append(out, d)
		}
	}
	return out
}

func (dc *deviceCounter) selects(class, driver string, dev *api.Device) bool {
	for _, sel := range dc.selectors[class] {
		ok, err := sel.MatchesDevice(context.Background(), driver, dev)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// writeClaimsTable prints the pods' claims, when some pod has any.
func writeClaimsTable(w io.Writer, pods []describedPod) {
	if !slices.ContainsFunc(pods, func(p describedPod) bool { return len(p.Claims) > 0 }) {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POD\tCLAIM\tRESOURCECLAIM\tALLOCATION")
	for _, p := range pods {
		for _, c := range p.Claims {
			rc := c.ResourceClaim
			if rc == "" {
				rc = "(not created)"
			}
			alloc := "pending"
			if len(c.Allocation) > 0 {
				alloc = strings.Join(c.Allocation, ", ")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Pod, c.Name, rc, alloc)
		}
	}
	tw.Flush()
}

// writeDevicesTable prints the nodes' devices by DeviceClass, when some
// node has any.
func writeDevicesTable(w io.Writer, nodes []describedNode) {
	if !slices.ContainsFunc(nodes, func(n describedNode) bool { return len(n.Devices) > 0 }) {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tDEVICECLASS\tDEVICES\tALLOCATED\tFREE")
	for _, n := range nodes {
		for _, d := range n.Devices {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", n.Node, d.DeviceClass, d.Total, d.Allocated, d.Free)
		}
	}
	tw.Flush()
}
