package main

func Example() {
	main()
	// Output:
	// batch → node-1
}
