package quantity

import (
	"math"
	"strconv"
)

// Scale is a power of ten: a value v at scale s means v × 10^s. It is used
// to get and set scaled values (see Quantity.ScaledValue). Base-2 scales are
// deliberately absent.
type Scale int32

// Named decimal scales, from nano (10^-9) to exa (10^18).
const (
	Nano  Scale = -9 // 10^-9
	Micro Scale = -6 // 10^-6
	Milli Scale = -3 // 10^-3
	Kilo  Scale = 3  // 10^3
	Mega  Scale = 6  // 10^6
	Giga  Scale = 9  // 10^9
	Tera  Scale = 12 // 10^12
	Peta  Scale = 15 // 10^15
	Exa   Scale = 18 // 10^18
)

// decScale converts a Scale (an exponent) to the "digits after the point"
// convention used by decimal. Like upstream it negates in 32 bits.
func (s Scale) decScale() int32 { return int32(-s) }

// maxDigits is the number of decimal digits that always fit in an int64.
const maxDigits = 18

// pow10 holds 10^0 .. 10^18.
var pow10 = [...]int64{
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000, 100000000000, 1000000000000, 10000000000000,
	100000000000000, 1000000000000000, 10000000000000000,
	100000000000000000, 1000000000000000000,
}

// amount is the fast-path representation: value × 10^scale.
type amount struct {
	value int64
	scale Scale
}

func (a amount) sign() int {
	switch {
	case a.value > 0:
		return 1
	case a.value < 0:
		return -1
	}
	return 0
}

// addInt64 returns a+b and whether it did not overflow.
func addInt64(a, b int64) (int64, bool) {
	c := a + b
	if (a > 0 && b > 0 && c < 0) || (a < 0 && b < 0 && c >= 0) {
		return 0, false
	}
	return c, true
}

// mulInt64 returns a*b and whether it did not overflow.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 || a == 1 || b == 1 {
		return a * b, true
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

// shiftUp returns v × 10^n and whether that did not overflow. Overflow
// results follow upstream to the bit: for n in {1, 2, 3, 6, 9} the product
// wraps around (0 for math.MinInt64), for other n it is 0. A negative n
// (which only arises from 32-bit wrap-around of scale arithmetic) leaves v
// unchanged and reports success.
func shiftUp(v int64, n Scale) (int64, bool) {
	switch n {
	case 0:
		return v, true
	case 1, 2, 3, 6, 9:
		k := pow10[n]
		if v == 0 || v == 1 {
			return v * k, true
		}
		if v == math.MinInt64 {
			return 0, false
		}
		c := v * k
		return c, c/k == v
	}
	if n < 0 || v == 0 {
		return v, true
	}
	if n > maxDigits {
		return 0, false
	}
	k := pow10[n]
	if v > math.MaxInt64/k || v < math.MinInt64/k {
		return 0, false
	}
	return v * k, true
}

// shiftDown returns v / 10^n rounded away from zero, and whether that was
// exact. A non-positive n leaves v unchanged.
func shiftDown(v int64, n Scale) (int64, bool) {
	if n <= 0 {
		return v, true
	}
	if n > maxDigits {
		// Every digit of v is discarded.
		switch {
		case v > 0:
			return 1, false
		case v < 0:
			return -1, false
		}
		return 0, true
	}
	k := pow10[n]
	q, r := v/k, v%k
	switch {
	case r == 0:
		return q, true
	case v > 0:
		return q + 1, false
	default:
		return q - 1, false
	}
}

// stripFactor divides v by base as often as it divides evenly (only while
// |v| >= base), returning the quotient and the count.
func stripFactor(v, base int64) (int64, int32) {
	neg := v < 0
	if neg {
		v = -v // math.MinInt64 stays negative and is left alone below
	}
	var n int32
	for v >= base && v%base == 0 {
		v /= base
		n++
	}
	if neg {
		v = -v
	}
	return v, n
}

