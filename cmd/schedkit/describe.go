package main

import (
	"bufio"
	"flag"
	"fmt"
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
resolved): the effective requests and limits, the non-zero requests the
scoring plugins use (100m cpu and 200Mi memory for containers that request
none), QoS class, priority and preemption policy, and the pod's DRA claims (the
claim each entry uses, generated from its template or shared by name, and
its allocated devices or "pending"). Per node: allocatable, requested, free
and the number of pods, and the DRA devices each DeviceClass selects there
(total, allocated to claims, free).
`,
		example: `  schedkit describe -f examples/manifests
  schedkit describe -f dump.json -o yaml
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			outputFlag(fs, o, "table", "json", "yaml")
		},
		run: runDescribe,
	}
}

// describedPod is one pod of describe's JSON. cpu is in millicores,
// memory in bytes.
type describedPod struct {
	Pod              string `json:"pod"`
	Node             string `json:"node"`
	QOSClass         string `json:"qosClass"`
	Priority         int32  `json:"priority"`
	PreemptionPolicy string `json:"preemptionPolicy"`
	Requests         amount `json:"requests"`
	Limits           amount `json:"limits"`
	NonZeroRequests  amount `json:"nonZeroRequests"`
	// Claims are the pod's DRA claims.
	Claims []describedClaim `json:"claims,omitempty"`
}

// amount is cpu (millicores) and memory (bytes).
type amount struct {
	MilliCPU int64 `json:"milliCPU"`
	Memory   int64 `json:"memory"`
}

// describedNode is one node of describe's JSON.
type describedNode struct {
	Node        string `json:"node"`
	Allocatable amount `json:"allocatable"`
	Requested   amount `json:"requested"`
	Free        amount `json:"free"`
	Pods        int    `json:"pods"`
	MaxPods     int64  `json:"maxPods"`
	// Devices are the node's DRA devices by DeviceClass.
	Devices []describedDevices `json:"devices,omitempty"`
}

func describePod(objs *cluster.Objects, p *api.Pod) describedPod {
	opts := resource.SchedulerOptions()
	req := resource.PodRequests(p, opts)
	lim := resource.PodLimits(p, opts)
	pi := cluster.NewPodInfo(p)
	pp := string(api.PreemptLowerPriority)
	if p.Spec.PreemptionPolicy != nil {
		pp = string(*p.Spec.PreemptionPolicy)
	}
	return describedPod{
		Pod: podName(p), Node: p.Spec.NodeName, QOSClass: string(qos.Of(p)), Priority: priority(p), PreemptionPolicy: pp,
		Requests:        amount{req.Cpu().MilliValue(), req.Memory().Value()},
		Limits:          amount{lim.Cpu().MilliValue(), lim.Memory().Value()},
		NonZeroRequests: amount{pi.NonZeroMilliCPU, pi.NonZeroMemory},
		Claims:          describeClaims(objs, p),
	}
}

func runDescribe(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	objs := c.Snapshot.Objects()
	var pods []describedPod
	for _, ni := range c.Snapshot.Nodes() {
		for _, pi := range ni.Pods {
			pods = append(pods, describePod(objs, pi.Pod))
		}
	}
	for _, p := range c.Pending {
		pods = append(pods, describePod(objs, p))
	}
	devices := newDeviceCounter(objs)
	var nodes []describedNode
	for _, ni := range c.Snapshot.Nodes() {
		a, r := ni.Allocatable, ni.Requested
		nodes = append(nodes, describedNode{Node: ni.Node().Name,
			Allocatable: amount{a.MilliCPU, a.Memory}, Requested: amount{r.MilliCPU, r.Memory},
			Free: amount{a.MilliCPU - r.MilliCPU, a.Memory - r.Memory}, Pods: ni.NumPods(), MaxPods: a.AllowedPodNumber,
			Devices: devices.count(ni.Node())})
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
	fmt.Fprintln(tw, "POD\tNODE\tQOS\tPRIORITY\tPREEMPTION\tCPU REQ\tCPU LIM\tMEM REQ\tMEM LIM\tNON-ZERO CPU\tNON-ZERO MEM")
	for _, p := range pods {
		node := p.Node
		if node == "" {
			node = "(pending)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Pod, node, p.QOSClass, p.Priority, p.PreemptionPolicy,
			fmtCPU(p.Requests.MilliCPU), fmtCPU(p.Limits.MilliCPU), fmtMem(p.Requests.Memory), fmtMem(p.Limits.Memory),
			fmtCPU(p.NonZeroRequests.MilliCPU), fmtMem(p.NonZeroRequests.Memory))
	}
	tw.Flush()
	writeClaimsTable(w, pods)
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tCPU ALLOCATABLE\tCPU REQUESTED\tCPU FREE\tMEM ALLOCATABLE\tMEM REQUESTED\tMEM FREE\tPODS")
	for _, n := range nodes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\n", n.Node, fmtCPU(n.Allocatable.MilliCPU), fmtCPU(n.Requested.MilliCPU), fmtCPU(n.Free.MilliCPU),
			fmtMem(n.Allocatable.Memory), fmtMem(n.Requested.Memory), fmtMem(n.Free.Memory), n.Pods, n.MaxPods)
	}
	tw.Flush()
	writeDevicesTable(w, nodes)
	return exitOK, w.Flush()
}
