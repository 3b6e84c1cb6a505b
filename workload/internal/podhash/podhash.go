// Package podhash computes the pod-template-hash the Deployment controller
// of Kubernetes v1.37.2 gives a Deployment's new ReplicaSet (and its
// pods' pod-template-hash label), from the JSON form of the template.
//
// Upstream hashes with FNV-32a a dump of its Go value of the template
// (k8s.io/utils/dump.ForHash: go-spew's %#v with sorted map keys, no
// methods, no pointer addresses), then, when the Deployment's
// status.collisionCount is set, that count's 8 little-endian bytes, and
// writes the decimal sum in the API server's name alphabet. The dump
// names every Go type and field of k8s.io/api/core/v1.PodTemplateSpec,
// nil pointers, empty collections and the unexported state of
// resource.Quantity included, so the printer here walks the JSON along
// a schema of those types (Types, generated from upstream by reflection
// in the conformance module) and writes what the dump writes for the Go
// value the controller's informer decodes (protobuf: empty lists and maps
// are nil; a quantity is ParseQuantity of its canonical string).
//
// What it cannot rebuild is an error naming the field: timestamps (the
// dump prints the decoding machine's time zone) and managed fields.
//
// Along the same schema, Equal is the Deployment controller's template
// comparison (apimachinery's Semantic.DeepEqual), and StatefulSetPatch
// with RevisionHash the StatefulSet controller's ControllerRevision data
// and hash (the DaemonSet controller's revision hash is Hash itself).
package podhash

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/quantity"
)

// alphabet is apimachinery's rand alphabet, which SafeEncodeString maps
// bytes onto.
const alphabet = "bcdfghjklmnpqrstvwxz2456789"

// Error is a part of a template the printer cannot rebuild.
type Error struct {
	// Path is the field path in the template (e.g.
	// "metadata.creationTimestamp").
	Path string
	// Reason says why.
	Reason string
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }

// Hash returns the pod-template-hash of template, the JSON value (as
// encoding/json decodes it with UseNumber: map[string]any, []any,
// string, json.Number, bool, nil) of a pod template as the API server
// stores it (defaulted: see Default), with the Deployment's
// status.collisionCount (nil when unset).
func Hash(template any, collisionCount *int32) (string, error) {
	d, err := Dump(template)
	if err != nil {
		return "", err
	}
	h := fnv.New32a()
	h.Write([]byte(d))
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		h.Write(b)
	}
	return SafeEncode(strconv.FormatUint(uint64(h.Sum32()), 10)), nil
}

// SafeEncode is apimachinery's rand.SafeEncodeString: each character
// mapped onto the name alphabet.
func SafeEncode(s string) string {
	r := []rune(s)
	out := make([]byte, len(r))
	for i, c := range r {
		out[i] = alphabet[int(c)%len(alphabet)]
	}
	return string(out)
}

// Dump returns the text Hash hashes: what upstream's dump.ForHash prints
// for the v1.PodTemplateSpec the template's JSON decodes to.
func Dump(template any) (string, error) {
	p := &printer{}
	p.value(0, template, false, false, "")
	if p.err != nil {
		return "", p.err
	}
	return string(p.b), nil
}

type printer struct {
	b   []byte
	err error
}

func (p *printer) fail(path, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Path: strings.TrimPrefix(path, "."), Reason: fmt.Sprintf(format, args...)}
	}
}

func (p *printer) typeName(t *Type, ignoreType bool) {
	if !ignoreType {
		p.b = append(p.b, '(')
		p.b = append(p.b, t.Name...)
		p.b = append(p.b, ')')
	}
}

