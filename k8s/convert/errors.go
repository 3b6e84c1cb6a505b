package convert

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/api"
)

type apiIntOrString = api.IntOrString

// Error is a conversion failure: the object, the field and the cause,
// such as a quantity the other side cannot hold.
type Error struct {
	// Kind, Namespace and Name identify the object.
	Kind, Namespace, Name string
	// Path is the field, as kubectl prints it:
	// spec.containers[0].resources.requests[cpu].
	Path string
	// Value is the offending value as text, when there is one.
	Value string
	// Err is the cause.
	Err error
}

// Error is "Pod shop/web: spec.containers[0]...: value "x": cause".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("convert ")
	b.WriteString(e.Kind)
	b.WriteByte(' ')
	if e.Namespace != "" {
		b.WriteString(e.Namespace)
		b.WriteByte('/')
	}
	b.WriteString(e.Name)
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	if e.Value != "" {
		b.WriteString(": ")
		b.WriteString(strconv.Quote(e.Value))
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// valueError is a failure at a value, before its path is known.
type valueError struct {
	value string
	err   error
}

func (e *valueError) Error() string { return fmt.Sprintf("%q: %v", e.value, e.err) }

// pathError collects the path of a failure on its way out, innermost
// element first; the path is built only when something failed.
type pathError struct {
	segs []string
	err  error
}

func (e *pathError) Error() string { return e.path() + ": " + e.err.Error() }

func (e *pathError) path() string {
	var b strings.Builder
	for i := len(e.segs) - 1; i >= 0; i-- {
		s := e.segs[i]
		if b.Len() > 0 && s[0] != '[' {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func wrapSeg(seg string, err error) error {
	var pe *pathError
	if errors.As(err, &pe) {
		pe.segs = append(pe.segs, seg)
		return pe
	}
	return &pathError{segs: []string{seg}, err: err}
}

func inField(name string, err error) error { return wrapSeg(name, err) }

func atIndex(i int, err error) error { return wrapSeg("["+strconv.Itoa(i)+"]", err) }

func atKey(k string, err error) error { return wrapSeg("["+k+"]", err) }

// objectError names the object a failure is in.
func objectError(kind, namespace, name string, err error) error {
	e := &Error{Kind: kind, Namespace: namespace, Name: name, Err: err}
	var pe *pathError
	if errors.As(err, &pe) {
		e.Path, e.Err = pe.path(), pe.err
	}
	var ve *valueError
	if errors.As(e.Err, &ve) {
		e.Value, e.Err = ve.value, ve.err
	}
	return e
}
