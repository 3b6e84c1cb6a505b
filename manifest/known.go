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

// schedulingFields are, per schedkit API type, the known, unmodelled
// fields that kube-scheduler's default profile reads: the decoder records
// where an object sets them (Set.UnmodelledFields). It is read-only.
var schedulingFields = map[string]map[string]bool{
	// DynamicResources allocates the pod's claims.
	"PodSpec": {"resourceClaims": true},
}
