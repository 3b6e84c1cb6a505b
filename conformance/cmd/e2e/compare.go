package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// disagreement is one line of the report.
type disagreement struct {
	// subject is "Kind ns/name", field what differs.
	subject, field string
	upstream       string
	schedkit       string
	// cause groups the line in the summary.
	cause string
}

func (d disagreement) String() string {
	return fmt.Sprintf("%s: %s: upstream %s, schedkit %s", d.subject, d.field, d.upstream, d.schedkit)
}

// prefix is the line up to the values, which stay the same from run to
// run when upstream breaks a tie at random.
func (d disagreement) prefix() string { return d.subject + ": " + d.field + ":" }

type comparer struct {
	out []disagreement
	// trace, when set, receives each step of the lockstep replay.
	trace func(format string, args ...any)
}

func (c *comparer) add(cause, subject, field, up, sk string) {
	c.out = append(c.out, disagreement{subject: subject, field: field, upstream: up, schedkit: sk, cause: cause})
}

// compareAdmission compares the API server's verdict on every input
// object with schedkit's. A pod schedkit's expansion made and its
// admission refused is compared with the refusals upstream's
// controller reported (FailedCreate events of the owner), by message
// with the random pod name blanked. It returns the groups (see
// podGroup) where schedkit refused a pod and the input objects upstream
// refused: the pods missing there are not reported again.
func (c *comparer) compareAdmission(verdicts []verdict, sk *skCluster, events []v1.Event) (skippedGroups, upRejected map[string]bool) {
	skippedGroups, upRejected = map[string]bool{}, map[string]bool{}
	input := map[string]bool{}
	for _, v := range verdicts {
		input[v.obj.key()] = true
		if v.err != "" {
			upRejected[v.obj.key()] = true
		}
	}
	rej := map[string]string{}
	// Refusals of expanded pods, by owner: the messages, names blanked.
	expanded := map[string]map[string]bool{}
	subjects := map[string]string{}
	for _, r := range sk.Rejections() {
		key := r.Kind + " " + r.Namespace + "/" + r.Name
		var p v1.Pod
		_ = json.Unmarshal(r.JSON, &p)
		if p.Namespace == "" {
			p.Namespace = "default"
		}
		g, _ := podGroup(&p)
		skippedGroups[g] = true
		if input[key] {
			rej[key] = r.Message
			continue
		}
		ref := metav1.GetControllerOf(&p)
		owner := "(no owner)"
		if ref != nil {
			owner = p.Namespace + " " + ref.Kind + " " + ref.Name
		}
		if expanded[owner] == nil {
			expanded[owner] = map[string]bool{}
		}
		expanded[owner][blankPodName(r.Message)] = true
		if ref != nil {
			subjects[owner] = "Pod " + p.Namespace + "/* of " + ref.Kind + " " + ref.Name
		} else {
			subjects[owner] = podSubject(&p)
		}
	}
	for _, v := range verdicts {
		key := v.obj.key()
		sm, skRejected := rej[key]
		switch {
		case v.err == "" && !skRejected:
		case v.err != "" && !skRejected:
			c.add("admission", key, "admission", strconv.Quote(v.err), "accepted")
		case v.err == "" && skRejected:
			c.add("admission", key, "admission", "accepted", strconv.Quote(sm))
		case v.err != sm:
			c.add("admission", key, "admission error", strconv.Quote(v.err), strconv.Quote(sm))
		}
	}
	// Upstream's controllers' refusals.
	upExpanded := map[string]map[string]bool{}
	for _, e := range events {
		if e.Reason != "FailedCreate" {
			continue
		}
		owner := e.InvolvedObject.Namespace + " " + e.InvolvedObject.Kind + " " + e.InvolvedObject.Name
		if upExpanded[owner] == nil {
			upExpanded[owner] = map[string]bool{}
		}
		msg := strings.TrimPrefix(e.Message, "(combined from similar events): ")
		upExpanded[owner][blankPodName(strings.TrimPrefix(msg, "Error creating: "))] = true
		if _, ok := subjects[owner]; !ok {
			subjects[owner] = "Pod " + e.InvolvedObject.Namespace + "/* of " + e.InvolvedObject.Kind + " " + e.InvolvedObject.Name
		}
	}
	owners := make([]string, 0, len(subjects))
	for o := range subjects {
		owners = append(owners, o)
	}
	sort.Strings(owners)
	for _, o := range owners {
		a, b := setString(upExpanded[o]), setString(expanded[o])
		if a != b {
			c.add("admission", subjects[o], "controller's pod creation refused", a, b)
		}
	}
	return skippedGroups, upRejected
}

