package scheduler

import (
	"context"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/dra/dragen"
	"github.com/schedkit/schedkit/plugins/dynamicresources"
)

// Explain's devices agree with the cycle and with Assume, on DRA worlds
// mixed with the other plugins: every node of a pod with claims has
// DynamicResources' verdict, which is the node's own when that plugin
// rejected it; a feasible node has devices for every claim; and the
// chosen node's devices are the allocations Assume writes.
func TestPropertyExplainDevices(t *testing.T) {
	var placed, assumed int
	defer func() { t.Logf("%d pods placed, %d claims checked against Assume", placed, assumed) }()
	rapid.Check(t, func(rt *rapid.T) {
		m := dragen.MixedGen().Draw(rt, "mixed")
		snap, err := cluster.NewSnapshot(m.Nodes, m.Pods)
		if err != nil {
			rt.Fatal(err)
		}
		var objs []any
		for _, c := range m.Classes {
			objs = append(objs, c)
		}
		for _, s := range m.Slices {
			objs = append(objs, s)
		}
		for _, r := range m.TaintRules {
			objs = append(objs, r)
		}
		for _, c := range append(append([]*api.ResourceClaim(nil), m.Claims...), m.Allocated...) {
			objs = append(objs, c)
		}
		if err := snap.AddObjects(objs...); err != nil {
			rt.Fatal(err)
		}
		s, err := New(snap)
		if err != nil {
			rt.Fatal(err)
		}
		defer s.Close()
		ex, err := s.Explain(context.Background(), m.Pod)
		if err != nil {
			rt.Fatal(err)
		}
		var chosen *NodeDevices
		for i := range ex.Nodes {
			n := &ex.Nodes[i]
			d := n.Devices
			if d == nil {
				if ex.PreFilter == nil {
					rt.Fatalf("node %s: no devices for a pod with claims", n.Name)
				}
				continue
			}
			if n.Status != nil && n.Status.Plugin() == dynamicresources.Name && d.Status.Message() != n.Status.Message() {
				rt.Fatalf("node %s: DynamicResources rejected it with %q, devices say %q", n.Name, n.Status.Message(), d.Status.Message())
			}
			if n.Feasible {
				if !d.Status.IsSuccess() || len(d.Claims) != len(m.Claims) {
					rt.Fatalf("feasible node %s: devices %v, %d claims of %d", n.Name, d.Status, len(d.Claims), len(m.Claims))
				}
			}
			if n.Name == ex.Node {
				chosen = d
			}
		}
		if ex.Node == "" || chosen == nil {
			return
		}
		placed++
		if err := s.Assume(m.Pod, ex.Node); err != nil {
			rt.Fatal(err)
		}
		for _, cd := range chosen.Claims {
			c, ok := cluster.GetObject[api.ResourceClaim](s.Snapshot().Objects(), "ns", cd.Claim)
			if !ok || c.Status.Allocation == nil {
				rt.Fatalf("claim %s not allocated after Assume", cd.Claim)
			}
			assumed++
			got := c.Status.Allocation.Devices.Results
			if len(got) == 0 && len(cd.Devices) == 0 {
				continue
			}
			if !reflect.DeepEqual(shareless(got), shareless(cd.Devices)) {
				rt.Fatalf("claim %s: Assume wrote %+v, Explain showed %+v", cd.Claim, got, cd.Devices)
			}
		}
	})
}

// shareless drops share ids, which each allocation draws anew.
func shareless(rs []api.DeviceRequestAllocationResult) []api.DeviceRequestAllocationResult {
	out := make([]api.DeviceRequestAllocationResult, len(rs))
	for i, r := range rs {
		r.ShareID = nil
		out[i] = r
	}
	return out
}
