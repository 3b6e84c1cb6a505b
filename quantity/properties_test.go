package quantity_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/quantity/quantitygen"
)

// checkRoundTrip asserts that q's String re-parses to an equal quantity,
// and that the printed form is then stable. The one upstream exception to
// printing the same string on the first round: a BinarySI value that is
// not a whole number of Ki (or is below 1024) prints without a suffix, and
// re-parses as DecimalSI, which may pick a decimal suffix ("55335000" →
// "55335k").
func checkRoundTrip(t *rapid.T, q quantity.Quantity) {
	s := q.String()
	q2, err := quantity.ParseQuantity(s)
	if err != nil {
		t.Fatalf("String %q of %v does not parse: %v", s, quantity.Exact(q), err)
	}
	if !q2.Equal(q) {
		t.Fatalf("%q re-parses to %v, want %v", s, quantity.Exact(q2), quantity.Exact(q))
	}
	s2 := q2.String()
	binaryBare := q.Format == quantity.BinarySI && !strings.HasSuffix(s, "i")
	if s2 != s && !binaryBare {
		t.Fatalf("%q re-parses and prints as %q", s, s2)
	}
	q3 := quantity.MustParse(s2)
	if !q3.Equal(q) || q3.String() != s2 {
		t.Fatalf("%q is not a fixed point: %q", s2, q3.String())
	}
}

// TestPropParseStringRoundTrip: every generated string parses, and the
// result survives String → ParseQuantity unchanged.
func TestPropParseStringRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := quantitygen.String().Draw(t, "s")
		q, err := quantity.ParseQuantity(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		checkRoundTrip(t, q)
	})
}

// TestPropQuantityRoundTrip: generated quantities of every format and
// path survive String → ParseQuantity.
func TestPropQuantityRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkRoundTrip(t, quantitygen.Quantity().Draw(t, "q"))
	})
}

// TestPropCmpExact: Cmp, Equal, Sign and CmpInt64 agree with exact
// rational comparison.
func TestPropCmpExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := quantitygen.Quantity().Draw(t, "a")
		b := quantitygen.Quantity().Draw(t, "b")
		want := quantity.Exact(a).Cmp(quantity.Exact(b))
		if got := a.Cmp(b); got != want {
			t.Fatalf("Cmp(%v, %v) = %d, want %d", quantity.Exact(a), quantity.Exact(b), got, want)
		}
		if a.Equal(b) != (want == 0) {
			t.Fatalf("Equal disagrees with Cmp")
		}
		if a.Sign() != quantity.Exact(a).Sign() || a.IsZero() != (a.Sign() == 0) {
			t.Fatalf("Sign %d of %v", a.Sign(), quantity.Exact(a))
		}
		n := rapid.Int64().Draw(t, "n")
		if got, want := a.CmpInt64(n), quantity.Exact(a).Cmp(new(big.Rat).SetInt64(n)); got != want {
			t.Fatalf("CmpInt64(%v, %d) = %d, want %d", quantity.Exact(a), n, got, want)
		}
	})
}

// TestPropAddSub: Add is exact, and Sub undoes it.
func TestPropAddSub(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := quantitygen.Quantity().Draw(t, "a")
		b := quantitygen.Quantity().Draw(t, "b")
		c := a
		c.Add(b)
		sumIsZero := c.IsZero()
		if want := new(big.Rat).Add(quantity.Exact(a), quantity.Exact(b)); quantity.Exact(c).Cmp(want) != 0 {
			t.Fatalf("%v + %v = %v", quantity.Exact(a), quantity.Exact(b), quantity.Exact(c))
		}
		c.Sub(b)
		if !c.Equal(a) {
			t.Fatalf("(%v + %v) - b = %v", quantity.Exact(a), quantity.Exact(b), quantity.Exact(c))
		}
		// A zero receiver adopts the operand's format, as upstream.
		if !a.IsZero() && !sumIsZero && c.Format != a.Format {
			t.Fatalf("Add/Sub changed the receiver's format %s to %s", a.Format, c.Format)
		}
		d := a
		d.Neg()
		d.Neg()
		if !d.Equal(a) {
			t.Fatalf("double negation changed %v", quantity.Exact(a))
		}
	})
}

// ceilRat and truncRat round a rational.
func ceilRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func truncRat(r *big.Rat) *big.Int { return new(big.Int).Quo(r.Num(), r.Denom()) }

