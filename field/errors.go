package field

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ErrorType is the machine-readable kind of a field error, such as
// "FieldValueInvalid"; String gives the phrase Kubernetes prints for it,
// such as "Invalid value".
type ErrorType string

// The error types of apimachinery's field package.
const (
	// ErrorTypeNotFound: a value that was looked up does not exist.
	ErrorTypeNotFound ErrorType = "FieldValueNotFound"
	// ErrorTypeRequired: a value that must be given is missing or empty.
	ErrorTypeRequired ErrorType = "FieldValueRequired"
	// ErrorTypeDuplicate: a value that must be unique repeats another.
	ErrorTypeDuplicate ErrorType = "FieldValueDuplicate"
	// ErrorTypeInvalid: a value that is malformed or out of range.
	ErrorTypeInvalid ErrorType = "FieldValueInvalid"
	// ErrorTypeNotSupported: a value outside a closed set, such as an
	// unknown operator.
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	// ErrorTypeForbidden: a well-formed value that is not allowed here.
	ErrorTypeForbidden ErrorType = "FieldValueForbidden"
	// ErrorTypeTooLong: a value longer than allowed; the value is not
	// printed.
	ErrorTypeTooLong ErrorType = "FieldValueTooLong"
	// ErrorTypeTooMany: a list with more items than allowed.
	ErrorTypeTooMany ErrorType = "FieldValueTooMany"
	// ErrorTypeTooFew: a list with fewer items than required.
	ErrorTypeTooFew ErrorType = "FieldValueTooFew"
	// ErrorTypeInternal: a failure not caused by the input.
	ErrorTypeInternal ErrorType = "InternalError"
	// ErrorTypeTypeInvalid: a value of the wrong type for the field.
	ErrorTypeTypeInvalid ErrorType = "FieldValueTypeInvalid"
	// ErrorTypeTooShort: a value shorter than required; the value is not
	// printed.
	ErrorTypeTooShort ErrorType = "FieldValueTooShort"
)

// String returns the phrase Kubernetes prints for t, such as
// "Invalid value", or `<unknown error "t">` for a type it does not know.
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid, ErrorTypeTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	case ErrorTypeTooFew:
		return "Too few"
	case ErrorTypeInternal:
		return "Internal error"
	case ErrorTypeTooShort:
		return "Too short"
	}
	return "<unknown error " + strconv.Quote(string(t)) + ">"
}

// showsValue reports whether errors of type t print their bad value, and
// whether t is a type Kubernetes knows at all.
func (t ErrorType) showsValue() (shows, known bool) {
	switch t {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong, ErrorTypeTooShort, ErrorTypeInternal:
		return false, true
	case ErrorTypeInvalid, ErrorTypeTypeInvalid, ErrorTypeNotSupported,
		ErrorTypeNotFound, ErrorTypeDuplicate, ErrorTypeTooMany, ErrorTypeTooFew:
		return true, true
	}
	return false, false
}

// omitted is the BadValue of an error whose value is deliberately left
// out of its message (TooMany with an unknown count).
type omitted struct{}

// Error is one problem with one field. It prints as
// `<field>: <type>: <value>: <detail>`; the value is left out for
// Required, Forbidden, TooLong, TooShort and Internal errors, and the
// detail when it is empty.
type Error struct {
	// Type is the kind of problem.
	Type ErrorType
	// Field is the path of the field, as Path.String prints it.
	Field string
	// BadValue is the offending value.
	BadValue any
	// Detail explains the problem.
	Detail string
}

// Error implements error: the field, then ErrorBody.
func (e *Error) Error() string {
	return e.Field + ": " + e.ErrorBody()
}

