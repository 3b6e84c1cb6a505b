package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/internal/testing/gendump/dump"
	"github.com/schedkit/schedkit/quantity"
)

var quantityEq = cmp.Comparer(func(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })

// compareYAMLPaths fails when the chunked List path (seekable and
// one-byte reads) and the whole-document path read in differently.
func compareYAMLPaths(t interface {
	Fatalf(string, ...any)
	Helper()
}, in []byte) {
	t.Helper()
	want := readWith(in, func(r *Reader) { r.wholeYAML = true }, false)
	for _, oneByte := range []bool{false, true} {
		got := readWith(in, nil, oneByte)
		if diff := cmp.Diff(want, got, quantityEq); diff != "" {
			t.Fatalf("oneByte %v: whole (-) and chunked (+) YAML paths differ on\n%q\n%s", oneByte, in, diff)
		}
		// A pipe on stdin, spooled through a temporary file: a
		// fallback reads the List again from the file.
		var sp *spool
		got = readWrapped(in, nil, oneByte, func(rd io.Reader) io.Reader {
			var err error
			if sp, err = newSpool(rd); err != nil {
				t.Fatalf("spool: %v", err)
			}
			return sp
		})
		sp.close()
		if diff := cmp.Diff(want, got, quantityEq); diff != "" {
			t.Fatalf("oneByte %v: whole (-) and spooled chunked (+) YAML paths differ on\n%q\n%s", oneByte, in, diff)
		}
	}
}

// compareBlockReader fails when the block reader accepts a piece and
// reads it otherwise than yaml/v3 and the converter.
func compareBlockReader(t interface {
	Fatalf(string, ...any)
	Helper()
}, piece []byte) {
	t.Helper()
	var br blockReader
	got, ok := readBlockItem(piece, 7, &br)
	if !ok {
		return
	}
	want, ok := yamlItem(piece, 7)
	if !ok {
		t.Fatalf("block reader reads %q, yaml/v3 does not", piece)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(value{}), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("yaml/v3 (-) and block reader (+) differ on %q:\n%s", piece, diff)
	}
}

