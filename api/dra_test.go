package api_test

import (
	"encoding/json"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/api"
)

// TestDRARoundTrip: a ResourceSlice and a ResourceClaim as kubectl dumps
// them decode and encode back to the same JSON (field names, omitempty).
func TestDRARoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		obj  any
		doc  string
	}{
		{"ResourceSlice", &api.ResourceSlice{}, `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"driver":"gpu.example.com","pool":{"name":"n1","generation":1,"resourceSliceCount":1},"nodeName":"n1","devices":[{"name":"gpu-0","attributes":{"model":{"string":"a100"},"index":{"int":0},"gpu.example.com/ok":{"bool":true},"v":{"version":"1.2.3"}},"capacity":{"memory":{"value":"40Gi","requestPolicy":{"default":"1Gi","validRange":{"min":"1Gi","max":"40Gi","step":"1Gi"}}}},"consumesCounters":[{"counterSet":"cs","counters":{"mem":{"value":"1"}}}],"taints":[{"key":"k","value":"v","effect":"NoSchedule"}],"bindsToNode":true,"bindingConditions":["ready"],"bindingFailureConditions":["failed"],"allowMultipleAllocations":true}],"sharedCounters":[{"name":"cs","counters":{"mem":{"value":"4"}}}]}}`},
		{"ResourceClaim", &api.ResourceClaim{}, `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c","namespace":"ns"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu","selectors":[{"cel":{"expression":"true"}}],"allocationMode":"ExactCount","count":2,"adminAccess":false,"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}],"capacity":{"requests":{"memory":"1Gi"}}}},{"name":"p","firstAvailable":[{"name":"a","deviceClassName":"gpu"},{"name":"b","deviceClassName":"gpu","allocationMode":"All"}]}],"constraints":[{"requests":["r"],"matchAttribute":"gpu.example.com/model"}],"config":[{"requests":["r"],"opaque":{"driver":"gpu.example.com","parameters":{"a":1}}}]}},"status":{"allocation":{"devices":{"results":[{"request":"p/a","driver":"gpu.example.com","pool":"n1","device":"gpu-0","shareID":"u","consumedCapacity":{"memory":"1Gi"}}],"config":[{"source":"FromClaim","opaque":{"driver":"gpu.example.com","parameters":{"a":1}}}]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]}},"reservedFor":[{"resource":"pods","name":"p","uid":"1"}]}}`},
		{"DeviceTaintRule", &api.DeviceTaintRule{}, `{"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","metadata":{"name":"r"},"spec":{"deviceSelector":{"driver":"d","pool":"p","device":"x"},"taint":{"key":"k","effect":"NoExecute"}},"status":{}}`},
		{"DeviceClass", &api.DeviceClass{}, `{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu"},"spec":{"selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\""}}],"extendedResourceName":"example.com/gpu"}}`},
		{"ResourceClaimTemplate", &api.ResourceClaimTemplate{}, `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":"t","namespace":"ns"},"spec":{"metadata":{"labels":{"a":"b"}},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu"}}]}}}}`},
		{"Pod", &api.Pod{}, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"claims":[{"name":"g","request":"r"}]}}],"resourceClaims":[{"name":"g","resourceClaimTemplateName":"t"}]},"status":{"resourceClaimStatuses":[{"name":"g","resourceClaimName":"p-g-abcde"}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := yaml.Unmarshal([]byte(tc.doc), tc.obj); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal([]byte(tc.doc), &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &b); err != nil {
				t.Fatal(err)
			}
			dropNullTimestamps(b)
			aj, _ := json.Marshal(a)
			bj, _ := json.Marshal(b)
			if string(aj) != string(bj) {
				t.Errorf("round trip:\n got %s\nwant %s", bj, aj)
			}
		})
	}
}

// dropNullTimestamps removes the creationTimestamp null that ObjectMeta
// encodes, as metav1.ObjectMeta does too.
func dropNullTimestamps(v any) {
	switch v := v.(type) {
	case map[string]any:
		if ts, ok := v["creationTimestamp"]; ok && ts == nil {
			delete(v, "creationTimestamp")
		}
		for _, e := range v {
			dropNullTimestamps(e)
		}
	case []any:
		for _, e := range v {
			dropNullTimestamps(e)
		}
	}
}
