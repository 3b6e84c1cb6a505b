package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

// TestResourceFromList follows upstream TestNewResource: cpu in
// millicores, memory and storage in bytes, pods as a count, scalar
// resources (extended, hugepages) kept and sorted, other names dropped.
func TestResourceFromList(t *testing.T) {
	got := ResourceFromList(rl(
		"cpu", "4", "memory", "2000", "ephemeral-storage", "5000", "pods", "80",
		"scalar.test/scalar1", "1", "hugepages-test", "2", "storage", "10Gi", "foo", "1",
		"kubernetes.io/batch", "3", "attachable-volumes-aws", "7", "example.com/zero", "0"))
	want := Resource{MilliCPU: 4000, Memory: 2000, EphemeralStorage: 5000, AllowedPodNumber: 80,
		Scalars: []Scalar{{"attachable-volumes-aws", 7}, {"hugepages-test", 2}, {"kubernetes.io/batch", 3}, {"scalar.test/scalar1", 1}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ResourceFromList (-want +got):\n%s", diff)
	}
	for name, v := range map[api.ResourceName]int64{"cpu": 4000, "memory": 2000, "ephemeral-storage": 5000, "pods": 80,
		"hugepages-test": 2, "missing.example/x": 0} {
		if got.Get(name) != v {
			t.Errorf("Get(%s) = %d, want %d", name, got.Get(name), v)
		}
	}
	if m := ResourceFromList(rl("cpu", "1.5m")); m.MilliCPU != 2 {
		t.Errorf("cpu 1.5m = %d millicores, want 2 (rounded up)", m.MilliCPU)
	}
}

// TestResourceArithmetic: Add and Sub keep scalars sorted and drop zero
// entries; SetMax follows upstream TestSetMaxResource.
func TestResourceArithmetic(t *testing.T) {
	a := Resource{MilliCPU: 1, Scalars: []Scalar{{"b.io/x", 2}}}
	a.Add(Resource{Memory: 5, Scalars: []Scalar{{"a.io/x", 1}, {"b.io/x", 1}, {"c.io/x", 4}}})
	if diff := cmp.Diff(Resource{MilliCPU: 1, Memory: 5, Scalars: []Scalar{{"a.io/x", 1}, {"b.io/x", 3}, {"c.io/x", 4}}}, a); diff != "" {
		t.Errorf("Add (-want +got):\n%s", diff)
	}
	a.Sub(Resource{MilliCPU: 1, Memory: 5, Scalars: []Scalar{{"a.io/x", 1}, {"b.io/x", 3}}})
	if diff := cmp.Diff(Resource{Scalars: []Scalar{{"c.io/x", 4}}}, a); diff != "" {
		t.Errorf("Sub (-want +got):\n%s", diff)
	}
	a.SetScalar("c.io/x", 0)
	if !a.IsZero() || a.Scalars != nil {
		t.Errorf("SetScalar 0 left %+v", a)
	}

	r := Resource{MilliCPU: 1000, Memory: 2000, EphemeralStorage: 500, Scalars: []Scalar{{"scalar.test/scalar1", 1}}}
	r.SetMax(ResourceFromList(rl("cpu", "2", "memory", "1000", "ephemeral-storage", "3000", "scalar.test/scalar1", "4", "hugepages-test", "5")))
	want := Resource{MilliCPU: 2000, Memory: 2000, EphemeralStorage: 3000, Scalars: []Scalar{{"hugepages-test", 5}, {"scalar.test/scalar1", 4}}}
	if !r.Equal(want) {
		t.Errorf("SetMax = %+v, want %+v", r, want)
	}
	c := r.Clone()
	c.AddScalar("hugepages-test", 1)
	if r.Scalar("hugepages-test") != 5 {
		t.Error("Clone shares scalars")
	}
}