// asInt64 returns the value as an integer when that is possible without
// scaling down (a negative scale always reports false, as upstream).
func (a amount) asInt64() (int64, bool) {
	switch {
	case a.scale == 0:
		return a.value, true
	case a.scale < 0:
		return 0, false
	}
	return shiftUp(a.value, a.scale)
}

// asScaledInt64 returns the value expressed in units of 10^scale, rounding
// away from zero; ok is false (and the result 0) when it overflows.
func (a amount) asScaledInt64(scale Scale) (int64, bool) {
	if a.scale < scale {
		v, _ := shiftDown(a.value, scale-a.scale)
		return v, true
	}
	return shiftUp(a.value, a.scale-scale)
}

// roundTo raises the scale to at least scale, rounding away from zero, and
// reports whether no precision was lost.
func (a amount) roundTo(scale Scale) (amount, bool) {
	if a.scale >= scale {
		return a, true
	}
	v, exact := shiftDown(a.value, scale-a.scale)
	return amount{value: v, scale: scale}, exact
}

// add adds b to a, matching scales; on overflow it reports false and leaves
// a untouched.
func (a *amount) add(b amount) bool {
	switch {
	case b.value == 0:
		return true
	case a.value == 0:
		*a = b
		return true
	case a.scale == b.scale:
		c, ok := addInt64(a.value, b.value)
		if !ok {
			return false
		}
		a.value = c
	case a.scale > b.scale:
		c, ok := shiftUp(a.value, a.scale-b.scale)
		if !ok {
			return false
		}
		if c, ok = addInt64(c, b.value); !ok {
			return false
		}
		*a = amount{value: c, scale: b.scale}
	default:
		c, ok := shiftUp(b.value, b.scale-a.scale)
		if !ok {
			return false
		}
		if c, ok = addInt64(a.value, c); !ok {
			return false
		}
		a.value = c
	}
	return true
}

// sub subtracts b from a. Like upstream it negates b.value with wrap-around,
// so subtracting math.MinInt64 behaves like adding it.
func (a *amount) sub(b amount) bool {
	return a.add(amount{value: -b.value, scale: b.scale})
}

// cmp compares two amounts exactly.
func (a amount) cmp(b amount) int {
	if a.scale == b.scale {
		return cmpInt64(a.value, b.value)
	}
	if a.scale < b.scale {
		return -b.cmp(a)
	}
	// a.scale > b.scale: bring a down to b's scale.
	d := int64(a.scale) - int64(b.scale)
	if a.value == 0 {
		return -b.sign()
	}
	if d <= maxDigits {
		if av, ok := shiftUp(a.value, Scale(d)); ok {
			return cmpInt64(av, b.value)
		}
	}
	// |a| at b's scale exceeds every int64, so a's sign decides.
	return a.sign()
}

func cmpInt64(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// canonical appends the decimal digits of the mantissa to out and returns
// the base-10 exponent, which is a multiple of three. ok is false when the
// mantissa would overflow an int64 and the big path must be used.
func (a amount) canonical(out []byte) ([]byte, int32, bool) {
	m, n := stripFactor(a.value, 10)
	exp := int32(a.scale) + n
	var ok bool
	switch exp % 3 {
	case 1, -2:
		if m, ok = shiftUp(m, 1); !ok {
			return out, 0, false
		}
		exp--
	case 2, -1:
		if m, ok = shiftUp(m, 2); !ok {
			return out, 0, false
		}
		exp -= 2
	}
	return strconv.AppendInt(out, m, 10), exp, true
}

// canonical1024 appends the mantissa in base 1024 and returns the base-1024
// exponent; ok is false when the value does not fit an int64.
func (a amount) canonical1024(out []byte) ([]byte, int32, bool) {
	v, ok := a.asScaledInt64(0)
	if !ok {
		return out, 0, false
	}
	m, n := stripFactor(v, 1024)
	return strconv.AppendInt(out, m, 10), n, true
}
