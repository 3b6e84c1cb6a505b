package autoscaler

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	featuregates "github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/scheduler"
)

// NodeGroup is a node group cluster-autoscaler may grow: new nodes are
// copies of its template.
type NodeGroup struct {
	// Name identifies the group (the priority expander matches it); ""
	// is the template's name.
	Name string
	// Template is the node every new node of the group copies: labels,
	// taints, capacity, allocatable.
	Template *api.Node
}

func (g NodeGroup) name() string {
	if g.Name != "" {
		return g.Name
	}
	return g.Template.Name
}

// Expander names cluster-autoscaler's strategy for choosing the group
// to grow.
type Expander string

// The expanders.
const (
	// LeastWaste grows the group whose new nodes would leave the least
	// cpu and memory idle: the sum of the idle shares of cpu and memory
	// of the nodes' capacity once the pods they take are placed.
	LeastWaste Expander = "least-waste"
	// MostPods grows the group whose new nodes place the most pods.
	MostPods Expander = "most-pods"
	// Priority grows the group of the highest priority whose patterns
	// match its name (ScaleUpOptions.Priorities); groups no pattern
	// matches are not grown.
	Priority Expander = "priority"
)

// ScaleUpOptions configure PlanScaleUp.
type ScaleUpOptions struct {
	// Groups are the node groups, in order: ties between groups the
	// expander rates alike go to the first (cluster-autoscaler picks one
	// at random).
	Groups []NodeGroup
	// Max bounds the number of new nodes; 0 means 1000.
	Max int
	// Expander chooses among the groups; "" is LeastWaste.
	Expander Expander
	// Priorities are the priority expander's configuration: priority →
	// regular expressions matched against group names (the
	// cluster-autoscaler-priority-expander ConfigMap's priorities).
	Priorities map[int][]string
}

// ScaleUp is the outcome of PlanScaleUp.
type ScaleUp struct {
	// Nodes are the new nodes, in the order they were added.
	Nodes []NewNode
	// Placements are the pending pods' placements on the cluster with
	// the new nodes, by the scheduler's Simulate, in the order given.
	Placements []scheduler.Placement
	// NotHelped are the pending pods no group's node helps, with why.
	NotHelped []NotHelped
	// Steps are the expander's choices, in order.
	Steps []Step
}

// NewNode is a node added from a group's template.
type NewNode struct {
	Group string
	Node  *api.Node
	// Needed are the pods that stay pending without this node (with all
	// the other new nodes): never empty, the proof the node is needed.
	Needed []*api.Pod
}

// NotHelped is a pending pod that a new node of no group places, and
// the reason each group's template node rejects it, as the scheduler's
// fit error gives it ("Plugin: reason").
type NotHelped struct {
	Pod     *api.Pod
	Reasons map[string]string
}

// Step is one choice of the expander: how many nodes of which group,
// the pods they place, and the waste (LeastWaste's score) of each
// option it compared.
type Step struct {
	Group   string   `json:"group"`
	Nodes   int      `json:"nodes"`
	Pods    int      `json:"pods"`
	Options []Option `json:"options"`
}

// Option is one group's offer at a step: the nodes it needs for the
// pods it places, and its least-waste score.
type Option struct {
	Group string  `json:"group"`
	Nodes int     `json:"nodes"`
	Pods  int     `json:"pods"`
	Waste float64 `json:"waste"`
}

