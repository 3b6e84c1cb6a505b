package dra_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
)

// FuzzDecodeValidateAllocate decodes a slice and a claim from JSON, as a
// manifest or dump gives them, validates both and allocates the claim if
// both are valid: no input panics, and a claim on a valid slice either
// gets devices, does not fit, or fails with an error.
func FuzzDecodeValidateAllocate(f *testing.F) {
	f.Add([]byte(`{"spec":{"driver":"driver-a","pool":{"name":"p","generation":1,"resourceSliceCount":1},"nodeName":"n1","devices":[{"name":"d","attributes":{"model":{"string":"a"}},"capacity":{"mem":{"value":"2"}}}]}}`),
		[]byte(`{"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"class-a","allocationMode":"ExactCount","count":1}}]}}}`))
	f.Add([]byte(`{"spec":{"driver":"driver-a","pool":{"name":"p","generation":1,"resourceSliceCount":1},"allNodes":true,"devices":[{"name":"d","allowMultipleAllocations":true,"capacity":{"mem":{"value":"4","requestPolicy":{"default":"1","validRange":{"min":"1","step":"500m"}}}}}]}}`),
		[]byte(`{"spec":{"devices":{"requests":[{"name":"r","firstAvailable":[{"name":"a","deviceClassName":"class-multi","allocationMode":"All"},{"name":"b","deviceClassName":"class-any","allocationMode":"ExactCount","count":2,"capacity":{"requests":{"mem":"3"}}}]}],"constraints":[{"matchAttribute":"driver-a/model"}]}}}`))
	f.Fuzz(func(t *testing.T, sliceJSON, claimJSON []byte) {
		var s api.ResourceSlice
		var c api.ResourceClaim
		if json.Unmarshal(sliceJSON, &s) != nil || json.Unmarshal(claimJSON, &c) != nil {
			return
		}
		sliceErrs := dra.ValidateResourceSlice(&s)
		claimErrs := dra.ValidateResourceClaim(&c, nil)
		for _, errs := range []interface{ Error() string }{sliceErrs, claimErrs} {
			_ = errs.Error()
		}
		if len(sliceErrs) > 0 || len(claimErrs) > 0 {
			return
		}
		a, err := dra.NewAllocator(context.Background(), dra.Input{Claims: []*api.ResourceClaim{&c},
			Classes: dragen.DeviceClasses(), Slices: []*api.ResourceSlice{&s}, Compiler: dragen.Compiler{}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Allocate(context.Background(), &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}})
		if err == nil && res != nil && len(res) != 1 {
			t.Fatalf("%d results for one claim", len(res))
		}
	})
}
