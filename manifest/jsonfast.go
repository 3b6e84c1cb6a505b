package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// The fast JSON path. A JSON document (or, in a large List, one item) is
// first delimited by a validating scan over its bytes (skipValue), then
// decoded straight into its typed object (fastDecoder), without the
// generic tree. Anything the fast decoder does not handle exactly as the
// tree decoder does (a duplicate key, a value of the wrong type, a
// quantity that does not parse: every error) makes it give up, and the
// document is decoded again through the tree (parseValue, then decoder),
// which reports it. Lines are counted while whitespace is skipped, so
// they cost nothing when nothing is reported.

// errShort: the bytes end inside the value.
var errShort = errors.New("unexpected end of JSON input")

// maxJSONDepth is how deeply the scan nests before it gives the document
// to encoding/json (which has the same limit and words the error).
const maxJSONDepth = 10000

// syntaxError is a JSON syntax error at an offset of the scanned bytes,
// worded as encoding/json words it.
type syntaxError struct {
	msg string
	off int
}

func (e *syntaxError) Error() string { return e.msg }

// isSpace reports whether c is JSON white space; any byte above the
// space is not, which the common case (compact JSON) tests alone.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(c))
	return "'" + s[1:len(s)-1] + "'"
}

func badChar(b []byte, i int, context string) error {
	return &syntaxError{msg: "invalid character " + quoteChar(b[i]) + " " + context, off: i}
}

// skipValue returns the end of the JSON value starting at b[i] (after
// optional white space), errShort when b ends inside it, or a
// *syntaxError.
func skipValue(b []byte, i int) (int, error) { return skipDepth(b, i, 0) }

func skipDepth(b []byte, i, depth int) (int, error) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return i, errShort
	}
	switch c := b[i]; {
	case c == '{':
		if depth >= maxJSONDepth {
			return i, &syntaxError{msg: "exceeded max depth", off: i}
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return i, errShort
		}
		if b[i] == '}' {
			return i + 1, nil
		}
		for {
			if b[i] != '"' {
				return i, badChar(b, i, "looking for beginning of object key string")
			}
			var err error
			if i, err = skipString(b, i); err != nil {
				return i, err
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return i, errShort
			}
			if b[i] != ':' {
				return i, badChar(b, i, "after object key")
			}
			if i, err = skipDepth(b, i+1, depth+1); err != nil {
				return i, err
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return i, errShort
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
				if i >= len(b) {
					return i, errShort
				}
			case '}':
				return i + 1, nil
			default:
				return i, badChar(b, i, "after object key:value pair")
			}
		}
	case c == '[':
		if depth >= maxJSONDepth {
			return i, &syntaxError{msg: "exceeded max depth", off: i}
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return i, errShort
		}
		if b[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = skipDepth(b, i, depth+1); err != nil {
				return i, err
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return i, errShort
			}
			switch b[i] {
			case ',':
				i++
			case ']':
				return i + 1, nil
			default:
				return i, badChar(b, i, "after array element")
			}
		}
	case c == '"':
		return skipString(b, i)
	case c == 't':
		return skipLiteral(b, i, "true")
	case c == 'f':
		return skipLiteral(b, i, "false")
	case c == 'n':
		return skipLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return skipNumber(b, i)
	}
	return i, badChar(b, i, "looking for beginning of value")
}

func skipLiteral(b []byte, i int, lit string) (int, error) {
	for k := 1; k < len(lit); k++ {
		if i+k >= len(b) {
			return i + k, errShort
		}
		if b[i+k] != lit[k] {
			return i + k, badChar(b, i+k, fmt.Sprintf("in literal %s (expecting %s)", lit, quoteChar(lit[k])))
		}
	}
	return i + len(lit), nil
}

// skipNumber scans a number; a number that reaches the end of b is
// errShort (more digits may follow), which the callers only meet inside
// objects and arrays.
func skipNumber(b []byte, i int) (int, error) {
	digits := func(i int) int {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i
	}
	if b[i] == '-' {
		i++
		if i >= len(b) {
			return i, errShort
		}
		if b[i] < '0' || b[i] > '9' {
			return i, badChar(b, i, "in numeric literal")
		}
	}
	if b[i] == '0' {
		i++
	} else {
		i = digits(i)
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) {
			return i, errShort
		}
		if b[i] < '0' || b[i] > '9' {
			return i, badChar(b, i, "after decimal point in numeric literal")
		}
		i = digits(i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) {
			return i, errShort
		}
		if b[i] < '0' || b[i] > '9' {
			return i, badChar(b, i, "in exponent of numeric literal")
		}
		i = digits(i)
	}
	if i >= len(b) {
		return i, errShort
	}
	return i, nil
}