// PlanScaleUp finds the fewest new nodes from the groups' templates
// that let the pending pods place, every placement kube-scheduler's
// (with preemption off: a pod that fits only by preempting counts as
// pending, as cluster-autoscaler counts it). A
// pod that fits no group's template node on the cluster as it is after
// the other pods place is reported in NotHelped and not counted. Then,
// step by step as cluster-autoscaler's scale-up loop, each group offers
// the nodes it needs for the pods still pending (adding its nodes one at
// a time while the last one placed a pod, each time scheduling the
// pending pods with Simulate), the expander picks an offer, and its nodes
// are added. Last, each new node is left out in turn, latest first, and
// dropped when the pods all place without it, so that with any one node
// fewer some pod stays pending. s is not changed: all of it runs on
// forks. With GenericWorkload on, the plan is made with the gate off, as
// cluster-autoscaler v1.37 makes it: a gang's pods count one by one
// (GangsAfterScaleUp says which gangs the plan lets place whole).
func PlanScaleUp(ctx context.Context, s *scheduler.Scheduler, pending []*api.Pod, opt ScaleUpOptions) (*ScaleUp, error) {
	if len(opt.Groups) == 0 {
		return nil, errors.New("autoscaler: no node groups")
	}
	if opt.Max == 0 {
		opt.Max = 1000
	}
	switch opt.Expander {
	case "":
		opt.Expander = LeastWaste
	case LeastWaste, MostPods, Priority:
	default:
		return nil, fmt.Errorf("autoscaler: unknown expander %q (least-waste, most-pods, priority)", opt.Expander)
	}
	prio, err := compilePriorities(opt.Priorities)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, g := range opt.Groups {
		if g.Template == nil {
			return nil, errors.New("autoscaler: a node group without a template")
		}
		if names[g.name()] {
			return nil, fmt.Errorf("autoscaler: node group %q given twice", g.name())
		}
		names[g.name()] = true
	}
	sim := make([]*api.Pod, len(pending))
	for i, pod := range pending {
		sim[i] = noPreemption(pod)
	}
	if s.FeatureGates().GenericWorkload() {
		// cluster-autoscaler v1.37 ignores PodGroups: its plan takes a
		// gang's pods one by one, as with the gate off.
		g, err := s.FeatureGates().With(map[string]bool{featuregates.GenericWorkload: false})
		if err != nil {
			return nil, err
		}
		if s, err = s.ForkWithFeatureGates(g); err != nil {
			return nil, err
		}
		defer s.Close()
	}
	p := &planner{ctx: ctx, s: s, pending: sim, opt: opt, next: map[string]int{}}
	out := &ScaleUp{}

	// The pods that stay pending on the cluster as it is, and which a
	// node of some group helps.
	base, err := p.simulate(nil)
	if err != nil {
		return nil, err
	}
	want := map[int]bool{}
	if err := p.helped(base, want, out); err != nil {
		return nil, err
	}
	var added []NewNode
	prevLeft, prevAdded := -1, 0
	for len(added) < opt.Max {
		// The cluster with the nodes so far and the pending pods placed;
		// each group's offer is tried on a fork of it.
		state, err := p.fork(added)
		if err != nil {
			return nil, err
		}
		placed, err := state.Simulate(ctx, p.pending)
		if err != nil {
			state.Close()
			return nil, err
		}
		left := p.unplaced(placed, want)
		if len(left) == 0 {
			state.Close()
			break
		}
		if prevLeft >= 0 && len(left) >= prevLeft {
			// The last step's nodes placed nothing more once the whole
			// queue ran: they go, and the search ends.
			added = added[:prevAdded]
			out.Steps = out.Steps[:len(out.Steps)-1]
			state.Close()
			break
		}
		prevLeft, prevAdded = len(left), len(added)
		var opts []offer
		for _, g := range opt.Groups {
			o, err := p.offer(state, g, left, opt.Max-len(added))
			if err != nil {
				state.Close()
				return nil, err
			}
			if o.nodes > 0 {
				opts = append(opts, o)
			}
		}
		state.Close()
		best := choose(opts, opt.Expander, prio)
		if best < 0 {
			break
		}
		step := Step{Group: opts[best].group.name(), Nodes: opts[best].nodes, Pods: opts[best].pods}
		for _, o := range opts {
			step.Options = append(step.Options, Option{Group: o.group.name(), Nodes: o.nodes, Pods: o.pods, Waste: o.waste})
		}
		out.Steps = append(out.Steps, step)
		for range opts[best].nodes {
			added = append(added, p.newNode(opts[best].group))
		}
	}
	// Drop the nodes the pods do without, latest first, until each node
	// left is needed: without it, some pod placed with it stays pending.
	for pruned := true; pruned; {
		pruned = false
		goal, err := p.simulate(added)
		if err != nil {
			return nil, err
		}
		for i := len(added) - 1; i >= 0; i-- {
			fewer := slices.Delete(slices.Clone(added), i, i+1)
			placed, err := p.simulate(fewer)
			if err != nil {
				return nil, err
			}
			added[i].Needed = nil
			for _, j := range p.unplaced(placed, want) {
				if goal[j].Node != "" {
					added[i].Needed = append(added[i].Needed, pending[j])
				}
			}
			if len(added[i].Needed) == 0 && len(p.unplaced(placed, want)) <= len(p.unplaced(goal, want)) {
				added, pruned = fewer, true
				break
			}
		}
	}
	out.Nodes = added
	if out.Placements, err = p.simulate(added); err != nil {
		return nil, err
	}
	for i := range out.Placements {
		out.Placements[i].Pod = pending[i]
	}
	return out, nil
}

