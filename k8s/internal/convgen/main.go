// Command convgen writes package convert's typed conversions between
// k8s.io/api objects and schedkit's api, zz_generated.go. Run it with go
// generate in k8s/convert.
//
// It walks each pair of top-level types with reflect, matches fields by
// their JSON names, and writes one function per pair of struct types and
// direction. A schedkit field without a Kubernetes counterpart, or with a
// shape it cannot map, stops it with an error: every field schedkit models
// is carried or the generator says why not. Kubernetes fields schedkit
// does not model are dropped, and listed in the generated file's header.
//
// Each assignment follows what encoding/json would do on the same
// values: an empty slice or map under omitempty becomes nil, a nil
// pointer stays nil, and a value under omitempty or omitzero that is
// zero becomes a nil pointer on the other side. That is what makes the
// typed conversion equal the JSON round trip.
//
// Every function takes an *arena, and allocates through it: a.makeT(n)
// for a slice, a.newT() for a pointer, one slab per type T, written at
// the end of the file. A nil arena (the package functions) allocates
// each value on its own; a Batch's hands out slab slots. String maps and
// Kubernetes resource lists go through a.cloneStrings and
// a.resourceListToAPI (share.go), which a sharing Batch answers from the
// equal maps it converted before.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/k8s/k8sgen"
	"github.com/schedkit/schedkit/quantity"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// top is one exported conversion: a kind, its schedkit type and its
// Kubernetes type.
type top struct {
	kind  string
	group string // the Kubernetes API group/version, for the doc comment
	s, k  reflect.Type
}

// tops are the kinds k8sgen.Kinds lists, the one list of what package
// convert handles, each with its API group/version.
func tops() []top {
	var out []top
	for _, k := range k8sgen.Kinds() {
		out = append(out, top{k.Name, groupVersion(k.K8s), k.API, k.K8s})
	}
	return out
}

// groupVersion is the API group/version of the k8s.io/api type t, as the
// doc comments name it: core/v1, apps/v1, storage.k8s.io/v1.
func groupVersion(t reflect.Type) string {
	parts := strings.Split(t.PkgPath(), "/")
	g, v := parts[len(parts)-2], parts[len(parts)-1]
	switch g {
	case "core", "apps", "batch", "policy":
		return g + "/" + v
	}
	return g + ".k8s.io/" + v
}

// Special types, converted by hand-written helpers in package convert.
var (
	tQuantity  = reflect.TypeFor[quantity.Quantity]()
	tKQuantity = reflect.TypeFor[resource.Quantity]()
	tTime      = reflect.TypeFor[api.Time]()
	tKTime     = reflect.TypeFor[metav1.Time]()
	tIOS       = reflect.TypeFor[api.IntOrString]()
	tKIOS      = reflect.TypeFor[intstr.IntOrString]()
	tRaw       = reflect.TypeFor[json.RawMessage]()
	tKRaw      = reflect.TypeFor[runtime.RawExtension]()
	tStrings   = reflect.TypeFor[map[string]string]()

	tResourceName  = reflect.TypeFor[api.ResourceName]()
	tKResourceName = reflect.TypeFor[corev1.ResourceName]()
)

// aliases names the imported packages in the generated file.
var aliases = map[string]string{
	"github.com/schedkit/schedkit/api":      "api",
	"github.com/schedkit/schedkit/quantity": "quantity",
	"k8s.io/api/core/v1":                    "corev1",
	"k8s.io/api/apps/v1":                    "appsv1",
	"k8s.io/api/batch/v1":                   "batchv1",
	"k8s.io/api/policy/v1":                  "policyv1",
	"k8s.io/api/scheduling/v1":              "schedulingv1",
	"k8s.io/api/scheduling/v1beta1":         "schedulingv1beta1",
	"k8s.io/api/storage/v1":                 "storagev1",
	"k8s.io/api/resource/v1":                "resourcev1",
	"k8s.io/apimachinery/pkg/apis/meta/v1":  "metav1",
	"k8s.io/apimachinery/pkg/api/resource":  "resource",
	"k8s.io/apimachinery/pkg/util/intstr":   "intstr",
	"k8s.io/apimachinery/pkg/runtime":       "runtime",
	"k8s.io/apimachinery/pkg/types":         "types",
	"encoding/json":                         "json",
}

type pair struct{ s, k reflect.Type }

