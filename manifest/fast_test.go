package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/quantity"
)

// jkv is an object entry of a JSON text being generated: objects keep
// their key order and may repeat keys.
type jkv struct {
	key string
	val any // nil, bool, json.Number, string, []any, []jkv
}

// toOrdered turns encoding/json's generic value into ordered objects.
func toOrdered(x any) any {
	switch x := x.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// A fixed order; the properties shuffle where it matters.
		sortStrings(keys)
		out := make([]jkv, 0, len(keys))
		for _, k := range keys {
			out = append(out, jkv{k, toOrdered(x[k])})
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toOrdered(e)
		}
		return out
	}
	return x
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// gen draws the many small choices of a generated text from a seed
// rapid draws (rapid's bias towards small values would mutate nearly
// everything).
type gen struct{ rng *rand.Rand }

func (g *gen) intn(lo, hi int) int { return lo + g.rng.IntN(hi-lo+1) }

func pick[T any](g *gen, xs []T) T { return xs[g.rng.IntN(len(xs))] }

// mutate draws changes to a document: unknown fields, duplicated keys,
// values of the wrong type, bad quantities, escaped strings, null, and
// moved keys, anywhere in it.
func mutate(g *gen, x any, depth int) any {
	switch x := x.(type) {
	case []jkv:
		out := append([]jkv(nil), x...)
		for i := range out {
			out[i].val = mutate(g, out[i].val, depth+1)
		}
		if len(out) > 1 && g.intn(0, 9) == 0 {
			i := g.intn(0, len(out)-1)
			e := out[i]
			out = append(out[:i], out[i+1:]...)
			j := g.intn(0, len(out))
			out = append(out[:j], append([]jkv{e}, out[j:]...)...)
		}
		switch g.intn(0, 80) {
		case 0:
			out = append(out, jkv{pick(g, []string{"nodeSelectr", "Tolerations", "extra", "a\\u0062c", "resourceClaims", "env", "status"}),
				pick(g, []any{"x", json.Number("1"), nil, []any{}, []jkv{}})})
		case 1:
			if len(out) > 0 {
				e := out[g.intn(0, len(out)-1)]
				out = append(out, jkv{e.key, e.val})
			}
		case 2:
			if len(out) > 0 {
				i := g.intn(0, len(out)-1)
				out[i].key = strings.Replace(out[i].key, "e", `\u0065`, 1)
			}
		}
		return out
	case []any:
		out := append([]any(nil), x...)
		for i := range out {
			out[i] = mutate(g, out[i], depth+1)
		}
		return out
	case string:
		switch g.intn(0, 400) {
		case 0:
			return json.Number("7")
		case 1:
			return "12parsecs"
		case 2:
			return x + "<&\u00e9>"
		case 3:
			return nil
		case 4:
			return []jkv{}
		}
	case json.Number:
		switch g.intn(0, 200) {
		case 0:
			return "1"
		case 1:
			return json.Number("1.5")
		case 2:
			return json.Number("1e3")
		case 3:
			return json.Number("99999999999999999999")
		}
	case bool:
		if g.intn(0, 200) == 0 {
			return "true"
		}
	}
	return x
}

// writeJSON writes x with drawn white space (new lines among it).
func writeJSON(g *gen, b *bytes.Buffer, x any) {
	ws := func() {
		b.WriteString(pick(g, []string{"", "", "", " ", "\n", "\n  ", "\r\n", "\t"}))
	}
	switch x := x.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(string(x))
	case string:
		q, _ := json.Marshal(x)
		b.Write(q)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			writeJSON(g, b, e)
		}
		ws()
		b.WriteByte(']')
	case []jkv:
		b.WriteByte('{')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			if strings.Contains(e.key, `\u`) {
				b.WriteString(`"` + e.key + `"`)
			} else {
				q, _ := json.Marshal(e.key)
				b.Write(q)
			}
			ws()
			b.WriteByte(':')
			ws()
			writeJSON(g, b, e.val)
		}
		ws()
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("%T", x))
	}
}

// typeMeta sets an object's kind and apiVersion from the kinds table.
func typeMeta(obj any) {
	for _, k := range kinds() {
		if reflect.TypeOf(obj).Elem() == k.typ {
			tm := reflect.ValueOf(obj).Elem().FieldByName("TypeMeta").Addr().Interface().(*api.TypeMeta)
			tm.Kind, tm.APIVersion = k.kind, strings.TrimPrefix(k.group+"/"+k.version, "/")
		}
	}
}

// readResult is everything a Reader tells about what it read.
type readResult struct {
	Nodes, Pods, Others any
	Sources             []string
	Unmodelled          []string
	Warnings            []string
	Errors              string
	Skipped             map[string]int
}

