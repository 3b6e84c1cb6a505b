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
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/scheduler"
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

With --feature-gates GenericWorkload=true, a shape whose
spec.schedulingGroup names a PodGroup (of the --pod files or the cluster,
or a podGroupTemplate of that name of a Workload in the --pod files) is a
gang: each copy is a new PodGroup NAME-copy-N with minCount members, each
with claims of its own, placed all or nothing by the PodGroup cycle. The
count is of gangs, each listed with its members' nodes, and NEXT COPY is
the fit error of the next gang's first member that fits nowhere.
`,
		example: `  schedkit capacity -f examples/manifests --pod examples/manifests/shapes/web.yaml
  schedkit capacity -f examples/manifests --pod examples/manifests/shapes/web.yaml -o json
`,
		flags: func(fs *flag.FlagSet, o *options) {
			inputFlags(fs, o)
			configFlag(fs, o)
			gatesFlag(fs, o)
			fs.Var(&o.podFiles, "pod", "pod shape `FILE` (Pod or workload manifests; repeatable, comma lists)")
			outputFlag(fs, o, "table", "json", "yaml")
		},
		run: runCapacity,
	}
}

// capacityResult is one shape's answer. For a gang shape Fits counts
// gangs, PerNode their members, and Gangs lists them.
type capacityResult struct {
	Pod      string              `json:"pod"`
	Fits     int                 `json:"fits"`
	PerNode  map[string]int      `json:"perNode"`
	Next     string              `json:"next"`
	PodGroup string              `json:"podGroup,omitempty"`
	MinCount int                 `json:"minCount,omitempty"`
	Gangs    []scheduler.GangFit `json:"gangs,omitempty"`
	NextPod  string              `json:"nextPod,omitempty"`
}

// shapes reads the pod shapes of files: pods, and workloads' templates;
// and the files' objects, for the PodGroups and Workloads of gangs.
func shapes(o *options) ([]*api.Pod, *manifest.Set, error) {
	objs, _, err := manifest.ReadFiles(manifest.Options{Recursive: o.recursive, Validate: o.validate.v}, o.podFiles...)
	if err != nil {
		return nil, nil, &inputError{err}
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
		return nil, nil, &usageError{msg: fmt.Sprintf("--pod %s: no Pod or workload in the file(s)", strings.Join(o.podFiles, ","))}
	}
	return out, objs, nil
}

// gangGroup is the PodGroup a gang shape's copies repeat: the one its
// schedulingGroup names among the --pod files' PodGroups, then the
// cluster's, then a PodGroup made from the podGroupTemplate of that name
// of a Workload of the --pod files. ok is false for a shape that is not
// a gang, or when GenericWorkload is off.
func gangGroup(s *scheduler.Scheduler, shape *api.Pod, objs *manifest.Set, classes []api.PriorityClass) (*api.PodGroup, bool, error) {
	if !s.FeatureGates().GenericWorkload() {
		return nil, false, nil
	}
	k, ok := podgroup.KeyOf(shape)
	if !ok {
		return nil, false, nil
	}
	var pg *api.PodGroup
	for _, g := range objs.PodGroups {
		if g.Namespace == k.Namespace && g.Name == k.Name {
			pg = g.DeepCopy()
		}
	}
	if pg == nil {
		if g, ok := cluster.GetObject[api.PodGroup](s.Snapshot().Objects(), k.Namespace, k.Name); ok {
			return g, true, nil
		}
	}
	for _, w := range objs.Workloads {
		if pg != nil || w.Namespace != k.Namespace {
			continue
		}
		for _, t := range w.Spec.PodGroupTemplates {
			if t.Name == k.Name {
				pg = &api.PodGroup{ObjectMeta: api.ObjectMeta{Name: k.Name, Namespace: k.Namespace}, Spec: api.PodGroupSpec{
					WorkloadRef:      &api.WorkloadReference{WorkloadName: w.Name, TemplateName: t.Name},
					SchedulingPolicy: t.SchedulingPolicy, DisruptionMode: t.DisruptionMode,
					PriorityClassName: t.PriorityClassName, Priority: t.Priority, PreemptionPolicy: t.PreemptionPolicy,
				}}
				pg.Kind, pg.APIVersion = "PodGroup", "scheduling.k8s.io/v1beta1"
				break
			}
		}
	}
	if pg == nil {
		return nil, false, &inputError{fmt.Errorf("--pod: pod %s: PodGroup %s/%s not found in the --pod files, the cluster, or a Workload's podGroupTemplates", podName(shape), k.Namespace, k.Name)}
	}
	if err := admission.ResolvePodGroupPriority(pg, classes); err != nil {
		return nil, false, &inputError{fmt.Errorf("--pod: PodGroup %s/%s: %w", k.Namespace, k.Name, err)}
	}
	return pg, true, nil
}

// gangCapacity counts the gangs of a gang shape that fit.
func gangCapacity(ctx context.Context, s *scheduler.Scheduler, shape *api.Pod, pg *api.PodGroup, claims *copyClaims, limit int) (capacityResult, error) {
	r := capacityResult{Pod: podName(shape), PerNode: map[string]int{}, PodGroup: pg.Namespace + "/" + pg.Name, MinCount: pg.MinCount()}
	got, err := s.GangCapacity(ctx, scheduler.GangShape{PodGroup: pg, Member: shape, Prepare: claims.make}, limit)
	if err != nil {
		return r, err
	}
	r.Gangs, r.Fits = got.Gangs, len(got.Gangs)
	for _, g := range got.Gangs {
		for _, n := range g.Nodes {
			r.PerNode[n]++
		}
	}
	if got.Next != nil {
		r.Next = got.Next.Error()
	}
	if got.NextPod != nil {
		r.NextPod = podName(got.NextPod)
	}
	return r, nil
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
	shapes, shapeObjs, err := shapes(o)
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
		pg, gang, err := gangGroup(s, admitted, shapeObjs, classes)
		if err != nil {
			return 0, err
		}
		if gang {
			r, err := gangCapacity(ctx, s, admitted, pg, claims, limit)
			if err != nil {
				return 0, err
			}
			results = append(results, r)
			continue
		}
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
		fits, next := fmt.Sprint(r.Fits), r.Next
		if r.PodGroup != "" {
			fits = fmt.Sprintf("%d gang(s) of %d", r.Fits, r.MinCount)
			if r.NextPod != "" {
				next = r.NextPod + ": " + next
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Pod, fits, strings.Join(where, " "), next)
	}
	tw.Flush()
	for _, r := range results {
		if len(r.Gangs) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s: gangs of PodGroup %s (minCount %d)\n", r.Pod, r.PodGroup, r.MinCount)
		for _, g := range r.Gangs {
			fmt.Fprintf(w, "  %s on nodes %s\n", g.PodGroup, strings.Join(g.Nodes, ", "))
		}
	}
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
