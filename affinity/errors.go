package affinity

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ErrorType says what is wrong with a field; its text is the phrase
// Kubernetes prints for it.
type ErrorType string

// Error types used by this package.
const (
	// ErrorTypeInvalid is a value that is syntactically or semantically
	// wrong.
	ErrorTypeInvalid ErrorType = "Invalid value"
	// ErrorTypeNotSupported is a value outside a closed set, such as an
	// unknown operator.
	ErrorTypeNotSupported ErrorType = "Unsupported value"
)

// FieldError is one problem with one field, printed the way Kubernetes'
// field.Error prints: `<field>: <type>: <value>: <detail>`.
type FieldError struct {
	// Type of the problem.
	Type ErrorType
	// Field is the path of the field, such as
	// "nodeSelectorTerms[0].matchExpressions[1].key".
	Field string
	// BadValue is the offending value.
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
	b.WriteString(": ")
	switch v := e.BadValue.(type) {
	case string:
		b.WriteString(strconv.Quote(v))
	case int64, int32, int, bool:
		fmt.Fprint(&b, v)
	default:
		if js, err := json.Marshal(v); err == nil {
			b.Write(js)
		} else {
			fmt.Fprintf(&b, "%#v", v)
		}
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// ErrorList is a flat list of field errors. It prints like Kubernetes'
// aggregate error: one message alone, or several as "[a, b]" with
// duplicate messages dropped.
type ErrorList []*FieldError

// Error implements error.
func (l ErrorList) Error() string {
	msgs := make([]string, 0, len(l))
	seen := make(map[string]bool, len(l))
	for _, e := range l {
		m := e.Error()
		if seen[m] {
			continue
		}
		seen[m] = true
		msgs = append(msgs, m)
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Unwrap returns the individual errors, so errors.As finds a
// *FieldError.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// asError returns nil for an empty list, so callers never return a
// non-nil error interface holding an empty list.
func (l ErrorList) asError() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// path is a field path under construction; the zero value is the root
// with no name, which prints as "<nil>" the way a nil field.Path does.
type path struct {
	s   string
	set bool
}

func (p path) child(name string) path {
	if !p.set || p.s == "" {
		return path{s: name, set: true}
	}
	return path{s: p.s + "." + name, set: true}
}

func (p path) index(i int) path {
	return path{s: p.s + "[" + strconv.Itoa(i) + "]", set: true}
}

func (p path) key(k string) path {
	return path{s: p.s + "[" + k + "]", set: true}
}

func (p path) String() string {
	if !p.set {
		return "<nil>"
	}
	return p.s
}
