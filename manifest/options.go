package manifest

import (
	"fmt"
	"io"
	"time"

	"github.com/schedkit/schedkit/dra"
)

// FieldValidation is how fields Kubernetes does not know, and fields
// given twice, are taken: kubectl's --validate.
type FieldValidation int

const (
	// ValidateStrict makes them errors, as `kubectl apply` (whose
	// --validate=strict is the default) gets them from the API server:
	// `strict decoding error: unknown field "spec.nodeSelectr"`.
	ValidateStrict FieldValidation = iota
	// ValidateWarn reads the object without them, with a warning each.
	ValidateWarn
	// ValidateIgnore reads the object without them, silently.
	ValidateIgnore
)

// ParseFieldValidation reads kubectl's --validate values: strict or true,
// warn, ignore or false.
func ParseFieldValidation(s string) (FieldValidation, error) {
	switch s {
	case "strict", "true":
		return ValidateStrict, nil
	case "warn":
		return ValidateWarn, nil
	case "ignore", "false":
		return ValidateIgnore, nil
	}
	return 0, fmt.Errorf("invalid - validate option %q; must be one of: strict (or true), warn, ignore (or false)", s)
}

// Options control reading and loading.
type Options struct {
	// Validate is how unknown and duplicate fields are taken; the zero
	// value is ValidateStrict.
	Validate FieldValidation
	// Admission is the API server's admission configuration
	// (ReadAdmissionConfig); nil is the default one.
	Admission *AdmissionConfig
	// Recursive reads the subfolders of the folders given, as kubectl -R.
	Recursive bool
	// Stdin is read for the path "-"; nil means os.Stdin.
	Stdin io.Reader
	// ExpandWorkloads makes NewCluster add, as new pending pods, the pods
	// the controllers of the ReplicaSets, ReplicationControllers,
	// Deployments, StatefulSets, Jobs and DaemonSets read would create:
	// replicas minus the active pods they claim, named as the controllers
	// name them (see NewCluster).
	ExpandWorkloads bool
	// Seed makes the random name suffixes of expanded pods, and the names
	// ReadFiles and Load give new objects that have only generateName,
	// reproducible.
	Seed uint64
	// Now is the time ResourceQuota admission judges pods' deletion grace
	// periods by (a pod past its grace period is no longer charged), and
	// workload expansion Jobs' activeDeadlineSeconds; the zero time means
	// time.Now() (with a warning on each Job whose deadline it judges).
	Now time.Time
	// Progress, when set, is called as ReadFiles and Load read: after
	// each read from an input, with the bytes and objects so far.
	Progress func(ReadProgress)
	// DRAFeatures are the DRA feature gates ResourceSlices are validated
	// by; the zero value is v1.37.2's defaults (DRAFractionalCapacityRange
	// off).
	DRAFeatures dra.Features
	// PriorityInPlace makes NewCluster and Load give a stored pod
	// without spec.priority its PriorityClass's value on the pod read
	// rather than on a copy (Cluster.Objects then holds it resolved):
	// for a caller that does not need the pods as read, it spares a copy
	// of every such pod. A later NewCluster over those objects takes
	// them as stored with that priority, which is what it would resolve.
	PriorityInPlace bool
	// ShareResourceLists makes the readers of ReadFiles and Load share
	// one map among the objects whose resource lists (requests, limits,
	// capacity, allocatable, ...) have the same JSON text and are not
	// empty (Reader.SetShareResourceLists): for a caller that changes no
	// list of an object without copying it, it spares a map per object.
	ShareResourceLists bool
}
