package main

// web-0 runs in zone b, so CheckServiceAffinity keeps web-1 there, though
// the zone-a nodes are emptier.
func Example() {
	main()
	// Output:
	// filter: [NodeUnschedulable NodeAffinity NodeResourcesFit TaintToleration ServiceAffinity]
	// score:  [NodeResourcesBalancedAllocation NodeResourcesFit]
	// web-1 → b1 <nil>
}
