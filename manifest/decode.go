package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// fieldIssue is a problem found at a field path while decoding.
type fieldIssue struct {
	path string
	line int
	msg  string
	err  error // for errors; nil for warnings
}

// fieldInfo is one JSON field of a struct.
type fieldInfo struct {
	index []int
}

// structInfo lists a struct type's JSON fields, embedded (inline) structs
// included.
type structInfo struct {
	fields map[string]fieldInfo
	// known are the fields Kubernetes defines on the type that schedkit
	// does not model: read without a warning, and not looked into.
	known map[string]bool
	// noted are the known fields the decoder records when set
	// (schedulingFields).
	noted map[string]bool
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// decoder decodes values into schedkit's API types as the API server's
// strict decoder does (field names are case-sensitive; unknown fields are
// named with their paths), collecting every problem with its field path.
type decoder struct {
	structs map[reflect.Type]*structInfo
	issues  []fieldIssue
	path    jsonPath
	// noted are the paths of the schedulingFields set in the object
	// being decoded.
	noted []string
	// unmarshalers caches which types implement json.Unmarshaler.
	unmarshalers map[reflect.Type]bool
	// strs are the short strings decoded so far (see intern).
	strs map[string]string
	// plans are the fast decoder's plans by type (see plan).
	plans map[reflect.Type]*plan
	// shareLists: the fast decoder gives resource lists of equal JSON
	// one map (SetShareResourceLists).
	shareLists bool
}

func newDecoder() *decoder {
	return &decoder{structs: map[reflect.Type]*structInfo{}, unmarshalers: map[reflect.Type]bool{}}
}

func (d *decoder) info(t reflect.Type) *structInfo {
	if si, ok := d.structs[t]; ok {
		return si
	}
	si := &structInfo{fields: map[string]fieldInfo{}, known: knownFields(t), noted: schedulingFields[t.Name()]}
	d.structs[t] = si
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := si.fields[name]; !dup || len(idx) < len(si.fields[name].index) {
				si.fields[name] = fieldInfo{index: idx}
			}
		}
	}
	walk(t, nil)
	return si
}

func (d *decoder) fail(v *value, format string, args ...any) {
	err := fmt.Errorf(format, args...)
	d.issues = append(d.issues, fieldIssue{path: d.path.String(), line: int(v.line), msg: err.Error(), err: err})
}

func (d *decoder) failErr(v *value, err error) {
	d.issues = append(d.issues, fieldIssue{path: d.path.String(), line: int(v.line), msg: err.Error(), err: err})
}

func (d *decoder) warn(line int32, msg string) {
	d.issues = append(d.issues, fieldIssue{line: int(line), msg: msg})
}

