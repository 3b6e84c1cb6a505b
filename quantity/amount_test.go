package quantity

import (
	"math"
	"math/big"
	"testing"
)

// TestAmountAsInt64 ports upstream TestInt64AmountAsInt64.
func TestAmountAsInt64(t *testing.T) {
	for _, c := range []struct {
		a      amount
		result int64
		ok     bool
	}{
		{amount{100, 0}, 100, true},
		{amount{100, 1}, 1000, true},
		{amount{100, -5}, 0, false},
		{amount{100, 100}, 0, false},
	} {
		if r, ok := c.a.asInt64(); r != c.result || ok != c.ok {
			t.Errorf("%v: %d %v", c.a, r, ok)
		}
	}
}

// TestAmountAdd ports upstream TestInt64AmountAdd: results, overflow
// detection, no mutation on overflow, commutativity.
func TestAmountAdd(t *testing.T) {
	for _, c := range []struct {
		a, b, c amount
		ok      bool
	}{
		{amount{100, 1}, amount{10, 2}, amount{200, 1}, true},
		{amount{100, 1}, amount{1, 2}, amount{110, 1}, true},
		{amount{100, 1}, amount{1, 100}, amount{1, 100}, false},
		{amount{-5, 2}, amount{50, 1}, amount{0, 1}, true},
		{amount{-5, 2}, amount{5, 2}, amount{0, 2}, true},
		{amount{mostPositive, -1}, amount{1, -1}, amount{0, -1}, false},
		{amount{mostPositive, -1}, amount{0, -1}, amount{mostPositive, -1}, true},
		{amount{mostPositive / 10, 1}, amount{10, 0}, amount{mostPositive, -1}, false},
	} {
		for _, pair := range [][2]amount{{c.a, c.b}, {c.b, c.a}} {
			x := pair[0]
			ok := x.add(pair[1])
			if ok != c.ok {
				t.Errorf("%v+%v: ok %v", pair[0], pair[1], ok)
			}
			if ok && x != c.c {
				t.Errorf("%v+%v = %v, want %v", pair[0], pair[1], x, c.c)
			}
			if !ok && x != pair[0] {
				t.Errorf("%v+%v: overflow mutated to %v", pair[0], pair[1], x)
			}
		}
	}
}

// TestAmountCanonical ports upstream TestInt64AsCanonicalString.
func TestAmountCanonical(t *testing.T) {
	for _, c := range []struct {
		a      amount
		result string
		exp    int32
	}{
		{amount{100, 0}, "100", 0},
		{amount{100, 1}, "1", 3},
		{amount{100, -1}, "10", 0},
		{amount{10800, -10}, "1080", -9},
	} {
		r, exp, ok := c.a.canonical(nil)
		if !ok || string(r) != c.result || exp != c.exp {
			t.Errorf("%v: %s e%d %v", c.a, r, exp, ok)
		}
	}
	// Overflowing the mantissa while aligning the exponent defers to big.
	if _, _, ok := (amount{mostPositive, 1}).canonical(nil); ok {
		t.Errorf("expected overflow")
	}
}

// TestAmountSign ports upstream TestAmountSign.
func TestAmountSign(t *testing.T) {
	for _, c := range []struct {
		a    amount
		want int
	}{
		{amount{-50, 1}, -1}, {amount{0, 1}, 0}, {amount{300, 1}, 1},
		{amount{-50, -8}, -1}, {amount{50, -8}, 1}, {amount{0, -8}, 0},
		{amount{-50, 0}, -1}, {amount{50, 0}, 1}, {amount{0, 0}, 0},
	} {
		if got := c.a.sign(); got != c.want {
			t.Errorf("%v: %d", c.a, got)
		}
	}
}

// TestAmountAsScaledInt64 ports upstream TestInt64AmountAsScaledInt64.
func TestAmountAsScaledInt64(t *testing.T) {
	for _, c := range []struct {
		name   string
		a      amount
		scale  Scale
		result int64
		ok     bool
	}{
		{"scale < target", amount{100, 0}, 5, 1, true},
		{"scale = target", amount{100, 1}, 1, 100, true},
		{"scale > target, fits", amount{100, 5}, 2, 100000, true},
		{"scale > target, overflows", amount{876, 30}, 4, 0, false},
		{"negative scale with fraction", amount{93, -1}, 0, 10, true},
		{"negative scale without fraction", amount{100, -1}, 0, 10, true},
		{"negative value with fraction", amount{-1932, 2}, 4, -20, true},
		{"negative value without fraction", amount{-1900, 2}, 4, -19, true},
	} {
		if r, ok := c.a.asScaledInt64(c.scale); r != c.result || ok != c.ok {
			t.Errorf("%s: %d %v", c.name, r, ok)
		}
	}
}

// TestAddInt64 ports upstream TestDetectOverflowAdd.
func TestAddInt64(t *testing.T) {
	for _, c := range []struct {
		a, b, c int64
		ok      bool
	}{
		{0, 0, 0, true}, {-1, 1, 0, true}, {0, 1, 1, true}, {2, 2, 4, true},
		{2, -2, 0, true}, {-2, -2, -4, true},
		{mostNegative, -1, 0, false}, {mostNegative, 1, mostNegative + 1, true},
		{mostPositive, -1, mostPositive - 1, true}, {mostPositive, 1, 0, false},
		{mostNegative, mostPositive, -1, true}, {mostPositive, mostNegative, -1, true},
		{mostPositive, mostPositive, 0, false}, {mostNegative, mostNegative, 0, false},
		{-mostPositive, mostNegative, 0, false}, {mostNegative, -mostPositive, 0, false},
		{-mostPositive, -mostPositive, 0, false},
	} {
		for _, p := range [][2]int64{{c.a, c.b}, {c.b, c.a}} {
			r, ok := addInt64(p[0], p[1])
			if ok != c.ok || (ok && r != c.c) {
				t.Errorf("%d+%d: %d %v", p[0], p[1], r, ok)
			}
		}
	}
}

