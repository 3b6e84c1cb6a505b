package manifest

import "reflect"

// knownFields returns the fields Kubernetes v1.37 defines on the API type
// that corresponds to t and that schedkit's type does not model.
func knownFields(t reflect.Type) map[string]bool {
	names := knownUnmodelled[t.Name()]
	if names == nil {
		return nil
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
