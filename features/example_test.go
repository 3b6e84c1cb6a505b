package features_test

import (
	"fmt"

	"github.com/schedkit/schedkit/features"
)

func ExampleParse() {
	g, err := features.Parse("GenericWorkload=true")
	fmt.Println(g.GenericWorkload(), err)
	_, err = features.Parse("GenericWorkload=true,Foo=false")
	fmt.Println(err)
	// Output:
	// true <nil>
	// unrecognized feature gate: Foo
}