// TestMulInt64 ports upstream TestDetectOverflowMultiply.
func TestMulInt64(t *testing.T) {
	for _, c := range []struct {
		a, b, c int64
		ok      bool
	}{
		{0, 0, 0, true}, {-1, 1, -1, true}, {-1, -1, 1, true}, {1, 1, 1, true},
		{0, 1, 0, true}, {1, 0, 0, true}, {2, 2, 4, true}, {2, -2, -4, true},
		{-2, -2, 4, true},
		{mostNegative, -1, 0, false}, {mostNegative, 1, mostNegative, true},
		{mostPositive, -1, -mostPositive, true}, {mostPositive, 1, mostPositive, true},
		{mostNegative, mostPositive, 0, false}, {mostPositive, mostNegative, 0, false},
		{mostPositive, mostPositive, 1, false}, {mostNegative, mostNegative, 0, false},
		{-mostPositive, mostNegative, 0, false}, {mostNegative, -mostPositive, 0, false},
		{-mostPositive, -mostPositive, 1, false},
	} {
		for _, p := range [][2]int64{{c.a, c.b}, {c.b, c.a}} {
			r, ok := mulInt64(p[0], p[1])
			if ok != c.ok || (ok && r != c.c) {
				t.Errorf("%d*%d: %d %v", p[0], p[1], r, ok)
			}
		}
	}
}

// TestShiftUp ports upstream TestDetectOverflowScale and pins the
// overflow results (wrapped for scales 1, 2, 3, 6, 9; zero otherwise).
func TestShiftUp(t *testing.T) {
	for _, a := range []int64{0, -1, 1, 10, -10, mostPositive, mostNegative, -mostPositive, 123456789} {
		for n := Scale(0); n <= 20; n++ {
			got, ok := shiftUp(a, n)
			want := new(big.Int).Mul(big.NewInt(a), exp10(int64(n)))
			if wantOK := want.IsInt64(); ok != wantOK {
				t.Errorf("%d×10^%d: ok %v", a, n, ok)
			} else if ok && got != want.Int64() {
				t.Errorf("%d×10^%d = %d", a, n, got)
			}
			if !ok {
				var wrapped int64
				switch n {
				case 1, 2, 3, 6, 9:
					if a != mostNegative {
						wrapped = a * pow10[n]
					}
				}
				if got != wrapped {
					t.Errorf("%d×10^%d overflow gave %d, want %d", a, n, got, wrapped)
				}
			}
		}
	}
	// Negative shifts (from 32-bit wrap-around) are a no-op.
	if v, ok := shiftUp(7, -3); v != 7 || !ok {
		t.Errorf("shiftUp(7, -3) = %d %v", v, ok)
	}
}

// TestStripFactor ports upstream TestRemoveInt64Factors.
func TestStripFactor(t *testing.T) {
	for _, c := range []struct {
		v, base, result int64
		n               int32
	}{
		{100, 10, 1, 2}, {100, 100, 1, 1}, {1, 10, 1, 0}, {-2048, 1024, -2, 1},
		{0, 10, 0, 0}, {mostNegative, 10, mostNegative, 0},
	} {
		if r, n := stripFactor(c.v, c.base); r != c.result || n != c.n {
			t.Errorf("%d/%d: %d %d", c.v, c.base, r, n)
		}
	}
}

// TestShiftDown ports upstream TestNegativeScaleInt64 (rounding away from
// zero).
func TestShiftDown(t *testing.T) {
	for _, c := range []struct {
		base   int64
		scale  Scale
		result int64
		exact  bool
	}{
		{1234567, 0, 1234567, true},
		{1234567, 1, 123457, false},
		{1234567, 2, 12346, false},
		{1234567, 3, 1235, false},
		{1234567, 4, 124, false},
		{-1234567, 0, -1234567, true},
		{-1234567, 1, -123457, false},
		{-1234567, 2, -12346, false},
		{-1234567, 3, -1235, false},
		{-1234567, 4, -124, false},
		{1000, 0, 1000, true},
		{1000, 1, 100, true},
		{1000, 2, 10, true},
		{1000, 3, 1, true},
		{1000, 4, 1, false},
		{-1000, 0, -1000, true},
		{-1000, 1, -100, true},
		{-1000, 2, -10, true},
		{-1000, 3, -1, true},
		{-1000, 4, -1, false},
		{0, 0, 0, true},
		{0, 1, 0, true},
		{0, 2, 0, true},
		{1000, -1, 1000, true}, // negative scale: unchanged
		{math.MaxInt64, 19, 1, false},
		{math.MinInt64, 25, -1, false},
		{0, 40, 0, true},
	} {
		if r, exact := shiftDown(c.base, c.scale); r != c.result || exact != c.exact {
			t.Errorf("%d/10^%d: %d %v", c.base, c.scale, r, exact)
		}
	}
}
