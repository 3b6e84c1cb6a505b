package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// TypeMeta is the apiVersion and kind a manifest declares.
type TypeMeta struct {
	// APIVersion is the versioned schema, such as "v1".
	APIVersion string `json:"apiVersion,omitempty"`
	// Kind is the object's kind, such as "Pod".
	Kind string `json:"kind,omitempty"`
}

// ObjectMeta is the metadata every object has.
type ObjectMeta struct {
	// Name is unique within a namespace.
	Name string `json:"name,omitempty"`
	// GenerateName is the prefix the API server would add a suffix to.
	GenerateName string `json:"generateName,omitempty"`
	// Namespace is the object's namespace; empty means "default" for
	// namespaced objects.
	Namespace string `json:"namespace,omitempty"`
	// UID identifies the object across its lifetime.
	UID string `json:"uid,omitempty"`
	// ResourceVersion is the API server's version of the object.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Generation counts changes to the object's spec.
	Generation int64 `json:"generation,omitempty"`
	// CreationTimestamp is when the object was created.
	CreationTimestamp Time `json:"creationTimestamp,omitempty"`
	// DeletionTimestamp is set when the object is being deleted.
	DeletionTimestamp *Time `json:"deletionTimestamp,omitempty"`
	// DeletionGracePeriodSeconds is the grace period of a pending
	// deletion.
	DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds,omitempty"`
	// Labels select and group objects.
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations hold non-identifying metadata.
	Annotations map[string]string `json:"annotations,omitempty"`
	// OwnerReferences name the objects this one depends on.
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty"`
	// Finalizers hold the object's deletion until each is removed (the
	// Job controller's batch.kubernetes.io/job-tracking on its pods, for
	// one).
	Finalizers []string `json:"finalizers,omitempty"`
}

// OwnerReference points at an object's owner, such as a ReplicaSet.
type OwnerReference struct {
	// APIVersion of the owner.
	APIVersion string `json:"apiVersion"`
	// Kind of the owner.
	Kind string `json:"kind"`
	// Name of the owner.
	Name string `json:"name"`
	// UID of the owner.
	UID string `json:"uid"`
	// Controller is true if the owner is the managing controller.
	Controller *bool `json:"controller,omitempty"`
	// BlockOwnerDeletion blocks foreground deletion of the owner.
	BlockOwnerDeletion *bool `json:"blockOwnerDeletion,omitempty"`
}

// Time is a timestamp that encodes as RFC 3339 with second precision and
// as null when zero, like Kubernetes' metav1.Time.
type Time struct {
	time.Time
}

// NewTime wraps t.
func NewTime(t time.Time) Time { return Time{t} }

// MarshalJSON encodes t as an RFC 3339 string in UTC, or null if zero.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	buf := make([]byte, 0, len(time.RFC3339)+2)
	buf = append(buf, '"')
	buf = t.UTC().AppendFormat(buf, time.RFC3339)
	buf = append(buf, '"')
	return buf, nil
}

// UnmarshalJSON decodes an RFC 3339 string or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("time: %w", err)
	}
	if s == "" {
		t.Time = time.Time{}
		return nil
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return fmt.Errorf("time %q: %w", s, err)
	}
	t.Time = pt.Local()
	return nil
}

// IntOrString holds either an integer or a string, such as a PDB's
// minAvailable ("50%" or 2).
type IntOrString struct {
	// IsString tells which of the two is set.
	IsString bool
	// IntVal is the integer value when IsString is false.
	IntVal int32
	// StrVal is the string value when IsString is true.
	StrVal string
}

// FromInt returns an IntOrString holding i.
func FromInt(i int32) IntOrString { return IntOrString{IntVal: i} }

// FromString returns an IntOrString holding s.
func FromString(s string) IntOrString { return IntOrString{IsString: true, StrVal: s} }

// String returns the value as text.
func (v IntOrString) String() string {
	if v.IsString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON encodes a number or a string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// UnmarshalJSON decodes a number or a string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.IsString, v.IntVal = true, 0
		return json.Unmarshal(b, &v.StrVal)
	}
	v.IsString, v.StrVal = false, ""
	if err := json.Unmarshal(b, &v.IntVal); err != nil {
		return fmt.Errorf("int or string %s: %w", b, err)
	}
	return nil
}

// LabelSelector selects objects by labels: every matchLabels pair and
// every expression must hold. A nil selector and an empty selector mean
// different things to different callers; see package affinity.
type LabelSelector struct {
	// MatchLabels are key=value pairs that must all be present.
	MatchLabels map[string]string `json:"matchLabels,omitempty"`
	// MatchExpressions are requirements that must all hold.
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorOperator is In, NotIn, Exists or DoesNotExist.
type LabelSelectorOperator string

// Label selector operators.
const (
	LabelSelectorOpIn           LabelSelectorOperator = "In"
	LabelSelectorOpNotIn        LabelSelectorOperator = "NotIn"
	LabelSelectorOpExists       LabelSelectorOperator = "Exists"
	LabelSelectorOpDoesNotExist LabelSelectorOperator = "DoesNotExist"
)

// LabelSelectorRequirement is one expression of a LabelSelector.
type LabelSelectorRequirement struct {
	// Key is the label key.
	Key string `json:"key"`
	// Operator relates the key to the values.
	Operator LabelSelectorOperator `json:"operator"`
	// Values are the operands of In and NotIn; empty for Exists and
	// DoesNotExist.
	Values []string `json:"values,omitempty"`
}

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// Condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Namespace is a Kubernetes namespace; its labels matter to pod affinity
// terms with a namespaceSelector.
type Namespace struct {
	TypeMeta `json:",inline"`
	// ObjectMeta holds the namespace's name and labels.
	ObjectMeta `json:"metadata,omitempty"`
}
