package clustergen_test

import (
	"fmt"

	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/cluster/clustergen"
)

// Cluster generates nodes and pods that build into a snapshot.
func ExampleCluster() {
	objs := clustergen.Cluster(5, 20).Example(1)
	snap, err := cluster.NewSnapshot(objs.Nodes, objs.Pods)
	fmt.Println(err == nil, snap.NumNodes() <= 5)
	// Output: true true
}

// StoreObjects generates objects for the snapshot's object store.
func ExampleStoreObjects() {
	objs := clustergen.StoreObjects().Example(3)
	snap, _ := cluster.NewSnapshot(nil, nil)
	fmt.Println(snap.AddObjects(objs...) == nil)
	// Output: true
}