// value prints v as type ti. byName means v is a Go value described by
// Go field names (the special kinds' internals) rather than JSON.
// ignoreType is set where the dump omits the type (slice elements, map
// keys and values, the target of a pointer).
func (p *printer) value(ti int, v any, byName, ignoreType bool, path string) {
	if p.err != nil {
		return
	}
	t := &Types[ti]
	switch t.Kind {
	case Pointer:
		switch {
		case v == nil && ignoreType:
			p.b = append(p.b, "<nil>"...)
		case v == nil:
			p.typeName(t, false)
			p.b = append(p.b, "<nil>"...)
		default:
			if ignoreType {
				p.b = append(p.b, "<*>"...)
			} else {
				p.typeName(t, false)
			}
			p.value(t.Elem, v, byName, true, path)
		}
	case Struct:
		p.typeName(t, ignoreType)
		var m map[string]any
		if v != nil {
			var ok bool
			if m, ok = v.(map[string]any); !ok {
				p.fail(path, "want an object, not %s", describe(v))
				return
			}
		}
		p.fields(t, m, byName, path)
	case Slice:
		p.typeName(t, ignoreType)
		if v == nil {
			p.b = append(p.b, "<nil>"...)
			return
		}
		l, ok := v.([]any)
		if !ok {
			p.fail(path, "want an array, not %s", describe(v))
			return
		}
		if len(l) == 0 {
			p.b = append(p.b, "<nil>"...) // protobuf decodes no items as nil
			return
		}
		p.b = append(p.b, '[')
		for i, e := range l {
			if i > 0 {
				p.b = append(p.b, ' ')
			}
			p.value(t.Elem, e, byName, true, path+"["+strconv.Itoa(i)+"]")
		}
		p.b = append(p.b, ']')
	case Map:
		p.typeName(t, ignoreType)
		if v == nil {
			p.b = append(p.b, "<nil>"...)
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			p.fail(path, "want an object, not %s", describe(v))
			return
		}
		if len(m) == 0 {
			p.b = append(p.b, "<nil>"...) // protobuf decodes no entries as nil
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		p.b = append(p.b, "map["...)
		for i, k := range keys {
			if i > 0 {
				p.b = append(p.b, ' ')
			}
			p.value(t.Key, k, byName, true, path)
			p.b = append(p.b, ':')
			p.value(t.Elem, m[k], byName, true, path+"."+k)
		}
		p.b = append(p.b, ']')
	case String:
		p.typeName(t, ignoreType)
		switch s := v.(type) {
		case nil:
		case string:
			p.b = append(p.b, s...)
		default:
			p.fail(path, "want a string, not %s", describe(v))
		}
	case Bool:
		p.typeName(t, ignoreType)
		switch b := v.(type) {
		case nil:
			p.b = append(p.b, "false"...)
		case bool:
			p.b = strconv.AppendBool(p.b, b)
		default:
			p.fail(path, "want a boolean, not %s", describe(v))
		}
	case Int:
		p.typeName(t, ignoreType)
		switch n := v.(type) {
		case nil:
			p.b = append(p.b, '0')
		case int64:
			p.b = strconv.AppendInt(p.b, n, 10)
		case json.Number:
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil {
				p.fail(path, "want an integer, not %s", n)
				return
			}
			p.b = strconv.AppendInt(p.b, i, 10)
		default:
			p.fail(path, "want an integer, not %s", describe(v))
		}
	case Uint:
		p.typeName(t, ignoreType)
		switch n := v.(type) {
		case nil:
			p.b = append(p.b, '0')
		case uint64:
			p.b = strconv.AppendUint(p.b, n, 10)
		case json.Number:
			i, err := strconv.ParseUint(string(n), 10, 64)
			if err != nil {
				p.fail(path, "want an unsigned integer, not %s", n)
				return
			}
			p.b = strconv.AppendUint(p.b, i, 10)
		default:
			p.fail(path, "want an unsigned integer, not %s", describe(v))
		}
	case Float:
		p.typeName(t, ignoreType)
		switch n := v.(type) {
		case nil:
			p.b = append(p.b, '0')
		case json.Number:
			f, err := strconv.ParseFloat(string(n), t.Bits)
			if err != nil {
				p.fail(path, "want a number, not %s", n)
				return
			}
			p.b = strconv.AppendFloat(p.b, f, 'g', -1, t.Bits)
		default:
			p.fail(path, "want a number, not %s", describe(v))
		}
	case Quantity:
		p.typeName(t, ignoreType)
		s, ok := quantityText(v)
		if !ok {
			p.fail(path, "want a quantity, not %s", describe(v))
			return
		}
		if v == nil {
			// A Quantity field that is absent or null holds the zero
			// Quantity, which protobuf stores as its String(), "0":
			// the informer's value is ParseQuantity("0").
			s = "0"
		}
		g, err := quantityValue(s)
		if err != nil {
			p.fail(path, "%v", err)
			return
		}
		p.fields(t, g, true, path)
	case IntOrString:
		p.typeName(t, ignoreType)
		var g map[string]any
		switch x := v.(type) {
		case nil:
			g = map[string]any{"Type": int64(0), "IntVal": int64(0), "StrVal": ""}
		case json.Number:
			i, err := strconv.ParseInt(string(x), 10, 32)
			if err != nil {
				p.fail(path, "want an int32 or a string, not %s", x)
				return
			}
			g = map[string]any{"Type": int64(0), "IntVal": i, "StrVal": ""}
		case string:
			g = map[string]any{"Type": int64(1), "IntVal": int64(0), "StrVal": x}
		default:
			p.fail(path, "want an integer or a string, not %s", describe(v))
			return
		}
		p.fields(t, g, true, path)
	case Time:
		p.typeName(t, ignoreType)
		if v != nil {
			p.fail(path, "a timestamp in the template: the controller's hash prints its decoded time zone, which schedkit cannot know")
			return
		}
		p.fields(t, map[string]any{"Time": map[string]any{"wall": uint64(0), "ext": int64(0), "loc": nil}}, true, path)
	case Opaque:
		p.fail(path, "%s in the template cannot be rebuilt", t.Name)
	}
}

// fields prints a struct's fields in braces; m holds them by JSON name
// (inline structs reading m itself) or, with byName, by Go name.
func (p *printer) fields(t *Type, m map[string]any, byName bool, path string) {
	p.b = append(p.b, '{')
	for i := range t.Fields {
		f := &t.Fields[i]
		if i > 0 {
			p.b = append(p.b, ' ')
		}
		p.b = append(p.b, f.Name...)
		p.b = append(p.b, ':')
		var child any
		sub := path
		switch {
		case byName:
			child = m[f.Name]
		case f.Inline:
			if m != nil {
				child = m
			}
		default:
			child = m[f.JSON]
			sub = path + "." + f.JSON
		}
		p.value(f.Type, child, byName, false, sub)
	}
	p.b = append(p.b, '}')
}

func describe(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

// Canonical is the string the API server stores for a quantity: its
// canonical form (what ParseQuantity then String give).
func Canonical(s string) (string, error) {
	q, err := quantity.ParseQuantity(s)
	if err != nil {
		return "", err
	}
	return q.String(), nil
}

// quantityValue is the Go value of the resource.Quantity the informer
// decodes from the stored form of s (ParseQuantity of its canonical
// string), by Go field name: i (int64Amount value and scale), d (the
// inf.Dec, nil on the int64 path), s (the string, cached when it is
// already canonical) and Format.
func quantityValue(s string) (map[string]any, error) {
	if s == "" {
		return map[string]any{"i": nil, "d": nil, "s": "", "Format": ""}, nil
	}
	c, err := Canonical(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("quantity %q: %v", s, err)
	}
	value, scale, format, cached, ok := parseInt64(c)
	if !ok {
		return decValue(c)
	}
	g := map[string]any{
		"i":      map[string]any{"value": value, "scale": int64(scale)},
		"d":      nil,
		"s":      "",
		"Format": format,
	}
	if cached {
		g["s"] = c
	}
	return g, nil
}

// decValue follows upstream's ParseQuantity where it holds str in an
// inf.Dec: the digits (sign, integer and fraction parts) as an unscaled
// integer, shifted by the suffix (a power of ten in the scale, a power of
// two multiplied in), rounded away from zero to nano scale (which also
// rescales coarser values to scale 9), binary values capped at 2^63-1
// (scale 0) and below 1 turned decimal.
func decValue(str string) (map[string]any, error) {
	pos := 0
	negative := false
	if pos < len(str) && (str[0] == '-' || str[0] == '+') {
		negative = str[0] == '-'
		pos++
	}
	start := pos
	for pos < len(str) && isDigit(str[pos]) {
		pos++
	}
	digits := str[start:pos]
	frac := 0
	if pos < len(str) && str[pos] == '.' {
		pos++
		s := pos
		for pos < len(str) && isDigit(str[pos]) {
			pos++
		}
		digits += str[s:pos]
		frac = pos - s
	}
	base, exponent, format, ok := suffix(str[pos:])
	if !ok || digits == "" {
		return nil, fmt.Errorf("quantity %q: unreadable", str)
	}
	unscaled, _ := new(big.Int).SetString(digits, 10)
	scale := int64(frac)
	if base == 10 {
		scale -= int64(exponent)
	} else {
		unscaled.Lsh(unscaled, uint(exponent))
	}
	if unscaled.Sign() != 0 || !unscaled.IsInt64() {
		// inf's Round to scale 9, rounding up (away from zero).
		switch {
		case scale < 9:
			unscaled.Mul(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(9-scale), nil))
		case scale > 9:
			q, r := new(big.Int).QuoRem(unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(scale-9), nil), new(big.Int))
			if r.Sign() != 0 {
				q.Add(q, big.NewInt(1))
			}
			unscaled = q
		}
		scale = 9
	}
	if format == "BinarySI" {
		maxAllowed := new(big.Int).Mul(big.NewInt(1<<63-1), new(big.Int).Exp(big.NewInt(10), big.NewInt(scale), nil))
		if unscaled.Cmp(maxAllowed) > 0 {
			unscaled, scale = big.NewInt(1<<63-1), 0
		}
		one := new(big.Int).Exp(big.NewInt(10), big.NewInt(scale), nil)
		if unscaled.Sign() > 0 && unscaled.Cmp(one) < 0 {
			format = "DecimalSI"
		}
	}
	var abs any
	if w := words64(unscaled); len(w) > 0 {
		abs = w
	}
	return map[string]any{
		"i": nil,
		"d": map[string]any{"Dec": map[string]any{
			"unscaled": map[string]any{"neg": negative && unscaled.Sign() != 0, "abs": abs},
			"scale":    scale,
		}},
		"s":      "",
		"Format": format,
	}, nil
}

