package affinitygen_test

import (
	"fmt"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/affinity/affinitygen"
)

// LabelSelector generates valid selectors: each compiles.
func ExampleLabelSelector() {
	ok := true
	for seed := range 50 {
		if _, err := affinity.CompileLabelSelector(affinitygen.LabelSelector().Example(seed)); err != nil {
			ok = false
		}
	}
	fmt.Println("all compile:", ok)
	// Output: all compile: true
}