// stringStop marks the bytes a string scan stops at: the quote, the
// backslash and the control characters.
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// skipString scans the string starting at the quote b[i].
func skipString(b []byte, i int) (int, error) {
	i++
	for {
		for i < len(b) && !stringStop[b[i]] {
			i++
		}
		if i >= len(b) {
			return len(b), errShort
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			if i+1 >= len(b) {
				return i + 1, errShort
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(b) {
						return i + k, errShort
					}
					if !isHex(b[i+k]) {
						return i + k, badChar(b, i+k, "in \\u hexadecimal character escape")
					}
				}
				i += 6
			default:
				return i + 1, badChar(b, i+1, "in string escape code")
			}
		default:
			return i, badChar(b, i, "in string literal")
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// plainString reports whether the scanned string b (quotes included) has
// no escape and is valid UTF-8, so that its content is b[1:len(b)-1].
func plainString(b []byte) bool {
	in := b[1 : len(b)-1]
	ascii := true
	for _, c := range in {
		if c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return ascii || utf8.Valid(in)
}

// unquote returns the content of the scanned string b as encoding/json
// decodes it.
func unquote(b []byte) string {
	if plainString(b) {
		return string(b[1 : len(b)-1])
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return string(b[1 : len(b)-1]) // not reached: b was scanned
	}
	return s
}

// treeBuilder builds the generic tree of scanned JSON bytes, counting
// lines as the token-by-token reader counts them (the line a token ends
// on; a map entry's value carries the line of its key).
type treeBuilder struct {
	b    []byte
	i    int
	line int32
}

// parseValue builds the tree of the valid JSON value b, whose first byte
// is on line line.
func parseValue(b []byte, line int) value {
	p := treeBuilder{b: b, line: int32(line)}
	return p.value()
}

func (p *treeBuilder) space() {
	for p.i < len(p.b) && isSpace(p.b[p.i]) {
		if p.b[p.i] == '\n' {
			p.line++
		}
		p.i++
	}
}

func (p *treeBuilder) value() value {
	p.space()
	start := p.i
	line := p.line
	switch p.b[start] {
	case '{':
		p.i++
		v := value{kind: kindMap, line: line}
		p.space()
		if p.b[p.i] == '}' {
			p.i++
			return v
		}
		for {
			p.space()
			end, _ := skipString(p.b, p.i)
			key := unquote(p.b[p.i:end])
			p.i = end
			kl := p.line
			p.space()
			p.i++ // ':'
			e := p.value()
			e.line = kl
			v.set(key, e, true)
			p.space()
			c := p.b[p.i]
			p.i++
			if c == '}' {
				return v
			}
		}
	case '[':
		p.i++
		v := value{kind: kindList, line: line}
		p.space()
		if p.b[p.i] == ']' {
			p.i++
			return v
		}
		for {
			v.elems = append(v.elems, p.value())
			p.space()
			c := p.b[p.i]
			p.i++
			if c == ']' {
				return v
			}
		}
	case '"':
		end, _ := skipString(p.b, p.i)
		p.i = end
		return value{kind: kindString, line: line, text: unquote(p.b[start:end])}
	case 't':
		p.i += 4
		return value{kind: kindBool, line: line, text: "true"}
	case 'f':
		p.i += 5
		return value{kind: kindBool, line: line, text: "false"}
	case 'n':
		p.i += 4
		return value{kind: kindNull, line: line}
	}
	end, _ := skipNumber(p.b, p.i)
	p.i = end
	return value{kind: kindNumber, line: line, text: string(p.b[start:end])}
}

// errFallback stops the fast decoder: the document is decoded again
// through the tree.
var errFallback = errors.New("fast path declined")

// fastDecoder decodes scanned JSON bytes straight into a typed value,
// with the tree decoder's semantics for documents it accepts: the same
// fields, the same unknown-field warnings at the same lines, the same
// scheduling fields noted. It declines (errFallback) wherever the tree
// decoder would report an error or a duplicate.
type fastDecoder struct {
	d    *decoder
	b    []byte
	i    int
	line int32
	// seen holds the keys of the objects being decoded (a stack), for
	// duplicate detection.
	seen [][]byte
}

func (f *fastDecoder) space() {
	for f.i < len(f.b) && isSpace(f.b[f.i]) {
		if f.b[f.i] == '\n' {
			f.line++
		}
		f.i++
	}
}

// skip passes over the value at f.i, counting its lines. A string, the
// commonest value, holds no raw newline (the scan refused control
// characters in strings), so its lines are not counted.
func (f *fastDecoder) skip() {
	start := f.i
	if start < len(f.b) && f.b[start] == '"' {
		f.i, _ = skipString(f.b, start)
		return
	}
	end, _ := skipValue(f.b, f.i)
	f.line += int32(bytes.Count(f.b[start:end], []byte{'\n'}))
	f.i = end
}

// raw returns the bytes of the value at f.i and passes over it.
func (f *fastDecoder) raw() []byte {
	f.space()
	start := f.i
	f.skip()
	return f.b[start:f.i]
}

// Short strings recur across the objects of a dump (label keys and
// values, namespaces, images, resource names, enum values): the decoder
// keeps one copy of each, up to maxInterned of them.
const (
	maxInternLen = 48
	maxInterned  = 1 << 15
)

// intern returns the content of the scanned string b, shared with the
// strings of equal content already decoded when it is short.
func (d *decoder) intern(b []byte) string {
	if len(b) > maxInternLen+2 || !plainString(b) {
		return unquote(b)
	}
	return d.internKey(b[1 : len(b)-1])
}

// internKey returns the string of the bytes k, shared as intern shares.
func (d *decoder) internKey(k []byte) string {
	if len(k) > maxInternLen {
		return string(k)
	}
	if s, ok := d.strs[string(k)]; ok {
		return s
	}
	s := string(k)
	if len(d.strs) < maxInterned {
		if d.strs == nil {
			d.strs = make(map[string]string, 1024)
		}
		d.strs[s] = s
	}
	return s
}

// sharedString is intern with a one-entry cache, *last: a string field
// often holds what it held in the last object, which is then shared
// without a lookup. Only strings intern shares are remembered, from
// unescaped bytes, so bytes equal to *last are an unescaped string of
// the same content.
func (d *decoder) sharedString(last *string, b []byte) string {
	in := b[1 : len(b)-1]
	if len(in) == len(*last) && string(in) == *last {
		return *last
	}
	if len(in) > maxInternLen || !plainString(b) {
		return unquote(b)
	}
	s := d.internKey(in)
	*last = s
	return s
}

// sharedKey is sharedString for an object key's bytes k (unescaped).
func (d *decoder) sharedKey(last *string, k []byte) string {
	if len(k) == len(*last) && string(k) == *last {
		return *last
	}
	s := d.internKey(k)
	if len(k) <= maxInternLen {
		*last = s
	}
	return s
}

// internString returns s, or the equal short string decoded before.
func (d *decoder) internString(s string) string {
	if len(s) > maxInternLen {
		return s
	}
	if t, ok := d.strs[s]; ok {
		return t
	}
	if len(d.strs) < maxInterned {
		if d.strs == nil {
			d.strs = map[string]string{}
		}
		d.strs[s] = s
	}
	return s
}

// isUnmarshaler caches which types decode themselves.
func (d *decoder) isUnmarshaler(t reflect.Type) bool {
	u, ok := d.unmarshalers[t]
	if !ok {
		u = reflect.PointerTo(t).Implements(jsonUnmarshaler)
		d.unmarshalers[t] = u
	}
	return u
}

// canonical returns the JSON the tree decoder hands to UnmarshalJSON for
// the raw value b (re-encoded from the tree); b itself when that is the
// same.
func canonical(b []byte, line int32) []byte {
	switch b[0] {
	case '"':
		if !bytes.ContainsAny(b, "\\<>&") && plainString(b) && utf8.Valid(b) && !bytes.Contains(b, []byte("\u2028")) && !bytes.Contains(b, []byte("\u2029")) {
			return b
		}
	case '{', '[':
	default:
		return b
	}
	v := parseValue(b, int(line))
	return v.appendJSON(nil)
}

// plan is what the fast decoder needs of a type, worked out once a
// decoder: its kind, whether it decodes itself, its fields (structs) and
// element plan (pointers, slices, maps). The plans spare every value the
// type-keyed map lookups and the walk over struct tags.
type plan struct {
	d           *decoder
	t           reflect.Type
	kind        reflect.Kind
	unmarshaler bool
	// si and fields: a struct's JSON fields, with their plans; first is
	// the field the last object of the type began with (see object).
	si     *structInfo
	fields map[string]*fieldPlan
	first  *fieldPlan
	// elem is the plan of the element type (nil until needed).
	elem *plan
	// keyString: a map whose key type is string itself (no conversion);
	// stringMap: map[string]string (labels, annotations, selectors).
	keyString, stringMap bool
	// unique: a string field whose values seldom repeat (uniqueFields),
	// copied rather than interned.
	unique bool
	// last is the string a string field decoded last, and keys and vals
	// a map[string]string field's entries by position in the last map
	// (interned strings; see sharedString). A struct's string and
	// string-map fields have plans of their own for them.
	last       string
	keys, vals [smallMap]string
	// memo holds the values of a memoTypes type decoded so far, by
	// their JSON bytes (up to maxMemo of them); resourceList: the type
	// is api.ResourceList, whose entries are set without reflection.
	memo         map[string]reflect.Value
	resourceList bool
	// lists are the non-empty resource lists decoded so far by their
	// JSON text, when the decoder shares them (up to maxMemo).
	lists map[string]api.ResourceList
}

// memoTypes are the types that decode themselves from their JSON bytes
// alone into plain values that may be copied (a Quantity's decimal is
// immutable and shared by its copies): quantities and times recur across
// the objects of a dump, and a repeated one is copied from the first
// rather than parsed again.
var memoTypes = map[reflect.Type]bool{reflect.TypeFor[quantity.Quantity](): true, reflect.TypeFor[api.Time](): true}

// maxMemo bounds a memo's entries: values that do not recur (most
// timestamps) stop being remembered.
const maxMemo = 1 << 12

var resourceListType = reflect.TypeFor[api.ResourceList]()

// uniqueFields are the string fields, by struct type name and JSON name,
// whose values are one an object (names, uids, addresses): interning
// them would fill the decoder's table with strings that never recur and
// leave no room for those that do.
var uniqueFields = map[string]map[string]bool{
	"ObjectMeta":      {"name": true, "uid": true, "resourceVersion": true},
	"PodStatus":       {"podIP": true, "hostIP": true},
	"ContainerStatus": {"containerID": true},
}

// fieldPlan is a struct field: its index path and its type's plan (nil
// until needed).
type fieldPlan struct {
	index []int
	t     reflect.Type
	p     *plan
	// name is the field's JSON name; next is the field that followed it
	// in the last object of its type decoded (see object).
	name string
	next *fieldPlan
	// bit marks the field in the set of those an object has (one of
	// its struct's first 64 fields; 0 for the others); simple: name is
	// printable ASCII without a quote or backslash, so bytes equal to
	// it and a quote are that key, unescaped.
	bit    uint64
	simple bool
}

var stringMapType = reflect.TypeFor[map[string]string]()

// plan returns the plan of t, made on first use.
func (d *decoder) plan(t reflect.Type) *plan {
	if p, ok := d.plans[t]; ok {
		return p
	}
	p := &plan{d: d, t: t, kind: t.Kind(), unmarshaler: d.isUnmarshaler(t)}
	if d.plans == nil {
		d.plans = map[reflect.Type]*plan{}
	}
	d.plans[t] = p
	switch p.kind {
	case reflect.Struct:
		p.si = d.info(t)
		p.fields = make(map[string]*fieldPlan, len(p.si.fields))
		unique := uniqueFields[t.Name()]
		n := 0
		for name, fi := range p.si.fields {
			fp := &fieldPlan{index: fi.index, t: t.FieldByIndex(fi.index).Type, name: name, simple: simpleKey(name)}
			if n < 64 {
				fp.bit = 1 << n
			}
			n++
			switch {
			case fp.t.Kind() == reflect.String && !d.isUnmarshaler(fp.t):
				fp.p = &plan{d: d, t: fp.t, kind: reflect.String, unique: unique[name]}
			case fp.t == stringMapType:
				fp.p = &plan{d: d, t: fp.t, kind: reflect.Map, keyString: true, stringMap: true}
			}
			p.fields[name] = fp
		}
	case reflect.Map:
		p.keyString = t.Key() == reflect.TypeFor[string]()
		p.stringMap = t == stringMapType
		p.resourceList = t == resourceListType
		if p.resourceList && d.shareLists {
			p.lists = map[string]api.ResourceList{}
		}
	}
	if p.unmarshaler && memoTypes[t] {
		p.memo = map[string]reflect.Value{}
	}
	return p
}

// elemPlan is the plan of p's element type.
func (p *plan) elemPlan() *plan {
	if p.elem == nil {
		p.elem = p.d.plan(p.t.Elem())
	}
	return p.elem
}

// plan is the plan of the field's type.
func (fp *fieldPlan) plan(d *decoder) *plan {
	if fp.p == nil {
		fp.p = d.plan(fp.t)
	}
	return fp.p
}

func (f *fastDecoder) decode(rv reflect.Value, p *plan) error {
	f.space()
	if f.i >= len(f.b) {
		return errFallback
	}
	c := f.b[f.i]
	u := p.unmarshaler
	if c == 'n' {
		switch p.kind {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			f.i += 4
			rv.SetZero()
			return nil
		}
		if !u {
			f.i += 4
			return nil
		}
	}
	if u {
		line := f.line
		b := f.raw()
		if p.memo != nil {
			if v, ok := p.memo[string(b)]; ok {
				rv.Set(v)
				return nil
			}
		}
		if err := rv.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(canonical(b, line)); err != nil {
			return errFallback
		}
		if p.memo != nil && len(p.memo) < maxMemo {
			v := reflect.New(p.t).Elem()
			v.Set(rv)
			p.memo[string(b)] = v
		}
		return nil
	}
	switch p.kind {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(p.t.Elem()))
		}
		return f.decode(rv.Elem(), p.elemPlan())
	case reflect.Struct:
		if c != '{' {
			return errFallback
		}
		return f.object(rv, p)
	case reflect.Map:
		if c != '{' || p.t.Key().Kind() != reflect.String {
			return errFallback
		}
		if p.stringMap {
			return f.stringMap(rv, p)
		}
		if p.resourceList {
			return f.resourceList(rv, p)
		}
		return f.mapValue(rv, p)
	case reflect.Slice:
		if c != '[' {
			return errFallback
		}
		return f.slice(rv, p)
	case reflect.String:
		if c != '"' {
			return errFallback
		}
		b := f.raw()
		switch {
		case p.unique:
			rv.SetString(unquote(b))
		case p.t.Kind() == reflect.String:
			rv.SetString(f.d.sharedString(&p.last, b))
		default:
			rv.SetString(f.d.intern(b))
		}
	case reflect.Bool:
		switch c {
		case 't':
			f.i += 4
			rv.SetBool(true)
		case 'f':
			f.i += 5
			rv.SetBool(false)
		default:
			return errFallback
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if c != '-' && (c < '0' || c > '9') {
			return errFallback
		}
		n, err := strconv.ParseInt(string(f.raw()), 10, p.t.Bits())
		if err != nil {
			return errFallback
		}
		rv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if c != '-' && (c < '0' || c > '9') {
			return errFallback
		}
		n, err := strconv.ParseUint(string(f.raw()), 10, p.t.Bits())
		if err != nil {
			return errFallback
		}
		rv.SetUint(n)
	case reflect.Float32, reflect.Float64:
		if c != '-' && (c < '0' || c > '9') {
			return errFallback
		}
		x, err := strconv.ParseFloat(string(f.raw()), p.t.Bits())
		if err != nil {
			return errFallback
		}
		rv.SetFloat(x)
	case reflect.Interface:
		var x any
		if err := json.Unmarshal(f.raw(), &x); err != nil {
			return errFallback
		}
		rv.Set(reflect.ValueOf(x))
	default:
		return errFallback
	}
	return nil
}

// entries calls fn for each entry of the object at f.i with its key's
// bytes (declining keys with escapes) and line, leaving f.i at the value.
func (f *fastDecoder) entries(fn func(key []byte, line int32) error) error {
	f.i++ // '{'
	mark := len(f.seen)
	defer func() { f.seen = f.seen[:mark] }()
	f.space()
	if f.b[f.i] == '}' {
		f.i++
		return nil
	}
	for {
		f.space()
		end, _ := skipString(f.b, f.i)
		key := f.b[f.i+1 : end-1]
		if !plainString(f.b[f.i:end]) {
			return errFallback // escapes or bad UTF-8: the tree decodes the key
		}
		if !f.firstKey(mark, key) {
			return errFallback // duplicate: the tree decoder reports it
		}
		line := f.line
		f.i = end
		f.space()
		f.i++ // ':'
		if err := fn(key, line); err != nil {
			return err
		}
		f.space()
		c := f.b[f.i]
		f.i++
		if c == '}' {
			return nil
		}
	}
}

// object decodes a struct. The objects of a dump write their fields in
// one order, so each field remembers the one that followed it last time
// and the bytes of a key are first compared with that guess, sparing
// the scan of the key and the lookup by name; a wrong guess is looked
// up and remembered. A duplicate field is found in the set of the
// fields read (fieldPlan.bit), other keys on the stack of keys.
func (f *fastDecoder) object(rv reflect.Value, p *plan) error {
	si := p.si
	f.i++ // '{'
	mark := len(f.seen)
	defer func() { f.seen = f.seen[:mark] }()
	f.space()
	if f.b[f.i] == '}' {
		f.i++
		return nil
	}
	var prev *fieldPlan
	var set uint64
	for {
		f.space()
		guess := p.first
		if prev != nil {
			guess = prev.next
		}
		start := f.i + 1
		var kb []byte
		fp := guess
		if guess != nil && guess.simple && f.keyIs(guess.name) {
			kb = f.b[start : start+len(guess.name)]
			f.i = start + len(guess.name) + 1
		} else {
			end, _ := skipString(f.b, f.i)
			if !plainString(f.b[f.i:end]) {
				return errFallback // escapes or bad UTF-8: the tree decodes the key
			}
			kb = f.b[start : end-1]
			f.i = end
			fp = p.fields[string(kb)]
			if fp != nil {
				if prev != nil {
					prev.next = fp
				} else {
					p.first = fp
				}
			}
		}
		if fp != nil && fp.bit != 0 {
			if set&fp.bit != 0 {
				return errFallback // duplicate: the tree decoder reports it
			}
			set |= fp.bit
		} else if !f.firstKey(mark, kb) {
			return errFallback
		}
		if fp != nil {
			prev = fp
		}
		line := f.line
		f.space()
		f.i++ // ':'
		if err := f.field(rv, si, fp, kb, line); err != nil {
			return err
		}
		f.space()
		c := f.b[f.i]
		f.i++
		if c == '}' {
			return nil
		}
	}
}

// keyIs reports whether the key at f.i is name (simple).
func (f *fastDecoder) keyIs(name string) bool {
	k := f.i + 1
	return k+len(name) < len(f.b) && string(f.b[k:k+len(name)]) == name && f.b[k+len(name)] == '"'
}

// firstKey pushes the key kb on the stack of the object's keys (those
// above mark), or reports false when it is there already.
func (f *fastDecoder) firstKey(mark int, kb []byte) bool {
	for _, k := range f.seen[mark:] {
		if bytes.Equal(k, kb) {
			return false
		}
	}
	f.seen = append(f.seen, kb)
	return true
}

// simpleKey reports whether name is printable ASCII without a quote or
// a backslash.
func simpleKey(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// field decodes the value at f.i of the field fp of the struct rv (nil:
// a key kb that is not one of si's fields), whose key is on line line.
func (f *fastDecoder) field(rv reflect.Value, si *structInfo, fp *fieldPlan, kb []byte, line int32) error {
	d := f.d
	if fp == nil {
		if !si.known[string(kb)] {
			d.warn(line, fmt.Sprintf("unknown field %q", d.path.child(string(kb))))
		} else if si.noted[string(kb)] {
			f.space()
			if f.b[f.i] != 'n' {
				d.noted = append(d.noted, d.path.child(string(kb)))
			}
		}
		f.space()
		f.skip()
		return nil
	}
	fv := rv
	if len(fp.index) == 1 {
		fv = fv.Field(fp.index[0])
	} else {
		for _, x := range fp.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					fv.Set(reflect.New(fv.Type().Elem()))
				}
				fv = fv.Elem()
			}
			fv = fv.Field(x)
		}
	}
	n := d.path.fieldBytes(kb)
	err := f.decode(fv, fp.plan(d))
	d.path.reset(n)
	return err
}

