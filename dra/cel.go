package dra

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/dra/cel"
)

// CELCompiler is the Kubernetes CEL environment of package dra/cel as the
// allocator's Compiler: selectors compile as the scheduler compiles them
// and evaluate with its runtime error texts.
func CELCompiler(c *cel.Compiler) Compiler { return celCompiler{c} }

type celCompiler struct{ c *cel.Compiler }

func (c celCompiler) Compile(expression string) (Selector, error) {
	s, err := c.c.Compile(expression)
	if err != nil {
		return nil, err
	}
	return celSelector{s}, nil
}

type celSelector struct{ s *cel.Selector }

func (s celSelector) Matches(ctx context.Context, driver string, d *api.Device) (bool, error) {
	return s.s.MatchesDevice(ctx, driver, d)
}
