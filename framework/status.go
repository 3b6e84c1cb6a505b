package framework

import (
	"errors"
	"fmt"
	"strings"
)

// Code is the outcome of a plugin call, with kube-scheduler's values.
type Code int

// Status codes, in kube-scheduler's order.
const (
	// Success means the plugin ran and found the pod schedulable; a nil
	// *Status also means Success.
	Success Code = iota
	// Error is an unexpected failure inside a plugin.
	Error
	// Unschedulable means the pod does not fit, and preemption might
	// help.
	Unschedulable
	// UnschedulableAndUnresolvable means the pod does not fit and
	// preemption cannot help.
	UnschedulableAndUnresolvable
	// Wait is for permit plugins.
	Wait
	// Skip tells the framework to skip the plugin's coupled Filter or
	// Score for this cycle.
	Skip
	// Pending means scheduling succeeded but must stop here.
	Pending
)

var codeNames = [...]string{"Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip", "Pending"}

// String returns the code's name, as kube-scheduler prints it.
func (c Code) String() string {
	if c >= 0 && int(c) < len(codeNames) {
		return codeNames[c]
	}
	return ""
}

// Status is what a plugin returns: a code, human-readable reasons and, for
// Error, the error. A nil *Status is Success. A Status is immutable once
// returned, so plugins may return shared package-level values (the fast,
// allocation-free way to reject a node with a fixed reason).
type Status struct {
	code    Code
	reasons []string
	err     error
	plugin  string
}

// NewStatus returns a status with the code and reasons.
func NewStatus(code Code, reasons ...string) *Status {
	s := &Status{code: code, reasons: reasons}
	if code == Error && len(reasons) > 0 {
		s.err = errors.New(s.Message())
	}
	return s
}

// AsStatus wraps err in an Error status; nil gives nil.
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code returns the code; Success for nil.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// Reasons returns the reasons.
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	if s.err != nil && len(s.reasons) == 0 {
		return []string{s.err.Error()}
	}
	return s.reasons
}

// Message joins the reasons with ", ".
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.Reasons(), ", ")
}

// Plugin returns the name of the plugin that produced the status, when
// the framework recorded it.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// WithPlugin returns a copy of s that names the plugin; s is unchanged.
func (s *Status) WithPlugin(plugin string) *Status {
	if s == nil {
		return nil
	}
	c := *s
	c.plugin = plugin
	return &c
}

// WithError returns a copy of s carrying err.
func (s *Status) WithError(err error) *Status {
	if s == nil {
		return nil
	}
	c := *s
	c.err = err
	return &c
}

// IsSuccess reports whether s is nil or Success.
func (s *Status) IsSuccess() bool { return s.Code() == Success }

// IsSkip reports whether s is Skip.
func (s *Status) IsSkip() bool { return s.Code() == Skip }

// IsWait reports whether s is Wait.
func (s *Status) IsWait() bool { return s.Code() == Wait }

// IsRejected reports whether s is Unschedulable,
// UnschedulableAndUnresolvable or Pending.
func (s *Status) IsRejected() bool {
	c := s.Code()
	return c == Unschedulable || c == UnschedulableAndUnresolvable || c == Pending
}

// IsError reports whether s is Error.
func (s *Status) IsError() bool { return s.Code() == Error }

// AsError returns nil for success and skip-like codes, otherwise an error
// carrying the message (the wrapped error for Error).
func (s *Status) AsError() error {
	if s.IsSuccess() || s.IsWait() || s.IsSkip() {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}

// Err returns the error an Error status carries.
func (s *Status) Err() error {
	if s == nil {
		return nil
	}
	return s.err
}

// Equal reports whether s and x have the same code, reasons and plugin.
func (s *Status) Equal(x *Status) bool {
	if s == nil || x == nil {
		return s.IsSuccess() && x.IsSuccess()
	}
	if s.code != x.code || s.plugin != x.plugin {
		return false
	}
	if s.code == Error {
		return s.Message() == x.Message()
	}
	a, b := s.Reasons(), x.Reasons()
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// String returns the message, as %s prints it.
func (s *Status) String() string { return s.Message() }

// Format prints the status. %v and %+v print the code, the plugin when
// one is recorded, and the reasons: "Unschedulable NodeResourcesFit:
// Insufficient cpu, Insufficient memory", "Success" for nil. %s prints
// the message alone, as String returns it, and %q the message quoted.
func (s *Status) Format(f fmt.State, verb rune) {
	switch verb {
	case 'v':
		b := make([]byte, 0, 64)
		b = append(b, s.Code().String()...)
		if p := s.Plugin(); p != "" {
			b = append(b, ' ')
			b = append(b, p...)
		}
		if m := s.Message(); m != "" {
			b = append(b, ": "...)
			b = append(b, m...)
		}
		f.Write(b)
	case 'q':
		fmt.Fprintf(f, "%q", s.Message())
	default:
		f.Write([]byte(s.Message()))
	}
}