// blankPodName replaces the pod's name in an admission message, random
// for a controller's pods, by "*".
func blankPodName(msg string) string {
	const p = `pods "`
	i := strings.Index(msg, p)
	if i < 0 {
		return msg
	}
	j := strings.Index(msg[i+len(p):], `"`)
	if j < 0 {
		return msg
	}
	return msg[:i+len(p)] + "*" + msg[i+len(p)+j:]
}

func setString(m map[string]bool) string {
	if len(m) == 0 {
		return "none"
	}
	var l []string
	for k := range m {
		l = append(l, strconv.Quote(k))
	}
	sort.Strings(l)
	return "[" + strings.Join(l, ", ") + "]"
}

// podGroup is how a pod is matched across the two sides: its
// controller and the slot the controller made it for (a StatefulSet's
// ordinal, a DaemonSet's node, an Indexed Job's index), or its own name.
func podGroup(p *v1.Pod) (group, slot string) {
	ref := metav1.GetControllerOf(p)
	if ref == nil {
		if p.GenerateName != "" && strings.HasPrefix(p.Name, p.GenerateName) {
			return p.Namespace + " generateName " + p.GenerateName, ""
		}
		return p.Namespace + " pod", p.Name
	}
	group = p.Namespace + " " + ref.Kind + " " + ref.Name
	switch ref.Kind {
	case "StatefulSet":
		return group, p.Name
	case "DaemonSet":
		return group, daemonNode(p)
	case "Job":
		return group, p.Annotations["batch.kubernetes.io/job-completion-index"]
	}
	return group, ""
}

