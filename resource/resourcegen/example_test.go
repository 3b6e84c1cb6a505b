package resourcegen_test

import (
	"fmt"

	"github.com/schedkit/schedkit/resource"
	"github.com/schedkit/schedkit/resource/resourcegen"
)

// Generated pods are valid: resource.Validate accepts them, so a
// property test can feed them to anything that takes a pod.
func ExamplePod() {
	ok := true
	for seed := range 50 {
		if err := resource.Validate(resourcegen.Pod().Example(seed)); err != nil {
			ok = false
		}
	}
	fmt.Println("all valid:", ok)
	// Output: all valid: true
}
