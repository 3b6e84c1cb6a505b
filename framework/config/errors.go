package config

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ErrorType says what is wrong with a field; its text is the phrase
// Kubernetes' field.ErrorType prints.
type ErrorType string

// Error types used by validation.
const (
	// ErrorTypeInvalid is a value that is syntactically or semantically
	// wrong.
	ErrorTypeInvalid ErrorType = "Invalid value"
	// ErrorTypeNotSupported is a value outside a closed set.
	ErrorTypeNotSupported ErrorType = "Unsupported value"
	// ErrorTypeRequired is a missing value.
	ErrorTypeRequired ErrorType = "Required value"
	// ErrorTypeForbidden is a value that must not be set.
	ErrorTypeForbidden ErrorType = "Forbidden"
	// ErrorTypeDuplicate is a value that repeats an earlier one.
	ErrorTypeDuplicate ErrorType = "Duplicate value"
)

// FieldError is one problem with one field. It prints as Kubernetes'
// field.Error does: "<field>: <type>: <value>: <detail>", without the
// value for Required and Forbidden.
type FieldError struct {
	// Type of the problem.
	Type ErrorType
	// Field is the path of the field, such as
	// "scoringStrategy.resources[0].weight".
	Field string
	// BadValue is the offending value (unused for Required and Forbidden).
	BadValue any
	// Detail explains the problem.
	Detail string
}

// Error implements error.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.Field)
	b.WriteString(": ")
	b.WriteString(string(e.Type))
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden:
	default:
		b.WriteString(": ")
		switch v := e.BadValue.(type) {
		case int64, int32, float64, float32, bool:
			fmt.Fprint(&b, v)
		case string:
			b.WriteString(strconv.Quote(v))
		default:
			if js, err := json.Marshal(v); err == nil {
				b.Write(js)
			} else if s, ok := v.(fmt.Stringer); ok {
				b.WriteString(s.String())
			} else {
				fmt.Fprintf(&b, "%#v", v)
			}
		}
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// ErrorList is the result of a failed validation: the field errors in the
// order found, with repeated messages dropped. It prints like Kubernetes'
// aggregate error: one message alone, several as "[a, b]".
type ErrorList []*FieldError

// Error implements error.
func (l ErrorList) Error() string {
	if len(l) == 1 {
		return l[0].Error()
	}
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Unwrap returns the individual errors, so errors.As finds a *FieldError.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// asError drops repeated messages, as Kubernetes' ToAggregate does, and
// returns nil for an empty list.
func (l ErrorList) asError() error {
	if len(l) == 0 {
		return nil
	}
	seen := make(map[string]bool, len(l))
	out := make(ErrorList, 0, len(l))
	for _, e := range l {
		m := e.Error()
		if seen[m] {
			continue
		}
		seen[m] = true
		out = append(out, e)
	}
	return out
}

// fieldPath is a field path under construction; the zero value is the
// root, whose children print without a prefix.
type fieldPath string

func (p fieldPath) child(name string) fieldPath {
	if p == "" {
		return fieldPath(name)
	}
	return p + "." + fieldPath(name)
}

func (p fieldPath) index(i int) fieldPath {
	return p + "[" + fieldPath(strconv.Itoa(i)) + "]"
}

func invalid(p fieldPath, v any, detail string) *FieldError {
	return &FieldError{Type: ErrorTypeInvalid, Field: string(p), BadValue: v, Detail: detail}
}

func required(p fieldPath, detail string) *FieldError {
	return &FieldError{Type: ErrorTypeRequired, Field: string(p), BadValue: "", Detail: detail}
}

func forbidden(p fieldPath, detail string) *FieldError {
	return &FieldError{Type: ErrorTypeForbidden, Field: string(p), BadValue: "", Detail: detail}
}

func duplicate(p fieldPath, v any) *FieldError {
	return &FieldError{Type: ErrorTypeDuplicate, Field: string(p), BadValue: v}
}

func notSupported(p fieldPath, v any, valid []string) *FieldError {
	q := make([]string, len(valid))
	for i, s := range valid {
		q[i] = strconv.Quote(s)
	}
	return &FieldError{Type: ErrorTypeNotSupported, Field: string(p), BadValue: v, Detail: "supported values: " + strings.Join(q, ", ")}
}
