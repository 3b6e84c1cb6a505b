package app

import (
	"bufio"
	"flag"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/qos"
	"github.com/schedkit/schedkit/resource"
)

func describeCmd() *command {
	return &command{
		name:  "describe",
		short: "pods' effective requests, QoS and priority; nodes' allocatable, requested and free",
		long: `Per pod (pending pods as admitted: LimitRange defaults applied, priority
resolved): the effective requests and limits of every resource (cpu,
memory, ephemeral-storage, hugepages, extended resources such as
nvidia.com/gpu; an unset limit is <none>, as kubectl prints it), the pod
overhead, the DRA claims its containers name, the non-zero requests the
scoring plugins use (100m cpu and 200Mi memory for containers that request
none), QoS class, priority and preemption policy, and the pod's DRA claims
(the claim each entry uses, generated from its template or shared by name,
and its allocated devices or "pending"). Per node: allocatable, requested
and free of every resource, the number of pods, and the DRA devices each
DeviceClass selects there (total, allocated to claims, free).
`,
		example: `  schedkit describe -f examples/manifests
  schedkit describe -f examples/manifests -n shop -o yaml
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
			fs.StringVar(&o.namespace, "n", "", "only the pods of `NAMESPACE`")
			fs.StringVar(&o.namespace, "namespace", "", "same as -n")
			fs.BoolVar(&o.allNamespaces, "A", false, "the pods of every namespace (the default)")
			fs.BoolVar(&o.allNamespaces, "all-namespaces", false, "same as -A")
		},
		run: runDescribe,
	}
}

// describedPod is one pod of describe's JSON. requests, limits and
// overhead hold every resource the pod names, as Kubernetes prints
// quantities; a resource without a limit is absent from limits (the
// table prints <none>, as kubectl does). nonZeroRequests are cpu in
// millicores and memory in bytes.
type describedPod struct {
	Pod              string            `json:"pod"`
	Node             string            `json:"node"`
	QOSClass         string            `json:"qosClass"`
	Priority         int32             `json:"priority"`
	PreemptionPolicy string            `json:"preemptionPolicy"`
	Requests         map[string]string `json:"requests"`
	Limits           map[string]string `json:"limits"`
	Overhead         map[string]string `json:"overhead,omitempty"`
	// ResourceClaims are the DRA claims the containers name
	// (resources.claims), or "spec.resourceClaims" when only the pod's
	// list is set.
	ResourceClaims  []string `json:"resourceClaims,omitempty"`
	NonZeroRequests amount   `json:"nonZeroRequests"`
	// Claims are the pod's spec.resourceClaims entries with their claims.
	Claims []describedClaim `json:"claims,omitempty"`
}

// amount is cpu (millicores) and memory (bytes).
type amount struct {
	MilliCPU int64 `json:"milliCPU"`
	Memory   int64 `json:"memory"`
}

// describedNode is one node of describe's JSON: every resource of its
// allocatable, in the resource's base unit (cpu in millicores).
type describedNode struct {
	Node        string           `json:"node"`
	Allocatable map[string]int64 `json:"allocatable"`
	Requested   map[string]int64 `json:"requested"`
	Free        map[string]int64 `json:"free"`
	Pods        int              `json:"pods"`
	MaxPods     int64            `json:"maxPods"`
	// Devices are the node's DRA devices by DeviceClass.
	Devices []describedDevices `json:"devices,omitempty"`
}

// quantities prints a resource list as Kubernetes does.
func quantities(rl api.ResourceList) map[string]string {
	m := make(map[string]string, len(rl))
	for k, q := range rl {
		m[string(k)] = q.String()
	}
	return m
}

func describePod(objs *cluster.Objects, p *api.Pod, unmodelled []string) describedPod {
	opts := resource.SchedulerOptions()
	req := resource.PodRequests(p, opts)
	lim := resource.PodLimits(p, opts)
	pi := cluster.NewPodInfo(p)
	pp := string(api.PreemptLowerPriority)
	if p.Spec.PreemptionPolicy != nil {
		pp = string(*p.Spec.PreemptionPolicy)
	}
	d := describedPod{
		Pod: podName(p), Node: p.Spec.NodeName, QOSClass: string(qos.Of(p)), Priority: priority(p), PreemptionPolicy: pp,
		Requests: quantities(req), Limits: quantities(lim),
		NonZeroRequests: amount{pi.NonZeroMilliCPU, pi.NonZeroMemory},
		Claims:          describeClaims(objs, p),
	}
	if len(p.Spec.Overhead) > 0 {
		d.Overhead = quantities(p.Spec.Overhead)
	}
	for _, c := range slices.Concat(p.Spec.InitContainers, p.Spec.Containers) {
		for _, cl := range c.Resources.Claims {
			if !slices.Contains(d.ResourceClaims, cl.Name) {
				d.ResourceClaims = append(d.ResourceClaims, cl.Name)
			}
		}
	}
	if len(d.ResourceClaims) == 0 && slices.Contains(unmodelled, "spec.resourceClaims") {
		d.ResourceClaims = []string{"spec.resourceClaims"}
	}
	return d
}

// resourcesOf are the names of a Resource's amounts: cpu, memory,
// ephemeral-storage, then the scalars (extended resources, hugepages).
func resourcesOf(r *cluster.Resource, into map[string]int64) {
	into["cpu"] += r.MilliCPU
	into["memory"] += r.Memory
	if r.EphemeralStorage != 0 {
		into["ephemeral-storage"] += r.EphemeralStorage
	}
	for _, sc := range r.Scalars {
		into[string(sc.Name)] += sc.Value
	}
}

// fmtAmount prints a node amount in the resource's unit.
func fmtAmount(name string, v int64) string {
	switch {
	case name == "cpu":
		return fmtCPU(v)
	case name == "memory" || name == "ephemeral-storage" || strings.HasPrefix(name, "hugepages-"):
		return fmtMem(v)
	}
	return fmt.Sprint(v)
}

// otherResources are the pod's resources other than cpu and memory, as
// "name request/limit", a missing limit <none>.
func otherResources(p *describedPod) string {
	var names []string
	for n := range p.Requests {
		if n != "cpu" && n != "memory" {
			names = append(names, n)
		}
	}
	for n := range p.Limits {
		if _, ok := p.Requests[n]; !ok && n != "cpu" && n != "memory" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, n+" "+orNone(p.Requests, n)+"/"+orNone(p.Limits, n))
	}
	if len(p.Overhead) > 0 {
		var ov []string
		for _, n := range slices.Sorted(maps.Keys(p.Overhead)) {
			ov = append(ov, n+" "+p.Overhead[n])
		}
		parts = append(parts, "overhead "+strings.Join(ov, " "))
	}
	if len(p.ResourceClaims) > 0 {
		parts = append(parts, "claims "+strings.Join(p.ResourceClaims, ","))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

func orNone(m map[string]string, name string) string {
	if v, ok := m[name]; ok {
		return v
	}
	return "<none>"
}

func runDescribe(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
	}
	if o.namespace != "" && o.allNamespaces {
		return 0, &usageError{msg: "-n and -A (--all-namespaces) exclude each other"}
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	unmodelled := map[string][]string{}
	for _, p := range c.Objects.Pods {
		if f := c.Objects.UnmodelledFields(p); f != nil {
			unmodelled[podName(p)] = f
		}
	}
	objs := c.Snapshot.Objects()
	var pods []describedPod
	add := func(p *api.Pod) {
		if o.namespace == "" || p.Namespace == o.namespace {
			pods = append(pods, describePod(objs, p, unmodelled[podName(p)]))
		}
	}
	for _, ni := range c.Snapshot.Nodes() {
		for _, pi := range ni.Pods {
			add(pi.Pod)
		}
	}
	for _, p := range c.Pending {
		add(p)
	}
	devices := newDeviceCounter(objs)
	var nodes []describedNode
	for _, ni := range c.Snapshot.Nodes() {
		dn := describedNode{Node: ni.Node().Name, Allocatable: map[string]int64{}, Requested: map[string]int64{}, Free: map[string]int64{},
			Pods: ni.NumPods(), MaxPods: ni.Allocatable.AllowedPodNumber, Devices: devices.count(ni.Node())}
		resourcesOf(&ni.Allocatable, dn.Allocatable)
		resourcesOf(&ni.Requested, dn.Requested)
		for n, a := range dn.Allocatable {
			dn.Free[n] = a - dn.Requested[n]
		}
		for n := range dn.Requested {
			if _, ok := dn.Allocatable[n]; !ok {
				dn.Allocatable[n] = 0
				dn.Free[n] = -dn.Requested[n]
			}
		}
		nodes = append(nodes, dn)
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "pods")
		for i := range pods {
			if err := d.item(&pods[i]); err != nil {
				return 0, err
			}
		}
		return exitOK, d.finish([]string{"nodes"}, nonNil(nodes))
	}
	w := bufio.NewWriter(e.stdout)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POD\tNODE\tQOS\tPRIORITY\tPREEMPTION\tCPU REQ\tCPU LIM\tMEM REQ\tMEM LIM\tNON-ZERO CPU\tNON-ZERO MEM\tOTHER (REQ/LIM)")
	for _, p := range pods {
		node := p.Node
		if node == "" {
			node = "(pending)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Pod, node, p.QOSClass, p.Priority, p.PreemptionPolicy,
			orNone(p.Requests, "cpu"), orNone(p.Limits, "cpu"), orNone(p.Requests, "memory"), orNone(p.Limits, "memory"),
			fmtCPU(p.NonZeroRequests.MilliCPU), fmtMem(p.NonZeroRequests.Memory), otherResources(&p))
	}
	tw.Flush()
	writeClaimsTable(w, pods)
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tCPU ALLOCATABLE\tCPU REQUESTED\tCPU FREE\tMEM ALLOCATABLE\tMEM REQUESTED\tMEM FREE\tPODS\tOTHER (REQUESTED/ALLOCATABLE)")
	for _, n := range nodes {
		var other []string
		for _, name := range slices.Sorted(maps.Keys(n.Allocatable)) {
			if name != "cpu" && name != "memory" {
				other = append(other, fmt.Sprintf("%s %s/%s", name, fmtAmount(name, n.Requested[name]), fmtAmount(name, n.Allocatable[name])))
			}
		}
		if len(other) == 0 {
			other = []string{"-"}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\t%s\n", n.Node, fmtCPU(n.Allocatable["cpu"]), fmtCPU(n.Requested["cpu"]), fmtCPU(n.Free["cpu"]),
			fmtMem(n.Allocatable["memory"]), fmtMem(n.Requested["memory"]), fmtMem(n.Free["memory"]), n.Pods, n.MaxPods, strings.Join(other, "; "))
	}
	tw.Flush()
	writeDevicesTable(w, nodes)
	return exitOK, w.Flush()
}