func (f *fastDecoder) mapValue(rv reflect.Value, p *plan) error {
	d := f.d
	// Count the entries first, to size the map as the tree decoder does.
	m := reflect.MakeMapWithSize(p.t, f.count('}'))
	ep := p.elemPlan()
	// One element and one key value for the whole map: SetMapIndex
	// copies them in.
	ev := reflect.New(p.t.Elem()).Elem()
	kv := reflect.New(p.t.Key()).Elem()
	err := f.entries(func(kb []byte, _ int32) error {
		k := d.internKey(kb)
		ev.SetZero()
		n := d.path.field(k)
		err := f.decode(ev, ep)
		d.path.reset(n)
		if err != nil {
			return err
		}
		kv.SetString(k)
		m.SetMapIndex(kv, ev)
		return nil
	})
	if err != nil {
		return err
	}
	rv.Set(m)
	return nil
}

// resourceList is mapValue for api.ResourceList, each quantity decoded
// into one variable and set without reflection.
func (f *fastDecoder) resourceList(rv reflect.Value, p *plan) error {
	d := f.d
	start := f.i
	if p.lists != nil {
		end, _ := skipValue(f.b, start)
		if m, ok := p.lists[string(f.b[start:end])]; ok {
			f.line += int32(bytes.Count(f.b[start:end], []byte{'\n'}))
			f.i = end
			rv.Set(reflect.ValueOf(m))
			return nil
		}
	}
	m := make(api.ResourceList, f.count('}'))
	ep := p.elemPlan()
	var q quantity.Quantity
	qv := reflect.ValueOf(&q).Elem()
	err := f.entries(func(kb []byte, _ int32) error {
		k := d.internKey(kb)
		q = quantity.Quantity{}
		n := d.path.field(k)
		err := f.decode(qv, ep)
		d.path.reset(n)
		if err != nil {
			return err
		}
		m[api.ResourceName(k)] = q
		return nil
	})
	if err != nil {
		return err
	}
	if p.lists != nil && len(m) > 0 && len(p.lists) < maxMemo {
		p.lists[string(f.b[start:f.i])] = m
	}
	rv.Set(reflect.ValueOf(m))
	return nil
}

