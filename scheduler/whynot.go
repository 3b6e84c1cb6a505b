package scheduler

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/taints"
)

// ChangeKind names what a Suggestion changes.
type ChangeKind string

// The changes WhyNot tries, the pod's own first.
const (
	// ChangeRequests lowers the pod's requests (Suggestion.Requests).
	ChangeRequests ChangeKind = "requests"
	// ChangeTolerations adds tolerations of the node's taints.
	ChangeTolerations ChangeKind = "tolerations"
	// ChangeHostPorts drops the pod's host ports the node has taken.
	ChangeHostPorts ChangeKind = "hostPorts"
	// ChangeNodeLabels sets or removes labels of the node, for the
	// pod's node selector or required node affinity, or for the zone
	// and node affinity of its bound volumes.
	ChangeNodeLabels ChangeKind = "nodeLabels"
	// ChangeUncordon uncordons the node.
	ChangeUncordon ChangeKind = "uncordon"
	// ChangeSpreadPods adds pods matching the pod's topology spread
	// constraints to the domains that need them for the node's domain
	// to be within maxSkew (Suggestion.Spread).
	ChangeSpreadPods ChangeKind = "spreadPods"
	// ChangeEvict evicts the pods preemption's dry run names there.
	ChangeEvict ChangeKind = "evict"
)

// SpreadNeed is how many more pods a topology domain needs for a node
// to satisfy a DoNotSchedule topology spread constraint.
type SpreadNeed struct {
	// TopologyKey and Value name the domain.
	TopologyKey string `json:"topologyKey"`
	Value       string `json:"value"`
	// Pods is how many more pods matching the constraint's selector it
	// needs; Node is a node of the domain they would go to (the one the
	// verification puts them on).
	Pods int    `json:"pods"`
	Node string `json:"node"`
}

// Suggestion is one change that makes a node feasible for a pod that
// fits nowhere, verified: with the change applied, the cycle's PreFilter
// and Filter steps pass on the node.
type Suggestion struct {
	// Node is the node the change makes feasible.
	Node string `json:"node"`
	// Kind is what changes; Text says it in a sentence.
	Kind ChangeKind `json:"kind"`
	Text string     `json:"text"`
	// Cost ranks changes: the lowest is the smallest. A change to the
	// pod costs less than one to the node, which costs less than
	// evicting pods; within a kind, less changed costs less.
	Cost int64 `json:"cost"`
	// Requests are the pod's new requests (ChangeRequests), as the
	// scheduler counts them for the whole pod.
	Requests api.ResourceList `json:"requests,omitempty"`
	// Tolerations are the tolerations to add (ChangeTolerations).
	Tolerations []api.Toleration `json:"tolerations,omitempty"`
	// HostPorts are the pod's host ports to drop (ChangeHostPorts).
	HostPorts []api.ContainerPort `json:"hostPorts,omitempty"`
	// Labels are the node labels to set and RemoveLabels those to
	// remove (ChangeNodeLabels).
	Labels       map[string]string `json:"labels,omitempty"`
	RemoveLabels []string          `json:"removeLabels,omitempty"`
	// Spread are the domains that need more matching pods
	// (ChangeSpreadPods).
	Spread []SpreadNeed `json:"spread,omitempty"`
	// Victims are the pods to evict (ChangeEvict), most important first.
	Victims []*api.Pod `json:"-"`
	// pod is the changed pod, for the pod's own changes.
	pod *api.Pod
	// node is the changed node, for the node's changes.
	node *api.Node
}

// WhyNot is, for a pod that fits no node, per node the smallest single
// change that makes the node feasible, and a count of why nodes fail.
type WhyNot struct {
	// Nodes hold one suggestion per node that a single verified change
	// makes feasible, in the explanation's node order. A node no single
	// change makes feasible is absent.
	Nodes []Suggestion `json:"nodes"`
	// Best is the cheapest of Nodes (the first of equals); nil when
	// Nodes is empty.
	Best *Suggestion `json:"best"`
	// Reasons count the failing nodes by reason, most nodes first (then
	// by reason): a resource exhausted, an untolerated taint, another
	// plugin's reason.
	Reasons []ReasonCount `json:"reasons"`
	// NotVerified counts the changes left untried because verifying
	// them needed PreFilter to run again more than MaxSandboxChecks
	// times: they change a label the cycle's PreFilter reads.
	NotVerified int `json:"notVerified,omitempty"`
}

