package main

func Example() {
	main()
	// Output:
	// 17 replicas fit; the next one does not: 0/3 nodes are available: 2 Insufficient memory, 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
	//   large  10
	//   medium 5
	//   small  2
}