// stringMap is mapValue for map[string]string, without reflection per
// entry: a string value is interned, null is the empty string (as the
// tree decoder leaves a string for null), anything else declines. A
// map sized for up to smallMap entries is the same as one not sized (Go
// allocates its one group on the first assignment), so the entries are
// counted only when a map holds more, to size it as the tree decoder
// does.
func (f *fastDecoder) stringMap(rv reflect.Value, p *plan) error {
	d := f.d
	m := map[string]string{}
	n := 0
	err := f.entries(func(kb []byte, _ int32) error {
		var k, v string
		if n < smallMap {
			k = d.sharedKey(&p.keys[n], kb)
		} else {
			k = d.internKey(kb)
		}
		f.space()
		switch f.b[f.i] {
		case '"':
			if n < smallMap {
				v = d.sharedString(&p.vals[n], f.raw())
			} else {
				v = d.intern(f.raw())
			}
		case 'n':
			f.i += 4
		default:
			return errFallback
		}
		if n++; n == smallMap+1 {
			m = f.resized(m)
		}
		m[k] = v
		return nil
	})
	if err != nil {
		return err
	}
	rv.Set(reflect.ValueOf(m))
	return nil
}

// smallMap is how many entries a map holds in the group Go allocates
// for a map sized for at most that many (abi.MapGroupSlots).
const smallMap = 8

