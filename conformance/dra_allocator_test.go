package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	dracel "k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/dra/dragen"
)

// draFeatures is the allocator feature set kube-scheduler v1.37.2 enables
// with the default feature gates (it selects the incubating variant), with
// DRAFractionalCapacityRange as frac says. That gate is off by default:
// its on-default needs a minimum compatibility version of 1.37, the
// default being 1.36.
func draFeatures(frac bool) structured.Features {
	return structured.Features{
		AdminAccess: true, PrioritizedList: true, PartitionableDevices: true, DeviceTaints: true,
		DeviceBindingAndStatus: true, ConsumableCapacity: true, FractionalCapacityRange: frac,
	}
}

// fracModes are the two settings of DRAFractionalCapacityRange the
// differential tests run, the default first.
var fracModes = []struct {
	name string
	on   bool
}{{"default", false}, {"fractional", true}}

// viaJSON converts a schedkit object to its k8s.io type.
func viaJSON[T any](t fataler, in any) *T {
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return out
}

type classLister []*resourceapi.DeviceClass

func (l classLister) List() ([]*resourceapi.DeviceClass, error) { return l, nil }

func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	for _, c := range l {
		if c.Name == name {
			return c, nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Group: "resource.k8s.io", Resource: "deviceclass"}, name)
}

// upstreamAllocatedState collects allocated devices as the scheduler's
// DynamicResources plugin does (foreachAllocatedDevice with consumable
// capacity on).
func upstreamAllocatedState(claims []*resourceapi.ResourceClaim) structured.AllocatedState {
	s := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			if r.AdminAccess != nil && *r.AdminAccess {
				continue
			}
			id := structured.MakeDeviceID(r.Driver, r.Pool, r.Device)
			if r.ShareID != nil {
				s.AllocatedSharedDeviceIDs.Insert(structured.MakeSharedDeviceID(id, r.ShareID))
				if r.ConsumedCapacity != nil {
					s.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, r.ConsumedCapacity))
				}
				continue
			}
			s.AllocatedDevices.Insert(id)
		}
	}
	return s
}

// applyRules adds the taints of the rules to the devices they select, as
// the scheduler's resource slice tracker does (a rule without a selector
// selects nothing).
func applyRules(slices []*resourceapi.ResourceSlice, rules []*resourceapi.DeviceTaintRule) []*resourceapi.ResourceSlice {
	out := make([]*resourceapi.ResourceSlice, len(slices))
	for i, s := range slices {
		s = s.DeepCopy()
		for _, r := range rules {
			sel := r.Spec.DeviceSelector
			if sel == nil || sel.Driver != nil && *sel.Driver != s.Spec.Driver || sel.Pool != nil && *sel.Pool != s.Spec.Pool.Name {
				continue
			}
			for d := range s.Spec.Devices {
				if sel.Device != nil && *sel.Device != s.Spec.Devices[d].Name {
					continue
				}
				s.Spec.Devices[d].Taints = append(s.Spec.Devices[d].Taints, r.Spec.Taint)
			}
		}
		out[i] = s
	}
	return out
}

// TestDRAAllocatorDifferential allocates random worlds' claims on every
// node with upstream's structured allocator and with package dra (with
// package dra/cel's selectors): the same results (share IDs aside, which
// are random upstream) or the same error text.
func TestDRAAllocatorDifferential(t *testing.T) {
	for _, m := range fracModes {
		t.Run(m.name, func(t *testing.T) { draAllocatorDifferential(t, m.on) })
	}
}

func draAllocatorDifferential(t *testing.T, frac bool) {
	ctx := context.Background()
	cache := dracel.NewCache(64, dracel.Features{EnableConsumableCapacity: true})
	ourCEL, err := cel.NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	var allocated, failed, errored int
	reasons := map[string]int{}
	defer func() {
		t.Logf("node verdicts: %d allocated, %d not fitting, %d errors", allocated, failed, errored)
		for r, n := range reasons {
			t.Logf("%5d %s", n, r)
		}
	}()
	rapid.Check(t, func(t *rapid.T) {
		w := dragen.WorldGen().Draw(t, "world")
		var classes classLister
		for _, c := range w.Classes {
			classes = append(classes, viaJSON[resourceapi.DeviceClass](t, c))
		}
		var slices []*resourceapi.ResourceSlice
		for _, s := range w.Slices {
			slices = append(slices, viaJSON[resourceapi.ResourceSlice](t, s))
		}
		var rules []*resourceapi.DeviceTaintRule
		for _, r := range w.TaintRules {
			rules = append(rules, viaJSON[resourceapi.DeviceTaintRule](t, r))
		}
		var held, claims []*resourceapi.ResourceClaim
		for _, c := range w.Allocated {
			held = append(held, viaJSON[resourceapi.ResourceClaim](t, c))
		}
		for _, c := range w.Claims {
			claims = append(claims, viaJSON[resourceapi.ResourceClaim](t, c))
		}
		theirs, err := structured.NewAllocator(ctx, draFeatures(frac), upstreamAllocatedState(held), classes, applyRules(slices, rules), cache)
		if err != nil {
			t.Fatal(err)
		}
		in := w.Input(dra.CELCompiler(ourCEL))
		in.Features.FractionalCapacityRange = frac
		ours, err := dra.NewAllocator(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range w.Nodes {
			node := viaJSON[v1.Node](t, n)
			want, werr := theirs.Allocate(ctx, node, claims)
			fits, ferr := ours.Fits(ctx, n, 0)
			got, gerr := ours.Allocate(ctx, n)
			if (ferr == nil) != (gerr == nil) || (gerr != nil && ferr.Error() != gerr.Error()) || (gerr == nil && fits != (got != nil)) {
				t.Fatalf("node %s: Fits %v %v, Allocate %v %v", n.Name, fits, ferr, got != nil, gerr)
			}
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("node %s: error %v, upstream %v (results %s)", n.Name, gerr, werr, js(t, want))
			}
			switch {
			case werr != nil:
				errored++
				r := werr.Error()
				if i := strings.Index(r, ": "); i >= 0 && strings.HasPrefix(r, "claim ") {
					r = r[i+2:]
				}
				if len(r) > 70 {
					r = r[:70]
				}
				reasons[r]++
			case want == nil:
				failed++
			default:
				allocated++
			}
			if werr != nil {
				if errors.Is(werr, structured.ErrFailedAllocationOnNode) != errors.Is(gerr, dra.ErrFailedAllocationOnNode) {
					t.Fatalf("node %s: error class: %v, upstream %v", n.Name, gerr, werr)
				}
				if gerr.Error() != werr.Error() {
					t.Fatalf("node %s: error text:\n got %v\nwant %v", n.Name, gerr, werr)
				}
				continue
			}
			fix := "00000000-0000-4000-8000-000000000000"
			for i := range want {
				for j := range want[i].Devices.Results {
					if want[i].Devices.Results[j].ShareID != nil {
						u := types.UID(fix)
						want[i].Devices.Results[j].ShareID = &u
					}
				}
			}
			if len(want) == 0 && len(got) == 0 {
				continue
			}
			if g, w := js(t, got), js(t, want); g != w {
				t.Fatalf("node %s:\n got %s\nwant %s", n.Name, g, w)
			}
		}
	})
}

func js(t fataler, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var _ = api.DeviceClass{}

// fataler is what testing.T and rapid.T share.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}
