package dragen_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/dra"
	"github.com/schedkit/schedkit/dra/dragen"
)

// Draw a world and allocate its pod's claims on every node.
func ExampleWorldGen() {
	w := dragen.WorldGen().Example(1)
	a, err := dra.NewAllocator(context.Background(), w.Input(dragen.Compiler{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range w.Nodes {
		_, _ = a.Allocate(context.Background(), n)
	}
	fmt.Println(len(w.Classes), "classes")
	// Output: 4 classes
}

// Draw a mixed world: the pod names each of the world's claims.
func ExampleMixedGen() {
	m := dragen.MixedGen().Example(1)
	fmt.Println(len(m.Pod.Spec.ResourceClaims) == len(m.Claims), m.Pod.UID)
	// Output: true pod-uid
}