type gen struct {
	names   map[pair]string
	queue   []pair
	done    map[pair]bool
	out     bytes.Buffer
	errs    []string
	dropped map[string][]string // Kubernetes type -> fields not modelled
	used    map[string]bool     // imported package paths
	tmp     int
	slabs   map[string]reflect.Type // the arena's slabs, by slab name
	slabUse map[string]string       // "make" and "new", the methods each slab needs
}

// mk and nw return the method of the arena that allocates n values of t
// (a.makeNAME(n)) or one (a.newNAME()), registering its slab.
func (g *gen) mk(t reflect.Type) string { return "make" + g.slab(t, "make") }
func (g *gen) nw(t reflect.Type) string { return "new" + g.slab(t, "new") }

// slab returns the name of t's slab in the arena, registering it and the
// method use needs.
func (g *gen) slab(t reflect.Type, use string) string {
	n := typeName(t, g)
	r := strings.NewReplacer("[]", "Slice_", "*", "Ptr_", "map[", "Map_", "]", "_", ".", "_")
	var b strings.Builder
	for _, part := range strings.Split(r.Replace(n), "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	name := b.String()
	if old, ok := g.slabs[name]; ok && old != t {
		g.errs = append(g.errs, fmt.Sprintf("two slabs named %s: %v and %v", name, old, t))
	}
	g.slabs[name] = t
	if !strings.Contains(g.slabUse[name], use) {
		g.slabUse[name] += use
	}
	return name
}

func typeName(t reflect.Type, g *gen) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + typeName(t.Elem(), g)
	case reflect.Slice:
		return "[]" + typeName(t.Elem(), g)
	case reflect.Map:
		return "map[" + typeName(t.Key(), g) + "]" + typeName(t.Elem(), g)
	}
	if t.PkgPath() == "" {
		return t.Name()
	}
	a, ok := aliases[t.PkgPath()]
	if !ok {
		g.errs = append(g.errs, "no alias for package "+t.PkgPath())
		a = "UNKNOWN"
	}
	g.used[t.PkgPath()] = true
	return a + "." + t.Name()
}

// funcName returns the base name of the conversion functions of p,
// queueing p when it is new.
func (g *gen) funcName(p pair) string {
	if n, ok := g.names[p]; ok {
		return n
	}
	a := aliases[p.k.PkgPath()]
	a = strings.TrimSuffix(a, "v1")
	n := a + p.k.Name()
	if p.s.Name() != p.k.Name() {
		n += "As" + p.s.Name()
	}
	for _, m := range g.names {
		if m == n {
			g.errs = append(g.errs, "two pairs named "+n)
		}
	}
	g.names[p] = n
	g.queue = append(g.queue, p)
	return n
}

type tag struct {
	name      string
	inline    bool
	omitempty bool
	omitzero  bool
}

func parseTag(f reflect.StructField) (tag, bool) {
	s, ok := f.Tag.Lookup("json")
	if !ok {
		if f.Anonymous {
			return tag{inline: true}, true
		}
		return tag{name: f.Name}, true
	}
	if s == "-" {
		return tag{}, false
	}
	parts := strings.Split(s, ",")
	t := tag{name: parts[0]}
	for _, p := range parts[1:] {
		switch p {
		case "inline":
			t.inline = true
		case "omitempty":
			t.omitempty = true
		case "omitzero":
			t.omitzero = true
		}
	}
	if t.name == "" && f.Anonymous {
		t.inline = true
	}
	return t, true
}

type field struct {
	f   reflect.StructField
	sel string // the Go selector from the outer struct, through inline embeddings
	tag tag
}

// fields lists t's JSON fields by name, in order; the fields of inline
// embedded structs are listed as if they were t's own, as encoding/json
// sees them.
func fields(t reflect.Type) (map[string]field, []string) {
	m := map[string]field{}
	var order []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tg, ok := parseTag(f)
			if !ok {
				continue
			}
			if tg.inline && f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+f.Name+".")
				continue
			}
			m[tg.name] = field{f, prefix + f.Name, tg}
			order = append(order, tg.name)
		}
	}
	walk(t, "")
	return m, order
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(&g.out, format, args...) }

func (g *gen) newVar(p string) string {
	g.tmp++
	return fmt.Sprintf("%s%d", p, g.tmp)
}