// MaxSandboxChecks bounds the changes one WhyNot verifies by running
// PreFilter again on the changed cluster, each a pass over every node.
const MaxSandboxChecks = 64

// ReasonCount is how many nodes fail for one reason.
type ReasonCount struct {
	// Reason is "cpu exhausted", "taint dedicated=gpu:NoSchedule" or a
	// plugin's reason.
	Reason string `json:"reason"`
	Nodes  int    `json:"nodes"`
}

// Summary is the reasons in one line, as Nomad words them: "cpu
// exhausted on 12 nodes, memory exhausted on 3 nodes, taint
// dedicated=gpu:NoSchedule on 4 nodes".
func (w *WhyNot) Summary() string {
	var parts []string
	for _, r := range w.Reasons {
		parts = append(parts, fmt.Sprintf("%s on %d node%s", r.Reason, r.Nodes, plural(r.Nodes)))
	}
	return strings.Join(parts, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ExplainWhyNot is Explain, and for a pod that fits no node it fills
// in Explanation.WhyNot: per rejected node the smallest single change
// that makes it feasible. The candidates come from the node's verdict
// and the pod (lower a request to what is free, tolerate the node's
// taints, drop a host port it has taken, set or remove the labels a
// selector or required node affinity term needs, or that put the node
// where the pod's bound volumes are, add the pods matching a topology
// spread constraint that the domains below the node's need, uncordon
// it, evict the victims preemption's dry run names there). Each is
// verified by the cycle's PreFilter and Filter steps for the node with
// the change applied, and dropped if the node still fails. A change to
// the pod is PreFiltered anew; a change to the cluster is applied as
// preemption's dry run applies evictions, to copies of the node and of
// the PreFilter state through the PreFilter extensions, or, when it
// relabels a key PreFilter reads, to a copy of the cluster on which
// PreFilter runs again (at most MaxSandboxChecks times;
// WhyNot.NotVerified counts the changes left). The scheduler is left
// as Explain leaves it.
func (s *Scheduler) ExplainWhyNot(ctx context.Context, pod *api.Pod) (*Explanation, error) {
	ex, err := s.Explain(ctx, pod)
	if err != nil || ex.FeasibleNodes > 0 || ex.Node != "" || ex.PreEnqueue != nil {
		return ex, err
	}
	var fe *FitError
	if !errors.As(ex.Err, &fe) {
		return ex, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w, err := s.whyNot(ctx, ex)
	if err != nil {
		return nil, err
	}
	ex.WhyNot = w
	return ex, nil
}

// whyNot builds the WhyNot of an explanation whose pod fits no node.
func (s *Scheduler) whyNot(ctx context.Context, ex *Explanation) (*WhyNot, error) {
	w := &WhyNot{Nodes: []Suggestion{}, Reasons: []ReasonCount{}}
	view := s.snapshot.View()
	reasons := map[string]int{}
	// pre holds the PreFilter run of each changed pod, by change: a
	// change to the pod alone is the same for every node it names.
	pre := map[string]*preFilteredPod{}
	base := s.preFiltered(ctx, ex.Pod)
	sensitive := topologyKeys(ex.Pod, view)
	var sb *Scheduler
	sandboxChecks := 0
	defer func() {
		if sb != nil {
			sb.Close()
		}
	}()
	for i := range ex.Nodes {
		ne := &ex.Nodes[i]
		if ne.Status.IsSuccess() {
			continue
		}
		ni, ok := view.Get(ne.Name)
		if !ok {
			continue
		}
		for _, r := range failReasons(ex.Pod, ni, ne) {
			reasons[r]++
		}
		cands := candidates(ex.Pod, view, ni, ne)
		if len(cands) == 0 {
			continue
		}
		slices.SortStableFunc(cands, func(a, b Suggestion) int { return int(sign(a.Cost - b.Cost)) })
		for _, c := range cands {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// A change to the pod alone is verified against the cluster
			// as it is, PreFiltered once per distinct change.
			if !c.changesCluster() {
				key := string(c.Kind) + "\x00" + c.Text
				pf, ok := pre[key]
				if !ok {
					pf = s.preFiltered(ctx, c.pod)
					pre[key] = pf
				}
				if pf.feasibleOn(ctx, c.Node) {
					w.Nodes = append(w.Nodes, c)
					break
				}
				continue
			}
			// A change to the cluster is verified as preemption's dry run
			// verifies one: on copies of the node and of the PreFilter
			// state, through the PreFilter extensions. A change PreFilter
			// may have read otherwise (a topology label the pod's
			// constraints or the bound pods' anti-affinity name) is
			// verified in the sandbox, up to MaxSandboxChecks times.
			feasible, handled := false, false
			if !s.opts.sandboxOnly {
				feasible, handled = base.feasibleWith(ctx, &c, sensitive)
			}
			if !handled {
				if sandboxChecks == MaxSandboxChecks && !s.opts.sandboxOnly {
					w.NotVerified++
					continue
				}
				sandboxChecks++
				if sb == nil {
					var err error
					if sb, err = s.sandbox(); err != nil {
						return nil, err
					}
					defer sb.Close()
				}
				feasible = sb.verify(ctx, ex.Pod, &c)
			}
			if feasible {
				w.Nodes = append(w.Nodes, c)
				break
			}
		}
	}
	for i := range w.Nodes {
		if w.Best == nil || w.Nodes[i].Cost < w.Best.Cost {
			w.Best = &w.Nodes[i]
		}
	}
	for _, r := range slices.Sorted(maps.Keys(reasons)) {
		w.Reasons = append(w.Reasons, ReasonCount{Reason: r, Nodes: reasons[r]})
	}
	sort.SliceStable(w.Reasons, func(i, j int) bool { return w.Reasons[i].Nodes > w.Reasons[j].Nodes })
	return w, nil
}

// changesCluster reports whether c changes more than the pod: a node, the
// pods bound.
func (c *Suggestion) changesCluster() bool {
	return c.node != nil || len(c.Victims) > 0 || len(c.Spread) > 0
}

// verify applies c in the sandbox s, runs the cycle's PreFilter and
// Filter steps for the node and undoes the change.
func (s *Scheduler) verify(ctx context.Context, pod *api.Pod, c *Suggestion) bool {
	if c.pod != nil {
		pod = c.pod
	}
	var undo []func()
	defer func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}()
	if c.node != nil {
		ni, ok := s.snapshot.Get(c.Node)
		if !ok {
			return false
		}
		old := ni.Node()
		if err := s.snapshot.UpdateNode(c.node); err != nil {
			return false
		}
		undo = append(undo, func() { _ = s.snapshot.UpdateNode(old) })
	}
	for _, p := range spreadFillers(pod, c.Spread) {
		if err := s.snapshot.AddPod(p); err != nil {
			return false
		}
		undo = append(undo, func() { _ = s.snapshot.RemovePod(p) })
	}
	for _, v := range c.Victims {
		pi, node, ok := s.snapshot.Pod(v.Namespace, v.Name)
		if !ok || s.snapshot.RemovePod(v) != nil {
			return false
		}
		undo = append(undo, func() { _ = s.snapshot.AddPodInfo(pi, node) })
	}
	return s.feasibleOn(ctx, pod, c.Node)
}

// failReasons are the node's reasons for the summary: each resource
// NodeResourcesFit finds short ("cpu exhausted"), the first untolerated
// taint, or the failing plugin's reasons.
func failReasons(pod *api.Pod, ni *cluster.NodeInfo, ne *NodeExplanation) []string {
	var out []string
	switch ne.Status.Plugin() {
	case "NodeResourcesFit":
		for _, r := range ne.Status.Reasons() {
			switch {
			case strings.HasPrefix(r, "Insufficient "):
				out = append(out, strings.TrimPrefix(r, "Insufficient ")+" exhausted")
			case r == "Too many pods":
				out = append(out, "pods exhausted")
			default:
				out = append(out, r)
			}
		}
	case "TaintToleration":
		if t, ok := taints.FindUntolerated(ni.Node().Spec.Taints, pod.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute); ok {
			out = append(out, "taint "+taintText(t))
		}
	}
	if len(out) == 0 {
		out = ne.Status.Reasons()
	}
	return out
}

func taintText(t api.Taint) string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	return s + ":" + string(t.Effect)
}

// candidates are the single changes that may make the node feasible,
// from its verdict: the failing plugin says which to try. Evicting the
// preemption dry run's victims is tried for any node that has them.
func candidates(pod *api.Pod, view *cluster.View, ni *cluster.NodeInfo, ne *NodeExplanation) []Suggestion {
	var out []Suggestion
	node := ni.Node()
	name := node.Name
	switch ne.Status.Plugin() {
	case "NodeResourcesFit":
		if c, ok := lowerRequests(pod, ni); ok {
			out = append(out, c)
		}
	case "TaintToleration":
		var tols []api.Toleration
		var texts []string
		for _, t := range node.Spec.Taints {
			if t.Effect != api.TaintEffectNoSchedule && t.Effect != api.TaintEffectNoExecute {
				continue
			}
			if _, bad := taints.FindUntolerated([]api.Taint{t}, pod.Spec.Tolerations, t.Effect); !bad {
				continue
			}
			tol := api.Toleration{Key: t.Key, Operator: api.TolerationOpEqual, Value: t.Value, Effect: t.Effect}
			if t.Value == "" {
				tol.Operator, tol.Value = api.TolerationOpExists, ""
			}
			tols = append(tols, tol)
			texts = append(texts, taintText(t))
		}
		if len(tols) > 0 {
			p := changeablePod(pod)
			p.Spec.Tolerations = append(p.Spec.Tolerations, tols...)
			out = append(out, Suggestion{Node: name, Kind: ChangeTolerations, Cost: 200 + 10*int64(len(tols)),
				Text: "tolerate taint " + strings.Join(texts, ", "), Tolerations: tols, pod: p})
		}
	case "NodePorts":
		if c, ok := dropHostPorts(pod, ni); ok {
			out = append(out, c)
		}
	case "NodeAffinity":
		if c, ok := labelNode(pod, node); ok {
			out = append(out, c)
		}
	case "VolumeZone", "VolumeBinding":
		if c, ok := volumeLabels(pod, view.Objects(), node); ok {
			out = append(out, c)
		}
	case "PodTopologySpread":
		if c, ok := spreadPods(pod, view, node); ok {
			out = append(out, c)
		}
	case "NodeUnschedulable":
		n := *node // only the flag changes
		n.Spec.Unschedulable = false
		out = append(out, Suggestion{Node: name, Kind: ChangeUncordon, Cost: 500, Text: "uncordon node " + name, node: &n})
	}
	if np := ne.Preemption; np != nil && len(np.Victims) > 0 {
		var names []string
		for _, v := range np.Victims {
			names = append(names, v.Namespace+"/"+v.Name)
		}
		out = append(out, Suggestion{Node: name, Kind: ChangeEvict, Cost: 1000 + 100*int64(len(np.Victims)) + 1000*int64(np.NumPDBViolations),
			Text: "evict " + strings.Join(names, ", ") + " (preemption's choice)", Victims: np.Victims})
	}
	return out
}

// lowerRequests lowers each request of the pod the node cannot hold to
// what is free there; false when something other than a request is
// short (the pod count) or nothing is free.
func lowerRequests(pod *api.Pod, ni *cluster.NodeInfo) (Suggestion, bool) {
	reqs := resource.SchedulerRequests(pod)
	want := api.ResourceList{}
	var texts []string
	var cost int64
	for _, name := range slices.Sorted(maps.Keys(reqs)) {
		q := reqs[name]
		have := amount(name, q)
		free := ni.Allocatable.Get(name) - ni.Requested.Get(name)
		if have <= free {
			continue
		}
		if free <= 0 {
			return Suggestion{}, false
		}
		nq := quantityOf(name, free)
		want[name] = nq
		texts = append(texts, fmt.Sprintf("%s to %s (from %s)", name, nq.String(), q.String()))
		cost += 100 * (have - free) / have
	}
	if len(want) == 0 || int64(ni.NumPods())+1 > ni.Allocatable.AllowedPodNumber {
		return Suggestion{}, false
	}
	p := changeablePod(pod)
	for name, q := range want {
		setPodRequest(p, name, amount(name, reqs[name])-amount(name, q))
	}
	return Suggestion{Node: ni.Node().Name, Kind: ChangeRequests, Cost: cost, Text: "lower the request of " + strings.Join(texts, ", "), Requests: want, pod: p}, true
}

// amount is a quantity in scheduler units: millicores for cpu.
func amount(name api.ResourceName, q quantity.Quantity) int64 {
	if name == api.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

func quantityOf(name api.ResourceName, v int64) quantity.Quantity {
	switch name {
	case api.ResourceCPU:
		return quantity.NewMilliQuantity(v, quantity.DecimalSI)
	case api.ResourceMemory, api.ResourceEphemeralStorage:
		return quantity.NewQuantity(v, quantity.BinarySI)
	}
	return quantity.NewQuantity(v, quantity.DecimalSI)
}

// setPodRequest takes excess off the pod's request of name: off the
// pod-level request when there is one, else off the app containers'
// requests from the last, and caps the init containers at what the app
// containers then request.
func setPodRequest(p *api.Pod, name api.ResourceName, excess int64) {
	if r := p.Spec.Resources; r != nil {
		if q, ok := r.Requests[name]; ok {
			r.Requests[name] = quantityOf(name, max(0, amount(name, q)-excess))
			return
		}
	}
	target := amount(name, resource.SchedulerRequests(p)[name]) - excess
	rest := excess
	for i := len(p.Spec.Containers) - 1; i >= 0 && rest > 0; i-- {
		c := &p.Spec.Containers[i]
		q, ok := c.Resources.Requests[name]
		if !ok {
			continue
		}
		cut := min(rest, amount(name, q))
		c.Resources.Requests[name] = quantityOf(name, amount(name, q)-cut)
		rest -= cut
	}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		if q, ok := c.Resources.Requests[name]; ok && amount(name, q) > target {
			c.Resources.Requests[name] = quantityOf(name, max(0, target))
		}
	}
}

// dropHostPorts drops the pod's host ports that the node's pods hold.
func dropHostPorts(pod *api.Pod, ni *cluster.NodeInfo) (Suggestion, bool) {
	p := changeablePod(pod)
	var dropped []api.ContainerPort
	var texts []string
	for ci := range p.Spec.Containers {
		c := &p.Spec.Containers[ci]
		for pi := range c.Ports {
			port := &c.Ports[pi]
			if port.HostPort <= 0 || !ni.UsedPorts.CheckConflict(port.HostIP, protocolOf(port), port.HostPort) {
				continue
			}
			dropped = append(dropped, *port)
			texts = append(texts, fmt.Sprintf("%d/%s", port.HostPort, protocolOf(port)))
			port.HostPort = 0
		}
	}
	if len(dropped) == 0 {
		return Suggestion{}, false
	}
	return Suggestion{Node: ni.Node().Name, Kind: ChangeHostPorts, Cost: 300 + 10*int64(len(dropped)),
		Text: "host port " + strings.Join(texts, ", ") + " is taken on the node: drop it or pick a free one", HostPorts: dropped, pod: p}, true
}

func protocolOf(p *api.ContainerPort) api.Protocol {
	if p.Protocol == "" {
		return api.ProtocolTCP
	}
	return p.Protocol
}

// labelNode is the fewest label changes that make the node match the
// pod's node selector and one term of its required node affinity.
func labelNode(pod *api.Pod, node *api.Node) (Suggestion, bool) {
	set, remove := map[string]string{}, map[string]bool{}
	labels := maps.Clone(node.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	for k, v := range pod.Spec.NodeSelector {
		if cur, ok := labels[k]; !ok || cur != v {
			set[k], labels[k] = v, v
		}
	}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		var best map[string]*string
		for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			if len(term.MatchFields) > 0 && len(term.MatchExpressions) == 0 {
				continue
			}
			ch, ok := termChanges(term, labels)
			if ok && (best == nil || len(ch) < len(best)) {
				best = ch
			}
		}
		if best == nil {
			return Suggestion{}, false
		}
		for k, v := range best {
			if v == nil {
				remove[k] = true
				delete(set, k)
			} else {
				set[k] = *v
			}
		}
	}
	if len(set)+len(remove) == 0 {
		return Suggestion{}, false
	}
	return nodeLabelChange(node, set, remove), true
}

