package podhash

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func decode(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

const web = `{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]}}`

// TestHashPinned pins hashes upstream's controller.ComputeHash gives
// (conformance: TestPodTemplateHashPinned logs them).
func TestHashPinned(t *testing.T) {
	five, zero := int32(5), int32(0)
	for _, c := range []struct {
		cc   *int32
		want string
	}{{nil, "66c46c5b67"}, {&zero, "6847c57b7f"}, {&five, "75b477b4bb"}} {
		got, err := Hash(decode(t, web), c.cc)
		if err != nil || got != c.want {
			t.Errorf("collisionCount %v: got %s, %v; want %s", c.cc, got, err, c.want)
		}
	}
	// Empty lists and maps are what protobuf decodes them to: nil.
	empty := strings.Replace(web, `"labels":{"app":"web"}`, `"labels":{"app":"web"},"annotations":{}`, 1)
	empty = strings.Replace(empty, `"name":"c",`, `"name":"c","args":[],`, 1)
	if got, _ := Hash(decode(t, empty), nil); got != "66c46c5b67" {
		t.Errorf("empty annotations and args change the hash: %s", got)
	}
}

// TestHashAbsentDivisor pins upstream's hashes (conformance:
// TestPodTemplateHashAbsentDivisor) of templates whose resourceFieldRef
// has no divisor: the stored zero Quantity reads back as "0".
func TestHashAbsentDivisor(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`{"spec":{"volumes":[{"name":"d","downwardAPI":{"items":[{"path":"cpu","resourceFieldRef":{"resource":"limits.cpu"}}]}}],"containers":[{"name":"c","image":"nginx:1.27"}]}}`, "6c784c8474"},
		{`{"spec":{"containers":[{"name":"c","image":"nginx:1.27","env":[{"name":"CPU","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":null}}}]}]}}`, "7996bd8b46"},
	} {
		if got, err := Hash(decode(t, c.raw), nil); err != nil || got != c.want {
			t.Errorf("%s: got %s, %v; want %s", c.raw, got, err, c.want)
		}
	}
}

// TestDump pins the shape of go-spew's %#v as dump.ForHash configures it.
func TestDump(t *testing.T) {
	d, err := Dump(decode(t, web))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(v1.PodTemplateSpec){ObjectMeta:(v1.ObjectMeta){Name:(string) GenerateName:(string) Namespace:(string) SelfLink:(string) UID:(types.UID) ResourceVersion:(string) Generation:(int64)0 CreationTimestamp:(v1.Time){Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}} DeletionTimestamp:(*v1.Time)<nil> DeletionGracePeriodSeconds:(*int64)<nil> Labels:(map[string]string)map[app:web] Annotations:(map[string]string)<nil> OwnerReferences:([]v1.OwnerReference)<nil>",
		"Containers:([]v1.Container)[{Name:(string)c Image:(string)nginx:1.27 Command:([]string)<nil>",
		"Requests:(v1.ResourceList)map[cpu:{i:(resource.int64Amount){value:(int64)100 scale:(resource.Scale)-3} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)100m Format:(resource.Format)DecimalSI} memory:{i:(resource.int64Amount){value:(int64)134217728 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string) Format:(resource.Format)BinarySI}]", // 128 is a multiple of 8: not cached,
	} {
		if !strings.Contains(d, want) {
			t.Errorf("dump lacks %s\ndump: %s", want, d)
		}
	}
}

