package cluster

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

type hostPortParam struct {
	protocol api.Protocol
	ip       string
	port     int32
}

// TestHostPortInfo_AddRemove ports the kube-scheduler framework test of
// the same name: ports <= 0 are ignored, empty IP and protocol mean
// 0.0.0.0 and TCP, and removal by either spelling works.
func TestHostPortInfo_AddRemove(t *testing.T) {
	tests := []struct {
		desc    string
		added   []hostPortParam
		removed []hostPortParam
		length  int
	}{{
		desc: "normal add case",
		added: []hostPortParam{
			{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
			{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80}, {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82},
			{"TCP", "0.0.0.0", 0}, {"TCP", "0.0.0.0", -1},
		},
		length: 8,
	}, {
		desc: "empty ip and protocol add should work",
		added: []hostPortParam{
			{"", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"", "127.0.0.1", 81}, {"", "127.0.0.1", 82},
			{"", "", 79}, {"UDP", "", 80}, {"", "", 81}, {"", "", 82}, {"", "", 0}, {"", "", -1},
		},
		length: 8,
	}, {
		desc: "normal remove case",
		added: []hostPortParam{
			{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
			{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80}, {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82},
		},
		removed: []hostPortParam{
			{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
			{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80}, {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82},
		},
		length: 0,
	}, {
		desc: "empty ip and protocol remove should work",
		added: []hostPortParam{
			{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82},
			{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80}, {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82},
		},
		removed: []hostPortParam{
			{"", "127.0.0.1", 79}, {"", "127.0.0.1", 81}, {"", "127.0.0.1", 82}, {"UDP", "127.0.0.1", 80},
			{"", "", 79}, {"", "", 81}, {"", "", 82}, {"UDP", "", 80},
		},
		length: 0,
	}}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var hp HostPortInfo
			for _, p := range tt.added {
				hp.Add(p.ip, p.protocol, p.port)
			}
			for _, p := range tt.removed {
				hp.Remove(p.ip, p.protocol, p.port)
			}
			if hp.Len() != tt.length {
				t.Errorf("Len = %d, want %d: %v", hp.Len(), tt.length, hp.Ports())
			}
		})
	}
}

// TestHostPortInfo_Check ports the kube-scheduler framework test of the
// same name: the 0.0.0.0 wildcard semantics of CheckConflict.
func TestHostPortInfo_Check(t *testing.T) {
	tests := []struct {
		desc   string
		added  []hostPortParam
		check  hostPortParam
		expect bool
	}{
		{"empty check should check 0.0.0.0 and TCP", []hostPortParam{{"TCP", "127.0.0.1", 80}}, hostPortParam{"", "", 81}, false},
		{"empty check should check 0.0.0.0 and TCP (conflicted)", []hostPortParam{{"TCP", "127.0.0.1", 80}}, hostPortParam{"", "", 80}, true},
		{"empty port check should pass", []hostPortParam{{"TCP", "127.0.0.1", 80}}, hostPortParam{"", "", 0}, false},
		{"0.0.0.0 should check all registered IPs", []hostPortParam{{"TCP", "127.0.0.1", 80}}, hostPortParam{"TCP", "0.0.0.0", 80}, true},
		{"0.0.0.0 with different protocol should be allowed", []hostPortParam{{"UDP", "127.0.0.1", 80}}, hostPortParam{"TCP", "0.0.0.0", 80}, false},
		{"0.0.0.0 with different port should be allowed",
			[]hostPortParam{{"TCP", "127.0.0.1", 79}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82}}, hostPortParam{"TCP", "0.0.0.0", 80}, false},
		{"normal ip should check all registered 0.0.0.0", []hostPortParam{{"TCP", "0.0.0.0", 80}}, hostPortParam{"TCP", "127.0.0.1", 80}, true},
		{"normal ip with different port/protocol should be allowed (0.0.0.0)",
			[]hostPortParam{{"TCP", "0.0.0.0", 79}, {"UDP", "0.0.0.0", 80}, {"TCP", "0.0.0.0", 81}, {"TCP", "0.0.0.0", 82}}, hostPortParam{"TCP", "127.0.0.1", 80}, false},
		{"normal ip with different port/protocol should be allowed",
			[]hostPortParam{{"TCP", "127.0.0.1", 79}, {"UDP", "127.0.0.1", 80}, {"TCP", "127.0.0.1", 81}, {"TCP", "127.0.0.1", 82}}, hostPortParam{"TCP", "127.0.0.1", 80}, false},
		// Not upstream rows: another specific IP does not conflict.
		{"different specific ips", []hostPortParam{{"TCP", "10.0.0.1", 80}}, hostPortParam{"TCP", "10.0.0.2", 80}, false},
		{"same specific ip", []hostPortParam{{"TCP", "10.0.0.1", 80}}, hostPortParam{"", "10.0.0.1", 80}, true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var hp HostPortInfo
			for _, p := range tt.added {
				hp.Add(p.ip, p.protocol, p.port)
			}
			if got := hp.CheckConflict(tt.check.ip, tt.check.protocol, tt.check.port); got != tt.expect {
				t.Errorf("CheckConflict = %t, want %t", got, tt.expect)
			}
			pod := mkPod("", "p", "", "").container(nil, api.ContainerPort{HostIP: tt.check.ip, Protocol: tt.check.protocol, HostPort: tt.check.port}).obj()
			if got := hp.ConflictsWith(NewPodInfo(pod).HostPorts); got != tt.expect {
				t.Errorf("ConflictsWith = %t, want %t", got, tt.expect)
			}
		})
	}
}

