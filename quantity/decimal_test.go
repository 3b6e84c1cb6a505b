package quantity

import (
	"math"
	"math/big"
	"testing"
)

// TestDecimalValue ports upstream TestDec and TestBigDec: a decimal built
// from a mantissa and exponent has the intended exact value.
func TestDecimalValue(t *testing.T) {
	mp1 := new(big.Int).Add(big.NewInt(mostPositive), bigOne)
	mn1 := new(big.Int).Sub(big.NewInt(mostNegative), bigOne)
	for _, c := range []struct {
		q      Quantity
		expect string
	}{
		{dq(1, 0, ""), "1"},
		{dq(1, 1, ""), "10"},
		{dq(5, 2, ""), "500"},
		{dq(8, 3, ""), "8000"},
		{dq(2, 0, ""), "2"},
		{dq(1, -1, ""), "0.1"},
		{dq(3, -2, ""), "0.03"},
		{dq(4, -3, ""), "0.004"},
		{bq(mp1, 0, ""), "9223372036854775808"},
		{bq(mp1, 1, ""), "92233720368547758080"},
		{bq(mp1, 2, ""), "922337203685477580800"},
		{bq(mp1, -1, ""), "922337203685477580.8"},
		{bq(mp1, -2, ""), "92233720368547758.08"},
		{bq(mn1, 0, ""), "-9223372036854775809"},
		{bq(mn1, 1, ""), "-92233720368547758090"},
		{bq(mn1, 2, ""), "-922337203685477580900"},
		{bq(mn1, -1, ""), "-922337203685477580.9"},
		{bq(mn1, -2, ""), "-92233720368547758.09"},
	} {
		want, _ := new(big.Rat).SetString(c.expect)
		if c.q.d.rat().Cmp(want) != 0 {
			t.Errorf("got %s, want %s", c.q.d.rat().FloatString(2), c.expect)
		}
	}
}

// TestScaledValueInternal ports upstream TestScaledValueInternal: the
// slow path's conversion to int64 always rounds up and keeps precision for
// large intermediates.
func TestScaledValueInternal(t *testing.T) {
	ten100 := new(big.Int).Exp(bigTen, big.NewInt(100), nil)
	for i, c := range []struct {
		unscaled *big.Int
		scale    int32
		newScale int
		want     int64
	}{
		{big.NewInt(1000), 0, 0, 1000},
		{big.NewInt(1000), 0, -3, 1},
		{big.NewInt(1000), 3, 0, 1},
		{big.NewInt(0), 3, 0, 0},
		{big.NewInt(999), 3, 0, 1},
		{big.NewInt(500), 3, 0, 1},
		{big.NewInt(499), 3, 0, 1},
		{big.NewInt(1), 3, 0, 1},
		{big.NewInt(math.MaxInt64 - 1), 1, 0, (math.MaxInt64-1)/10 + 1},
		{ten100, 100, 0, 1},
		{big.NewInt(0), 0, 3, 0},
		{big.NewInt(1), 0, 3, 1000},
		{big.NewInt(1), -3, 0, 1000},
		{big.NewInt(1000), -3, 2, 100000000},
		{big.NewInt(math.MaxInt64 / 1000), 0, 3, (math.MaxInt64 / 1000) * 1000},
	} {
		before := new(big.Int).Set(c.unscaled)
		d := newDecimal(c.unscaled, 0, c.scale)
		if got := d.scaledValue(c.newScale); got != c.want {
			t.Errorf("#%d: %d, want %d", i, got, c.want)
		}
		if c.unscaled.Cmp(before) != 0 {
			t.Errorf("#%d: input mutated", i)
		}
		// Symbolic trailing zeros give the same answers as real ones.
		if c.unscaled.Sign() != 0 {
			m, n := stripTens(c.unscaled)
			z := newDecimal(m, n, c.scale)
			if got := z.scaledValue(c.newScale); got != c.want {
				t.Errorf("#%d symbolic: %d, want %d", i, got, c.want)
			}
		}
	}
}

// TestDecimalSymbolicZeros checks that representation-dependent results
// match whether trailing zeros are materialised or symbolic.
func TestDecimalSymbolicZeros(t *testing.T) {
	for _, coef := range []int64{1, -1, 7, -123456789, math.MaxInt64, math.MinInt64} {
		for _, zeros := range []int64{0, 1, 5, 18, 19, 20, 63, 64, 70} {
			for _, scale := range []int32{-5, 0, 3, 9, 30, 90} {
				sym := newDecimal(big.NewInt(coef), zeros, scale)
				mat := newDecimal(sym.unscaled(), 0, scale)
				if sym.low64() != mat.coef.Int64() {
					t.Errorf("%d e%d: low64 %d vs %d", coef, zeros, sym.low64(), mat.coef.Int64())
				}
				for _, ns := range []int{-9, -3, 0, 3, 9, 40, 100} {
					if a, b := sym.scaledValue(ns), mat.scaledValue(ns); a != b {
						t.Errorf("%d e%d s%d → %d: %d vs %d", coef, zeros, scale, ns, a, b)
					}
				}
				if a, b := sym.float64(), mat.float64(); a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
					t.Errorf("%d e%d s%d float %v vs %v", coef, zeros, scale, a, b)
				}
				a, ea := sym.canonical(nil)
				b, eb := mat.canonical(nil)
				if string(a) != string(b) || ea != eb {
					t.Errorf("canonical %s e%d vs %s e%d", a, ea, b, eb)
				}
				for _, rs := range []int32{-20, -3, 0, 5, 100} {
					r1, x1 := sym.round(rs)
					r2, x2 := mat.round(rs)
					if r1.cmp(r2) != 0 || x1 != x2 || r1.scale != r2.scale {
						t.Errorf("round %d e%d s%d to %d differs", coef, zeros, scale, rs)
					}
				}
				if sym.cmp(mat) != 0 {
					t.Errorf("cmp differs")
				}
			}
		}
	}
}

// TestDecimalAbsurdExponents checks that huge exponents stay cheap (upstream
// would materialise billions of digits) and give the wrapped answers.
func TestDecimalAbsurdExponents(t *testing.T) {
	for _, c := range []struct{ in, str string }{
		{"1e-2147483648", "1e-9"},
		{"1234567890123456789e2147483640", "1e-9"},
		{"1e-2147483639", "1e-9"},
		{"-1.5e-2147483648", "-150e2147483646"},
		{"1e2147483647", "10e2147483646"},
		{"1234567890123456789e1000000000", "12345678901234567890e999999999"},
	} {
		q := MustParse(c.in)
		if got := q.String(); got != c.str {
			t.Errorf("%s: %q, want %q", c.in, got, c.str)
		}
		if q2 := MustParse(q.String()); q2.Cmp(q) != 0 {
			t.Errorf("%s: reparse differs", c.in)
		}
		_ = q.Value()
		_ = q.AsApproximateFloat64()
	}
}