// nodeLabelChange is the suggestion to set and remove node labels.
func nodeLabelChange(node *api.Node, set map[string]string, remove map[string]bool) Suggestion {
	n := *node // only the labels change
	n.Labels = maps.Clone(node.Labels)
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	var texts []string
	for _, k := range slices.Sorted(maps.Keys(set)) {
		n.Labels[k] = set[k]
		texts = append(texts, k+"="+set[k])
	}
	rm := slices.Sorted(maps.Keys(remove))
	for _, k := range rm {
		delete(n.Labels, k)
		texts = append(texts, k+"-")
	}
	return Suggestion{Node: node.Name, Kind: ChangeNodeLabels, Cost: 400 + 10*int64(len(texts)),
		Text: "label node " + node.Name + " " + strings.Join(texts, " "), Labels: set, RemoveLabels: rm, node: &n}
}

// termChanges are the label changes (nil: remove) that make labels
// match term; false when no label change can (a field selector).
func termChanges(term api.NodeSelectorTerm, labels map[string]string) (map[string]*string, bool) {
	if len(term.MatchFields) > 0 {
		return nil, false
	}
	ch := map[string]*string{}
	for _, r := range term.MatchExpressions {
		v, has := labels[r.Key]
		switch r.Operator {
		case api.NodeSelectorOpIn:
			if !has || !slices.Contains(r.Values, v) {
				if len(r.Values) == 0 {
					return nil, false
				}
				ch[r.Key] = &r.Values[0]
			}
		case api.NodeSelectorOpNotIn:
			if has && slices.Contains(r.Values, v) {
				ch[r.Key] = nil
			}
		case api.NodeSelectorOpExists:
			if !has {
				empty := ""
				ch[r.Key] = &empty
			}
		case api.NodeSelectorOpDoesNotExist:
			if has {
				ch[r.Key] = nil
			}
		case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
			if len(r.Values) != 1 {
				return nil, false
			}
			bound, err := strconv.ParseInt(r.Values[0], 10, 64)
			if err != nil {
				return nil, false
			}
			n, err := strconv.ParseInt(v, 10, 64)
			ok := has && err == nil && ((r.Operator == api.NodeSelectorOpGt && n > bound) || (r.Operator == api.NodeSelectorOpLt && n < bound))
			if !ok {
				next := bound + 1
				if r.Operator == api.NodeSelectorOpLt {
					next = bound - 1
				}
				s := strconv.FormatInt(next, 10)
				ch[r.Key] = &s
			}
		default:
			return nil, false
		}
	}
	return ch, true
}

