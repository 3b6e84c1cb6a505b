package framework

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// NodeToStatus holds the filter status of each rejected node of a cycle,
// and one status for every node without an entry (the absent nodes):
// those cut by a PreFilterResult, or all nodes when PreFilter rejected the
// pod. Nodes that passed Filter have no entry. It implements
// NodeToStatusReader.
type NodeToStatus struct {
	statuses map[string]*Status
	absent   *Status
	// hint sizes the map when the first entry comes (NewNodeToStatusFor).
	hint int
}

// NewNodeToStatusFor returns an empty NodeToStatus for a cycle over up
// to n nodes, with absent the status of the nodes without an entry. Its
// map is made, sized for n entries, when the first node gets one: a
// cycle in which every node passes Filter allocates nothing, and one
// that rejects many nodes does not rehash the map as it grows.
func NewNodeToStatusFor(n int, absent *Status) *NodeToStatus {
	return &NodeToStatus{absent: absent, hint: n}
}

// NewDefaultNodeToStatus returns an empty NodeToStatus whose absent nodes
// are UnschedulableAndUnresolvable, as kube-scheduler's.
func NewDefaultNodeToStatus() *NodeToStatus {
	return &NodeToStatus{absent: NewStatus(UnschedulableAndUnresolvable)}
}

// Reset empties m for another cycle, keeping its memory, with absent
// the status of the nodes it has no entry for. Nothing may read m after
// Reset.
func (m *NodeToStatus) Reset(absent *Status) {
	clear(m.statuses)
	m.absent = absent
}

// NewNodeToStatus returns a NodeToStatus with the given entries and absent
// status. The map is used, not copied.
func NewNodeToStatus(statuses map[string]*Status, absent *Status) *NodeToStatus {
	return &NodeToStatus{statuses: statuses, absent: absent}
}

// Get returns the status of the named node, the absent status if it has
// no entry.
func (m *NodeToStatus) Get(nodeName string) *Status {
	if s, ok := m.statuses[nodeName]; ok {
		return s
	}
	return m.absent
}

// Set records the status of a node.
func (m *NodeToStatus) Set(nodeName string, s *Status) {
	if m.statuses == nil {
		m.statuses = make(map[string]*Status, m.hint)
	}
	m.statuses[nodeName] = s
}

// Len is the number of nodes with an entry; absent nodes are not counted.
func (m *NodeToStatus) Len() int { return len(m.statuses) }

// AbsentNodesStatus returns the status of nodes without an entry.
func (m *NodeToStatus) AbsentNodesStatus() *Status { return m.absent }

// SetAbsentNodesStatus sets the status of nodes without an entry.
func (m *NodeToStatus) SetAbsentNodesStatus(s *Status) { m.absent = s }

// ForEachExplicitNode calls fn for every node with an entry, in node name
// order.
func (m *NodeToStatus) ForEachExplicitNode(fn func(nodeName string, s *Status)) {
	for _, n := range m.NodeNames() {
		fn(n, m.statuses[n])
	}
}

// NodeNames returns the names of the nodes with an entry, sorted.
func (m *NodeToStatus) NodeNames() []string {
	names := make([]string, 0, len(m.statuses))
	for n := range m.statuses {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Diagnosis explains why a pod fits no node.
type Diagnosis struct {
	// NodeToStatus has the status of each node rejected in Filter, and the
	// status of the nodes PreFilter ruled out.
	NodeToStatus *NodeToStatus
	// UnschedulablePlugins are the plugins that returned Unschedulable or
	// UnschedulableAndUnresolvable (at PreFilter, those that narrowed the
	// nodes too).
	UnschedulablePlugins map[string]struct{}
	// PendingPlugins are the plugins that returned Pending.
	PendingPlugins map[string]struct{}
	// PreFilterMsg is the message of the PreFilter rejection, if any.
	PreFilterMsg string
	// PostFilterMsg is the message of the PostFilter plugins (preemption),
	// if they ran.
	PostFilterMsg string
}

// AddPluginStatus records the plugin that produced s in
// UnschedulablePlugins or PendingPlugins; statuses without a plugin are
// ignored.
func (d *Diagnosis) AddPluginStatus(s *Status) {
	if s.Plugin() == "" {
		return
	}
	if s.IsRejected() {
		if d.UnschedulablePlugins == nil {
			d.UnschedulablePlugins = make(map[string]struct{})
		}
		d.UnschedulablePlugins[s.Plugin()] = struct{}{}
	}
	if s.Code() == Pending {
		if d.PendingPlugins == nil {
			d.PendingPlugins = make(map[string]struct{})
		}
		d.PendingPlugins[s.Plugin()] = struct{}{}
	}
}

// SortedUnschedulablePlugins returns UnschedulablePlugins as a sorted
// slice.
func (d *Diagnosis) SortedUnschedulablePlugins() []string {
	return sortedSet(d.UnschedulablePlugins)
}

func sortedSet(s map[string]struct{}) []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// NoNodeAvailableMsg starts the message of a FitError.
const NoNodeAvailableMsg = "0/%v nodes are available"

// FitError is the error of a pod that fits no node. Use errors.As to get
// it from the error Schedule returns.
type FitError struct {
	// Pod is the pod that did not fit.
	Pod *api.Pod
	// NumAllNodes is the number of nodes in the snapshot.
	NumAllNodes int
	// Diagnosis holds the per-node statuses and the rejecting plugins.
	Diagnosis Diagnosis
}

// Error formats the failure as kube-scheduler does:
// "0/N nodes are available: <PreFilter message>." or, when PreFilter
// passed, a sorted histogram of the node statuses' reasons
// ("2 Insufficient cpu, 3 node(s) had untolerated taint {k: v}."),
// followed by the PostFilter message when PostFilter ran.
func (f *FitError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, NoNodeAvailableMsg+":", f.NumAllNodes)
	if pre := f.Diagnosis.PreFilterMsg; pre != "" {
		// Every node carries the PreFilter status; listing them would
		// only repeat it.
		fmt.Fprintf(&b, " %v.", pre)
	} else if m := f.Diagnosis.NodeToStatus; m != nil {
		// Nodes rejected alike share a status: counting the statuses
		// first reads each one's reasons once, not once a node.
		byStatus := map[*Status]int{}
		for _, s := range m.statuses {
			byStatus[s]++
		}
		counts := map[string]int{}
		for s, n := range byStatus {
			for _, r := range s.Reasons() {
				counts[r] += n
			}
		}
		if absent := f.NumAllNodes - m.Len(); absent > 0 {
			for _, r := range m.absent.Reasons() {
				counts[r] += absent
			}
		}
		hist := make([]string, 0, len(counts))
		for r, n := range counts {
			hist = append(hist, fmt.Sprintf("%v %v", n, r))
		}
		sort.Strings(hist)
		if len(hist) > 0 {
			fmt.Fprintf(&b, " %v.", strings.Join(hist, ", "))
		}
	}
	if post := f.Diagnosis.PostFilterMsg; post != "" {
		fmt.Fprintf(&b, " %v", post)
	}
	return b.String()
}
