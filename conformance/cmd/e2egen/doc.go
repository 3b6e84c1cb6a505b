// Command e2egen writes the large e2e folder: 500 nodes in 3 zones and
// workloads whose controllers make 5,000 pods (Deployments with and
// without Services, StatefulSets with claims, DaemonSets, Indexed Jobs,
// bare pods), deterministically, so the checked-in output can be
// regenerated and compared:
//
//	go -C conformance run ./cmd/e2egen -o testdata/e2e/large
package main
