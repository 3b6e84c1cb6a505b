package framework

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

// NodeToStatus holds the filter status of each rejected node of a cycle,
// and one status for every node without an entry (the absent nodes):
// those cut by a PreFilterResult, or all nodes when PreFilter rejected the
// pod. Nodes that passed Filter have no entry. It implements
// NodeToStatusReader.
//
// One made with NewNodeToStatusFor keeps the entries of its view's nodes
// in a slice indexed by NodeInfo.Slot, and other names in a map. A
// failed cycle then records a thousand nodes in two bytes each, without
// hashing: the slice holds indexes into a table of the statuses (nodes
// rejected alike share one), so the collector has no pointers to scan
// in it. The two forms answer every query alike.
type NodeToStatus struct {
	statuses map[string]*Status
	absent   *Status

	// view's nodes have their entries in bySlot: 0 for none, else 1 +
	// an index into table. inSlots counts them.
	view    *cluster.View
	bySlot  []uint16
	table   []*Status
	inSlots int
}

// maxTable bounds the status table: uint16 indexes, 0 meaning none.
const maxTable = 1<<16 - 1

// NewDefaultNodeToStatus returns an empty NodeToStatus whose absent nodes
// are UnschedulableAndUnresolvable, as kube-scheduler's.
func NewDefaultNodeToStatus() *NodeToStatus {
	return &NodeToStatus{absent: NewStatus(UnschedulableAndUnresolvable)}
}

// NewNodeToStatusFor returns an empty NodeToStatus for the nodes of
// view, with absent the status of the nodes it has no entry for. Its
// entries for view's nodes live in one slice indexed by their slots,
// made for all of them when the first node gets an entry: a cycle in
// which every node fits allocates nothing.
func NewNodeToStatusFor(view *cluster.View, absent *Status) *NodeToStatus {
	return &NodeToStatus{absent: absent, view: view}
}

// Reset empties m for another cycle, keeping its memory, with absent
// the status of the nodes it has no entry for. Nothing may read m after
// Reset.
func (m *NodeToStatus) Reset(absent *Status) {
	clear(m.statuses)
	if m.inSlots > 0 {
		clear(m.bySlot)
		m.inSlots = 0
	}
	clear(m.table)
	m.table = m.table[:0]
	m.absent = absent
}

// ResetFor is Reset for the nodes of view: m then holds their entries
// by slot, as one made with NewNodeToStatusFor.
func (m *NodeToStatus) ResetFor(view *cluster.View, absent *Status) {
	m.Reset(absent)
	m.view = view
}

// NewNodeToStatus returns a NodeToStatus with the given entries and absent
// status. The map is used, not copied.
func NewNodeToStatus(statuses map[string]*Status, absent *Status) *NodeToStatus {
	return &NodeToStatus{statuses: statuses, absent: absent}
}

// Get returns the status of the named node, the absent status if it has
// no entry.
func (m *NodeToStatus) Get(nodeName string) *Status {
	if m.inSlots > 0 {
		if ni, ok := m.view.Get(nodeName); ok {
			if s := m.slotEntry(ni); s != nil {
				return s
			}
		}
	}
	if s, ok := m.statuses[nodeName]; ok {
		return s
	}
	return m.absent
}

// GetNode is Get(ni.Node().Name) for a node of view. It reads the slot
// of ni without looking its name up when view is m's.
func (m *NodeToStatus) GetNode(view *cluster.View, ni *cluster.NodeInfo) *Status {
	if view != nil && view == m.view && len(m.statuses) == 0 {
		if s := m.slotEntry(ni); s != nil {
			return s
		}
		return m.absent
	}
	return m.Get(ni.Node().Name)
}

// CountCode returns how many of view's nodes have a status of code c,
// counted from the entries by slot without reading the nodes, and true;
// or 0 and false when m does not hold view's nodes by slot alone (it was
// not made for view, or some entry is by name).
func (m *NodeToStatus) CountCode(view *cluster.View, c Code) (int, bool) {
	if view == nil || view != m.view || len(m.statuses) != 0 {
		return 0, false
	}
	n := 0
	if m.absent.Code() == c {
		n = view.NumNodes() - m.inSlots
	}
	if m.inSlots == 0 {
		return n, true
	}
	for _, e := range m.bySlot {
		if e != 0 && m.table[e-1].Code() == c {
			n++
		}
	}
	return n, true
}