// emitPair writes both functions of p.
func (g *gen) emitPair(p pair) {
	n := g.names[p]
	sf, sorder := fields(p.s)
	kf, korder := fields(p.k)
	var matched []string
	for _, key := range sorder {
		if _, ok := kf[key]; !ok {
			g.errs = append(g.errs, fmt.Sprintf("%v.%s (json %q) has no counterpart in %v", p.s, sf[key].f.Name, key, p.k))
			continue
		}
		matched = append(matched, key)
	}
	var drop []string
	for _, key := range korder {
		if _, ok := sf[key]; !ok {
			drop = append(drop, key)
		}
	}
	if len(drop) > 0 {
		g.dropped[p.k.String()] = drop
	}
	for _, dir := range []bool{true, false} {
		src, dst := p.k, p.s
		fn := n + "ToAPI"
		if !dir {
			src, dst = p.s, p.k
			fn = n + "FromAPI"
		}
		g.tmp = 0
		g.printf("func %s(in *%s, out *%s, a *arena) error {\n", fn, typeName(src, g), typeName(dst, g))
		for _, key := range matched {
			s, k := sf[key], kf[key]
			from, to := k, s
			if !dir {
				from, to = s, k
			}
			seg := key
			g.assign(from.f.Type, to.f.Type, "in."+from.sel, "out."+to.sel, from.tag, dir, func(e string) string {
				if seg == "" {
					return "return " + e
				}
				return "return inField(" + strconv.Quote(seg) + ", " + e + ")"
			})
		}
		g.printf("return nil\n}\n\n")
	}
}

