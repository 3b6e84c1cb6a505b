package cluster

import (
	"github.com/schedkit/schedkit/api"
)

// DefaultBindAllHostIP is the wildcard host IP: a port bound on it
// conflicts with the same protocol and port on every IP.
const DefaultBindAllHostIP = "0.0.0.0"

// HostPort is one host (IP, protocol, port) binding.
type HostPort struct {
	// IP is the host IP; DefaultBindAllHostIP for all addresses.
	IP string
	// Protocol is TCP, UDP or SCTP.
	Protocol api.Protocol
	// Port is the host port, > 0.
	Port int32
}

// NewHostPort returns the binding with upstream's defaults applied: an
// empty IP is DefaultBindAllHostIP and an empty protocol is TCP.
func NewHostPort(ip string, protocol api.Protocol, port int32) HostPort {
	if ip == "" {
		ip = DefaultBindAllHostIP
	}
	if protocol == "" {
		protocol = api.ProtocolTCP
	}
	return HostPort{IP: ip, Protocol: protocol, Port: port}
}

// HostPortInfo is the set of host ports in use on a node, as
// kube-scheduler's HostPortInfo keeps it (Add, Remove, Len,
// CheckConflict): a set of (ip, protocol, port) tuples, not a count. So,
// as upstream, when two pods bind the same tuple (possible for pods
// placed through spec.nodeName, which skip the NodePorts filter),
// removing either of them frees the tuple although the other still
// binds it.
//
// The zero value is empty and ready to use. Entries are kept in a slice
// sorted by port, protocol and IP, so CheckConflict does not allocate.
type HostPortInfo struct {
	entries []hostPortEntry
}

type hostPortEntry struct {
	HostPort
}

func (a HostPort) less(b HostPort) bool {
	if a.Port != b.Port {
		return a.Port < b.Port
	}
	if a.Protocol != b.Protocol {
		return a.Protocol < b.Protocol
	}
	return a.IP < b.IP
}

// firstPort returns the index of the first entry with Port >= port.
func (h *HostPortInfo) firstPort(port int32) int {
	lo, hi := 0, len(h.entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if h.entries[m].Port < port {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// find returns the index of p, or the index to insert it at, and
// whether it is present.
func (h *HostPortInfo) find(p HostPort) (int, bool) {
	i := h.firstPort(p.Port)
	for ; i < len(h.entries); i++ {
		e := h.entries[i].HostPort
		if e == p {
			return i, true
		}
		if p.less(e) {
			break
		}
	}
	return i, false
}

// Add records (ip, protocol, port) as in use; ports <= 0 are ignored, and
// a tuple already in use stays in use once.
func (h *HostPortInfo) Add(ip string, protocol api.Protocol, port int32) {
	if port <= 0 {
		return
	}
	p := NewHostPort(ip, protocol, port)
	i, ok := h.find(p)
	if ok {
		return
	}
	h.entries = append(h.entries, hostPortEntry{})
	copy(h.entries[i+1:], h.entries[i:])
	h.entries[i] = hostPortEntry{HostPort: p}
}

// Remove forgets (ip, protocol, port), however many pods added it, as
// upstream's set does; ports <= 0 and tuples not in use are ignored.
func (h *HostPortInfo) Remove(ip string, protocol api.Protocol, port int32) {
	if port <= 0 {
		return
	}
	i, ok := h.find(NewHostPort(ip, protocol, port))
	if !ok {
		return
	}
	// The slice keeps its capacity, so that a tuple removed and added
	// again (a pod that collides with another on its node, moved back
	// and forth) does not allocate.
	h.entries = append(h.entries[:i], h.entries[i+1:]...)
}

// Len returns the number of distinct (ip, protocol, port) tuples in use.
func (h HostPortInfo) Len() int { return len(h.entries) }

// Ports returns the tuples in use, sorted by port, protocol and IP.
func (h HostPortInfo) Ports() []HostPort {
	out := make([]HostPort, len(h.entries))
	for i := range h.entries {
		out[i] = h.entries[i].HostPort
	}
	return out
}

// CheckConflict reports whether binding (ip, protocol, port) conflicts
// with a port in use, as upstream: port <= 0 never conflicts; an empty
// IP means 0.0.0.0 and an empty protocol TCP; 0.0.0.0 conflicts with the
// same protocol and port on any IP, and any IP conflicts with the same
// protocol and port on its own IP or on 0.0.0.0. It does not allocate.
func (h *HostPortInfo) CheckConflict(ip string, protocol api.Protocol, port int32) bool {
	if port <= 0 {
		return false
	}
	return h.conflicts(NewHostPort(ip, protocol, port))
}

func (h *HostPortInfo) conflicts(p HostPort) bool {
	for i := h.firstPort(p.Port); i < len(h.entries) && h.entries[i].Port == p.Port; i++ {
		e := &h.entries[i]
		if e.Protocol != p.Protocol {
			continue
		}
		if p.IP == DefaultBindAllHostIP || e.IP == DefaultBindAllHostIP || e.IP == p.IP {
			return true
		}
	}
	return false
}

// ConflictsWith reports whether any of ports (as in PodInfo.HostPorts)
// conflicts with a port in use. It does not allocate.
func (h *HostPortInfo) ConflictsWith(ports []HostPort) bool {
	if len(h.entries) == 0 {
		return false
	}
	for _, p := range ports {
		if p.Port > 0 && h.conflicts(NewHostPort(p.IP, p.Protocol, p.Port)) {
			return true
		}
	}
	return false
}

// Clone returns a copy sharing no memory with h.
func (h HostPortInfo) Clone() HostPortInfo {
	if len(h.entries) == 0 {
		return HostPortInfo{}
	}
	return HostPortInfo{entries: append([]hostPortEntry(nil), h.entries...)}
}
