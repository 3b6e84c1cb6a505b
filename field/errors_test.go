package field

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func ptrTo[T any](v T) *T { return &v }

// TestMakeFuncs pins upstream's TestMakeFuncs: each constructor sets its
// error type.
func TestMakeFuncs(t *testing.T) {
	cases := []struct {
		err  *Error
		want ErrorType
	}{
		{Invalid(NewPath("f"), "v", "d"), ErrorTypeInvalid},
		{NotSupported[string](NewPath("f"), "v", nil), ErrorTypeNotSupported},
		{Duplicate(NewPath("f"), "v"), ErrorTypeDuplicate},
		{NotFound(NewPath("f"), "v"), ErrorTypeNotFound},
		{Required(NewPath("f"), "d"), ErrorTypeRequired},
		{InternalError(NewPath("f"), fmt.Errorf("e")), ErrorTypeInternal},
		// Not in upstream's table; the constructors schedkit adds to it.
		{Forbidden(NewPath("f"), "d"), ErrorTypeForbidden},
		{TypeInvalid(NewPath("f"), "v", "d"), ErrorTypeTypeInvalid},
		{TooLong(NewPath("f"), "v", 1), ErrorTypeTooLong},
		{TooMany(NewPath("f"), 2, 1), ErrorTypeTooMany},
	}
	for i, c := range cases {
		if c.err.Type != c.want {
			t.Errorf("[%d] Type = %q, want %q", i, c.err.Type, c.want)
		}
	}
}

type StringType string

type TinyStruct struct {
	StringField string `json:"stringField"`
	IntField    int    `json:"intField"`
	BoolField   bool   `json:"boolField"`
}

func tinyStruct() TinyStruct {
	return TinyStruct{StringField: "stringval", IntField: 9376, BoolField: true}
}

// SelfMarshalerStringer fails to marshal but has a String method.
type SelfMarshalerStringer struct{ S string }

func (SelfMarshalerStringer) MarshalJSON() ([]byte, error) { return nil, errors.New("always fails") }
func (SelfMarshalerStringer) String() string               { return "magic" }

// SelfMarshalerNonStringer fails to marshal and has no String method.
type SelfMarshalerNonStringer struct{ S string }

func (SelfMarshalerNonStringer) MarshalJSON() ([]byte, error) { return nil, errors.New("always fails") }

