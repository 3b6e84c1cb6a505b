package quantity

import "math/big"

// Exact returns the exact value of q; exported for the external property
// tests only.
func Exact(q Quantity) *big.Rat { return q.big().rat() }

// OnSlowPath reports whether q is held in math/big form.
func OnSlowPath(q Quantity) bool { return q.d != nil }
