package workload

import (
	"bytes"
	"encoding/json"

	"github.com/schedkit/schedkit/workload/internal/podhash"
)

// PodTemplateHash returns the pod-template-hash the Deployment controller
// of Kubernetes v1.37.2 computes for a Deployment whose spec.template is
// template (its JSON, as the API server stores it: defaulted, as
// `kubectl get -o json` shows it) and whose status.collisionCount is
// collisionCount (nil when unset): the hash of the new ReplicaSet's name
// and of its pods' pod-template-hash label. The hash covers every field
// Kubernetes knows, those schedkit does not model included. A template
// the hash cannot be rebuilt for (a timestamp in it, a quantity beyond
// an int64 at nano scale) is an error naming the field.
func PodTemplateHash(template []byte, collisionCount *int32) (string, error) {
	v, err := decodeJSONValue(template)
	if err != nil {
		return "", err
	}
	return podhash.Hash(v, collisionCount)
}

// decodeJSONValue decodes JSON into the generic value podhash walks.
func decodeJSONValue(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// DefaultPodTemplate returns template (a pod template's JSON) with the
// defaulting the API server applies to a new apps/v1 Deployment's
// spec.template (see PodTemplateHash, which wants the stored form): the
// defaults of the pod spec, its containers, probes, ports, volumes and
// resource lists (rounded up to milli-units), fields schedkit does not
// model included; and the fields of features Kubernetes v1.37.2 disables
// by default dropped, as the Deployment strategy drops them on create.
func DefaultPodTemplate(template []byte) ([]byte, error) {
	v, err := decodeJSONValue(template)
	if err != nil {
		return nil, err
	}
	podhash.Default(v)
	return json.Marshal(v)
}

// EqualIgnoreHash reports whether two pod templates (their JSON, as
// PodTemplateHash takes them) are equal but for the pod-template-hash
// label, as the Deployment controller of Kubernetes v1.37.2 compares a
// Deployment's template with its ReplicaSets' to find the new one
// (deploymentutil.EqualIgnoreHash, apimachinery's Semantic.DeepEqual):
// quantities by value ("1Ki" equals "1024", "1" equals "1000m"),
// timestamps by instant, empty and absent lists and maps alike, an absent
// field equal to its zero value; fields schedkit does not model
// included. A value the API server could not have stored (a string where
// an object belongs, an unreadable quantity) is an error naming the field.
func EqualIgnoreHash(a, b []byte) (bool, error) {
	va, err := decodeJSONValue(a)
	if err != nil {
		return false, err
	}
	vb, err := decodeJSONValue(b)
	if err != nil {
		return false, err
	}
	return podhash.Equal(withoutHashLabel(va), withoutHashLabel(vb))
}
