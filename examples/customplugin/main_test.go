package main

func Example() {
	main()
	// Output:
	// batch → node-1
	//   node-0: PreferSpot 0 x 5, total 464
	//   node-1: PreferSpot 100 x 5, total 964
	//   node-2: PreferSpot 0 x 5, total 464
}
