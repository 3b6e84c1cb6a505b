package main

func Example() {
	main()
	// Output:
	// shop/checkout → node-c1, after preempting 2 pod(s)
	// batch/trainer → gpu-a1
	// shop/worker → node-b2
	// shop/web-zs5dn9xrt-25m8m → node-b2
	// shop/web-zs5dn9xrt-wwfd8 → node-a2
	// shop/web-zs5dn9xrt-drtx6 → node-c1
}