// spreadPods is how many more matching pods the domains below the
// node's need, per DoNotSchedule constraint the node's domain breaks:
// with c pods matching in the node's domain, every eligible domain needs
// at least c+1-maxSkew. Eligible nodes are those the constraint counts
// (the pod's required node affinity unless nodeAffinityPolicy is
// Ignore, tolerated taints when nodeTaintsPolicy is Honor). A constraint
// whose minDomains is not met cannot be fixed this way.
func spreadPods(pod *api.Pod, view *cluster.View, node *api.Node) (Suggestion, bool) {
	req := affinity.GetRequiredNodeAffinity(pod)
	var needs []SpreadNeed
	for _, c := range pod.Spec.TopologySpreadConstraints {
		if c.WhenUnsatisfiable != api.DoNotSchedule || c.MaxSkew < 1 {
			continue
		}
		value, ok := node.Labels[c.TopologyKey]
		if !ok {
			continue
		}
		sel, err := affinity.CompileLabelSelector(c.LabelSelector)
		if err != nil {
			return Suggestion{}, false
		}
		for _, k := range c.MatchLabelKeys {
			if v, ok := pod.Labels[k]; ok {
				r, err := affinity.NewRequirement(k, affinity.OpIn, []string{v})
				if err != nil {
					return Suggestion{}, false
				}
				sel = sel.Add(r)
			}
		}
		if !sel.Matches(pod.Labels) {
			// The pods to add are copies of the pod's labels, which
			// would not count.
			continue
		}
		counts, first := map[string]int{}, map[string]string{}
		for _, ni := range view.Nodes() {
			n := ni.Node()
			v, has := n.Labels[c.TopologyKey]
			if !has {
				continue
			}
			if c.NodeAffinityPolicy == nil || *c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor {
				if ok, _ := req.Match(n); !ok {
					continue
				}
			}
			if c.NodeTaintsPolicy != nil && *c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor {
				if _, bad := taints.FindUntolerated(n.Spec.Taints, pod.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute); bad {
					continue
				}
			}
			if _, seen := first[v]; !seen {
				first[v], counts[v] = n.Name, 0
			}
			for _, p := range ni.Pods {
				if p.Pod.Namespace == pod.Namespace && p.Pod.DeletionTimestamp == nil && sel.Matches(p.Pod.Labels) {
					counts[v]++
				}
			}
		}
		if _, ok := counts[value]; !ok {
			continue
		}
		if c.MinDomains != nil && len(counts) < int(*c.MinDomains) {
			return Suggestion{}, false
		}
		target := counts[value] + 1 - int(c.MaxSkew)
		for _, v := range slices.Sorted(maps.Keys(counts)) {
			if counts[v] < target {
				needs = append(needs, SpreadNeed{TopologyKey: c.TopologyKey, Value: v, Pods: target - counts[v], Node: first[v]})
			}
		}
	}
	if len(needs) == 0 {
		return Suggestion{}, false
	}
	var texts []string
	total := 0
	for _, n := range needs {
		texts = append(texts, fmt.Sprintf("%s=%s needs %d more matching pod%s", n.TopologyKey, n.Value, n.Pods, plural(n.Pods)))
		total += n.Pods
	}
	return Suggestion{Node: node.Name, Kind: ChangeSpreadPods, Cost: 600 + 10*int64(total),
		Text: "topology spread: " + strings.Join(texts, ", "), Spread: needs}, true
}