// assign writes statements converting src (of type st) into dst (of type
// dt). dir is true for Kubernetes to schedkit. tg is the source field's
// JSON tag (omitempty semantics); fail returns the statement that
// returns an error of the value at hand, wrapped with its path.
func (g *gen) assign(st, dt reflect.Type, src, dst string, tg tag, dir bool, failf func(string) string) {
	fail := failf("err")
	// Special types.
	switch {
	case st == tKQuantity && dt == tQuantity:
		g.printf("if err := quantityToAPI(%s, %s); err != nil { %s }\n", addr(src), addr(dst), fail)
		return
	case st == tQuantity && dt == tKQuantity:
		g.printf("if err := quantityFromAPI(%s, %s); err != nil { %s }\n", addr(src), addr(dst), fail)
		return
	case st == tKTime && dt == tTime:
		g.printf("%s = api.Time{Time: %s.Time}\n", dst, src)
		g.used["github.com/schedkit/schedkit/api"] = true
		return
	case st == tTime && dt == tKTime:
		g.printf("%s = metav1.Time{Time: %s.Time}\n", dst, src)
		g.used["k8s.io/apimachinery/pkg/apis/meta/v1"] = true
		return
	case st == tKIOS && dt == tIOS:
		g.printf("%s = intOrStringToAPI(%s)\n", dst, src)
		return
	case st == tIOS && dt == tKIOS:
		g.printf("%s = intOrStringFromAPI(%s)\n", dst, src)
		return
	case st == tKRaw && dt == tRaw:
		g.printf("if err := rawToAPI(%s, %s); err != nil { %s }\n", addr(src), addr(dst), fail)
		return
	case st == tRaw && dt == tKRaw:
		g.printf("%s = rawFromAPI(%s)\n", dst, src)
		return
	}
	switch {
	case st.Kind() == reflect.Pointer && dt.Kind() == reflect.Pointer:
		g.printf("if %s != nil {\n", src)
		if isBasic(st.Elem()) && isBasic(dt.Elem()) {
			v := g.newVar("p")
			g.printf("%s := a.%s()\n*%s = %s(*%s)\n%s = %s\n", v, g.nw(dt.Elem()), v, typeName(dt.Elem(), g), src, dst, v)
		} else {
			g.printf("%s = a.%s()\n", dst, g.nw(dt.Elem()))
			g.assign(st.Elem(), dt.Elem(), "(*"+src+")", "(*"+dst+")", tag{}, dir, failf)
		}
		g.printf("}\n")
		return
	case st.Kind() == reflect.Pointer:
		g.printf("if %s != nil {\n", src)
		g.assign(st.Elem(), dt, "(*"+src+")", dst, tag{}, dir, failf)
		g.printf("}\n")
		return
	case dt.Kind() == reflect.Pointer:
		cond := "true"
		switch {
		case tg.omitzero:
			cond = "!" + src + ".IsZero()"
			if st.Kind() == reflect.Struct && !hasIsZero(st) {
				cond = src + " != (" + typeName(st, g) + "{})"
				if !st.Comparable() {
					g.errs = append(g.errs, "omitzero on a struct that is not comparable: "+st.String())
				}
			}
		case tg.omitempty && isBasic(st):
			cond = src + " != " + zeroLit(st)
		case tg.omitempty && (st.Kind() == reflect.Slice || st.Kind() == reflect.Map):
			cond = "len(" + src + ") != 0"
		}
		if cond == "true" {
			g.printf("{\n")
		} else {
			g.printf("if %s {\n", cond)
		}
		if isBasic(st) && isBasic(dt.Elem()) {
			v := g.newVar("p")
			g.printf("%s := a.%s()\n*%s = %s(%s)\n%s = %s\n", v, g.nw(dt.Elem()), v, typeName(dt.Elem(), g), src, dst, v)
		} else {
			g.printf("%s = a.%s()\n", dst, g.nw(dt.Elem()))
			g.assign(st, dt.Elem(), src, "(*"+dst+")", tag{}, dir, failf)
		}
		g.printf("}\n")
		return
	}
	if isBasic(st) && isBasic(dt) {
		if st.Kind() != dt.Kind() {
			g.errs = append(g.errs, fmt.Sprintf("%s: %v vs %v", src, st, dt))
		}
		if st == dt {
			g.printf("%s = %s\n", dst, src)
		} else {
			g.printf("%s = %s(%s)\n", dst, typeName(dt, g), src)
		}
		return
	}
	if st.Kind() != dt.Kind() {
		g.errs = append(g.errs, fmt.Sprintf("%s -> %s: %v vs %v", src, dst, st, dt))
		return
	}
	switch st.Kind() {
	case reflect.Struct:
		n := g.funcName(orient(st, dt, dir))
		suffix := "ToAPI"
		if !dir {
			suffix = "FromAPI"
		}
		g.printf("if err := %s%s(%s, %s, a); err != nil { %s }\n", n, suffix, addr(src), addr(dst), fail)
	case reflect.Slice:
		cond := src + " != nil"
		if tg.omitempty {
			cond = "len(" + src + ") > 0"
		}
		g.printf("if %s {\n", cond)
		if st.Elem() == dt.Elem() && isBasic(st.Elem()) {
			g.printf("%s = a.%s(len(%s))\ncopy(%s, %s)\n", dst, g.mk(dt.Elem()), src, dst, src)
		} else {
			i := g.newVar("i")
			g.printf("%s = a.%s(len(%s))\n", dst, g.mk(dt.Elem()), src)
			g.printf("for %s := range %s {\n", i, src)
			g.assign(st.Elem(), dt.Elem(), src+"["+i+"]", dst+"["+i+"]", tag{}, dir, func(e string) string { return failf("atIndex(" + i + ", " + e + ")") })
			g.printf("}\n")
		}
		g.printf("}\n")
	case reflect.Map:
		cond := src + " != nil"
		if tg.omitempty {
			cond = "len(" + src + ") > 0"
		}
		g.printf("if %s {\n", cond)
		switch {
		case st == tStrings && dt == tStrings:
			// Shared by a Batch when equal maps were converted before.
			g.printf("%s = a.cloneStrings(%s)\n", dst, src)
		case st == dt && isBasic(st.Elem()):
			g.printf("%s = maps.Clone(%s)\n", dst, src)
			g.used["maps"] = true
		case dir && st.Key() == tKResourceName && st.Elem() == tKQuantity && dt.Key() == tResourceName && dt.Elem() == tQuantity:
			// Shared by a Batch when equal lists were converted before.
			m := g.newVar("m")
			g.printf("%s, err := a.resourceListToAPI(%s)\nif err != nil { %s }\n%s = %s\n", m, src, fail, dst, m)
		default:
			k, v := g.newVar("k"), g.newVar("v")
			m := g.newVar("m")
			g.printf("%s := make(%s, len(%s))\n", m, typeName(dt, g), src)
			g.printf("for %s, %s := range %s {\n", k, v, src)
			dk := k
			if st.Key() != dt.Key() {
				dk = typeName(dt.Key(), g) + "(" + k + ")"
			}
			if isBasic(st.Elem()) && isBasic(dt.Elem()) {
				if st.Elem() == dt.Elem() {
					g.printf("%s[%s] = %s\n", m, dk, v)
				} else {
					g.printf("%s[%s] = %s(%s)\n", m, dk, typeName(dt.Elem(), g), v)
				}
			} else {
				e := g.newVar("e")
				g.printf("var %s %s\n", e, typeName(dt.Elem(), g))
				g.assign(st.Elem(), dt.Elem(), v, e, tag{}, dir, func(e string) string { return failf("atKey(string(" + k + "), " + e + ")") })
				g.printf("%s[%s] = %s\n", m, dk, e)
			}
			g.printf("}\n%s = %s\n", dst, m)
		}
		g.printf("}\n")
	default:
		g.errs = append(g.errs, fmt.Sprintf("%s: unsupported %v", src, st))
	}
}

