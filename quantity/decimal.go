package quantity

import (
	"math"
	"math/big"
	"math/bits"
)

// decimal is the slow-path representation, used for values that do not fit
// the int64 fast path. It follows the conventions of the arbitrary-precision
// decimal upstream uses: the value is unscaled × 10^-scale, and operations
// produce the same (unscaled, scale) pairs upstream would, because a few
// upstream results (ScaledValue of negative numbers, AsApproximateFloat64)
// depend on that representation and not only on the value.
//
// unscaled is kept as coef × 10^zeros with the trailing zeros symbolic, so
// that inputs with absurd exponents ("1e-2147483648") stay cheap instead of
// materialising billions of digits.
//
// A decimal is immutable once built; Quantity copies share it freely.
type decimal struct {
	coef  *big.Int
	zeros int64 // >= 0; 0 whenever coef is 0
	scale int32
}

var (
	bigOne    = big.NewInt(1)
	bigTen    = big.NewInt(10)
	bigMaxI64 = big.NewInt(math.MaxInt64)
	exp10Tab  = func() (t [40]*big.Int) {
		v := big.NewInt(1)
		for i := range t {
			t[i] = new(big.Int).Set(v)
			v.Mul(v, bigTen)
		}
		return t
	}()
)

// exp10 returns 10^n; the result must not be modified.
func exp10(n int64) *big.Int {
	if n < int64(len(exp10Tab)) {
		return exp10Tab[n]
	}
	return new(big.Int).Exp(bigTen, big.NewInt(n), nil)
}

// numDigits returns the number of decimal digits of |x| (0 for x == 0).
func numDigits(x *big.Int) int64 {
	if x.Sign() == 0 {
		return 0
	}
	if x.IsInt64() {
		v := x.Int64()
		if v < 0 {
			if v == math.MinInt64 {
				return 19
			}
			v = -v
		}
		n := int64(1)
		for v >= 10 {
			v /= 10
			n++
		}
		return n
	}
	n := int64(len(new(big.Int).Abs(x).Text(10)))
	return n
}

func newDecimal(coef *big.Int, zeros int64, scale int32) *decimal {
	if coef.Sign() == 0 {
		zeros = 0
	}
	return &decimal{coef: coef, zeros: zeros, scale: scale}
}

// decimalFromAmount converts a fast-path amount; like upstream the scale is
// negated in 32 bits.
func decimalFromAmount(a amount) *decimal {
	return newDecimal(big.NewInt(a.value), 0, a.scale.decScale())
}

func (d *decimal) sign() int { return d.coef.Sign() }

func (d *decimal) neg() *decimal {
	return &decimal{coef: new(big.Int).Neg(d.coef), zeros: d.zeros, scale: d.scale}
}

// unscaled materialises coef × 10^zeros.
func (d *decimal) unscaled() *big.Int {
	if d.zeros == 0 {
		return d.coef
	}
	return new(big.Int).Mul(d.coef, exp10(d.zeros))
}

// exponent returns e such that the value is coef × 10^e.
func (d *decimal) exponent() int64 { return d.zeros - int64(d.scale) }

// cmp compares two decimals exactly.
func (d *decimal) cmp(e *decimal) int {
	sd, se := d.sign(), e.sign()
	if sd != se || sd == 0 {
		return cmpInt64(int64(sd), int64(se))
	}
	return sd * cmpMagnitude(d.coef, d.exponent(), e.coef, e.exponent())
}

// cmpMagnitude compares |a| × 10^ea with |b| × 10^eb for non-zero a and b.
func cmpMagnitude(a *big.Int, ea int64, b *big.Int, eb int64) int {
	ta, tb := numDigits(a)+ea, numDigits(b)+eb
	if ta != tb {
		return cmpInt64(ta, tb)
	}
	// Same order of magnitude, so |ea-eb| is below the digit count of one
	// of the coefficients and aligning them is cheap.
	aa, ab := new(big.Int).Abs(a), new(big.Int).Abs(b)
	switch {
	case ea > eb:
		aa.Mul(aa, exp10(ea-eb))
	case eb > ea:
		ab.Mul(ab, exp10(eb-ea))
	}
	return aa.Cmp(ab)
}

// add returns d+e at the larger of the two scales, as upstream does.
func (d *decimal) add(e *decimal) *decimal {
	s := max(d.scale, e.scale)
	zd := d.zeros + int64(s) - int64(d.scale)
	ze := e.zeros + int64(s) - int64(e.scale)
	switch {
	case e.coef.Sign() == 0:
		return newDecimal(d.coef, zd, s)
	case d.coef.Sign() == 0:
		return newDecimal(e.coef, ze, s)
	}
	m := min(zd, ze)
	x := new(big.Int).Mul(d.coef, exp10(zd-m))
	x.Add(x, new(big.Int).Mul(e.coef, exp10(ze-m)))
	return newDecimal(x, m, s)
}

