package taintsgen_test

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
	"github.com/schedkit/schedkit/taints/taintsgen"
)

// A property over generated taints: {operator: Exists} tolerates every
// one of them.
func ExampleTaint() {
	all := api.Toleration{Operator: api.TolerationOpExists}
	ok := true
	for seed := range 100 {
		if !taints.Tolerates(all, taintsgen.Taint().Example(seed)) {
			ok = false
		}
	}
	fmt.Println("Exists tolerates all:", ok)
	// Output: Exists tolerates all: true
}