func readAll(in []byte, slow bool, big int64, oneByte bool) readResult {
	return readWith(in, func(r *Reader) { r.slowJSON, r.bigJSON = slow, big }, oneByte)
}

// readWith reads in with a Reader set up by set (if not nil), through a
// seekable reader or one byte at a time (not seekable).
func readWith(in []byte, set func(*Reader), oneByte bool) readResult {
	return readWrapped(in, set, oneByte, nil)
}

// readWrapped is readWith with the reader wrapped by wrap, when not nil.
func readWrapped(in []byte, set func(*Reader), oneByte bool, wrap func(io.Reader) io.Reader) readResult {
	r := NewReader()
	if set != nil {
		set(r)
	}
	var rd io.Reader = bytes.NewReader(in)
	if oneByte {
		rd = iotest.OneByteReader(rd)
	}
	if wrap != nil {
		rd = wrap(rd)
	}
	err := r.Read("f", rd)
	o := r.Objects()
	others := append(o.storeObjects(), anySlice(o.ControllerRevisions)...)
	res := readResult{Nodes: o.Nodes, Pods: o.Pods, Others: others, Skipped: r.Report().Skipped}
	all := append(append([]any{}, anySlice(o.Nodes)...), anySlice(o.Pods)...)
	all = append(all, others...)
	for _, x := range all {
		src, _ := o.Source(x)
		res.Sources = append(res.Sources, src.String())
		res.Unmodelled = append(res.Unmodelled, strings.Join(o.UnmodelledFields(x), ","))
	}
	for _, w := range r.Report().Warnings {
		res.Warnings = append(res.Warnings, w.String())
	}
	if err != nil {
		res.Errors = err.Error()
	}
	return res
}

func anySlice[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// TestFastPathMatchesTree is the property that the fast JSON path (bytes
// straight into typed objects, large Lists streamed item by item) reads
// the same objects, sources, unmodelled fields, warnings, errors and
// skipped counts as the token-by-token tree path, on clustergen objects
// written as Lists (kind before or after items, typed lists whose items
// leave kind out), concatenated streams and single documents, with drawn
// unknown fields, duplicate keys, wrong types, escapes and white space.
// drawListInput draws what TestFastPathMatchesTree reads: clustergen
// objects as a List (kind before or after its items), a typed list, a
// concatenated stream, with drawn mutations; and the generator it drew
// with. pad skipped ConfigMaps are put among the objects at drawn
// places, to make the text longer than what is held whole.
func drawListInput(t *rapid.T, pad int) (in []byte, g *gen) {
	var buf bytes.Buffer
	objs := clustergen.Cluster(rapid.IntRange(0, 3).Draw(t, "nodes"), rapid.IntRange(0, 5).Draw(t, "pods")).Draw(t, "cluster")
	var items []any
	for _, n := range objs.Nodes {
		items = append(items, n)
	}
	for i, p := range objs.Pods {
		p.Name = fmt.Sprint(p.Name, "-", i)
		items = append(items, p)
	}
	items = append(items, clustergen.StoreObjects().Draw(t, "store")...)
	g = &gen{rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))}
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
		if g.intn(0, 1) == 0 {
			d0 = mutate(g, d0, 0)
		}
		docs = append(docs, d0)
	}
	if rapid.Bool().Draw(t, "skippedKind") {
		docs = append(docs, []jkv{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", []jkv{{"name", "c"}}}})
	}
	for k := range pad {
		cm := []jkv{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", []jkv{{"name", fmt.Sprint("pad-", k)}}}, {"data", []jkv{{"k", strings.Repeat("v", 40)}}}}
		i := g.intn(0, len(docs))
		docs = append(docs[:i], append([]any{cm}, docs[i:]...)...)
	}
	switch form := rapid.IntRange(0, 3).Draw(t, "form"); form {
	case 0, 1: // a List, kind before or after its items (kubectl sorts keys)
		list := []jkv{{"apiVersion", "v1"}, {"items", docs}, {"kind", "List"}, {"metadata", []jkv{{"resourceVersion", ""}}}}
		if form == 1 {
			list[1], list[2] = list[2], list[1]
		}
		writeJSON(g, &buf, list)
	case 2: // a typed list: items without kind
		var nodes []any
		for _, d := range docs {
			if o, ok := d.([]jkv); ok {
				var kept []jkv
				for _, e := range o {
					if e.key != "kind" && e.key != "apiVersion" {
						kept = append(kept, e)
					}
				}
				nodes = append(nodes, kept)
			}
		}
		writeJSON(g, &buf, []jkv{{"kind", "PodList"}, {"apiVersion", "v1"}, {"items", nodes}})
	case 3: // a concatenated stream
		for _, d := range docs {
			writeJSON(g, &buf, d)
			buf.WriteString(rapid.SampledFrom([]string{"", "\n", " \n\n"}).Draw(t, "sep"))
		}
	}
	if g.intn(0, 19) == 0 && buf.Len() > 2 {
		buf.Truncate(g.intn(1, buf.Len()-1))
	}
	return buf.Bytes(), g
}

func TestFastPathMatchesTree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, _ := drawListInput(t, 0)
		big := rapid.SampledFrom([]int64{1, 64, 0}).Draw(t, "big")
		want := readAll(in, true, 0, false)
		share := rapid.Bool().Draw(t, "share")
		got := readWith(in, func(r *Reader) { r.bigJSON = big; r.SetShareResourceLists(share) }, rapid.Bool().Draw(t, "oneByte"))
		opts := cmp.Comparer(func(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })
		if diff := cmp.Diff(want, got, opts); diff != "" {
			t.Fatalf("tree (-) and fast (+) paths differ on\n%s\n%s", in, diff)
		}
	})
}

