package podhash

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/quantity"
)

// Equal reports whether two pod templates' JSON values (as Hash takes
// them) decode to Go values that apimachinery's Semantic.DeepEqual calls
// equal, as the Deployment controller's EqualIgnoreHash compares them
// (after removing the pod-template-hash label, which the caller does):
// fields compared along the schema, an absent field equal to its zero
// value, empty and absent lists and maps equal, quantities by value
// (Quantity.Cmp: "1Ki" equals "1024"), timestamps by instant (Time's
// UTC()), managed fields' fieldsV1 by their JSON. A value the informer
// could not decode (a string where an object belongs, an unreadable
// quantity or timestamp) is an error naming the field.
func Equal(a, b any) (bool, error) {
	c := &comparer{}
	eq := c.equal(0, a, b, "")
	if c.err != nil {
		return false, c.err
	}
	return eq, nil
}

type comparer struct {
	err error
}

func (c *comparer) fail(path, format string, args ...any) {
	if c.err == nil {
		p := &printer{}
		p.fail(path, format, args...)
		c.err = p.err
	}
}

// equal compares a and b as values of type ti. The walk ends at the
// first difference or error (a decoding error past a difference is not
// looked for).
func (c *comparer) equal(ti int, a, b any, path string) bool {
	if c.err != nil {
		return false
	}
	t := &Types[ti]
	switch t.Kind {
	case Pointer:
		if (a == nil) != (b == nil) {
			return false
		}
		if a == nil {
			return true
		}
		return c.equal(t.Elem, a, b, path)
	case Struct:
		ma, okA := c.object(a, path)
		mb, okB := c.object(b, path)
		if !okA || !okB {
			return false
		}
		for i := range t.Fields {
			f := &t.Fields[i]
			var x, y any
			sub := path
			switch {
			case f.Inline:
				x, y = nilIfNil(ma), nilIfNil(mb)
			default:
				x, y = ma[f.JSON], mb[f.JSON]
				sub = path + "." + f.JSON
			}
			if !c.equal(f.Type, x, y, sub) {
				return false
			}
		}
		return true
	case Slice:
		la, okA := c.array(a, path)
		lb, okB := c.array(b, path)
		if !okA || !okB || len(la) != len(lb) {
			return false
		}
		for i := range la {
			if !c.equal(t.Elem, la[i], lb[i], path+"["+strconv.Itoa(i)+"]") {
				return false
			}
		}
		return true
	case Map:
		ma, okA := c.object(a, path)
		mb, okB := c.object(b, path)
		if !okA || !okB || len(ma) != len(mb) {
			return false
		}
		for k, x := range ma {
			y, ok := mb[k]
			if !ok || !c.equal(t.Elem, x, y, path+"."+k) {
				return false
			}
		}
		return true
	case String:
		x, okA := c.str(a, path)
		y, okB := c.str(b, path)
		return okA && okB && x == y
	case Bool:
		x, okA := c.boolean(a, path)
		y, okB := c.boolean(b, path)
		return okA && okB && x == y
	case Int, Uint, Float:
		x, okA := c.number(t, a, path)
		y, okB := c.number(t, b, path)
		return okA && okB && x == y
	case Quantity:
		x, okA := c.quantity(a, path)
		y, okB := c.quantity(b, path)
		return okA && okB && x.Cmp(y) == 0
	case IntOrString:
		x, okA := c.intOrString(a, path)
		y, okB := c.intOrString(b, path)
		return okA && okB && x == y
	case Time:
		x, okA := c.time(a, path)
		y, okB := c.time(b, path)
		return okA && okB && x.Equal(y)
	case Opaque:
		// metav1.FieldsV1 holds its raw JSON; compared here as JSON
		// values (the API server keeps the bytes sent, so two spellings
		// of one value would differ upstream).
		return reflect.DeepEqual(a, b)
	}
	return false
}

func nilIfNil(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

func (c *comparer) object(v any, path string) (map[string]any, bool) {
	switch m := v.(type) {
	case nil:
		return nil, true
	case map[string]any:
		return m, true
	}
	c.fail(path, "want an object, not %s", describe(v))
	return nil, false
}

func (c *comparer) array(v any, path string) ([]any, bool) {
	switch l := v.(type) {
	case nil:
		return nil, true
	case []any:
		return l, true
	}
	c.fail(path, "want an array, not %s", describe(v))
	return nil, false
}

func (c *comparer) str(v any, path string) (string, bool) {
	switch s := v.(type) {
	case nil:
		return "", true
	case string:
		return s, true
	}
	c.fail(path, "want a string, not %s", describe(v))
	return "", false
}

func (c *comparer) boolean(v any, path string) (bool, bool) {
	switch b := v.(type) {
	case nil:
		return false, true
	case bool:
		return b, true
	}
	c.fail(path, "want a boolean, not %s", describe(v))
	return false, false
}

// number is an integer or float field's value, as the text of the Go
// value it decodes to (so that 1.0 and 1 compare equal as floats).
func (c *comparer) number(t *Type, v any, path string) (string, bool) {
	var s string
	switch n := v.(type) {
	case nil:
		return "0", true
	case json.Number:
		s = string(n)
	case int64:
		s = strconv.FormatInt(n, 10)
	case uint64:
		s = strconv.FormatUint(n, 10)
	default:
		c.fail(path, "want a number, not %s", describe(v))
		return "", false
	}
	switch t.Kind {
	case Int:
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			c.fail(path, "want an integer, not %s", s)
			return "", false
		}
		return strconv.FormatInt(i, 10), true
	case Uint:
		u, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			c.fail(path, "want an unsigned integer, not %s", s)
			return "", false
		}
		return strconv.FormatUint(u, 10), true
	}
	f, err := strconv.ParseFloat(s, t.Bits)
	if err != nil {
		c.fail(path, "want a number, not %s", s)
		return "", false
	}
	return strconv.FormatFloat(f, 'g', -1, t.Bits), true
}

// quantity is the value of a quantity field; absent (or "", which the
// informer decodes to the zero Quantity) is zero.
func (c *comparer) quantity(v any, path string) (quantity.Quantity, bool) {
	s, ok := quantityText(v)
	if !ok {
		c.fail(path, "want a quantity, not %s", describe(v))
		return quantity.Quantity{}, false
	}
	if s == "" {
		return quantity.Quantity{}, true
	}
	q, err := quantity.ParseQuantity(strings.TrimSpace(s))
	if err != nil {
		c.fail(path, "quantity %q: %v", s, err)
		return quantity.Quantity{}, false
	}
	return q, true
}

type intOrString struct {
	isString bool
	i        int64
	s        string
}

func (c *comparer) intOrString(v any, path string) (intOrString, bool) {
	switch x := v.(type) {
	case nil:
		return intOrString{}, true
	case string:
		return intOrString{isString: true, s: x}, true
	case json.Number:
		i, err := strconv.ParseInt(string(x), 10, 32)
		if err != nil {
			c.fail(path, "want an int32 or a string, not %s", x)
			return intOrString{}, false
		}
		return intOrString{i: i}, true
	}
	c.fail(path, "want an integer or a string, not %s", describe(v))
	return intOrString{}, false
}

// time is a timestamp's instant (null is the zero time).
func (c *comparer) time(v any, path string) (time.Time, bool) {
	t, msg := timestamp(v)
	if msg != "" {
		c.fail(path, "%s", msg)
		return time.Time{}, false
	}
	return t, true
}