// spreadFillers are the pods the verification adds for needs: copies of
// pod's labels in its namespace, requesting nothing, on each domain's
// node.
func spreadFillers(pod *api.Pod, needs []SpreadNeed) []*api.Pod {
	var out []*api.Pod
	for _, n := range needs {
		for i := range n.Pods {
			name := fmt.Sprintf("%s-whynot-%s-%s-%d", pod.Name, n.TopologyKey, n.Value, i)
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: pod.Namespace, Labels: pod.Labels}}
			p.Spec.NodeName = n.Node
			p.Spec.Containers = []api.Container{{Name: "c"}}
			out = append(out, p)
		}
	}
	return out
}

// volumeZoneKeys are the zone and region labels of a volume VolumeZone
// matches against the node's, each with its current form.
var volumeZoneKeys = [...][2]string{
	{"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"},
	{"failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"},
	{"topology.kubernetes.io/zone", "topology.kubernetes.io/zone"},
	{"topology.kubernetes.io/region", "topology.kubernetes.io/region"},
}

// volumeLabels are the node labels that would put the node where the
// pod's bound volumes are: each zone or region label of the volume the
// node does not match, and the changes to one term of the volume's
// required node affinity.
func volumeLabels(pod *api.Pod, objs *cluster.Objects, node *api.Node) (Suggestion, bool) {
	set, remove := map[string]string{}, map[string]bool{}
	labels := maps.Clone(node.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	var volumes []string
	for _, v := range pod.Spec.Volumes {
		src := v.PersistentVolumeClaim
		if src == nil {
			continue
		}
		pvc, ok := cluster.GetObject[api.PersistentVolumeClaim](objs, pod.Namespace, src.ClaimName)
		if !ok || pvc.Spec.VolumeName == "" {
			continue
		}
		pv, ok := cluster.GetObject[api.PersistentVolume](objs, "", pvc.Spec.VolumeName)
		if !ok {
			continue
		}
		changed := false
		for _, keys := range volumeZoneKeys {
			value, ok := pv.Labels[keys[0]]
			if !ok {
				continue
			}
			zones := strings.Split(value, "__")
			key := keys[0]
			if _, has := labels[key]; !has {
				key = keys[1]
			}
			if cur, has := labels[key]; !has || !slices.Contains(zones, cur) {
				set[key], labels[key] = zones[0], zones[0]
				changed = true
			}
		}
		if na := pv.Spec.NodeAffinity; na != nil && na.Required != nil {
			var best map[string]*string
			for _, term := range na.Required.NodeSelectorTerms {
				if ch, ok := termChanges(term, labels); ok && (best == nil || len(ch) < len(best)) {
					best = ch
				}
			}
			for k, v := range best {
				changed = true
				if v == nil {
					remove[k] = true
					delete(set, k)
					delete(labels, k)
				} else {
					set[k], labels[k] = *v, *v
				}
			}
		}
		if changed {
			volumes = append(volumes, pv.Name)
		}
	}
	if len(set)+len(remove) == 0 {
		return Suggestion{}, false
	}
	sg := nodeLabelChange(node, set, remove)
	sg.Text += " (where volume " + strings.Join(volumes, ", ") + " is)"
	return sg, true
}

// changeablePod is a copy of pod whose containers' requests and ports,
// pod-level requests and tolerations may be changed without touching
// pod: the parts a suggestion changes are copied, the rest shared. It
// is much cheaper than DeepCopy, once per node of a large cluster.
func changeablePod(pod *api.Pod) *api.Pod {
	p := *pod
	p.Spec.Tolerations = slices.Clip(p.Spec.Tolerations)
	p.Spec.Containers = slices.Clone(p.Spec.Containers)
	p.Spec.InitContainers = slices.Clone(p.Spec.InitContainers)
	for _, cs := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			cs[i].Resources.Requests = maps.Clone(cs[i].Resources.Requests)
			cs[i].Ports = slices.Clone(cs[i].Ports)
		}
	}
	if r := p.Spec.Resources; r != nil {
		rc := *r
		rc.Requests = maps.Clone(r.Requests)
		p.Spec.Resources = &rc
	}
	return &p
}

