// Package upstream runs upstream Kubernetes (k8s.io/kubernetes v1.37.2 and
// its staging modules) on schedkit's inputs and reports the answers in the
// shapes of package internal/testing/regression, so that the conformance tests
// compare them with schedkit's answers field by field.
//
// Every schedkit object reaches upstream through JSON: it is marshalled
// with encoding/json and decoded into the upstream type with unknown
// fields disallowed, which also checks that schedkit's JSON field names
// and shapes are Kubernetes' own.
package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Convert turns src (a schedkit object) into the upstream type T through
// JSON. Unknown fields are an error.
func Convert[T any](src any) (*T, error) {
	b, err := json.Marshal(src)
	if err != nil {
		return nil, fmt.Errorf("marshalling %T: %w", src, err)
	}
	out := new(T)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		return nil, fmt.Errorf("decoding %T into %T: %w", src, out, err)
	}
	return out, nil
}

// MustConvert is Convert that panics; conformance inputs are built by
// generators, so a failure is a bug in schedkit's JSON shapes.
func MustConvert[T any](src any) *T {
	out, err := Convert[T](src)
	if err != nil {
		panic(err)
	}
	return out
}

// Back turns an upstream object into schedkit's type T through JSON,
// ignoring fields schedkit does not model.
func Back[T any](src any) *T {
	b, err := json.Marshal(src)
	if err != nil {
		panic(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}
