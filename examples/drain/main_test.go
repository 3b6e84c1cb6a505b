package main

func Example() {
	main()
	// Output:
	// web-2    → a
	// cache-1  does not fit: 0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.
	// batch-1  does not fit: 0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.
}