// TestParallelItemsSameAsSequential is the property that a streamed
// List's items decoded by workers, in chunks of drawn sizes, read the
// same objects in the same order, with the same sources, warnings,
// errors (the first one included) and skipped counts as the items
// decoded one by one by the reading goroutine, on TestFastPathMatchesTree's
// inputs.
func TestParallelItemsSameAsSequential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, _ := drawListInput(t, 400)
		workers := rapid.IntRange(2, 4).Draw(t, "workers")
		chunk := rapid.SampledFrom([]int{1, 200, 2000, 0}).Draw(t, "chunk")
		oneByte := rapid.Bool().Draw(t, "oneByte")
		want := readWith(in, func(r *Reader) { r.bigJSON, r.workers = 1, 1 }, oneByte)
		got := readWith(in, func(r *Reader) { r.bigJSON, r.workers, r.itemChunk = 1, workers, chunk }, oneByte)
		opts := cmp.Comparer(func(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })
		if diff := cmp.Diff(want, got, opts); diff != "" {
			t.Fatalf("sequential (-) and parallel (+) items differ on\n%s\n%s", in, diff)
		}
		if first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }; first(want.Errors) != first(got.Errors) {
			t.Fatalf("first errors differ: %q, %q", first(want.Errors), first(got.Errors))
		}
	})
}

// TestCountMatchesSkip is the property that count's flat pass finds, for
// every object and array of valid JSON (TestFastPathMatchesTree's inputs
// and escapes that look like brackets), as many entries as skipping them
// one by one does.
func TestCountMatchesSkip(t *testing.T) {
	slow := func(b []byte, at int) int {
		close := byte('}')
		if b[at] == '[' {
			close = ']'
		}
		i := skipSpace(b, at+1)
		n := 0
		for b[i] != close {
			if close == '}' {
				i, _ = skipString(b, i)
				i = skipSpace(b, i) + 1
			}
			i, _ = skipValue(b, skipSpace(b, i))
			n++
			if i = skipSpace(b, i); b[i] == ',' {
				i = skipSpace(b, i+1)
			}
		}
		return n
	}
	// walk checks the value at i and those it holds, returning its end.
	var walk func(t *rapid.T, b []byte, i int) int
	walk = func(t *rapid.T, b []byte, i int) int {
		i = skipSpace(b, i)
		if b[i] != '{' && b[i] != '[' {
			end, _ := skipValue(b, i)
			return end
		}
		f := fastDecoder{b: b, i: i}
		if got, want := f.count(b[i]+2), slow(b, i); got != want {
			t.Fatalf("count at %d of %s: %d, skipping: %d", i, b, got, want)
		}
		obj := b[i] == '{'
		i = skipSpace(b, i+1)
		for b[i] != '}' && b[i] != ']' {
			if obj {
				i, _ = skipString(b, i)
				i = skipSpace(b, i) + 1
			}
			i = skipSpace(b, walk(t, b, i))
			if b[i] == ',' {
				i = skipSpace(b, i+1)
			}
		}
		return i + 1
	}
	rapid.Check(t, func(t *rapid.T) {
		in, _ := drawListInput(t, 0)
		in = append(in, ` {"a\"[{":["]\\",{"x":[],"y\\":"\\\"}"},[[]],"\u005d,"],"b":{}} `...)
		for i := skipSpace(in, 0); i < len(in); i = skipSpace(in, i) {
			if _, err := skipValue(in, i); err != nil {
				return // a truncated or invalid document: not scanned JSON
			}
			i = walk(t, in, i)
		}
	})
}
