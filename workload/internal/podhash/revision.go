package podhash

import (
	"encoding/json"
	"hash/fnv"
	"strconv"
	"strings"
	"time"
)

// StatefulSetPatch returns the data of the ControllerRevision the
// StatefulSet controller of Kubernetes v1.37.2 makes of a StatefulSet
// whose spec.template is template (its JSON value, as Hash takes it):
// upstream's getPatch encodes the StatefulSet its informer holds with
// encoding/json, decodes that into generic values (numbers become
// float64) and marshals {"spec":{"template":<template, with
// "$patch":"replace">}} again (keys sorted, HTML escaped). The template
// is encoded here along the schema as encoding/json encodes the Go value:
// omitempty and omitzero fields left out when empty, other absent fields
// written as their zero value, empty lists and maps (nil in the informer)
// as null, quantities in canonical form, timestamps in UTC seconds.
func StatefulSetPatch(template any) ([]byte, error) {
	return revisionPatch(template, false)
}

// DaemonSetPatch returns the data of the ControllerRevision the DaemonSet
// controller of Kubernetes v1.37.2 makes of a DaemonSet whose
// spec.template is template: as StatefulSetPatch, but upstream's getPatch
// decodes the encoded DaemonSet with apimachinery's util/json, which keeps
// integers as int64 (other numbers become float64), so integers are
// written exactly.
func DaemonSetPatch(template any) ([]byte, error) {
	return revisionPatch(template, true)
}

// revisionPatch is {"spec":{"template":<template, "$patch":"replace">}}
// with numbers as float64, or with ints integers as int64.
func revisionPatch(template any, ints bool) ([]byte, error) {
	e := &encoder{ints: ints}
	v := e.value(0, template, "")
	if e.err != nil {
		return nil, e.err
	}
	m, _ := v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	m["$patch"] = "replace"
	return json.Marshal(map[string]any{"spec": map[string]any{"template": m}})
}

// RevisionHash is history.HashControllerRevision of a revision whose data
// is patch, with the collision count probe: FNV-32 (not 32a) of the
// data, then probe's decimal digits, written in the name alphabet.
func RevisionHash(patch []byte, probe *int32) string {
	h := fnv.New32()
	h.Write(patch)
	if probe != nil {
		h.Write([]byte(strconv.FormatInt(int64(*probe), 10)))
	}
	return SafeEncode(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// RevisionName is history.ControllerRevisionName: the parent's name (cut
// to 223 bytes), a dash and the hash.
func RevisionName(parent, hash string) string {
	if len(parent) > 223 {
		parent = parent[:223]
	}
	return parent + "-" + hash
}

type encoder struct {
	err error
	// ints keeps integers as int64, as apimachinery's util/json decodes
	// them.
	ints bool
}

func (e *encoder) fail(path, format string, args ...any) {
	if e.err == nil {
		p := &printer{}
		p.fail(path, format, args...)
		e.err = p.err
	}
}

// value is v, of type ti, as encoding/json writes the Go value the
// informer decodes, then decoded into generic values.
func (e *encoder) value(ti int, v any, path string) any {
	if e.err != nil {
		return nil
	}
	t := &Types[ti]
	switch t.Kind {
	case Pointer:
		if v == nil {
			return nil
		}
		return e.value(t.Elem, v, path)
	case Struct:
		out := map[string]any{}
		e.fields(t, v, path, out)
		return out
	case Slice:
		l, ok := v.([]any)
		if v != nil && !ok {
			e.fail(path, "want an array, not %s", describe(v))
			return nil
		}
		if len(l) == 0 {
			return nil // nil in the informer: null
		}
		out := make([]any, len(l))
		for i, x := range l {
			out[i] = e.value(t.Elem, x, path+"["+strconv.Itoa(i)+"]")
		}
		return out
	case Map:
		m, ok := v.(map[string]any)
		if v != nil && !ok {
			e.fail(path, "want an object, not %s", describe(v))
			return nil
		}
		if len(m) == 0 {
			return nil
		}
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[k] = e.value(t.Elem, x, path+"."+k)
		}
		return out
	case String:
		switch s := v.(type) {
		case nil:
			return ""
		case string:
			return s
		}
		e.fail(path, "want a string, not %s", describe(v))
	case Bool:
		switch b := v.(type) {
		case nil:
			return false
		case bool:
			return b
		}
		e.fail(path, "want a boolean, not %s", describe(v))
	case Int, Uint, Float:
		n, ok := v.(json.Number)
		if v == nil {
			return float64(0)
		}
		if !ok {
			e.fail(path, "want a number, not %s", describe(v))
			return nil
		}
		bits := 64
		if t.Kind == Float {
			bits = t.Bits
		}
		f, err := strconv.ParseFloat(string(n), bits)
		if err != nil || (t.Kind != Float && strings.ContainsAny(string(n), ".eE")) {
			e.fail(path, "want an integer, not %s", n)
			return nil
		}
		if t.Kind != Float {
			if e.ints {
				if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
					return i
				}
			}
			return f
		}
		g, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, bits), 64)
		return g
	case Quantity:
		s, ok := quantityText(v)
		if !ok {
			e.fail(path, "want a quantity, not %s", describe(v))
			return nil
		}
		if strings.TrimSpace(s) == "" {
			return "0"
		}
		c, err := Canonical(strings.TrimSpace(s))
		if err != nil {
			e.fail(path, "quantity %q: %v", s, err)
			return nil
		}
		return c
	case IntOrString:
		switch x := v.(type) {
		case nil:
			return float64(0)
		case string:
			return x
		case json.Number:
			i, err := strconv.ParseInt(string(x), 10, 32)
			if err != nil {
				e.fail(path, "want an int32 or a string, not %s", x)
				return nil
			}
			return float64(i)
		}
		e.fail(path, "want an integer or a string, not %s", describe(v))
	case Time:
		tm, ok := e.time(v, path)
		if !ok || tm.IsZero() {
			return nil
		}
		return tm.UTC().Format(time.RFC3339)
	case Opaque:
		if e.ints {
			return PlainInts(v)
		}
		return plain(v)
	}
	return nil
}