// TestQuantityValue pins upstream's ParseQuantity state of stored
// quantities (apimachinery's TestQuantityParse cases on the cached
// string, int64Amount and inf.Dec paths).
func TestQuantityValue(t *testing.T) {
	i := func(v, scale int64, s, format string) map[string]any {
		return map[string]any{"i": map[string]any{"value": v, "scale": scale}, "d": nil, "s": s, "Format": format}
	}
	for _, c := range []struct {
		in   string
		want map[string]any
	}{
		{"0", i(0, 0, "0", "DecimalSI")},
		{"100m", i(100, -3, "100m", "DecimalSI")},
		{"0.5", i(500, -3, "500m", "DecimalSI")}, // stored canonical, then parsed
		{"1000", i(1, 3, "1k", "DecimalSI")},
		{"1e3", i(1, 3, "1e3", "DecimalExponent")},
		{"7Ki", i(7168, 0, "7Ki", "BinarySI")},
		{"8Ki", i(8192, 0, "", "BinarySI")}, // a multiple of 8: not cached
		{"1536Mi", i(1536<<20, 0, "", "BinarySI")},
		{"-100m", i(-100, -3, "-100m", "DecimalSI")},
		{"1n", i(1, -9, "1n", "DecimalSI")},
		{"0.1n", i(1, -9, "1n", "DecimalSI")}, // rounded up to nano when stored
	} {
		got, err := quantityValue(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.in, diff)
		}
	}
	// Beyond the int64 path: an inf.Dec rescaled to nano (its words are
	// held to upstream's in conformance, TestPodTemplateHash). 8Ei is
	// stored as 2^63-1, its cap, a decimal.
	for in, want := range map[string][2]any{
		"100Ti":                    {int64(9), "BinarySI"},
		"8Ei":                      {int64(9), "DecimalSI"},
		"123456789012345678901234": {int64(9), "DecimalSI"},
	} {
		got, err := quantityValue(in)
		if err != nil {
			t.Fatal(err)
		}
		dec := got["d"].(map[string]any)["Dec"].(map[string]any)
		if got["i"] != nil || dec["scale"] != want[0] || got["Format"] != want[1] {
			t.Errorf("%s: %v", in, got)
		}
	}
}

// TestDeclines: what cannot be rebuilt is an error naming the field.
func TestDeclines(t *testing.T) {
	for in, want := range map[string]string{
		`{"metadata":{"creationTimestamp":"2024-01-01T00:00:00Z"}}`:                       "metadata.creationTimestamp: a timestamp in the template",
		`{"metadata":{"managedFields":[{"fieldsV1":{}}]}}`:                                "metadata.managedFields[0].fieldsV1: v1.FieldsV1 in the template cannot be rebuilt",
		`{"spec":{"containers":[{"name":7}]}}`:                                            "spec.containers[0].name: want a string, not a number",
		`{"spec":{"containers":[{"resources":{"limits":{"cpu":"lots"}}}]}}`:               `spec.containers[0].resources.limits.cpu: quantity "lots"`,
		`{"spec":{"containers":[{"ports":[{"containerPort":1.5}]}]}}`:                     "spec.containers[0].ports[0].containerPort: want an integer, not 1.5",
		`{"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":true}}}]}}`:           "spec.containers[0].livenessProbe.httpGet.port: want an integer or a string",
		`{"spec":{"tolerations":{"a":1}}}`:                                                "spec.tolerations: want an array, not an object",
		`{"spec":{"nodeSelector":["a"]}}`:                                                 "spec.nodeSelector: want an object, not an array",
		`{"spec":{"securityContext":{"runAsNonRoot":"yes"}}}`:                             "spec.securityContext.runAsNonRoot: want a boolean, not a string",
		`{"spec":{"affinity":"close"}}`:                                                   "spec.affinity: want an object, not a string",
		`{"spec":{"containers":[{"resources":{"requests":{"memory":"1Gi"}}}],"os":1}}`:    "spec.os: want an object, not a number",
		`{"spec":{"terminationGracePeriodSeconds":"30"}}`:                                 "spec.terminationGracePeriodSeconds: want an integer, not a string",
		`{"metadata":{"labels":{"a":["b"]}}}`:                                             "metadata.labels.a: want a string, not an array",
		`{"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":{}}}]}}`:                 "spec.volumes[0].emptyDir.sizeLimit: want a quantity, not an object",
		`{"spec":{"containers":[{"name":"c"}],"overhead":{"cpu":"1"},"priority":"high"}}`: "spec.priority: want an integer, not a string",
	} {
		_, err := Hash(decode(t, in), nil)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want %s…", in, err, want)
		}
	}
}

// TestSafeEncode pins apimachinery's rand.SafeEncodeString.
func TestSafeEncode(t *testing.T) {
	if got := SafeEncode("0123456789"); got != "456789bcdf" {
		t.Errorf("SafeEncode = %s", got)
	}
}

// FuzzHash: any JSON gives a hash or an error, never a panic.
func FuzzHash(f *testing.F) {
	f.Add([]byte(web))
	f.Add([]byte(`{"spec":{"containers":[{"resources":{"limits":{"cpu":"8Ei"}}}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		_, _ = Hash(v, nil)
	})
}