// decode stores v into rv (settable), recording problems.
func (d *decoder) decode(v *value, rv reflect.Value) {
	t := rv.Type()
	if v.kind == kindNull {
		switch t.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			rv.SetZero()
			return
		}
		if !d.isUnmarshaler(t) {
			return // as encoding/json: null leaves other values alone
		}
	}
	if d.isUnmarshaler(t) {
		u := rv.Addr().Interface().(json.Unmarshaler)
		if err := u.UnmarshalJSON(v.appendJSON(nil)); err != nil {
			d.failErr(v, err)
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(t.Elem()))
		}
		d.decode(v, rv.Elem())
	case reflect.Struct:
		if v.kind != kindMap {
			d.mismatch(v, t)
			return
		}
		d.object(v, rv)
	case reflect.Map:
		if v.kind != kindMap {
			d.mismatch(v, t)
			return
		}
		d.dups(v)
		if t.Key().Kind() != reflect.String {
			d.fail(v, "cannot decode an object into %s", t)
			return
		}
		m := reflect.MakeMapWithSize(t, len(v.keys))
		for i, k := range v.keys {
			ev := reflect.New(t.Elem()).Elem()
			n := d.path.field(k)
			d.decode(&v.elems[i], ev)
			d.path.reset(n)
			m.SetMapIndex(reflect.ValueOf(d.internString(k)).Convert(t.Key()), ev)
		}
		rv.Set(m)
	case reflect.Slice:
		if v.kind != kindList {
			d.mismatch(v, t)
			return
		}
		s := reflect.MakeSlice(t, len(v.elems), len(v.elems))
		for i := range v.elems {
			n := d.path.index(i)
			d.decode(&v.elems[i], s.Index(i))
			d.path.reset(n)
		}
		rv.Set(s)
	case reflect.String:
		if v.kind != kindString {
			d.mismatch(v, t)
			return
		}
		rv.SetString(d.internString(v.text))
	case reflect.Bool:
		if v.kind != kindBool {
			d.mismatch(v, t)
			return
		}
		rv.SetBool(v.text == "true")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.kind != kindNumber {
			d.mismatch(v, t)
			return
		}
		i, err := strconv.ParseInt(v.text, 10, t.Bits())
		if err != nil {
			d.fail(v, "cannot unmarshal number %s into Go value of type %s", v.text, t.Kind())
			return
		}
		rv.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if v.kind != kindNumber {
			d.mismatch(v, t)
			return
		}
		u, err := strconv.ParseUint(v.text, 10, t.Bits())
		if err != nil {
			d.fail(v, "cannot unmarshal number %s into Go value of type %s", v.text, t.Kind())
			return
		}
		rv.SetUint(u)
	case reflect.Float32, reflect.Float64:
		if v.kind != kindNumber {
			d.mismatch(v, t)
			return
		}
		f, err := strconv.ParseFloat(v.text, t.Bits())
		if err != nil {
			d.fail(v, "cannot unmarshal number %s into Go value of type %s", v.text, t.Kind())
			return
		}
		rv.SetFloat(f)
	case reflect.Interface:
		var x any
		if err := json.Unmarshal(v.appendJSON(nil), &x); err != nil {
			d.failErr(v, err)
			return
		}
		rv.Set(reflect.ValueOf(x))
	default:
		d.fail(v, "cannot decode into Go value of type %s", t)
	}
}

// mismatch reports a value of the wrong JSON type, worded as the API
// server's decoder words it.
func (d *decoder) mismatch(v *value, t reflect.Type) {
	want := t.Kind().String()
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		want = "object"
	case reflect.Slice:
		want = "array"
	}
	got := v.kind.String()
	if v.kind == kindString {
		d.fail(v, "cannot unmarshal %s %q into Go value of type %s", got, v.text, want)
		return
	}
	if v.kind == kindNumber || v.kind == kindBool {
		d.fail(v, "cannot unmarshal %s %s into Go value of type %s", got, v.text, want)
		return
	}
	d.fail(v, "cannot unmarshal %s into Go value of type %s", got, want)
}

func (d *decoder) dups(v *value) {
	for _, k := range v.dups {
		d.warn(v.line, fmt.Sprintf("duplicate field %q", d.path.child(k)))
	}
}

func (d *decoder) object(v *value, rv reflect.Value) {
	si := d.info(rv.Type())
	d.dups(v)
	for i, k := range v.keys {
		fi, ok := si.fields[k]
		if !ok {
			if !si.known[k] {
				d.warn(v.elems[i].line, fmt.Sprintf("unknown field %q", d.path.child(k)))
			} else if si.noted[k] && v.elems[i].kind != kindNull {
				d.noted = append(d.noted, d.path.child(k))
			}
			continue
		}
		f := rv
		for _, x := range fi.index {
			if f.Kind() == reflect.Pointer {
				if f.IsNil() {
					f.Set(reflect.New(f.Type().Elem()))
				}
				f = f.Elem()
			}
			f = f.Field(x)
		}
		n := d.path.field(k)
		d.decode(&v.elems[i], f)
		d.path.reset(n)
	}
}