// planner holds what PlanScaleUp's steps share.
type planner struct {
	ctx     context.Context
	s       *scheduler.Scheduler
	pending []*api.Pod
	opt     ScaleUpOptions
	next    map[string]int // the next node index of each group
}

// offer is a group's offer at a step.
type offer struct {
	group NodeGroup
	nodes int
	pods  int
	waste float64
}

// newNode returns the next node of g, named as cluster-autoscaler names
// template nodes.
func (p *planner) newNode(g NodeGroup) NewNode {
	i := p.next[g.name()]
	p.next[g.name()] = i + 1
	return NewNode{Group: g.name(), Node: templateNode(g, fmt.Sprintf("template-node-for-%s-%d", g.name(), i))}
}

// templateNode copies g's template under the name, with its hostname
// label.
func templateNode(g NodeGroup, name string) *api.Node {
	n := *g.Template
	n.Name = name
	n.UID = ""
	n.Labels = maps.Clone(n.Labels)
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels["kubernetes.io/hostname"] = name
	return &n
}

// simulate schedules the pending pods, with Simulate, on a fork of the
// cluster with the nodes added.
func (p *planner) simulate(added []NewNode) ([]scheduler.Placement, error) {
	f, err := p.fork(added)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Simulate(p.ctx, p.pending)
}