// round rounds to the given (digits-after-the-point) scale, away from zero,
// and reports whether the value is unchanged. The scale difference is
// computed in 32 bits, wrapping like upstream.
func (d *decimal) round(scale int32) (*decimal, bool) {
	shift := scale - d.scale
	switch {
	case shift == 0:
		return d, true
	case shift > 0:
		return newDecimal(d.coef, d.zeros+int64(shift), scale), true
	}
	k := -int64(shift) // digits to drop
	if k <= d.zeros {
		return newDecimal(d.coef, d.zeros-k, scale), true
	}
	k -= d.zeros
	sgn := d.coef.Sign()
	if sgn == 0 {
		return newDecimal(d.coef, 0, scale), true
	}
	if k > numDigits(d.coef) {
		return newDecimal(big.NewInt(int64(sgn)), 0, scale), false
	}
	q, r := new(big.Int).QuoRem(d.coef, exp10(k), new(big.Int))
	if r.Sign() == 0 {
		return newDecimal(q, 0, scale), true
	}
	q.Add(q, big.NewInt(int64(sgn)))
	return newDecimal(q, 0, scale), false
}

// stripTens removes all factors of ten from a non-zero x.
func stripTens(x *big.Int) (*big.Int, int64) {
	var n int64
	q, r := new(big.Int), new(big.Int)
	x = new(big.Int).Set(x)
	for _, step := range []int64{16, 1} {
		p := exp10(step)
		for {
			q.QuoRem(x, p, r)
			if r.Sign() != 0 {
				break
			}
			x, q = q, x
			n += step
		}
	}
	return x, n
}

// canonical appends the mantissa digits and returns the base-10 exponent, a
// multiple of three. Like upstream, the exponent is 32-bit arithmetic.
func (d *decimal) canonical(out []byte) ([]byte, int32) {
	m, n := stripTens(d.coef)
	exp := -d.scale + int32(d.zeros+n)
	for exp%3 != 0 {
		m.Mul(m, bigTen)
		exp--
	}
	return m.Append(out, 10), exp
}

// canonical1024 rounds to an integer (away from zero) and appends the
// mantissa in base 1024, returning the base-1024 exponent.
func (d *decimal) canonical1024(out []byte) ([]byte, int32) {
	r, _ := d.round(0)
	v := new(big.Int).Set(r.unscaled())
	var n int32
	if v.Sign() != 0 {
		n = int32(v.TrailingZeroBits() / 10)
		v.Rsh(v, uint(n)*10)
	}
	return v.Append(out, 10), n
}

// low64 mimics big.Int.Int64 applied to the unscaled value: the low 64 bits
// of the magnitude, negated for negative values.
func (d *decimal) low64() int64 { return lowBits(d.coef, d.zeros) }

// lowBits returns big.Int.Int64 of x × 10^z without materialising it.
func lowBits(x *big.Int, z int64) int64 {
	if z >= 64 { // 2^64 divides 10^z
		return 0
	}
	var lo uint64
	if w := x.Bits(); len(w) > 0 {
		lo = uint64(w[0])
		if bits.UintSize == 32 && len(w) > 1 {
			lo |= uint64(w[1]) << 32
		}
	}
	for ; z > 0; z-- {
		lo *= 10
	}
	v := int64(lo)
	if x.Sign() < 0 {
		v = -v
	}
	return v
}

// belowMaxInt64 reports unscaled < math.MaxInt64.
func (d *decimal) belowMaxInt64() bool {
	if d.coef.Sign() <= 0 {
		return true
	}
	if d.zeros >= 19 {
		return false
	}
	return d.unscaled().Cmp(bigMaxI64) < 0
}

// scaledValue reproduces upstream's conversion of a big decimal to an int64
// at newScale (digits after the point), quirks included: values are rounded
// up by truncating and adding one, which for negative numbers on the int64
// branch rounds towards positive infinity and beyond, and overflow wraps.
func (d *decimal) scaledValue(newScale int) int64 {
	dif := int(d.scale) - newScale
	switch {
	case dif == 0:
		return d.low64()
	case dif < 0:
		return d.low64() * int64(math.Pow10(-dif))
	}
	if d.belowMaxInt64() && dif < 19 {
		u := d.low64()
		div := int64(math.Pow10(dif))
		if u%div != 0 {
			return u/div + 1
		}
		return u / div
	}
	// Floor division of coef × 10^zeros by 10^dif.
	k := int64(dif) - d.zeros
	if k <= 0 {
		return lowBits(d.coef, -k)
	}
	switch sgn := d.coef.Sign(); {
	case sgn == 0:
		return 0
	case k > numDigits(d.coef):
		// |coef| < 10^k: the floor is 0 (or -1) and the remainder is
		// non-zero, so one is added.
		if sgn > 0 {
			return 1
		}
		return 0
	}
	q, m := new(big.Int).DivMod(d.coef, exp10(k), new(big.Int))
	if m.Sign() != 0 {
		return q.Int64() + 1
	}
	return q.Int64()
}

// float64 mirrors upstream's approximate conversion: the unscaled integer
// rounded to a float64, multiplied by a power of ten.
func (d *decimal) float64() float64 {
	var base float64
	switch {
	case d.coef.Sign() == 0:
	case d.zeros > 400: // beyond float64 range
		base = math.Inf(d.coef.Sign())
	default:
		base, _ = big.NewFloat(0).SetInt(d.unscaled()).Float64()
	}
	exp := int(-d.scale)
	if exp == 0 {
		return base
	}
	return base * math.Pow10(exp)
}

// rat returns the exact value.
func (d *decimal) rat() *big.Rat {
	e := d.exponent()
	r := new(big.Rat).SetInt(d.coef)
	if e >= 0 {
		return r.Mul(r, new(big.Rat).SetInt(exp10(e)))
	}
	return r.Quo(r, new(big.Rat).SetInt(exp10(-e)))
}
