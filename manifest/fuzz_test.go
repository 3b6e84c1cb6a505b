package manifest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/quantity"
)

// FuzzRead feeds arbitrary streams to the reader: it must return objects
// or errors, never panic, and whatever it reads must read back the same
// from its JSON encoding.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/dump.yaml", "../examples/data/cluster.yaml"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(string(data))
		}
	}
	for _, s := range []string{
		"kind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n",
		"kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, resources: {requests: {cpu: 1e3m}}}]}\n---\n",
		`{"kind":"Node","metadata":{"name":"a"},"status":{"allocatable":{"cpu":1.5}}}{"kind":"Node","metadata":{"name":"b"}}`,
		"--- # c\nkind: Node\nmetadata: {name: a, labels: {x: &a y1, z: *a}}\n...\n",
		"{kind: Node, metadata: {name: a}}\n---\nbase: &b {kind: Node}\n<<: *b\n",
		"\xef\xbb\xbfkind: NodeList\r\nitems:\r\n- metadata: {name: a}\r\n",
		"--- !tag\nkind: Node\n",
		draObjects,
		"apiVersion: resource.k8s.io/v1beta2\nkind: DeviceClass\nmetadata: {name: a}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := NewReader()
		_ = r.Read("in", strings.NewReader(in))
		o := r.Objects()
		if len(o.Nodes) == 0 {
			return
		}
		b, err := json.Marshal(o.Nodes[0])
		if err != nil {
			return // such as a quantity that has no JSON form
		}
		again := NewReader()
		if err := again.Read("again", strings.NewReader(string(b))); err != nil {
			t.Fatalf("a node read from %q does not read back from %s: %v", in, b, err)
		}
	})
}

// FuzzFastPath: on any input, the fast JSON path (also streaming every
// document item by item, and fed one byte at a time) reads what the
// token-by-token tree path reads, and reports the same.
func FuzzFastPath(f *testing.F) {
	for _, s := range []string{
		`{"kind":"List","apiVersion":"v1","items":[{"kind":"Node","apiVersion":"v1","metadata":{"name":"a","labels":{"x":"y"}},"status":{"allocatable":{"cpu":"1"}}}]}`,
		`{"apiVersion":"v1","items":[{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],"nodeSelectr":{}}}],"kind":"PodList"}`,
		`{"kind":"Node","metadata":{"name":"a","name":"b"}}{"kind":"Pod","metadata":{"name":"p"},"spec":{"priority":"x"}}`,
		"{\"kind\":\"Node\",\n\"metadata\":{\"name\":\"a\\u0062\"}}\n{\"kind\":",
		`{kind: Node, metadata: {name: a}}`,
		`{"kind":"List","apiVersion":"v1","items":[{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"driver":"d.example.com","allNodes":true,"pool":{"name":"p","generation":1,"resourceSliceCount":1},"devices":[{"name":"d0","attributes":{"model":{"string":"x"},"n":{"int":3}},"capacity":{"memory":{"value":"1Gi"}}}]}}]}`,
		`{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","metadata":{"name":"t","namespace":"ml"},"spec":{"spec":{"devices":{"requests":[{"name":"g","exactly":{"deviceClassName":"c","selectors":[{"cel":{"expression":"device.driver == \"x\""}}]}}]}}}}`,
		// Repeated quantities and times (the memo), a null quantity, a bad one after a good one.
		`{"kind":"List","apiVersion":"v1","items":[{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","creationTimestamp":"2026-01-01T00:00:00Z"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m","memory":"1.0Gi","x":null}}}]}},` +
			`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b","creationTimestamp":"2026-01-01T00:00:00Z"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m","memory":"1.0Gi","x":null},"limits":{"cpu":"100m","memory":"1x"}}}]}}]}`,
		`{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r"},"data":{"spec":{"template":{"$patch":"replace","spec":{"x":[1.50,2e3,"\u003c&"]}}}},"revision":2}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want := readAll([]byte(in), true, 0, false)
		for _, big := range []int64{0, 1} {
			got := readAll([]byte(in), false, big, big == 1)
			opts := cmp.Comparer(func(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })
			if diff := cmp.Diff(want, got, opts); diff != "" {
				t.Fatalf("big %d: tree (-) and fast (+) paths differ on %q:\n%s", big, in, diff)
			}
		}
	})
}
