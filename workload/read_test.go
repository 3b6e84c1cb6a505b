package workload

import "testing"

// readYAML reads manifests into the controllers' Input as package
// manifest reads them. Package manifest imports this package, so only
// the external test package can call it: reader_test.go sets readYAML
// when the test binary starts. The warnings are the Reader's, printed.
var readYAML func(name, in string) (*Input, []string, error)

// readInput reads in, named name, and fails the test on an error.
func readInput(t testing.TB, name, in string) *Input {
	t.Helper()
	objs, _, err := readYAML(name, in)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}