// slotEntry is ni's entry by slot, nil when it has none there.
func (m *NodeToStatus) slotEntry(ni *cluster.NodeInfo) *Status {
	if sl := ni.Slot(); sl >= 0 && sl < len(m.bySlot) && m.bySlot[sl] != 0 {
		return m.table[m.bySlot[sl]-1]
	}
	return nil
}

// Set records the status of a node.
func (m *NodeToStatus) Set(nodeName string, s *Status) {
	if m.view != nil && s != nil {
		if ni, ok := m.view.Get(nodeName); ok && ni.Slot() >= 0 && m.setSlot(ni, s) {
			return
		}
	}
	m.setMap(nodeName, s)
}

// SetNode is Set(ni.Node().Name, s) for ni, a node of m's view (of
// NewNodeToStatusFor or ResetFor): its slot is written without looking
// its name up. Without a view it is Set.
func (m *NodeToStatus) SetNode(ni *cluster.NodeInfo, s *Status) {
	if m.view == nil || s == nil || ni.Slot() < 0 || !m.setSlot(ni, s) {
		m.setMap(ni.Node().Name, s)
	}
}

// setSlot records s, not nil, in ni's slot, and reports false when the
// table is full (the caller then uses the map). An entry of the same
// node in the map is dropped.
func (m *NodeToStatus) setSlot(ni *cluster.NodeInfo, s *Status) bool {
	k := m.tableIndex(s)
	if k < 0 {
		return false
	}
	sl := ni.Slot()
	if sl >= len(m.bySlot) {
		// Sized for the view's nodes at the first entry: a dry run
		// whose nodes all help allocates none.
		grown := make([]uint16, max(sl+1, m.view.NumNodes(), 2*len(m.bySlot)))
		copy(grown, m.bySlot)
		m.bySlot = grown
	}
	if m.bySlot[sl] == 0 {
		m.inSlots++
	}
	m.bySlot[sl] = uint16(k + 1)
	if len(m.statuses) > 0 {
		delete(m.statuses, ni.Node().Name)
	}
	return true
}

// tableIndex is s's index in the table, added if the last few entries
// are not s (nodes rejected alike come in runs), -1 when the table is
// full.
func (m *NodeToStatus) tableIndex(s *Status) int {
	for k := len(m.table) - 1; k >= max(0, len(m.table)-4); k-- {
		if m.table[k] == s {
			return k
		}
	}
	if len(m.table) == maxTable {
		return -1
	}
	m.table = append(m.table, s)
	return len(m.table) - 1
}

// setMap records s (nil is an entry too: Success) in the map. An entry
// of the same node in a slot is dropped.
func (m *NodeToStatus) setMap(nodeName string, s *Status) {
	if m.inSlots > 0 {
		if ni, ok := m.view.Get(nodeName); ok {
			if sl := ni.Slot(); sl >= 0 && sl < len(m.bySlot) && m.bySlot[sl] != 0 {
				m.bySlot[sl] = 0
				m.inSlots--
			}
		}
	}
	if m.statuses == nil {
		m.statuses = make(map[string]*Status)
	}
	m.statuses[nodeName] = s
}

// Len is the number of nodes with an entry; absent nodes are not counted.
func (m *NodeToStatus) Len() int { return len(m.statuses) + m.inSlots }

// AbsentNodesStatus returns the status of nodes without an entry.
func (m *NodeToStatus) AbsentNodesStatus() *Status { return m.absent }

// SetAbsentNodesStatus sets the status of nodes without an entry.
func (m *NodeToStatus) SetAbsentNodesStatus(s *Status) { m.absent = s }

// ForEachExplicitNode calls fn for every node with an entry, in node name
// order.
func (m *NodeToStatus) ForEachExplicitNode(fn func(nodeName string, s *Status)) {
	for _, n := range m.NodeNames() {
		fn(n, m.Get(n))
	}
}

// NodeNames returns the names of the nodes with an entry, sorted.
func (m *NodeToStatus) NodeNames() []string {
	names := make([]string, 0, m.Len())
	m.each(func(name string, _ *Status) { names = append(names, name) })
	sort.Strings(names)
	return names
}

// each calls fn for every entry, in no order.
func (m *NodeToStatus) each(fn func(name string, s *Status)) {
	if m.inSlots > 0 {
		for _, ni := range m.view.Nodes() {
			if s := m.slotEntry(ni); s != nil {
				fn(ni.Node().Name, s)
			}
		}
	}
	for n, s := range m.statuses {
		fn(n, s)
	}
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
		m.each(func(_ string, s *Status) { byStatus[s]++ })
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
