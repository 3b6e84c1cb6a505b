package dragen

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/quantity"
)

// Compiler compiles the selector language of generated worlds, a small
// subset of the Kubernetes CEL environment with the same results:
// comparisons of device.driver, device.allowMultipleAllocations,
// attributes (device.attributes["domain"].id == value, or a bare boolean)
// and capacities (device.capacity["domain"].id.compareTo(quantity("q"))
// >= 0), joined with && and ||, and the literals true and false. A missing
// attribute or capacity is a runtime error ("no such key: id"), as in CEL.
// Anything else fails to compile. It lets tests run without cel-go.
type Compiler struct{}

var _ dra.Compiler = Compiler{}

type expr struct {
	or [][]term // OR of ANDs
}

type term struct {
	kind  string // driver, multi, attr, cap, true, false
	dom   string
	id    string
	op    string // "==", "" (bare bool), ">=" for capacities
	value string
	q     quantity.Quantity
}

// Compile parses the expression.
func (Compiler) Compile(s string) (dra.Selector, error) {
	var e expr
	for _, alt := range strings.Split(s, "||") {
		var and []term
		for _, part := range strings.Split(alt, "&&") {
			t, err := parseTerm(strings.TrimSpace(part))
			if err != nil {
				return nil, fmt.Errorf("compilation failed: ERROR: <input>:1:1: %w", err)
			}
			and = append(and, t)
		}
		e.or = append(e.or, and)
	}
	return e, nil
}

func parseTerm(s string) (term, error) {
	switch s {
	case "true":
		return term{kind: "true"}, nil
	case "false":
		return term{kind: "false"}, nil
	}
	lhs, rhs, hasEq := strings.Cut(s, "==")
	lhs, rhs = strings.TrimSpace(lhs), strings.TrimSpace(rhs)
	switch {
	case lhs == "device.driver" && hasEq:
		v, err := strconv.Unquote(rhs)
		return term{kind: "driver", op: "==", value: v}, err
	case lhs == "device.allowMultipleAllocations" && hasEq:
		return term{kind: "multi", op: "==", value: rhs}, nil
	case strings.HasPrefix(lhs, "device.attributes["):
		dom, id, err := path(strings.TrimPrefix(lhs, "device.attributes"))
		if err != nil {
			return term{}, err
		}
		t := term{kind: "attr", dom: dom, id: id}
		if hasEq {
			t.op, t.value = "==", rhs
		}
		return t, nil
	case strings.HasPrefix(s, "device.capacity["):
		i := strings.Index(s, ".compareTo(quantity(")
		j := strings.Index(s, ")) >= 0")
		if i < 0 || j < 0 {
			return term{}, errors.New("unsupported capacity expression")
		}
		dom, id, err := path(strings.TrimPrefix(s[:i], "device.capacity"))
		if err != nil {
			return term{}, err
		}
		qs, err := strconv.Unquote(s[i+len(".compareTo(quantity(") : j])
		if err != nil {
			return term{}, err
		}
		q, err := quantity.ParseQuantity(qs)
		return term{kind: "cap", dom: dom, id: id, op: ">=", q: q}, err
	}
	return term{}, fmt.Errorf("undeclared reference to %q", s)
}

// path parses ["domain"].id or ["domain"]["id"].
func path(s string) (string, string, error) {
	if !strings.HasPrefix(s, `["`) {
		return "", "", errors.New("bad path")
	}
	end := strings.Index(s, `"]`)
	if end < 0 {
		return "", "", errors.New("bad path")
	}
	dom, rest := s[2:end], s[end+2:]
	switch {
	case strings.HasPrefix(rest, "."):
		return dom, rest[1:], nil
	case strings.HasPrefix(rest, `["`) && strings.HasSuffix(rest, `"]`):
		return dom, rest[2 : len(rest)-2], nil
	}
	return "", "", errors.New("bad path")
}

// Matches evaluates the expression.
func (e expr) Matches(_ context.Context, driver string, d *api.Device) (bool, error) {
	// The real environment converts every attribute before evaluating.
	for _, a := range d.Attributes {
		if a.IntValue == nil && a.BoolValue == nil && a.StringValue == nil && a.VersionValue == nil {
			return false, errors.New("unsupported attribute value")
		}
	}
	for _, and := range e.or {
		all := true
		for _, t := range and {
			ok, err := t.eval(driver, d)
			if err != nil {
				return false, err
			}
			if !ok {
				all = false
				break
			}
		}
		if all {
			return true, nil
		}
	}
	return false, nil
}

func (t term) eval(driver string, d *api.Device) (bool, error) {
	switch t.kind {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "driver":
		return driver == t.value, nil
	case "multi":
		return strconv.FormatBool(d.AllowMultipleAllocations != nil && *d.AllowMultipleAllocations) == t.value, nil
	case "attr":
		a, ok := d.Attributes[api.QualifiedName(t.dom+"/"+t.id)]
		if !ok && t.dom == driver {
			a, ok = d.Attributes[api.QualifiedName(t.id)]
		}
		if !ok {
			return false, fmt.Errorf("no such key: %s", t.id)
		}
		switch {
		case t.op == "" && a.BoolValue != nil:
			return *a.BoolValue, nil
		case t.op == "==" && a.StringValue != nil:
			v, err := strconv.Unquote(t.value)
			return err == nil && *a.StringValue == v, nil
		case t.op == "==" && a.IntValue != nil:
			return strconv.FormatInt(*a.IntValue, 10) == t.value, nil
		case t.op == "==" && a.BoolValue != nil:
			return strconv.FormatBool(*a.BoolValue) == t.value, nil
		case t.op == "==" && a.VersionValue != nil:
			v, err := strconv.Unquote(t.value)
			return err == nil && *a.VersionValue == v, nil
		}
		return false, errors.New("no such overload")
	case "cap":
		c, ok := d.Capacity[api.QualifiedName(t.dom+"/"+t.id)]
		if !ok && t.dom == driver {
			c, ok = d.Capacity[api.QualifiedName(t.id)]
		}
		if !ok {
			return false, fmt.Errorf("no such key: %s", t.id)
		}
		return c.Value.Cmp(t.q) >= 0, nil
	}
	return false, errors.New("unknown term")
}
