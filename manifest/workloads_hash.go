package manifest

import (
	"bytes"
	"encoding/json"

	"github.com/schedkit/schedkit/manifest/internal/podhash"
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
