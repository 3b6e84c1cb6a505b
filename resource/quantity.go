package resource

import "github.com/schedkit/schedkit/quantity"

// Quantity is a fixed-point amount of a resource, such as 100m of CPU or
// 1Gi of memory. It is quantity.Quantity under the name that
// k8s.io/apimachinery/pkg/api/resource gives it.
type Quantity = quantity.Quantity

// Format is the canonical form a Quantity prints in.
type Format = quantity.Format

// The formats a Quantity prints in.
const (
	// DecimalSI prints with SI suffixes (k, M, G, m).
	DecimalSI = quantity.DecimalSI
	// BinarySI prints with binary suffixes (Ki, Mi, Gi).
	BinarySI = quantity.BinarySI
	// DecimalExponent prints with an exponent (1e3).
	DecimalExponent = quantity.DecimalExponent
)

// ParseQuantity parses s ("100m", "1.5Gi", "2e3", ...) into a Quantity.
func ParseQuantity(s string) (Quantity, error) { return quantity.ParseQuantity(s) }

// MustParse parses s like ParseQuantity and panics if s is not a
// quantity. It is meant for constants in code and tests; parse user
// input with ParseQuantity.
func MustParse(s string) Quantity { return quantity.MustParse(s) }

// NewQuantity returns a Quantity of v units in format f.
func NewQuantity(v int64, f Format) Quantity { return quantity.NewQuantity(v, f) }

// NewMilliQuantity returns a Quantity of v thousandths in format f.
func NewMilliQuantity(v int64, f Format) Quantity { return quantity.NewMilliQuantity(v, f) }

// clone returns a copy of q for a result that callers may change. A
// Quantity shares no mutable state (its methods that change it replace
// what they change), so the copy is q itself, exactly as apimachinery's
// DeepCopy would make it; the function marks the places where upstream
// deep-copies.
func clone(q Quantity) Quantity { return q }
