package quantitygen_test

import (
	"fmt"

	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/quantity/quantitygen"
)

// Generators plug into rapid.Check in a property test; Example draws a
// value outside one. Every generated string parses.
func ExampleString() {
	ok := true
	for seed := range 50 {
		s := quantitygen.String().Example(seed)
		if _, err := quantity.ParseQuantity(s); err != nil {
			ok = false
		}
	}
	fmt.Println("all parse:", ok)
	// Output: all parse: true
}