// TestChunkedDump: internal/testing/gendump's dump as YAML (kubectl's shape)
// reads the same item by item as whole, every item through the block
// reader.
func TestChunkedDump(t *testing.T) {
	var js bytes.Buffer
	w := bufio.NewWriter(&js)
	if err := dump.Write(w, 12, 150, 5, 3); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	y, err := sigsyaml.JSONToYAML(js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	compareYAMLPaths(t, y)
	// Fallbacks far into the document (its start no longer held: read
	// again by seeking, or from the held bytes when reading byte by byte).
	last := bytes.LastIndex(y, []byte("\nkind: List"))
	for _, tail := range []string{"\n# c", "\n- *x", "\n- {", "\nitems: []"} {
		in := append(append(append([]byte(nil), y[:last]...), tail...), y[last:]...)
		compareYAMLPaths(t, in)
	}
	for _, in := range [][]byte{y, kubectlIndent(y)} {
		r := NewReader()
		if err := r.Read("d", bytes.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		if len(r.Objects().Pods) != 150 || len(r.Objects().Nodes) != 12 || r.chunked != 1 {
			t.Fatalf("%d nodes, %d pods, %d Lists read item by item", len(r.Objects().Nodes), len(r.Objects().Pods), r.chunked)
		}
	}
	data, err := os.ReadFile("testdata/dump.yaml")
	if err != nil {
		t.Fatal(err)
	}
	compareYAMLPaths(t, data)
	r := NewReader()
	if r.Read("d", bytes.NewReader(data)); r.chunked != 1 {
		t.Fatalf("testdata/dump.yaml: %d Lists read item by item", r.chunked)
	}
	for _, piece := range itemPieces(y) {
		var br blockReader
		if _, ok := readBlockItem(piece, 1, &br); !ok {
			t.Fatalf("block reader declines %q", piece)
		}
		compareBlockReader(t, piece)
	}
}

// kubectlIndent indents a List's items by two (as some writers do).
func kubectlIndent(y []byte) []byte {
	lines := strings.SplitAfter(string(y), "\n")
	in := false
	for i, l := range lines {
		switch {
		case l == "items:\n":
			in = true
		case in && len(l) > 0 && l[0] != ' ' && l[0] != '-':
			in = false
		case in:
			lines[i] = "  " + l
		}
	}
	return []byte(strings.Join(lines, ""))
}

// itemPieces cuts a List's items at their "- " lines at column 0.
func itemPieces(y []byte) [][]byte {
	var out [][]byte
	start := -1
	off := 0
	for _, l := range bytes.SplitAfter(y, []byte("\n")) {
		if len(l) > 0 && l[0] != ' ' {
			if start >= 0 {
				out = append(out, y[start:off])
				start = -1
			}
			if l[0] == '-' {
				start = off
			}
		}
		off += len(l)
	}
	return out
}

// TestChunkedFallback pins cases that must read whole, and that they
// read as whole.
func TestChunkedFallback(t *testing.T) {
	item := "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n"
	for _, in := range []string{
		"apiVersion: v1\nitems:\n" + item + "kind: List\n",
		"apiVersion: v1\nitems:\n" + item + "- &x apiVersion: v1\n  kind: Node\n  metadata: {name: b}\nkind: List\n",
		"apiVersion: v1\nitems:\n" + item + "- apiVersion: v1\n  kind: Node\n  metadata: {name: b, labels: {x: *y}}\nkind: List\n",
		"a: \"x\nitems:\n" + item + "b: \"\nkind: List\n",
		"kind: List\nitems:\n- kind: Node\n  metadata: {name: \"a\n- b\"}\n- kind: Node\n  metadata: {name: c}\n",
		"kind: List\nitems:\n- kind: Node\n  metadata: [\n- b]\n",
		"kind: List\nitems:\n" + item + "# c\n" + item,
		"kind: List\nitems:\n" + item + "...\n",
		"kind: List\nitems:\n" + item + "items: []\n",
		"kind: List\nkind: PodList\nitems:\n" + item,
		"kind: NodeList\napiVersion: v1\nitems:\n- metadata:\n    name: a\n---\nkind: List\nitems:\n- kind: Pod\n  metadata: {name: p}\n--- # c\nkind: Node\nmetadata: {name: z}\n",
		"kind: List\nitems:\n- kind: Node\n\tmetadata: {name: a}\n",
		"kind: List\nitems:\n- kind: Node\r  metadata: {name: a}\n",
		"kind: Foo\nitems:\n" + item,
		"kind: List\nitems:\n" + item + " - x\n",
		"kind: List\nitems:\n" + item + "- a: |\n    text\n- kind: Node\n  metadata: {name: q}\n",
		"kind: List\nitems:\n- kind: Node\n  metadata:\n    name: a\n    labels:\n      x: 1\n     y: 2\n",
		"--- !!map\nkind: List\nitems:\n" + item,
		"%YAML 1.1\n---\nkind: List\nitems:\n" + item,
		"kind: List\nitems:\n" + item + "- kind: Node\n  metadata:\n    name: b\n    labels: {a: 1}\n    labels: {b: 2}\n",
		"kind: List\nitems:\n- kind: Pod\n  metadata: {name: p}\n  spec: {containers: [{name: c, resources: {requests: {cpu: 12parsecs}}}]}\n",
		// An error in the next document's first token is the List's.
		"kind: List\nitems:\n" + item + "--- \"\n",
		"kind: List\nitems:\n" + item + "kind: List\n---\n&\n",
		"kind: List\nitems:\n" + item + "---\nkey: \"open\n",
		// Errors on the line of the "---" after the List.
		"kind: List\nitems:\n" + item + "--- ,00\n",
		"kind: List\nitems:\n" + item + "--- a: b\n",
		"kind: List\nitems:\n" + item + "--- # c\n]\n",
		"#\x04\nkind: List\nitems:\n" + item,
		// A List among the items, and lists at their keys' column.
		"kind: List\nitems:\n- kind: List\n  items:\n  - kind: Node\n    metadata:\n      name: n\n  - kind: Pod\n    metadata: {name: p}\n    spec:\n      containers:\n      - name: c\n        ports:\n        - containerPort: 80\n" + item,
		"kind: List\nitems:\n- kind: NodeList\n  items:\n  - metadata: {name: m}\n- - kind: Node\n",
	} {
		compareYAMLPaths(t, []byte(in))
	}
}

// annotations are strings drawn into the generated objects: multi-line,
// quoted, with what looks like YAML structure at the start of a line.
var annotations = []string{
	"plain", "a\nb", "x\n- y\nkind: List\n", "  lead", "trail ", "#no", "a # b", "a: b", "'q'", `"dq"`,
	"tab\tin", "ünï", "\u2028", "- dash", "---", "...", "&a", "*a", "!t", "|", "@x", "%x", "{a: 1}", "[1]", "", "true", "0777", "1e3", "null",
}

// perturb changes the YAML text of a List line by line.
func perturb(g *gen, y string) string {
	lines := strings.SplitAfter(y, "\n")
	var out []string
	for _, l := range lines {
		switch g.intn(0, 60) {
		case 0:
			out = append(out, "\n")
		case 1:
			out = append(out, pick(g, []string{"# c\n", "  # c\n", "    # c\n", "--- # c\n", "...\n", "  \n", "\t\n"}))
		case 2:
			if i := strings.Index(l, ": "); i > 0 && !strings.HasPrefix(strings.TrimLeft(l, " "), "- ") {
				k := strings.TrimLeft(l[:i], " ")
				l = l[:i-len(k)] + `"` + k + `"` + l[i:]
			}
		case 3:
			l = strings.TrimSuffix(l, "\n") + pick(g, []string{" # c", "  ", " &a", "\r"}) + "\n"
		case 4:
			l = pick(g, []string{" ", "  ", "\t", ""}) + l
		case 5:
			out = append(out, l)
		case 6:
			if len(l) > 2 {
				l = l[1:]
			}
		}
		out = append(out, l)
	}
	s := strings.Join(out, "")
	switch g.intn(0, 9) {
	case 0:
		s = strings.ReplaceAll(s, "\n", "\r\n")
	case 1:
		s = "\xef\xbb\xbf" + s
	case 2:
		s = "--- # c\n" + s
	case 3:
		s = s + "---\nkind: Node\nmetadata: {name: extra}\n"
	case 4:
		s = "kind: Node\nmetadata: {name: first}\n---\n" + s
	case 5:
		s = s + "--- # c\n" + s
	}
	return s
}

// TestChunkedMatchesWhole is the property that reading a YAML List item
// by item gives the same objects, sources, unmodelled fields, warnings,
// errors and skipped counts as reading it whole, on clustergen objects
// written as kubectl writes a List (sigs.k8s.io/yaml), its items at
// column 0 or indented, a typed list, with drawn unknown fields,
// duplicate keys, wrong types and multi-line or YAML-looking strings, and
// line-level perturbations (comments, blank lines, CRLF, a BOM, document
// separators, quoted keys, tabs, lone CRs, anchors, re-indented or
// repeated lines).
func TestChunkedMatchesWhole(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genYAMLList(t)
		compareYAMLPaths(t, in)
		for _, piece := range itemPieces(in) {
			compareBlockReader(t, piece)
		}
	})
}

