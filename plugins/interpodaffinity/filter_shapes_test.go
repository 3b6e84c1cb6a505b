package interpodaffinity

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestShapesOnlyThroughMethods keeps the protocol of filter_shapes.go:
// outside it and filter_cold.go, the filter's code neither reads nor sets
// a state's cold or shared fields, and reads count values only through
// maps or mutable (x.m.kind.values is the field path that bypasses them).
func TestShapesOnlyThroughMethods(t *testing.T) {
	files, err := filepath.Glob("filter*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "filter_shapes.go" || name == "filter_cold.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "cold", "shared":
				t.Errorf("%s: %s read or set outside filter_shapes.go", fset.Position(sel.Pos()), sel.Sel.Name)
			case "values":
				if kind, ok := sel.X.(*ast.SelectorExpr); ok {
					if m, ok := kind.X.(*ast.SelectorExpr); ok && m.Sel.Name == "m" {
						t.Errorf("%s: count values read past maps and mutable", fset.Position(sel.Pos()))
					}
				}
			}
			return true
		})
	}
}