// words64 is the magnitude of x as math/big holds it on a 64-bit
// machine (where kube-controller-manager runs): 64-bit words, least
// significant first.
func words64(x *big.Int) []any {
	b := x.Bytes()
	var out []any
	for end := len(b); end > 0; end -= 8 {
		var w uint64
		for i := max(0, end-8); i < end; i++ {
			w = w<<8 | uint64(b[i])
		}
		out = append(out, w)
	}
	return out
}

// parseInt64 follows upstream's ParseQuantity on its int64 path: the
// value and scale of its int64Amount, its format, and whether it keeps
// str as its cached string. ok is false when upstream would take the
// inf.Dec path instead.
func parseInt64(str string) (value int64, scale int32, format string, cached, ok bool) {
	if str == "0" {
		return 0, 0, "DecimalSI", true, true
	}
	positive := true
	pos := 0
	if pos < len(str) && (str[0] == '-' || str[0] == '+') {
		positive = str[0] == '+'
		pos++
	}
	for pos < len(str) && str[pos] == '0' {
		pos++
	}
	start := pos
	for pos < len(str) && isDigit(str[pos]) {
		pos++
	}
	num := str[start:pos]
	if num == "" {
		num = "0"
	}
	denom := ""
	if pos < len(str) && str[pos] == '.' {
		pos++
		start := pos
		for pos < len(str) && isDigit(str[pos]) {
			pos++
		}
		denom = str[start:pos]
	}
	base, exponent, format, good := suffix(str[pos:])
	if !good {
		return 0, 0, "", false, false
	}
	precision := int32(0)
	mantissa := int64(1)
	switch format {
	case "DecimalExponent", "DecimalSI":
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	case "BinarySI":
		if exponent >= 0 && denom == "" {
			mantissa <<= uint(exponent)
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		} else {
			precision = -1
		}
	}
	_ = base
	if precision < 0 {
		return 0, 0, "", false, false
	}
	scale -= int32(len(denom))
	if scale < -9 {
		return 0, 0, "", false, false
	}
	shifted := num + denom
	v, err := strconv.ParseInt(shifted, 10, 64)
	if err != nil {
		return 0, 0, "", false, false
	}
	result := v * mantissa
	if mantissa != 0 && result/mantissa != v {
		return 0, 0, "", false, false
	}
	if !positive {
		result = -result
	}
	switch format {
	case "BinarySI":
		cached = exponent%10 == 0 && v&0x07 != 0
	default:
		cached = scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0'
	}
	return result, scale, format, cached, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// suffix interprets a quantity suffix as upstream's suffixer does.
func suffix(s string) (base, exponent int32, format string, ok bool) {
	switch s {
	case "":
		return 10, 0, "DecimalSI", true
	case "n":
		return 10, -9, "DecimalSI", true
	case "u":
		return 10, -6, "DecimalSI", true
	case "m":
		return 10, -3, "DecimalSI", true
	case "k":
		return 10, 3, "DecimalSI", true
	case "M":
		return 10, 6, "DecimalSI", true
	case "G":
		return 10, 9, "DecimalSI", true
	case "T":
		return 10, 12, "DecimalSI", true
	case "P":
		return 10, 15, "DecimalSI", true
	case "E":
		return 10, 18, "DecimalSI", true
	case "Ki":
		return 2, 10, "BinarySI", true
	case "Mi":
		return 2, 20, "BinarySI", true
	case "Gi":
		return 2, 30, "BinarySI", true
	case "Ti":
		return 2, 40, "BinarySI", true
	case "Pi":
		return 2, 50, "BinarySI", true
	case "Ei":
		return 2, 60, "BinarySI", true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		n, err := strconv.ParseInt(s[1:], 10, 32)
		if err == nil {
			return 10, int32(n), "DecimalExponent", true
		}
	}
	return 0, 0, "", false
}

// quantityText is the text of a quantity field's JSON value ("" for
// null); ok is false when the value is not a string or number.
func quantityText(v any) (s string, ok bool) {
	switch q := v.(type) {
	case nil:
		return "", true
	case string:
		return q, true
	case json.Number:
		return string(q), true
	}
	return "", false
}

// timestamp is a timestamp field's instant (null is the zero time); msg
// says what is wrong when it is not an RFC 3339 string.
func timestamp(v any) (t time.Time, msg string) {
	switch s := v.(type) {
	case nil:
		return time.Time{}, ""
	case string:
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return time.Time{}, fmt.Sprintf("want an RFC 3339 timestamp, not %q", s)
		}
		return t, ""
	}
	return time.Time{}, "want a timestamp, not " + describe(v)
}