// addr returns the address of the addressable expression e: (*p) is p.
func addr(e string) string {
	if strings.HasPrefix(e, "(*") && strings.HasSuffix(e, ")") && !strings.ContainsAny(e[2:len(e)-1], "()") {
		return e[2 : len(e)-1]
	}
	return "&" + e
}

func orient(st, dt reflect.Type, dir bool) pair {
	if dir {
		return pair{s: dt, k: st}
	}
	return pair{s: st, k: dt}
}

func hasIsZero(t reflect.Type) bool {
	_, ok := t.MethodByName("IsZero")
	return ok
}

func isBasic(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func zeroLit(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return `""`
	case reflect.Bool:
		return "false"
	}
	return "0"
}

func main() {
	outPath := flag.String("o", "zz_generated.go", "output file")
	flag.Parse()
	g := &gen{names: map[pair]string{}, done: map[pair]bool{}, dropped: map[string][]string{}, used: map[string]bool{}, slabs: map[string]reflect.Type{}, slabUse: map[string]string{}}
	ts := tops()
	for _, t := range ts {
		g.funcName(pair{t.s, t.k})
	}
	var body bytes.Buffer
	for len(g.queue) > 0 {
		p := g.queue[0]
		g.queue = g.queue[1:]
		if g.done[p] {
			continue
		}
		g.done[p] = true
		g.emitPair(p)
	}
	body.Write(g.out.Bytes())
	g.out.Reset()

	// Exported entry points, each a function and a method of Batch.
	for _, t := range ts {
		n := g.names[pair{t.s, t.k}]
		sn, kn := typeName(t.s, g), typeName(t.k, g)
		g.printf("func toAPI%s(in *%s, a *arena) (*%s, error) {\n", t.kind, kn, sn)
		g.printf("if in == nil { return nil, nil }\n")
		g.printf("out := a.%s()\n", g.nw(t.s))
		g.printf("if err := %sToAPI(in, out, a); err != nil { return nil, objectError(%q, in.Namespace, in.Name, err) }\n", n, t.kind)
		g.printf("return out, nil\n}\n\n")
		g.printf("func fromAPI%s(in *%s, a *arena) (*%s, error) {\n", t.kind, sn, kn)
		g.printf("if in == nil { return nil, nil }\n")
		g.printf("out := a.%s()\n", g.nw(t.k))
		g.printf("if err := %sFromAPI(in, out, a); err != nil { return nil, objectError(%q, in.Namespace, in.Name, err) }\n", n, t.kind)
		g.printf("return out, nil\n}\n\n")
		g.printf("// %sToAPI converts a %s %s into schedkit's api, carrying every field schedkit models.\n", t.kind, t.group, t.kind)
		g.printf("func %sToAPI(in *%s) (*%s, error) { return toAPI%s(in, nil) }\n\n", t.kind, kn, sn, t.kind)
		g.printf("// %sFromAPI converts schedkit's %s into a %s %s.\n", t.kind, t.kind, t.group, t.kind)
		g.printf("func %sFromAPI(in *%s) (*%s, error) { return fromAPI%s(in, nil) }\n\n", t.kind, sn, kn, t.kind)
		g.printf("// %sToAPI is the package's %sToAPI, allocating from b's slabs.\n", t.kind, t.kind)
		g.printf("func (b *Batch) %sToAPI(in *%s) (*%s, error) { return toAPI%s(in, &b.a) }\n\n", t.kind, kn, sn, t.kind)
		g.printf("// %sFromAPI is the package's %sFromAPI, allocating from b's slabs.\n", t.kind, t.kind)
		g.printf("func (b *Batch) %sFromAPI(in *%s) (*%s, error) { return fromAPI%s(in, &b.a) }\n\n", t.kind, sn, kn, t.kind)
	}
	// The dispatch of ToAPI and FromAPI.
	g.printf("func toAPI(obj any, a *arena) (any, error) {\nswitch o := obj.(type) {\n")
	for _, t := range ts {
		g.printf("case *%s:\nreturn toAPI%s(o, a)\n", typeName(t.k, g), t.kind)
	}
	g.printf("}\nreturn nil, unsupported(obj)\n}\n\n")
	g.printf("func fromAPI(obj any, a *arena) (any, error) {\nswitch o := obj.(type) {\n")
	for _, t := range ts {
		g.printf("case *%s:\nreturn fromAPI%s(o, a)\n", typeName(t.s, g), t.kind)
	}
	g.printf("}\nreturn nil, unsupported(obj)\n}\n\n")
	// The arena: one slab per type the conversions allocate. A nil arena
	// allocates each value on its own.
	var slabNames []string
	for name := range g.slabs {
		slabNames = append(slabNames, name)
	}
	sort.Strings(slabNames)
	g.printf("// arena holds a Batch's slabs, one per type the conversions allocate.\n")
	g.printf("type arena struct {\nshared\n")
	for _, name := range slabNames {
		g.printf("s%s slab[%s]\n", name, typeName(g.slabs[name], g))
	}
	g.printf("}\n\n")
	for _, name := range slabNames {
		tn := typeName(g.slabs[name], g)
		if strings.Contains(g.slabUse[name], "make") {
			g.printf("func (a *arena) make%s(n int) []%s {\nif a == nil { return make([]%s, n) }\nreturn a.s%s.take(n)\n}\n\n", name, tn, tn, name)
		}
		if strings.Contains(g.slabUse[name], "new") {
			g.printf("func (a *arena) new%s() *%s {\nif a == nil { return new(%s) }\nreturn a.s%s.one()\n}\n\n", name, tn, tn, name)
		}
	}
	body.Write(g.out.Bytes())

	if len(g.errs) > 0 {
		sort.Strings(g.errs)
		fmt.Fprintln(os.Stderr, strings.Join(g.errs, "\n"))
		os.Exit(1)
	}
	var head bytes.Buffer
	head.WriteString("// Code generated by convgen (k8s/internal/convgen); DO NOT EDIT.\n\n")
	head.WriteString("// Kubernetes fields schedkit does not model, dropped by the ToAPI\n// direction (left zero by FromAPI), by Kubernetes type:\n//\n")
	var ks []string
	for k := range g.dropped {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		line := "//   " + k + ": " + strings.Join(g.dropped[k], ", ")
		head.WriteString(wrap(line) + "\n")
	}
	head.WriteString("\n//lint:file-ignore SA1019 schedkit models fields Kubernetes deprecated but still serves (status.resize)\n")
	head.WriteString("\npackage convert\n\nimport (\n")
	var paths []string
	for p := range g.used {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		si, sj := !strings.Contains(paths[i], "."), !strings.Contains(paths[j], ".")
		if si != sj {
			return si
		}
		return paths[i] < paths[j]
	})
	for i, p := range paths {
		if i > 0 && strings.Contains(p, ".") && !strings.Contains(paths[i-1], ".") {
			head.WriteString("\n")
		}
		if a, ok := aliases[p]; ok && a != p[strings.LastIndex(p, "/")+1:] {
			fmt.Fprintf(&head, "%s %q\n", a, p)
		} else {
			fmt.Fprintf(&head, "%q\n", p)
		}
	}
	head.WriteString(")\n\n")
	head.Write(body.Bytes())
	src, err := format.Source(head.Bytes())
	if err != nil {
		os.WriteFile(*outPath+".broken", head.Bytes(), 0o644)
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*outPath, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// wrap breaks a long comment line at commas.
func wrap(line string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Split(line, ", ") {
		if i > 0 {
			if n+len(w) > 76 {
				b.WriteString(",\n//     ")
				n = 7
			} else {
				b.WriteString(", ")
				n += 2
			}
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}