// TestPropValueRounding: Value and MilliValue round up. For non-negative
// values that is the ceiling (value ≤ result < value+1); negative int64
// values round away from zero; negative math/big values follow upstream's
// truncate-then-add-one, which rounds towards +∞ past the ceiling (and
// wraps once the unscaled integer leaves int64).
func TestPropValueRounding(t *testing.T) {
	limit := new(big.Rat).SetInt64(1 << 60)
	rapid.Check(t, func(t *rapid.T) {
		q := quantitygen.Quantity().Draw(t, "q")
		for _, scale := range []quantity.Scale{0, quantity.Milli} {
			target := new(big.Rat).Set(quantity.Exact(q))
			if scale == quantity.Milli {
				target.Mul(target, big.NewRat(1000, 1))
			}
			if new(big.Rat).Abs(target).Cmp(limit) > 0 {
				continue // overflow is unspecified
			}
			got := big.NewInt(q.ScaledValue(scale))
			var want *big.Int
			switch {
			case target.Sign() >= 0:
				want = ceilRat(target)
			case !quantity.OnSlowPath(q):
				want = new(big.Int).Neg(ceilRat(new(big.Rat).Neg(target)))
			default:
				// Upstream works on the unscaled integer (value × 10^9
				// after parsing); once that leaves int64 the result
				// wraps around, so only the in-range part is pinned.
				nanos := new(big.Rat).Mul(quantity.Exact(q), big.NewRat(1e9, 1))
				if new(big.Rat).Abs(nanos).Cmp(new(big.Rat).SetInt64(1<<62)) > 0 {
					continue
				}
				want = truncRat(target)
				if !target.IsInt() {
					want.Add(want, big.NewInt(1))
				}
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("ScaledValue(%v, %d) = %v, want %v", target, scale, got, want)
			}
			if target.Sign() >= 0 {
				gr := new(big.Rat).SetInt(got)
				if gr.Cmp(target) < 0 || new(big.Rat).Sub(gr, target).Cmp(big.NewRat(1, 1)) >= 0 {
					t.Fatalf("%v not in [%v, %v+1)", got, target, target)
				}
			}
		}
		if v := q.Value(); v != q.ScaledValue(0) || q.MilliValue() != q.ScaledValue(quantity.Milli) {
			t.Fatalf("Value/MilliValue disagree with ScaledValue")
		}
	})
}

// TestPropJSONRoundTrip: MarshalJSON writes the quoted String and
// UnmarshalJSON reads back an equal value.
func TestPropJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := quantitygen.Quantity().Draw(t, "q")
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `"`+q.String()+`"` {
			t.Fatalf("JSON %s for %q", b, q.String())
		}
		var back quantity.Quantity
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !back.Equal(q) {
			t.Fatalf("%s decoded to %v", b, quantity.Exact(back))
		}
	})
}

// TestPropRealisticGenerators: CPU and Memory stay in their documented
// ranges and formats.
func TestPropRealisticGenerators(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cpu := quantitygen.CPU().Draw(t, "cpu")
		if m := cpu.MilliValue(); m < 1 || m > 128000 || cpu.Format != quantity.DecimalSI {
			t.Fatalf("cpu %s: %d milli, %s", cpu, m, cpu.Format)
		}
		mem := quantitygen.Memory().Draw(t, "mem")
		if v := mem.Value(); v < 1<<20 || v > 1<<40 {
			t.Fatalf("memory %s: %d bytes", mem, v)
		}
		if strings.HasSuffix(mem.String(), "i") && mem.Format != quantity.BinarySI {
			t.Fatalf("memory %s has format %s", mem, mem.Format)
		}
		checkRoundTrip(t, cpu)
		checkRoundTrip(t, mem)
	})
}

// TestPropCanonicalShape: quantities that do not remember their input
// print with no fraction, and a canonical-looking print is idempotent.
func TestPropCanonicalShape(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := quantitygen.Quantity().Draw(t, "q")
		var c quantity.Quantity
		c.Add(q) // Add forgets the remembered input and copies Format
		s := c.String()
		if strings.ContainsAny(s, ".+") || (len(s) > 1 && s[0] == '0') || strings.HasPrefix(s, "-0") {
			t.Fatalf("non-canonical print %q", s)
		}
	})
}