// resized returns the full small map m made again with room for all the
// entries of the object it is read from: those in m, the one whose value
// f.i has just passed, and those after it.
func (f *fastDecoder) resized(m map[string]string) map[string]string {
	rest := 0
	if j := skipSpace(f.b, f.i); f.b[j] == ',' {
		save := f.i
		f.i = j
		rest = f.count('}')
		f.i = save
	}
	out := make(map[string]string, len(m)+1+rest)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// count returns how many entries or items the object or array at f.i
// holds, or, at a comma inside one, how many follow it. The bytes were scanned (valid JSON), so one flat pass counts
// the separators at depth 0 instead of skipping each value in turn: a
// string is passed over to its closing quote (an escape's next byte is
// never the quote that ends it), brackets and braces only nest.
func (f *fastDecoder) count(close byte) int {
	b := f.b
	i := skipSpace(b, f.i+1)
	if b[i] == close {
		return 0
	}
	n, depth := 1, 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// slice decodes an array into a slice of its length. Most arrays of a
// dump hold one element, so the first is decoded into a slice of one
// before the others are counted: a single element is not passed over
// twice, and a longer array's first element is copied into the slice
// that holds them all.
func (f *fastDecoder) slice(rv reflect.Value, p *plan) error {
	f.i++ // '['
	f.space()
	if f.b[f.i] == ']' {
		f.i++
		rv.Set(reflect.MakeSlice(p.t, 0, 0))
		return nil
	}
	ep := p.elemPlan()
	s := reflect.MakeSlice(p.t, 1, 1)
	q := f.d.path.index(0)
	err := f.decode(s.Index(0), ep)
	f.d.path.reset(q)
	if err != nil {
		return err
	}
	f.space()
	if f.b[f.i] == ',' {
		n := 1 + f.count(']')
		all := reflect.MakeSlice(p.t, n, n)
		reflect.Copy(all, s)
		s = all
		f.i++
		for k := 1; k < n; k++ {
			q := f.d.path.index(k)
			err := f.decode(s.Index(k), ep)
			f.d.path.reset(q)
			if err != nil {
				return err
			}
			f.space()
			f.i++ // ',' or ']'
		}
	} else {
		f.i++ // ']'
	}
	rv.Set(s)
	return nil
}

// header is what the fast path needs of a document's top level: its kind
// and apiVersion when they are strings, and whether it has items.
type header struct {
	kind, apiVersion string
	hasKind, hasAPI  bool
	items            bool
	// plain: an object without duplicate top-level keys or escaped keys,
	// whose kind and apiVersion are strings or absent; or, once both are
	// strings and the kind is not a list's, an object whose other keys
	// are not looked at (the fast decoder declines a duplicate or escaped
	// key, and items mean nothing to a kind that is not a list's).
	plain bool
}

// scanHeader reads the top-level keys of the scanned object b, up to its
// kind and apiVersion when they are strings and the kind does not end
// in "List".
func scanHeader(b []byte) header {
	var h header
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return h
	}
	var keys [24][]byte
	seen := keys[:0]
	i = skipSpace(b, i+1)
	if b[i] == '}' {
		h.plain = true
		return h
	}
	for {
		i = skipSpace(b, i)
		end, _ := skipString(b, i)
		key := b[i+1 : end-1]
		if !plainString(b[i:end]) {
			return h
		}
		for _, k := range seen {
			if bytes.Equal(k, key) {
				return h
			}
		}
		seen = append(seen, key)
		i = skipSpace(b, end) + 1
		i = skipSpace(b, i)
		vs := i
		i, _ = skipValue(b, i)
		switch string(key) {
		case "kind", "apiVersion":
			var s string
			switch b[vs] {
			case '"':
				s = unquote(b[vs:i])
			case 'n':
			default:
				return h // not a string: the tree path words it
			}
			if string(key) == "kind" {
				h.kind, h.hasKind = s, b[vs] == '"'
			} else {
				h.apiVersion, h.hasAPI = s, b[vs] == '"'
			}
		case "items":
			h.items = true
		}
		if h.hasKind && h.hasAPI && !h.items && !strings.HasSuffix(h.kind, "List") {
			h.plain = true
			return h
		}
		i = skipSpace(b, i)
		if b[i] == '}' {
			h.plain = true
			return h
		}
		i++
	}
}