func (p *planner) fork(added []NewNode) (*scheduler.Scheduler, error) {
	f, err := p.s.Fork()
	if err != nil {
		return nil, err
	}
	for _, n := range added {
		if err := f.AddNode(n.Node); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// unplaced returns the indexes of the wanted pods that stay pending.
func (p *planner) unplaced(placed []scheduler.Placement, want map[int]bool) []int {
	var out []int
	for i, pl := range placed {
		if want[i] && pl.Node == "" {
			out = append(out, i)
		}
	}
	return out
}

// helped marks in want the pods pending on the cluster as it is that a
// node of some group places, on the cluster after the others placed,
// and reports the others.
func (p *planner) helped(base []scheduler.Placement, want map[int]bool, out *ScaleUp) error {
	var stuck []int
	for i, pl := range base {
		if pl.Node == "" {
			stuck = append(stuck, i)
		}
	}
	if len(stuck) == 0 {
		return nil
	}
	reasons := make([]map[string]string, len(stuck))
	for _, g := range p.opt.Groups {
		f, err := p.s.Fork()
		if err != nil {
			return err
		}
		for _, pl := range base {
			if pl.Node != "" {
				if err := f.Assume(pl.Pod, pl.Node); err != nil {
					f.Close()
					return err
				}
			}
		}
		probe := templateNode(g, "template-node-for-"+g.name())
		if err := f.AddNode(probe); err != nil {
			f.Close()
			return err
		}
		for j, i := range stuck {
			pod := base[i].Pod
			_, err := f.Schedule(p.ctx, pod)
			if err == nil {
				want[i] = true
				continue
			}
			if reasons[j] == nil {
				reasons[j] = map[string]string{}
			}
			reasons[j][g.name()] = reasonOn(err, probe.Name)
		}
		f.Close()
	}
	for j, i := range stuck {
		if !want[i] {
			out.NotHelped = append(out.NotHelped, NotHelped{Pod: p.pending[i], Reasons: reasons[j]})
		}
	}
	return nil
}

// reasonOn is the reason the cycle's error gives for node.
func reasonOn(err error, node string) string {
	var fe *scheduler.FitError
	var ge *scheduler.GatedError
	switch {
	case errors.As(err, &fe):
		st := fe.Diagnosis.NodeToStatus.Get(node)
		if st == nil || st.IsSuccess() {
			return fe.Error()
		}
		return st.Plugin() + ": " + strings.Join(st.Reasons(), "; ")
	case errors.As(err, &ge):
		return ge.Error()
	}
	return err.Error()
}

// offer adds nodes of g one at a time to a fork of state (the cluster
// with the nodes so far and the pending pods placed), while the last one
// placed a pending pod, and returns what they place.
func (p *planner) offer(state *scheduler.Scheduler, g NodeGroup, left []int, room int) (offer, error) {
	o := offer{group: g}
	f, err := state.Fork()
	if err != nil {
		return o, err
	}
	defer f.Close()
	rest := make([]*api.Pod, len(left))
	for i, j := range left {
		rest[i] = p.pending[j]
	}
	var took []*api.Pod
	saved := maps.Clone(p.next)
	defer func() { p.next = saved }()
	for o.nodes < room && len(rest) > 0 {
		if err := f.AddNode(p.newNode(g).Node); err != nil {
			return o, err
		}
		placed, err := f.Simulate(p.ctx, rest)
		if err != nil {
			return o, err
		}
		var still []*api.Pod
		for _, pl := range placed {
			if pl.Node == "" {
				still = append(still, pl.Pod)
			} else {
				took = append(took, pl.Pod)
			}
		}
		if len(still) == len(rest) {
			break
		}
		o.nodes++
		rest = still
	}
	o.pods = len(took)
	o.waste = waste(took, g.Template, o.nodes)
	return o, nil
}

// waste is the least-waste expander's score: the idle share of the
// nodes' cpu capacity plus that of their memory, once the pods' cpu and
// memory requests (of their regular containers, as cluster-autoscaler
// sums them) are placed.
func waste(pods []*api.Pod, template *api.Node, nodes int) float64 {
	if nodes == 0 {
		return 0
	}
	var cpu, mem quantity.Quantity
	for _, p := range pods {
		for _, c := range p.Spec.Containers {
			if q, ok := c.Resources.Requests[api.ResourceCPU]; ok {
				cpu.Add(q)
			}
			if q, ok := c.Resources.Requests[api.ResourceMemory]; ok {
				mem.Add(q)
			}
		}
	}
	// A template without capacity is read by its allocatable.
	capacity := template.Status.Capacity
	if len(capacity) == 0 {
		capacity = template.Status.Allocatable
	}
	capCPU := capacity[api.ResourceCPU]
	capMem := capacity[api.ResourceMemory]
	availCPU := capCPU.MilliValue() * int64(nodes)
	availMem := capMem.Value() * int64(nodes)
	var w float64
	if availCPU > 0 {
		w += float64(availCPU-cpu.MilliValue()) / float64(availCPU)
	}
	if availMem > 0 {
		w += float64(availMem-mem.Value()) / float64(availMem)
	}
	return w
}

type priorities []struct {
	prio int
	res  []*regexp.Regexp
}

func compilePriorities(m map[int][]string) (priorities, error) {
	var out priorities
	for _, pr := range slices.Sorted(maps.Keys(m)) {
		e := struct {
			prio int
			res  []*regexp.Regexp
		}{prio: pr}
		for _, expr := range m[pr] {
			re, err := regexp.Compile(expr)
			if err != nil {
				return nil, fmt.Errorf("priority %d: %w", pr, err)
			}
			e.res = append(e.res, re)
		}
		out = append(out, e)
	}
	return out, nil
}

// of returns the highest priority whose patterns match the group's
// name, and whether any does.
func (ps priorities) of(name string) (int, bool) {
	best, found := 0, false
	for _, e := range ps {
		for _, re := range e.res {
			if re.MatchString(name) && (!found || e.prio > best) {
				best, found = e.prio, true
			}
		}
	}
	return best, found
}

// choose returns the index of the offer the expander picks, -1 for none.
func choose(opts []offer, e Expander, prio priorities) int {
	best := -1
	var bestPrio int
	for i, o := range opts {
		switch e {
		case LeastWaste:
			if best < 0 || o.waste < opts[best].waste {
				best = i
			}
		case MostPods:
			if best < 0 || o.pods > opts[best].pods {
				best = i
			}
		case Priority:
			pr, ok := prio.of(o.group.name())
			if ok && (best < 0 || pr > bestPrio) {
				best, bestPrio = i, pr
			}
		}
	}
	return best
}