// fields adds a struct's fields to out, as encoding/json writes them.
func (e *encoder) fields(t *Type, v any, path string, out map[string]any) {
	m, ok := v.(map[string]any)
	if v != nil && !ok {
		e.fail(path, "want an object, not %s", describe(v))
		return
	}
	for i := range t.Fields {
		f := &t.Fields[i]
		if f.Inline {
			e.fields(&Types[f.Type], nilIfNil(m), path, out)
			continue
		}
		x := m[f.JSON]
		sub := path + "." + f.JSON
		if f.Omit&OmitEmpty != 0 && isEmpty(&Types[f.Type], x) {
			continue
		}
		if f.Omit&OmitZero != 0 && Types[f.Type].Kind == Time {
			if tm, ok := e.time(x, sub); ok && tm.IsZero() {
				continue
			}
		}
		out[f.JSON] = e.value(f.Type, x, sub)
	}
}

// isEmpty is omitempty's test on the Go value x decodes to: false, 0,
// "", a nil pointer, an empty list or map; never a struct.
func isEmpty(t *Type, x any) bool {
	switch t.Kind {
	case Pointer:
		return x == nil
	case Slice, Map:
		switch v := x.(type) {
		case nil:
			return true
		case []any:
			return len(v) == 0
		case map[string]any:
			return len(v) == 0
		}
	case String:
		return x == nil || x == ""
	case Bool:
		return x == nil || x == false
	case Int, Uint, Float:
		if x == nil {
			return true
		}
		if n, ok := x.(json.Number); ok {
			f, err := strconv.ParseFloat(string(n), 64)
			return err == nil && f == 0
		}
	}
	return false
}

func (e *encoder) time(v any, path string) (time.Time, bool) {
	t, msg := timestamp(v)
	if msg != "" {
		e.fail(path, "%s", msg)
		return time.Time{}, false
	}
	return t, true
}

// plain is a generic JSON value with its numbers as float64, as
// encoding/json decodes them into any.
func plain(v any) any { return decodedNumbers(v, false) }

// PlainInts is a generic JSON value (numbers as json.Number) as
// apimachinery's util/json decodes it: integers that fit an int64 as
// int64, other numbers as float64.
func PlainInts(v any) any { return decodedNumbers(v, true) }

// decodedNumbers copies v with each json.Number as float64, or as int64
// where ints is set and the number is an integer that fits.
func decodedNumbers(v any, ints bool) any {
	switch x := v.(type) {
	case json.Number:
		if ints {
			if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return i
			}
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = decodedNumbers(e, ints)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = decodedNumbers(e, ints)
		}
		return out
	}
	return v
}
