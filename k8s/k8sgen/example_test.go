package k8sgen_test

import (
	"fmt"

	"github.com/schedkit/schedkit/k8s/convert"
	"github.com/schedkit/schedkit/k8s/k8sgen"
)

// Random pods, as a property draws them with k8sgen.Pod().Draw(t, "pod")
// inside rapid.Check: here by seed with Example. Every one converts to
// schedkit's api and keeps its name and containers.
func Example() {
	ok := true
	for seed := range 20 {
		pod := k8sgen.Pod().Example(seed)
		got, err := convert.PodToAPI(pod)
		if err != nil || got.Name != pod.Name || len(got.Spec.Containers) != len(pod.Spec.Containers) {
			ok = false
		}
	}
	fmt.Println("every pod converts:", ok)
	fmt.Println(len(k8sgen.Kinds()), "kinds, first", k8sgen.Kinds()[0].Name)
	// Output:
	// every pod converts: true
	// 30 kinds, first Node
}