// TestErrorFormatting pins upstream's TestErrorFormatting (called
// TestErrorUsefulMessage in older releases): which types print the value,
// how each kind of value prints (strings and string types quoted, nil and
// nil pointers as null, pointers dereferenced, structs, maps and slices as
// JSON, then String, then Go syntax), and the unknown-type fallback.
func TestErrorFormatting(t *testing.T) {
	const f = "path.to.field"
	mk := func(typ ErrorType, v any) *Error {
		return &Error{Type: typ, Field: f, BadValue: v, Detail: "the details"}
	}
	cases := []struct {
		name string
		in   *Error
		want string
	}{
		{"required", mk(ErrorTypeRequired, "the value"), `path.to.field: Required value: the details`},
		{"required func", Required(NewPath(f), "the details"), `path.to.field: Required value: the details`},
		{"forbidden", mk(ErrorTypeForbidden, "the value"), `path.to.field: Forbidden: the details`},
		{"forbidden func", Forbidden(NewPath(f), "the details"), `path.to.field: Forbidden: the details`},
		{"too long", mk(ErrorTypeTooLong, "the value"), `path.to.field: Too long: the details`},
		{"too long func(1)", TooLong(NewPath(f), "the value", 1), `path.to.field: Too long: may not be more than 1 byte`},
		{"too long func(2)", TooLong(NewPath(f), "the value", 2), `path.to.field: Too long: may not be more than 2 bytes`},
		{"too long func(-1)", TooLong(NewPath(f), "the value", -1), `path.to.field: Too long: value is too long`},
		{"too many", mk(ErrorTypeTooMany, "the value"), `path.to.field: Too many: "the value": the details`},
		{"too many func(2, 1)", TooMany(NewPath(f), 2, 1), `path.to.field: Too many: 2: must have at most 1 item`},
		{"too many func(3, 2)", TooMany(NewPath(f), 3, 2), `path.to.field: Too many: 3: must have at most 2 items`},
		{"too many func(2, -1)", TooMany(NewPath(f), 2, -1), `path.to.field: Too many: 2: has too many items`},
		{"too many func(-1, 1)", TooMany(NewPath(f), -1, 1), `path.to.field: Too many: must have at most 1 item`},
		{"internal error", mk(ErrorTypeInternal, "the value"), `path.to.field: Internal error: the details`},
		{"internal error func", InternalError(NewPath(f), fmt.Errorf("the error")), `path.to.field: Internal error: the error`},
		{"invalid string", mk(ErrorTypeInvalid, "the value"), `path.to.field: Invalid value: "the value": the details`},
		{"invalid string type", mk(ErrorTypeInvalid, StringType("the value")), `path.to.field: Invalid value: "the value": the details`},
		{"invalid int", mk(ErrorTypeInvalid, -42), `path.to.field: Invalid value: -42: the details`},
		{"invalid bool", mk(ErrorTypeInvalid, true), `path.to.field: Invalid value: true: the details`},
		{"invalid struct", mk(ErrorTypeInvalid, tinyStruct()), `path.to.field: Invalid value: {"stringField":"stringval","intField":9376,"boolField":true}: the details`},
		{"invalid list", mk(ErrorTypeInvalid, []string{"one", "two", "three"}), `path.to.field: Invalid value: ["one","two","three"]: the details`},
		{"invalid map", mk(ErrorTypeInvalid, map[string]int{"one": 1, "two": 2, "three": 3}), `path.to.field: Invalid value: {"one":1,"three":3,"two":2}: the details`},
		{"invalid time", mk(ErrorTypeInvalid, time.Time{}), `path.to.field: Invalid value: "0001-01-01T00:00:00Z": the details`},
		{"invalid omitValue", mk(ErrorTypeInvalid, omitted{}), `path.to.field: Invalid value: the details`},
		{"invalid untyped nil", mk(ErrorTypeInvalid, nil), `path.to.field: Invalid value: null: the details`},
		{"invalid typed nil", mk(ErrorTypeInvalid, (*string)(nil)), `path.to.field: Invalid value: null: the details`},
		{"invalid string ptr", mk(ErrorTypeInvalid, ptrTo("the value")), `path.to.field: Invalid value: "the value": the details`},
		{"invalid string type ptr", mk(ErrorTypeInvalid, ptrTo(StringType("the value"))), `path.to.field: Invalid value: "the value": the details`},
		{"invalid int ptr", mk(ErrorTypeInvalid, ptrTo(-42)), `path.to.field: Invalid value: -42: the details`},
		{"invalid bool ptr", mk(ErrorTypeInvalid, ptrTo(true)), `path.to.field: Invalid value: true: the details`},
		{"invalid struct ptr", mk(ErrorTypeInvalid, ptrTo(tinyStruct())), `path.to.field: Invalid value: {"stringField":"stringval","intField":9376,"boolField":true}: the details`},
		{"invalid list ptr", mk(ErrorTypeInvalid, ptrTo([]string{"one", "two", "three"})), `path.to.field: Invalid value: ["one","two","three"]: the details`},
		{"invalid map ptr", mk(ErrorTypeInvalid, ptrTo(map[string]int{"one": 1, "two": 2, "three": 3})), `path.to.field: Invalid value: {"one":1,"three":3,"two":2}: the details`},
		{"invalid func", Invalid(NewPath(f), "the value", "the details"), `path.to.field: Invalid value: "the value": the details`},
		{"not found", mk(ErrorTypeNotFound, "the value"), `path.to.field: Not found: "the value": the details`},
		{"not supported", mk(ErrorTypeNotSupported, "the value"), `path.to.field: Unsupported value: "the value": the details`},
		{"not supported func", NotSupported(NewPath(f), "the value", []string{"val1", "val2"}), `path.to.field: Unsupported value: "the value": supported values: "val1", "val2"`},
		{"duplicate", mk(ErrorTypeDuplicate, "the value"), `path.to.field: Duplicate value: "the value": the details`},
		{"duplicate func", Duplicate(NewPath(f), "the value"), `path.to.field: Duplicate value: "the value"`},
		{"type invalid", mk(ErrorTypeTypeInvalid, "the value"), `path.to.field: Invalid value: "the value": the details`},
		{"type invalid func", TypeInvalid(NewPath(f), "the value", "the details"), `path.to.field: Invalid value: "the value": the details`},
		{"failed marshal stringer", mk(ErrorTypeTypeInvalid, SelfMarshalerStringer{"invisible"}), `path.to.field: Invalid value: magic: the details`},
		{"failed marshal non-stringer", mk(ErrorTypeTypeInvalid, SelfMarshalerNonStringer{"visible"}), `path.to.field: Invalid value: field.SelfMarshalerNonStringer{S:"visible"}: the details`},
		{"unknown error type", mk("not real", SelfMarshalerNonStringer{"visible"}), `path.to.field: Internal error: unhandled error code: <unknown error "not real">: please report this: the details`},
		// Not in upstream's table: float values print plainly, and
		// NotSupported with no valid values has no detail.
		{"invalid float", mk(ErrorTypeInvalid, 0.5), `path.to.field: Invalid value: 0.5: the details`},
		{"not supported no values", NotSupported[string](NewPath(f), "v", nil), `path.to.field: Unsupported value: "v"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.in.Error(); got != c.want {
				t.Errorf("wrong error string:\n  want %q\n   got %q", c.want, got)
			}
		})
	}
}

// TestToAggregate pins upstream's TestToAggregate (how many errors the
// aggregate keeps, nil for an empty list) and the aggregate's message:
// one error bare, several in brackets, repeated messages once.
func TestToAggregate(t *testing.T) {
	inv := func() *Error { return Invalid(NewPath("f"), "v", "d") }
	cases := []struct {
		list ErrorList
		n    int
		msg  string
	}{
		{nil, 0, ""},
		{ErrorList{}, 0, ""},
		{ErrorList{inv()}, 1, `f: Invalid value: "v": d`},
		{ErrorList{inv(), inv()}, 1, `f: Invalid value: "v": d`},
		{ErrorList{inv(), InternalError(NewPath(""), fmt.Errorf("e"))}, 2, `[f: Invalid value: "v": d, []: Internal error: e]`},
		{ErrorList{inv(), Required(NewPath("g"), ""), inv()}, 2, `[f: Invalid value: "v": d, g: Required value]`},
	}
	for i, c := range cases {
		agg := c.list.ToAggregate()
		if c.n == 0 {
			if agg != nil {
				t.Errorf("[%d] ToAggregate = %#v, want nil", i, agg)
			}
			continue
		}
		if agg == nil {
			t.Fatalf("[%d] ToAggregate = nil", i)
		}
		if n := len(agg.(ErrorList)); n != c.n {
			t.Errorf("[%d] %d errors, want %d", i, n, c.n)
		}
		if got := agg.Error(); got != c.msg {
			t.Errorf("[%d] message %q, want %q", i, got, c.msg)
		}
		// The list prints the same before aggregation.
		if got := c.list.Error(); got != c.msg {
			t.Errorf("[%d] list message %q, want %q", i, got, c.msg)
		}
		var fe *Error
		if !errors.As(agg, &fe) || fe != c.list[0] {
			t.Errorf("[%d] errors.As does not find the first *Error", i)
		}
	}
}

// TestErrListFilter pins upstream's TestErrListFilter.
func TestErrListFilter(t *testing.T) {
	list := ErrorList{
		Invalid(NewPath("test.field"), "", ""),
		Invalid(NewPath("field.test"), "", ""),
		Duplicate(NewPath("test"), "value"),
	}
	if n := len(list.Filter(NewErrorTypeMatcher(ErrorTypeDuplicate))); n != 2 {
		t.Errorf("filtering duplicates left %d, want 2", n)
	}
	if n := len(list.Filter(NewErrorTypeMatcher(ErrorTypeInvalid))); n != 1 {
		t.Errorf("filtering invalid left %d, want 1", n)
	}
	if got := list.Filter(NewErrorTypeMatcher(ErrorTypeInvalid), NewErrorTypeMatcher(ErrorTypeDuplicate)); got != nil {
		t.Errorf("filtering everything = %v, want nil", got)
	}
}

// TestErrorTypeString pins the phrases of each type.
func TestErrorTypeString(t *testing.T) {
	want := map[ErrorType]string{
		ErrorTypeNotFound:     "Not found",
		ErrorTypeRequired:     "Required value",
		ErrorTypeDuplicate:    "Duplicate value",
		ErrorTypeInvalid:      "Invalid value",
		ErrorTypeNotSupported: "Unsupported value",
		ErrorTypeForbidden:    "Forbidden",
		ErrorTypeTooLong:      "Too long",
		ErrorTypeTooMany:      "Too many",
		ErrorTypeTooFew:       "Too few",
		ErrorTypeInternal:     "Internal error",
		ErrorTypeTypeInvalid:  "Invalid value",
		ErrorTypeTooShort:     "Too short",
		"x":                   `<unknown error "x">`,
	}
	for typ, s := range want {
		if got := typ.String(); got != s {
			t.Errorf("%q.String() = %q, want %q", string(typ), got, s)
		}
	}
	if got := Invalid(nil, "v", "d").Field; got != "<nil>" {
		t.Errorf("Invalid(nil path).Field = %q, want <nil>", got)
	}
}