// TestHostPortInfoSet pins upstream's set semantics (HostPortInfo is a
// map of sets): a tuple added twice is held once, and one removal frees
// it.
func TestHostPortInfoSet(t *testing.T) {
	var hp HostPortInfo
	hp.Add("", "", 80)
	hp.Add("0.0.0.0", "TCP", 80)
	if hp.Len() != 1 {
		t.Fatalf("Len = %d, want 1", hp.Len())
	}
	hp.Remove("", "", 80)
	if hp.CheckConflict("", "", 80) || hp.Len() != 0 {
		t.Error("port still in use after one removal")
	}
	hp.Remove("", "", 80) // removing an unused port is a no-op
	if hp.Len() != 0 {
		t.Error("Len after a second removal")
	}
}

// TestNodeInfoPortsCollidingPods: two pods on one node bind the same host
// port (possible through spec.nodeName); as upstream's NodeInfo, removing
// either frees the port although the other still binds it.
func TestNodeInfoPortsCollidingPods(t *testing.T) {
	port := api.ContainerPort{ContainerPort: 80, HostPort: 80, Protocol: "TCP"}
	a := mkPod("ns", "a", "", "").container(nil, port).obj()
	b := mkPod("ns", "b", "", "").container(nil, port).obj()
	ni := NewNodeInfo(nil)
	ni.AddPod(NewPodInfo(a))
	ni.AddPod(NewPodInfo(b))
	if ni.UsedPorts.Len() != 1 {
		t.Fatalf("Len = %d, want 1", ni.UsedPorts.Len())
	}
	if err := ni.RemovePod(a); err != nil {
		t.Fatal(err)
	}
	if ni.UsedPorts.CheckConflict("", "TCP", 80) {
		t.Error("port 80 still in use; upstream's set forgets it")
	}
}

func TestHostPortInfoCheckConflictAllocs(t *testing.T) {
	var hp HostPortInfo
	for p := int32(1); p < 50; p++ {
		hp.Add("10.0.0.1", "TCP", p*10)
		hp.Add("", "UDP", p*10)
	}
	ports := []HostPort{{"0.0.0.0", "TCP", 15}, {"10.0.0.2", "", 25}}
	allocs := testing.AllocsPerRun(100, func() {
		_ = hp.CheckConflict("", "", 80)
		_ = hp.CheckConflict("10.0.0.1", "TCP", 80)
		_ = hp.ConflictsWith(ports)
	})
	if allocs != 0 {
		t.Errorf("CheckConflict allocates %v times", allocs)
	}
}