// ErrorBody returns the message without the field: the type, the value if
// the type shows it, and the detail. An unknown type prints as an internal
// error saying so.
func (e *Error) ErrorBody() string {
	var b strings.Builder
	shows, known := e.Type.showsValue()
	if known {
		b.WriteString(e.Type.String())
	} else {
		b.WriteString(ErrorTypeInternal.String())
		b.WriteString(": unhandled error code: ")
		b.WriteString(e.Type.String())
		b.WriteString(": please report this")
	}
	if shows && e.BadValue != (omitted{}) {
		b.WriteString(": ")
		b.WriteString(formatValue(e.BadValue))
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// formatValue renders a bad value as Kubernetes does: numbers and bools
// plainly, strings quoted, anything else as JSON (so nil is null, pointers
// print what they point to, and a string type is quoted), falling back to
// String and then to Go syntax when JSON fails.
func formatValue(v any) string {
	switch v := v.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprint(v)
	case string:
		return strconv.Quote(v)
	}
	if js, err := json.Marshal(v); err == nil {
		return string(js)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// Invalid returns an ErrorTypeInvalid error: value is malformed or out of
// range.
func Invalid(field *Path, value any, detail string) *Error {
	return &Error{Type: ErrorTypeInvalid, Field: field.String(), BadValue: value, Detail: detail}
}

// TypeInvalid returns an ErrorTypeTypeInvalid error: value has the wrong
// type. It prints like Invalid.
func TypeInvalid(field *Path, value any, detail string) *Error {
	return &Error{Type: ErrorTypeTypeInvalid, Field: field.String(), BadValue: value, Detail: detail}
}

// NotSupported returns an ErrorTypeNotSupported error: value is not one of
// validValues, which the detail lists quoted ("supported values: "a",
// "b"") unless there are none.
func NotSupported[T ~string](field *Path, value any, validValues []T) *Error {
	detail := ""
	if len(validValues) > 0 {
		q := make([]string, len(validValues))
		for i, v := range validValues {
			q[i] = strconv.Quote(string(v))
		}
		detail = "supported values: " + strings.Join(q, ", ")
	}
	return &Error{Type: ErrorTypeNotSupported, Field: field.String(), BadValue: value, Detail: detail}
}

// Duplicate returns an ErrorTypeDuplicate error: value must be unique and
// is not.
func Duplicate(field *Path, value any) *Error {
	return &Error{Type: ErrorTypeDuplicate, Field: field.String(), BadValue: value}
}

// NotFound returns an ErrorTypeNotFound error: value was looked up and
// does not exist.
func NotFound(field *Path, value any) *Error {
	return &Error{Type: ErrorTypeNotFound, Field: field.String(), BadValue: value}
}

// Required returns an ErrorTypeRequired error: the field must be set.
func Required(field *Path, detail string) *Error {
	return &Error{Type: ErrorTypeRequired, Field: field.String(), BadValue: "", Detail: detail}
}

// Forbidden returns an ErrorTypeForbidden error: the field may not be set
// this way here.
func Forbidden(field *Path, detail string) *Error {
	return &Error{Type: ErrorTypeForbidden, Field: field.String(), BadValue: "", Detail: detail}
}

// TooLong returns an ErrorTypeTooLong error for a value longer than
// maxLength bytes; the value is not printed, and a negative maxLength
// leaves the limit out of the detail.
func TooLong(field *Path, _ any, maxLength int) *Error {
	detail := "value is too long"
	if maxLength >= 0 {
		detail = fmt.Sprintf("may not be more than %d %s", maxLength, plural(maxLength, "byte", "bytes"))
	}
	return &Error{Type: ErrorTypeTooLong, Field: field.String(), BadValue: "<value omitted>", Detail: detail}
}

// TooMany returns an ErrorTypeTooMany error for a list of actualQuantity
// items where at most maxQuantity are allowed; a negative quantity is left
// out of the message.
func TooMany(field *Path, actualQuantity, maxQuantity int) *Error {
	detail := "has too many items"
	if maxQuantity >= 0 {
		detail = fmt.Sprintf("must have at most %d %s", maxQuantity, plural(maxQuantity, "item", "items"))
	}
	var actual any = omitted{}
	if actualQuantity >= 0 {
		actual = actualQuantity
	}
	return &Error{Type: ErrorTypeTooMany, Field: field.String(), BadValue: actual, Detail: detail}
}

// InternalError returns an ErrorTypeInternal error carrying err, which
// must not be nil, as its detail.
func InternalError(field *Path, err error) *Error {
	return &Error{Type: ErrorTypeInternal, Field: field.String(), BadValue: err, Detail: err.Error()}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ErrorList is the errors a validation found, in the order found. It is
// itself an error that prints like Kubernetes' aggregate error: one
// message alone, several as "[a, b]", each distinct message once. Return
// it through ToAggregate, which gives nil for an empty list.
type ErrorList []*Error

// Error implements error in Kubernetes' aggregate format.
func (l ErrorList) Error() string {
	_, msgs := l.distinct()
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Unwrap returns the individual errors, so errors.As finds an *Error.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// ToAggregate returns nil for an empty list, and otherwise the list
// without errors whose message repeats an earlier one, as an error (an
// ErrorList), the way upstream's ToAggregate builds an aggregate error.
func (l ErrorList) ToAggregate() error {
	if len(l) == 0 {
		return nil
	}
	out, _ := l.distinct()
	return out
}

// distinct returns the errors of l whose message does not repeat an
// earlier one, and their messages.
func (l ErrorList) distinct() (ErrorList, []string) {
	out := make(ErrorList, 0, len(l))
	msgs := make([]string, 0, len(l))
	seen := make(map[string]bool, len(l))
	for _, e := range l {
		m := e.Error()
		if !seen[m] {
			seen[m] = true
			out = append(out, e)
			msgs = append(msgs, m)
		}
	}
	return out, msgs
}

// Filter returns the errors of l, with repeated messages dropped as
// ToAggregate drops them, that no matcher in fns matches; nil if none
// remain.
func (l ErrorList) Filter(fns ...func(error) bool) ErrorList {
	var out ErrorList
	all, _ := l.distinct()
	for _, e := range all {
		keep := true
		for _, match := range fns {
			if match(e) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

// NewErrorTypeMatcher returns a matcher for Filter that matches an *Error
// of type t.
func NewErrorTypeMatcher(t ErrorType) func(error) bool {
	return func(err error) bool {
		e, ok := err.(*Error)
		return ok && e.Type == t
	}
}