// topologyKeys are the node labels the cycle's PreFilter may read for
// pod beyond a node's own verdict: the topology keys of its spread
// constraints and pod (anti-)affinity terms, and of the required
// anti-affinity of the pods bound; with spread constraints, also the
// keys of its node selector and required node affinity, which decide
// the nodes a constraint counts.
func topologyKeys(pod *api.Pod, view *cluster.View) map[string]bool {
	keys := map[string]bool{}
	for _, c := range pod.Spec.TopologySpreadConstraints {
		keys[c.TopologyKey] = true
	}
	if len(pod.Spec.TopologySpreadConstraints) > 0 {
		for k := range pod.Spec.NodeSelector {
			keys[k] = true
		}
		if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
				for _, r := range t.MatchExpressions {
					keys[r.Key] = true
				}
			}
		}
	}
	if a := pod.Spec.Affinity; a != nil {
		if pa := a.PodAffinity; pa != nil {
			for _, t := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				keys[t.TopologyKey] = true
			}
		}
		if pa := a.PodAntiAffinity; pa != nil {
			for _, t := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				keys[t.TopologyKey] = true
			}
		}
	}
	for _, ni := range view.HavePodsWithRequiredAntiAffinityNodes() {
		for _, p := range ni.PodsWithRequiredAntiAffinity {
			for _, t := range p.RequiredAntiAffinityTerms {
				keys[t.TopologyKey] = true
			}
		}
	}
	return keys
}
