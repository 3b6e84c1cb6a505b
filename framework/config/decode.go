package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// StrictDecodingError lists the fields a strict decoding found unknown or
// repeated, each as Kubernetes' strict JSON decoder names it
// (`unknown field "profiles[0].plugins.score.enabled[0].wieght"`,
// `duplicate field "parallelism"`). It prints as apimachinery's
// strict decoding error: "strict decoding error: " and the problems
// joined by ", ".
type StrictDecodingError struct {
	// Problems are the messages, in the order found.
	Problems []string
}

func (e *StrictDecodingError) Error() string {
	return "strict decoding error: " + strings.Join(e.Problems, ", ")
}

// IsStrictDecodingError reports whether err is or wraps a
// StrictDecodingError.
func IsStrictDecodingError(err error) bool {
	var s *StrictDecodingError
	return errors.As(err, &s)
}

// toJSON returns data as JSON: JSON input is returned as it is, YAML is
// converted. A YAML mapping with a key twice is reported as a strict
// problem (the message sigs.k8s.io/yaml's strict conversion gives), and
// the conversion goes on as the non-strict one does.
func toJSON(data []byte) (out []byte, problems []string, err error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		return trimmed, nil, nil
	}
	if _, serr := yaml.YAMLToJSONStrict(data); serr != nil {
		problems = append(problems, serr.Error())
	}
	out, err = yaml.YAMLToJSON(data)
	if err != nil {
		return nil, nil, err
	}
	return out, problems, nil
}

// DecodeStrict decodes JSON or YAML data into v, a pointer, as
// kube-scheduler's strict decoding does (see decodeStrict).
func DecodeStrict(data []byte, v any) error { return decodeStrict(data, v) }

// decodeStrict decodes JSON or YAML data into v, a pointer, the way
// Kubernetes' strict decoding does: field names match case-sensitively;
// unknown and repeated fields are collected into a StrictDecodingError
// (returned after the values that are known have been decoded); a value
// of the wrong type is a plain error. Fields of type json.RawMessage are
// not checked (they are decoded later, into the type they turn out to
// have).
func decodeStrict(data []byte, v any) error {
	js, problems, err := toJSON(data)
	if err != nil {
		return err
	}
	more, err := decodeStrictJSON(js, v)
	if err != nil {
		return err
	}
	if problems = append(problems, more...); len(problems) > 0 {
		return &StrictDecodingError{Problems: problems}
	}
	return nil
}

// decodeStrictJSON decodes JSON into v and returns the strict problems.
func decodeStrictJSON(js []byte, v any) ([]string, error) {
	if t := bytes.TrimSpace(js); len(t) == 0 || string(t) == "null" {
		js = []byte("{}")
	}
	c := strictChecker{}
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := c.check(dec, reflect.TypeOf(v).Elem(), ""); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(js, v); err != nil {
		return nil, err
	}
	return c.problems, nil
}

// strictChecker walks a JSON document beside the Go type it decodes into
// and notes the fields the type does not have and the fields given twice.
type strictChecker struct {
	problems []string
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// check reads one value from dec, compared with type t at path.
func (c *strictChecker) check(dec *json.Decoder, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType) {
		return skipValue(dec)
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar or null; json.Unmarshal checks its type
	}
	switch delim {
	case '[':
		elem := t
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if elem == t {
				if err := skipValue(dec); err != nil {
					return err
				}
				continue
			}
			if err := c.check(dec, elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return err
	case '{':
		var fields map[string]reflect.Type
		if t.Kind() == reflect.Struct {
			fields = jsonFields(t)
		}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			p := join(path, key)
			if seen[key] {
				c.problems = append(c.problems, fmt.Sprintf("duplicate field %q", p))
			}
			seen[key] = true
			switch t.Kind() {
			case reflect.Struct:
				ft, ok := fields[key]
				if !ok {
					c.problems = append(c.problems, fmt.Sprintf("unknown field %q", p))
					if err := skipValue(dec); err != nil {
						return err
					}
					continue
				}
				if err := c.check(dec, ft, p); err != nil {
					return err
				}
			case reflect.Map:
				if err := c.check(dec, t.Elem(), p); err != nil {
					return err
				}
			default:
				if err := skipValue(dec); err != nil {
					return err
				}
			}
		}
		_, err := dec.Token()
		return err
	}
	return nil
}

// jsonFields maps the JSON names of t's fields to their types, with the
// fields of embedded structs without a JSON name flattened in, as
// encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := out[name]; !dup {
				out[name] = f.Type
			}
		}
	}
	walk(t)
	return out
}

// skipValue reads one whole value from dec.
func skipValue(dec *json.Decoder) error {
	var raw json.RawMessage
	return dec.Decode(&raw)
}