func genYAMLList(t *rapid.T) []byte {
	objs := clustergen.Cluster(rapid.IntRange(0, 3).Draw(t, "nodes"), rapid.IntRange(0, 4).Draw(t, "pods")).Draw(t, "cluster")
	var items []any
	for _, n := range objs.Nodes {
		items = append(items, n)
	}
	for i, p := range objs.Pods {
		p.Name = fmt.Sprint(p.Name, "-", i)
		items = append(items, p)
	}
	items = append(items, clustergen.StoreObjects().Draw(t, "store")...)
	g := &gen{rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))}
	typed := rapid.Bool().Draw(t, "typed")
	var docs []any
	for _, it := range items {
		typeMeta(it)
		b, err := json.Marshal(it)
		if err != nil {
			t.Skip("no JSON form:", err)
		}
		var x any
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		if err := d.Decode(&x); err != nil {
			t.Fatal(err)
		}
		d0 := toOrdered(x)
		if g.intn(0, 2) == 0 {
			d0 = mutate(g, d0, 0)
		}
		if o, ok := d0.([]jkv); ok {
			for i := range o {
				if o[i].key == "metadata" {
					if m, ok := o[i].val.([]jkv); ok && g.intn(0, 1) == 0 {
						o[i].val = append(m, jkv{"annotations", []jkv{{"a", pick(g, annotations)}, {pick(g, annotations), "v"}}})
					}
				}
			}
			if typed {
				var kept []jkv
				for _, e := range o {
					if e.key != "kind" && e.key != "apiVersion" {
						kept = append(kept, e)
					}
				}
				d0 = kept
			}
		}
		docs = append(docs, d0)
	}
	list := []jkv{{"apiVersion", "v1"}, {"items", docs}, {"kind", "List"}, {"metadata", []jkv{{"resourceVersion", ""}}}}
	if typed {
		list[2].val = "PodList"
	}
	toYAML := func() ([]byte, error) {
		var js, c bytes.Buffer
		writeJSON(g, &js, list)
		if err := json.Compact(&c, js.Bytes()); err != nil {
			return nil, err
		}
		return sigsyaml.JSONToYAML(c.Bytes())
	}
	y, err := toYAML()
	if err != nil {
		// Duplicate keys and the like: no items.
		list[1].val = []any{}
		if y, err = toYAML(); err != nil {
			t.Fatal(err)
		}
	}
	if rapid.Bool().Draw(t, "indent") {
		y = kubectlIndent(y)
	}
	s := string(y)
	if rapid.Bool().Draw(t, "perturb") {
		s = perturb(g, s)
	}
	return []byte(s)
}