// daemonNode is the node a DaemonSet pod's node affinity names.
func daemonNode(p *v1.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range t.MatchFields {
			if f.Key == "metadata.name" && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// podSubject names a pod in a report line: by name when the name is
// the controller's deterministic one, else by its group and slot.
func podSubject(p *v1.Pod) string {
	g, slot := podGroup(p)
	ref := metav1.GetControllerOf(p)
	random := p.GenerateName != "" && strings.HasPrefix(p.Name, p.GenerateName)
	if ref != nil && ref.Kind == "StatefulSet" {
		// An ordinal, not a random suffix.
		random = false
	}
	if ref == nil || !random {
		if random {
			return "Pod " + p.Namespace + "/" + p.GenerateName + "*"
		}
		return "Pod " + p.Namespace + "/" + p.Name
	}
	_ = g
	s := "Pod " + p.Namespace + "/" + p.GenerateName + "* of " + ref.Kind + " " + ref.Name
	if slot != "" {
		s += " [" + slot + "]"
	}
	return s
}

// pair is an upstream pod and its schedkit counterpart.
type pair struct {
	up *v1.Pod
	sk *skPod
	// skv is sk decoded into client-go's type.
	skv *v1.Pod
}

// matchPods pairs upstream's pods with schedkit's by group and slot;
// within a group and slot, in upstream's binding order and schedkit's
// queue order. It reports pods only one side has.
func (c *comparer) matchPods(up []*v1.Pod, sk []*skPod, skippedGroups, upRejected map[string]bool) (map[string]*pair, error) {
	type skEntry struct {
		sp *skPod
		p  *v1.Pod
	}
	bySlot := map[string][]skEntry{}
	var order []string
	for _, sp := range sk {
		var p v1.Pod
		if err := json.Unmarshal(sp.JSON, &p); err != nil {
			return nil, fmt.Errorf("schedkit pod: %w", err)
		}
		if p.Namespace == "" {
			p.Namespace = "default"
		}
		g, s := podGroup(&p)
		k := g + "\x00" + s
		if len(bySlot[k]) == 0 {
			order = append(order, k)
		}
		bySlot[k] = append(bySlot[k], skEntry{sp, &p})
	}
	pairs := map[string]*pair{}
	for _, u := range up {
		g, s := podGroup(u)
		k := g + "\x00" + s
		es := bySlot[k]
		if len(es) == 0 {
			if !skippedGroups[g] {
				c.add("pods", podSubject(u), "exists", "yes ("+u.Name+")", "no")
			}
			continue
		}
		bySlot[k] = es[1:]
		pairs[u.Namespace+"/"+u.Name] = &pair{up: u, sk: es[0].sp, skv: es[0].p}
	}
	for _, k := range order {
		for _, e := range bySlot[k] {
			if upRejected["Pod "+e.p.Namespace+"/"+e.p.Name] {
				continue
			}
			c.add("pods", podSubject(e.p), "exists", "no", "yes ("+e.p.Name+")")
		}
	}
	return pairs, nil
}

// compareEffective compares what admission made of each pod: requests,
// limits, tolerations, priority, scheduler name, preemption policy.
func (c *comparer) compareEffective(pairs map[string]*pair) {
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		pr := pairs[k]
		u, s := pr.up, pr.skv
		subj := podSubject(u)
		cmpContainers := func(what string, uc, sc []v1.Container) {
			for i := range uc {
				if i >= len(sc) {
					c.add("effective pod", subj, fmt.Sprintf("%s[%s]", what, uc[i].Name), "present", "absent")
					continue
				}
				if a, b := resources(uc[i].Resources), resources(sc[i].Resources); a != b {
					c.add("effective pod", subj, fmt.Sprintf("%s[%s].resources", what, uc[i].Name), a, b)
				}
			}
		}
		cmpContainers("containers", u.Spec.Containers, s.Spec.Containers)
		cmpContainers("initContainers", u.Spec.InitContainers, s.Spec.InitContainers)
		if a, b := podResources(u.Spec.Resources), podResources(s.Spec.Resources); a != b {
			c.add("effective pod", subj, "spec.resources", a, b)
		}
		if a, b := list(u.Spec.Overhead), list(s.Spec.Overhead); a != b {
			c.add("effective pod", subj, "spec.overhead", a, b)
		}
		uTol := u.Spec.Tolerations
		if pr.sk.stored {
			uTol = withoutDefaultTolerations(uTol, s.Spec.Tolerations)
		}
		if a, b := tolerations(uTol), tolerations(s.Spec.Tolerations); a != b {
			c.add("effective pod", subj, "spec.tolerations", a, b)
		}
		if a, b := int32s(u.Spec.Priority), int32s(s.Spec.Priority); a != b {
			c.add("effective pod", subj, "spec.priority", a, b)
		}
		if a, b := u.Spec.SchedulerName, orDefault(s.Spec.SchedulerName, "default-scheduler"); a != b {
			c.add("effective pod", subj, "spec.schedulerName", a, b)
		}
		if a, b := policy(u.Spec.PreemptionPolicy), policy(s.Spec.PreemptionPolicy); a != b {
			c.add("effective pod", subj, "spec.preemptionPolicy", a, b)
		}
	}
}

// withoutDefaultTolerations drops from up the tolerations that the
// DefaultTolerationSeconds admission plugin adds on create (not-ready and
// unreachable, NoExecute, 300 s) and that sk lacks. The runner creates a
// stored pod anew, so the plugin adds them, but a stored pod's admission
// happened in the cluster it was read from, and schedkit takes it as it
// is; a bound pod's tolerations decide nothing for other pods.
func withoutDefaultTolerations(up, sk []v1.Toleration) []v1.Toleration {
	has := func(key string) bool {
		for _, t := range sk {
			if t.Key == key && t.Effect == v1.TaintEffectNoExecute {
				return true
			}
		}
		return false
	}
	var out []v1.Toleration
	for _, t := range up {
		added := (t.Key == v1.TaintNodeNotReady || t.Key == v1.TaintNodeUnreachable) &&
			t.Operator == v1.TolerationOpExists && t.Effect == v1.TaintEffectNoExecute &&
			t.TolerationSeconds != nil && *t.TolerationSeconds == 300
		if added && !has(t.Key) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func policy(p *v1.PreemptionPolicy) string {
	if p == nil {
		return string(v1.PreemptLowerPriority)
	}
	return string(*p)
}

func int32s(p *int32) string {
	if p == nil {
		return "unset"
	}
	return strconv.Itoa(int(*p))
}

// list prints a resource list canonically: sorted names, canonical
// quantities.
func list(l v1.ResourceList) string {
	if len(l) == 0 {
		return "{}"
	}
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, string(n))
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("{")
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		q := l[v1.ResourceName(n)]
		q = resource.MustParse(q.String())
		b.WriteString(n + ": " + q.String())
	}
	b.WriteString("}")
	return b.String()
}

func resources(r v1.ResourceRequirements) string {
	return "requests " + list(r.Requests) + " limits " + list(r.Limits)
}

func podResources(r *v1.ResourceRequirements) string {
	if r == nil {
		return "unset"
	}
	return resources(*r)
}

func tolerations(ts []v1.Toleration) string {
	var out []string
	for _, t := range ts {
		op := t.Operator
		if op == "" {
			op = v1.TolerationOpEqual
		}
		s := fmt.Sprintf("%s %s %s %s", t.Key, op, t.Value, t.Effect)
		if t.TolerationSeconds != nil {
			s += fmt.Sprintf(" %ds", *t.TolerationSeconds)
		}
		out = append(out, strings.TrimSpace(s))
	}
	sort.Strings(out)
	return "[" + strings.Join(out, "; ") + "]"
}

// compareObjects checks that every object upstream's controllers made
// that the scheduler reads is in schedkit's store, and the reverse.
func (c *comparer) compareObjects(kind string, upstream []string, sk *skCluster, inputCRs []string, rename func(string) string) {
	names, ok := sk.StoreObjects(kind)
	if !ok {
		names = inputCRs
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	seen := map[string]bool{}
	for _, n := range upstream {
		if rename != nil {
			n = rename(n)
		}
		seen[n] = true
		if !have[n] {
			where := "no"
			if !ok {
				where = "no (schedkit's store holds no " + kind + ")"
			}
			c.add("objects", kind+" "+n, "exists", "yes", where)
		}
	}
	for _, n := range names {
		if !seen[n] {
			c.add("objects", kind+" "+n, "exists", "no", "yes")
		}
	}
}

// lockstep replays upstream's history (see timeline) on schedkit: each
// pod's node must be among schedkit's tied best nodes for it at the
// point upstream reserved it; then schedkit assumes it there.
func (c *comparer) lockstep(ctx context.Context, sk *skCluster, events []podEvent, pairs map[string]*pair, final map[string]*v1.Pod) error {
	skName := func(key string) string {
		if pr := pairs[key]; pr != nil {
			return pr.skv.Namespace + "/" + pr.skv.Name
		}
		return key
	}
	kinds := [...]string{evBind: "reserve", evNominate: "nominate", evDelete: "delete", evUnreserve: "unreserve", evGone: "gone"}
	for _, ev := range events {
		pr := pairs[ev.key]
		if c.trace != nil {
			c.trace("%s %s %s %s", ev.at.Format("15:04:05.000000"), kinds[ev.kind], ev.key, ev.node)
		}
		switch ev.kind {
		case evBind:
			if pr == nil {
				continue
			}
			v, err := sk.Explain(ctx, pr.sk)
			if err != nil {
				return err
			}
			if c.trace != nil {
				c.trace("  schedkit: node %q tied %v fit error %q nominated %q victims %v", v.Node, v.Tied, v.FitError, v.Nominated, v.Victims)
			}
			subj := podSubject(pr.up)
			n := len(c.out)
			switch {
			case v.Node == "" && v.Nominated != "":
				c.add("placement", subj, "placement", ev.node, "preempts on "+v.Nominated+" evicting "+strings.Join(v.Victims, ", "))
			case v.Node == "":
				c.add("placement", subj, "placement", ev.node, "unschedulable: "+strconv.Quote(v.FitError))
			case v.Node != ev.node && !slices.Contains(v.Tied, ev.node):
				c.add("placement", subj, "placement", ev.node, "one of ["+strings.Join(v.Tied, " ")+"]")
			}
			if err := sk.Assume(pr.sk, ev.node); err != nil && len(c.out) == n {
				c.add("placement", subj, "assume", ev.node, "error: "+err.Error())
			}
		case evNominate:
			// A nomination without victims is the scheduler announcing
			// a binding that waits (a volume's provisioning), not a
			// preemption.
			if pr == nil || len(ev.victims) == 0 {
				continue
			}
			v, err := sk.Explain(ctx, pr.sk)
			if err != nil {
				return err
			}
			subj := podSubject(pr.up)
			if v.Nominated != ev.node {
				got := v.Nominated
				if got == "" && v.Node != "" {
					got = "fits on " + v.Node
				} else if got == "" {
					got = "no nomination: " + strconv.Quote(v.FitError)
				}
				c.add("preemption", subj, "nominated node", ev.node, got)
			}
			var want []string
			for _, k := range ev.victims {
				want = append(want, skName(k))
			}
			sort.Strings(want)
			got := slices.Clone(v.Victims)
			sort.Strings(got)
			if !slices.Equal(want, got) && v.Nominated == ev.node {
				c.add("preemption", subj, "victims", "["+strings.Join(want, " ")+"]", "["+strings.Join(got, " ")+"]")
			}
			if err := sk.Nominate(ctx, pr.sk, ev.node); err != nil {
				return err
			}
		case evGone, evUnreserve:
			ns, name, _ := strings.Cut(skName(ev.key), "/")
			if _, err := sk.RemovePod(ns, name); err != nil {
				return err
			}
		}
	}
	// Pods upstream left Pending: schedkit must find no node either,
	// with the same fit error.
	keys := make([]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		pr := pairs[k]
		u := final[k]
		if u == nil || u.Spec.NodeName != "" || pr.up.Spec.NodeName != "" {
			continue
		}
		v, err := sk.Explain(ctx, pr.sk)
		if err != nil {
			return err
		}
		subj := podSubject(u)
		msg := scheduledMessage(u)
		switch {
		case u.Status.NominatedNodeName != "":
			// Waiting for its victims: the nomination was compared.
		case v.Node != "":
			c.add("placement", subj, "placement", "Pending: "+strconv.Quote(msg), v.Node)
		case msg != v.FitError:
			c.add("placement", subj, "fit error", strconv.Quote(msg), strconv.Quote(v.FitError))
		}
	}
	return nil
}

// scheduledMessage is the message of the pod's PodScheduled condition.
func scheduledMessage(p *v1.Pod) string {
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodScheduled {
			if c.Message == "" {
				return "(" + string(c.Status) + " " + c.Reason + ")"
			}
			return c.Message
		}
	}
	return "(not tried)"
}

// ownedBy lists the names (namespace/name) of the ReplicaSets with a
// controller of kind.
func ownedReplicaSets(l []appsv1.ReplicaSet) []string {
	var out []string
	for _, rs := range l {
		out = append(out, rs.Namespace+"/"+rs.Name)
	}
	return out
}
