package main

func Example() {
	main()
	// Output:
	// shop/checkout → node-c1, after preempting 2 pod(s)
	// batch/trainer → gpu-a1
	// shop/worker → node-b2
	// shop/web-56b5f49fb5-25m8m → node-b2
	// shop/web-56b5f49fb5-wwfd8 → node-a2
	// shop/web-56b5f49fb5-drtx6 → node-c1
}
