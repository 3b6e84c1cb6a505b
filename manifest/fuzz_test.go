package manifest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
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
