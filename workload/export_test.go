package workload

// The external tests (package workload_test) load manifests through package
// manifest, which imports this one; these names reach them from here.

// WorkloadsYAML is the manifests of TestExpandWorkloads.
const WorkloadsYAML = workloads

// NameAlphabet is the alphabet of generated name suffixes.
const NameAlphabet = nameAlphabet

// SetReadYAML gives the internal tests the reader that readInput uses.
func SetReadYAML(f func(name, in string) (*Input, []string, error)) { readYAML = f }