// FuzzYAMLChunks: on any input, reading YAML Lists item by item gives
// what reading them whole gives; and what the block reader reads of an
// item, yaml/v3 reads the same.
func FuzzYAMLChunks(f *testing.F) {
	if data, err := os.ReadFile("testdata/dump.yaml"); err == nil {
		f.Add(string(data))
	}
	for _, s := range []string{
		"apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n    labels: {}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
		"kind: PodList\nitems:\n  - metadata:\n      name: p\n    spec:\n      containers:\n      - name: c\n        resources: {requests: {cpu: 1e3m}}\n",
		"- a: 1\n  b: 'x''y'\n  c:\n  - d\n  - - e\n",
		"kind: List\nitems:\n- kind: Node\n  metadata: {name: \"a\n- b\"}\n",
		"--- # c\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n---\nkind: List\nitems:\n- kind: Node\n  metadata: {name: b}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		compareYAMLPaths(t, []byte(in))
		compareBlockReader(t, []byte(in))
	})
}

// TestChunkedReadError: a read error in a List read item by item is
// reported as when it is read whole.
func TestChunkedReadError(t *testing.T) {
	in := "kind: List\nitems:\n- kind: Node\n  metadata:\n    name: a\n- kind: Node\n  metadata:\n    name: b\n"
	for _, n := range []int{10, 30, len(in)} {
		res := func(whole bool) readResult {
			r := NewReader()
			r.wholeYAML = whole
			err := r.Read("f", &limited{strings.NewReader(in), n})
			out := readResult{Nodes: r.Objects().Nodes}
			if err != nil {
				out.Errors = err.Error()
			}
			return out
		}
		if diff := cmp.Diff(res(true), res(false)); diff != "" {
			t.Fatalf("read error after %d bytes: whole (-) and chunked (+) differ:\n%s", n, diff)
		}
	}
}

// limited reads at most n bytes, then fails.
type limited struct {
	r *strings.Reader
	n int
}

func (l *limited) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("disk on fire")
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= n
	return n, err
}

// TestChunkedTaken pins which Lists are read item by item (the others
// are read whole; TestChunkedFallback holds both to the same result).
func TestChunkedTaken(t *testing.T) {
	item := "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n"
	for _, c := range []struct {
		in      string
		chunked int
	}{
		{"apiVersion: v1\nitems:\n" + item + "kind: List\nmetadata:\n  resourceVersion: \"\"\n", 1},
		{"\xef\xbb\xbf# c\r\n--- # c\r\napiVersion: v1\r\nitems:\r\n  - kind: Node\r\n    metadata: {name: a}\r\nkind: List\r\n", 1},
		{"apiVersion: v1\nitems:\n" + item + "- &x apiVersion: v1\n  kind: Node\n  metadata: {name: b}\nkind: List\n", 1}, // an anchor alone is harmless
		{"apiVersion: v1\nitems:\n" + item + "- apiVersion: v1\n  kind: Node\n  metadata: {name: b, labels: {x: *y}}\nkind: List\n", 0},
		{"kind: NodeList\napiVersion: v1\nitems:\n- metadata:\n    name: a\n---\nkind: List\nitems:\n- kind: Pod\n  metadata: {name: p}\n--- # c\nkind: Node\nmetadata: {name: z}\n", 2},
		{"kind: List\nitems:\n" + item + "- a: |\n    text\n- kind: Node\n  metadata: {name: q}\n", 1}, // that item by yaml/v3
		{"kind: List\nitems:\n- kind: Pod\n  metadata: {name: p}\n  spec: {containers: [{name: c, resources: {requests: {cpu: 12parsecs}}}]}\n", 1},
		{"kind: List\nitems:\n" + item + "--- \"\n", 0},
		{"kind: Node\nmetadata: {name: a}\n---\nkind: List\nitems:\n" + item, 0}, // after a document read whole
	} {
		r := NewReader()
		r.Read("f", strings.NewReader(c.in))
		if r.chunked != c.chunked {
			t.Errorf("%q: %d Lists read item by item, want %d", c.in, r.chunked, c.chunked)
		}
	}
}

// TestChunkedErrorLines: errors of a List read item by item name the
// file's line, the document and the item.
func TestChunkedErrorLines(t *testing.T) {
	in := "# c\n--- # c\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n" +
		"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n  spec:\n    containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12parsecs\n" +
		"kind: List\n---\n---\nkind: Node\napiVersion: v1\nmetadata:\n  name: [x]\n"
	r := NewReader()
	err := r.Read("f.yaml", strings.NewReader(in))
	want := `f.yaml:18: document 1, items[1] (Pod default/p): spec.containers[0].resources.requests.cpu: quantity "12parsecs": ` +
		"quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n" +
		"f.yaml:25: document 3 (Node ): metadata.name: cannot unmarshal array into Go value of type string\n" +
		"f.yaml:22: document 3 (Node ): metadata.name: Required value: name or generateName is required"
	if err == nil || err.Error() != want || r.chunked != 1 {
		t.Fatalf("got %v (%d Lists item by item), want\n%s", err, r.chunked, want)
	}
}
