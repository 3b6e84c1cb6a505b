package app

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/workload"
)

func capacityCmd() *command {
	return &command{
		name:  "capacity",
		short: "how many more copies of a pod (or a Deployment's pod) fit, and where",
		long: `For each pod shape given with --pod (a Pod, or the pod template of a
Deployment, ReplicaSet, StatefulSet, Job or DaemonSet; several per file or
several files), on the cluster as read with its pending pods placed first:
how many more copies fit, on which nodes the scheduler puts them, one after
the other, and the fit error of the next copy. Shapes are counted
independently of each other. A copy's resourceClaimTemplateName entries
get claims of their own, as the resourceclaim controller makes them, and
the devices each copy is allocated are taken before the next: DRA devices
limit the count as cpu and memory do. Copies naming one claim share it,
and its devices, on the node it is allocated for.
`,
		example: `  schedkit capacity -f examples/manifests --pod examples/manifests/shapes/web.yaml
  schedkit capacity -f examples/manifests --pod examples/manifests/shapes/web.yaml -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			fs.Var(&o.podFiles, "pod", "pod shape `FILE` (Pod or workload manifests; repeatable, comma lists)")
			outputFlag(fs, o, "table", "json", "yaml")
		},
		run: runCapacity,
	}
}

// capacityResult is one shape's answer.
type capacityResult struct {
	Pod     string         `json:"pod"`
	Fits    int            `json:"fits"`
	PerNode map[string]int `json:"perNode"`
	Next    string         `json:"next"`
}

// shapes reads the pod shapes of files: pods, and workloads' templates.
func shapes(o *options) ([]*api.Pod, error) {
	objs, _, err := manifest.ReadFiles(manifest.Options{Recursive: o.recursive, Validate: o.validate.v}, o.podFiles...)
	if err != nil {
		return nil, &inputError{err}
	}
	out := append([]*api.Pod(nil), objs.Pods...)
	tmpl := func(ns, name string, t api.PodTemplateSpec) {
		p := &api.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec}
		p.Kind, p.APIVersion = "Pod", "v1"
		p.Name, p.Namespace = name, ns
		out = append(out, p)
	}
	for _, d := range objs.Deployments {
		tmpl(d.Namespace, d.Name, d.Spec.Template)
	}
	for _, d := range objs.ReplicaSets {
		tmpl(d.Namespace, d.Name, d.Spec.Template)
	}
	for _, d := range objs.StatefulSets {
		tmpl(d.Namespace, d.Name, d.Spec.Template)
	}
	for _, d := range objs.Jobs {
		tmpl(d.Namespace, d.Name, d.Spec.Template)
	}
	if len(out) == 0 {
		return nil, &usageError{msg: fmt.Sprintf("--pod %s: no Pod or workload in the file(s)", strings.Join(o.podFiles, ","))}
	}
	return out, nil
}

func runCapacity(e *env, o *options, args []string) (int, error) {
	if err := noArgs(args); err != nil {
		return 0, err
	}
	if err := checkOutput(o, "table", "json", "yaml"); err != nil {
		return 0, err
	}
	if len(o.podFiles) == 0 {
		return 0, &usageError{msg: "no pod shape given (--pod FILE)"}
	}
	config, opts, err := e.configOptions(o)
	if err != nil {
		return 0, err
	}
	shapes, err := shapes(o)
	if err != nil {
		return 0, err
	}
	c, err := e.load(o)
	if err != nil {
		return 0, err
	}
	classes := make([]api.PriorityClass, len(c.Objects.PriorityClasses))
	for i, pc := range c.Objects.PriorityClasses {
		classes[i] = *pc
	}
	var results []capacityResult
	ctx := context.Background()
	for _, shape := range shapes {
		var ranges []api.LimitRange
		for _, lr := range c.Objects.LimitRanges {
			if lr.Namespace == shape.Namespace {
				ranges = append(ranges, *lr)
			}
		}
		admitted, err := admission.Admit(shape, admission.Policies{PriorityClasses: classes, LimitRanges: ranges})
		if err != nil {
			return 0, &inputError{fmt.Errorf("--pod: pod %s: %w", podName(shape), err)}
		}
		cl, err := manifest.NewCluster(c.Objects, nil, loadOptions(e, o))
		if err != nil {
			return 0, &inputError{err}
		}
		s, err := newSched(cl.Snapshot, config, opts)
		if err != nil {
			return 0, err
		}
		if _, err := s.Simulate(ctx, cl.Pending); err != nil {
			return 0, err
		}
		r := capacityResult{Pod: podName(shape), PerNode: map[string]int{}}
		limit := 0
		for _, ni := range cl.Snapshot.Nodes() {
			limit += int(ni.Allocatable.AllowedPodNumber)
		}
		// Each copy gets the claims its template entries make, as the
		// resourceclaim controller would make them once it is created.
		claims := newCopyClaims(cl.Snapshot, o.seed)
		for i := 1; ; i++ {
			cp := admitted.DeepCopy()
			cp.Name = fmt.Sprintf("%s-copy-%d", shape.Name, i)
			cp.UID = "capacity/" + podName(cp)
			if cp, err = claims.make(cp); err != nil {
				return 0, err
			}
			res, err := s.Schedule(ctx, cp)
			if err != nil || res.Node == "" || i > limit {
				if err != nil {
					r.Next = err.Error()
				}
				break
			}
			if err := s.Assume(cp, res.Node); err != nil {
				return 0, err
			}
			r.Fits++
			r.PerNode[res.Node]++
		}
		results = append(results, r)
	}
	if o.output != "table" {
		d := newDocWriter(e.stdout, o.output, "shapes")
		for i := range results {
			if err := d.item(&results[i]); err != nil {
				return 0, err
			}
		}
		return exitOK, d.finish(nil)
	}
	w := bufio.NewWriter(e.stdout)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POD\tFITS\tWHERE\tNEXT COPY")
	for _, r := range results {
		var where []string
		for n, k := range r.PerNode {
			where = append(where, fmt.Sprintf("%s×%d", n, k))
		}
		sort.Strings(where)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", r.Pod, r.Fits, strings.Join(where, " "), r.Next)
	}
	tw.Flush()
	return exitOK, w.Flush()
}

// copyClaims makes the claims of the copies capacity places.
type copyClaims struct {
	snap *cluster.Snapshot
	ctl  *workload.ClaimController
}

func newCopyClaims(snap *cluster.Snapshot, seed uint64) *copyClaims {
	objs := snap.Objects()
	var templates []*api.ResourceClaimTemplate
	for t := range cluster.AllObjects[api.ResourceClaimTemplate](objs) {
		templates = append(templates, t)
	}
	var claims []*api.ResourceClaim
	for c := range cluster.AllObjects[api.ResourceClaim](objs) {
		claims = append(claims, c)
	}
	return &copyClaims{snap: snap, ctl: workload.NewClaimController(rand.New(rand.NewPCG(seed, 0x636f7079)), templates, claims)}
}

// make returns the copy with its claims' statuses, the claims stored; a
// copy whose template is missing is returned as it is (DynamicResources
// then keeps it out of the queue).
func (c *copyClaims) make(p *api.Pod) (*api.Pod, error) {
	sync := c.ctl.Sync(p)
	for _, cl := range sync.Created {
		if err := c.snap.AddObject(cl); err != nil {
			return nil, err
		}
	}
	return sync.Pod, nil
}
