package quantity

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQuantityParse ports upstream TestQuantityParse: every table input
// parses to the expected value and Format, on both representations, and so
// do its "-" and "+" prefixed variants.
func TestQuantityParse(t *testing.T) {
	for _, onBig := range []bool{false, true} {
		for _, c := range parseCases {
			got, err := ParseQuantity(c.in)
			if err != nil {
				t.Errorf("%q: unexpected error %v", c.in, err)
				continue
			}
			if onBig {
				got = asBig(got)
				if i, ok := got.AsInt64(); i != 0 || ok {
					t.Errorf("%q: big path AsInt64 = %d, %v; want 0, false", c.in, i, ok)
				}
			}
			if got.Cmp(c.expect) != 0 {
				t.Errorf("%q (big=%v): got %s, want %s", c.in, onBig, got, c.expect)
			}
			if got.Format != c.expect.Format {
				t.Errorf("%q: format %s, want %s", c.in, got.Format, c.expect.Format)
			}
			if !onBig {
				// A fast-path value with a non-negative scale must
				// answer AsInt64 like the expectation does.
				exact := c.expect.big().rat()
				want, wantOK := exact.Num().Int64(), exact.IsInt() && exact.Num().IsInt64()
				if j, ok := got.AsInt64(); ok {
					if !wantOK || j != want {
						t.Errorf("%q: AsInt64 = %d, want %d", c.in, j, want)
					}
				} else if got.d == nil && got.i.scale >= 0 && wantOK {
					t.Errorf("%q: fast path with scale %d cannot AsInt64", c.in, got.i.scale)
				}
			}

			// Rebuilding the string from the scanner's parts gives
			// the same value.
			positive, _, num, denom, suf, ok := scan(c.in)
			if !ok {
				t.Errorf("%q: scan failed", c.in)
				continue
			}
			if (got.Sign() < 0) == positive && got.Sign() != 0 {
				t.Errorf("%q: positive=%v for sign %d", c.in, positive, got.Sign())
			}
			rebuilt := num
			if !positive {
				rebuilt = "-" + rebuilt
			}
			if denom != "" {
				rebuilt += "." + denom
			}
			if again := MustParse(rebuilt + suf); again.Cmp(got) != 0 {
				t.Errorf("%q: rebuilt %q differs", c.in, rebuilt+suf)
			}
		}

		for _, c := range parseCases {
			got := MustParse("-" + c.in)
			if onBig {
				got = asBig(got)
			}
			want := c.expect
			want.Neg()
			if got.Cmp(want) != 0 || got.Format != c.expect.Format {
				t.Errorf("-%s: got %s %s, want %s %s", c.in, got, got.Format, want, c.expect.Format)
			}
			got = MustParse("+" + c.in)
			if onBig {
				got = asBig(got)
			}
			if got.Cmp(c.expect) != 0 || got.Format != c.expect.Format {
				t.Errorf("+%s: got %s %s, want %s", c.in, got, got.Format, c.expect)
			}
		}
	}
}

// TestQuantityParseInvalid pins the rejected inputs and that errors wrap
// the upstream sentinels and quote the input.
func TestQuantityParseInvalid(t *testing.T) {
	for _, c := range invalidInputs {
		q, err := ParseQuantity(c.in)
		if err == nil {
			t.Errorf("%q parsed unexpectedly as %s", c.in, q)
			continue
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%q: error %v does not wrap %v", c.in, err, c.want)
		}
		if want := fmt.Sprintf("quantity %q: %v", c.in, c.want); err.Error() != want {
			t.Errorf("%q: error %q, want %q", c.in, err, want)
		}
	}
}

// TestErrorMessages pins the sentinel texts, which are upstream's.
func TestErrorMessages(t *testing.T) {
	want := map[error]string{
		ErrFormatWrong: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
		ErrNumeric:     "unable to parse numeric part of quantity",
		ErrSuffix:      "unable to parse quantity's suffix",
	}
	for err, msg := range want {
		if err.Error() != msg {
			t.Errorf("got %q, want %q", err, msg)
		}
	}
}

// TestMustParsePanics ports upstream TestQuantityParseNonNumericPanic and
// pins the panic message.
func TestMustParsePanics(t *testing.T) {
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok {
			t.Fatalf("MustParse panicked with %v, want an error", r)
		}
		if want := "cannot parse 'Non-Numeric': " + ErrFormatWrong.Error(); err.Error() != want {
			t.Errorf("panic %q, want %q", err, want)
		}
		if !errors.Is(err, ErrFormatWrong) {
			t.Errorf("panic value does not wrap ErrFormatWrong")
		}
	}()
	MustParse("Non-Numeric")
}

// TestCanonicalForms pins String, Format, Value, MilliValue and AsInt64
// of parsed strings against values recorded from upstream: the doc
// examples ("1.5Gi"→"1536Mi", "0.1"→"100m", "1000m"→"1", "1e3"→"1e3",
// "1024Ki"→"1Mi"), huge and tiny values, and quirks such as "+1" printing
// verbatim, "1000E" printing as "1" and negative slow-path values whose
// Value rounds up past zero.
func TestCanonicalForms(t *testing.T) {
	for _, c := range canonicalCases {
		q, err := ParseQuantity(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		i, ok := q.AsInt64()
		got := canonicalCase{in: c.in, str: q.String(), format: q.Format, value: q.Value(), milli: q.MilliValue(), asInt: i, asIntOK: ok}
		if got != c {
			t.Errorf("%q:\n got %+v\nwant %+v", c.in, got, c)
		}
	}
}

// TestQuantityString ports upstream TestQuantityString: canonical forms of
// values on the slow path, that parsing the canonical form remembers it,
// that alternates print canonically, and the negated forms.
func TestQuantityString(t *testing.T) {
	for _, c := range stringCases {
		for _, q := range []Quantity{c.in, fastIfPossible(c.in)} {
			if got := q.String(); got != c.expect {
				t.Errorf("%#v: got %q, want %q", q, got, c.expect)
			}
		}
		q := MustParse(c.expect)
		if q.s != c.expect {
			t.Errorf("%q: parse did not keep the canonical string (s=%q)", c.expect, q.s)
		}
		if c.alternate == "" {
			continue
		}
		q = MustParse(c.alternate)
		if q.s != "" {
			t.Errorf("%q: unexpectedly kept %q", c.alternate, q.s)
		}
		if got := q.String(); got != c.expect {
			t.Errorf("%q: printed %q, want %q", c.alternate, got, c.expect)
		}
	}
	for _, c := range stringCases {
		if c.in.IsZero() {
			continue // never "-0"
		}
		q := c.in
		q.Neg()
		if got, want := q.String(), "-"+c.expect; got != want {
			t.Errorf("%s negated: got %q, want %q", c.expect, got, want)
		}
	}
}

// fastIfPossible re-expresses a slow-path test value on the fast path.
func fastIfPossible(q Quantity) Quantity {
	if q.d == nil || q.d.zeros != 0 || !q.d.coef.IsInt64() {
		return q
	}
	return Quantity{i: amount{value: q.d.coef.Int64(), scale: Scale(-q.d.scale)}, Format: q.Format}
}

// TestQuantityParseEmit ports upstream TestQuantityParseEmit, including the
// negated inputs.
func TestQuantityParseEmit(t *testing.T) {
	for _, c := range parseEmitCases {
		if got := MustParse(c.in).String(); got != c.expect {
			t.Errorf("%q: got %q, want %q", c.in, got, c.expect)
		}
		if got := MustParse("-" + c.in).String(); got != "-"+c.expect {
			t.Errorf("-%q: got %q, want -%q", c.in, got, c.expect)
		}
	}
}

// TestParseQuantityBoundaries ports upstream TestParseQuantity: values
// around 18 digits and the int64 limits, their AsInt64, exact value and
// re-serialisation.
func TestParseQuantityBoundaries(t *testing.T) {
	for _, c := range bigParseCases {
		q := MustParse(c.in)
		v, ok := q.AsInt64()
		switch {
		case c.asInt64 == nil && ok:
			t.Errorf("%q: AsInt64 = %d, true; want false", c.in, v)
		case c.asInt64 != nil && (!ok || v != *c.asInt64):
			t.Errorf("%q: AsInt64 = %d, %v; want %d", c.in, v, ok, *c.asInt64)
		}
		want, _ := new(big.Rat).SetString(c.exact)
		if q.big().rat().Cmp(want) != 0 {
			t.Errorf("%q: exact value %s, want %s", c.in, q.big().rat().FloatString(3), c.exact)
		}
		wantStr := c.in
		if c.canonical != "" {
			wantStr = c.canonical
		}
		if got := q.String(); got != wantStr {
			t.Errorf("%q: String %q, want %q", c.in, got, wantStr)
		}
	}
}

// TestScanner ports upstream TestParseQuantityString (the scanner's split).
func TestScanner(t *testing.T) {
	cases := []struct {
		in                        string
		positive                  bool
		value, num, denom, suffix string
	}{
		{"0.025Ti", true, "0.025", "0", "025", "Ti"},
		{"1.025Ti", true, "1.025", "1", "025", "Ti"},
		{"-1.025Ti", false, "-1.025", "1", "025", "Ti"},
		{".", true, ".", "0", "", ""},
		{"-.", false, "-.", "0", "", ""},
		{"1E-3", true, "1", "1", "", "E-3"},
		{"007", true, "007", "7", "", ""},
		{"-000", false, "0", "0", "", ""},
	}
	for _, c := range cases {
		positive, value, num, denom, suffix, ok := scan(c.in)
		if !ok || positive != c.positive || value != c.value || num != c.num || denom != c.denom || suffix != c.suffix {
			t.Errorf("%q: got %v %q %q %q %q %v", c.in, positive, value, num, denom, suffix, ok)
		}
	}
}

// TestQuantityParseZero ports upstream TestQuantityParseZero and
// TestUninitializedNoCrash: "0" and the zero value print "0".
func TestQuantityParseZero(t *testing.T) {
	if s := MustParse("0").String(); s != "0" {
		t.Errorf("got %q", s)
	}
	var q Quantity
	if q.String() != "0" || q.Value() != 0 || q.MilliValue() != 0 || !q.IsZero() || q.Sign() != 0 {
		t.Errorf("zero Quantity misbehaves: %q %d %d", q.String(), q.Value(), q.MilliValue())
	}
	if b, err := q.MarshalJSON(); err != nil || string(b) != `"0"` {
		t.Errorf("zero JSON %s %v", b, err)
	}
	_ = q.DeepCopy()
}

// TestQuantityCanonicalizeZero ports upstream TestQuantityCanocicalizeZero:
// a value that reaches zero prints "0", never "0m".
func TestQuantityCanonicalizeZero(t *testing.T) {
	val := MustParse("1000m")
	val.i.sub(amount{value: 1})
	zero := Quantity{i: val.i, Format: DecimalSI}
	if got := zero.String(); got != "0" {
		t.Errorf("got %q", got)
	}
}

// TestQuantityAddSubZeroPreservesSuffix ports upstream
// TestQuantityAddZeroPreservesSuffix and TestQuantitySubZeroPreservesSuffix.
func TestQuantityAddSubZeroPreservesSuffix(t *testing.T) {
	zero := MustParse("0")
	for _, s := range []string{"100m", "1Gi"} {
		value := MustParse(s)
		v1 := value.DeepCopy()
		v1.Add(zero)
		v2 := zero.DeepCopy()
		v2.Add(value)
		if v1.String() != s || v2.String() != s {
			t.Errorf("add: %q %q, want %q", v1.String(), v2.String(), s)
		}
		v1 = value.DeepCopy()
		v1.Sub(zero)
		if v1.String() != s {
			t.Errorf("sub: %q, want %q", v1.String(), s)
		}
		v2 = zero.DeepCopy()
		v2.Sub(value)
		neg := value.DeepCopy()
		neg.Neg()
		if v2.String() != neg.String() {
			t.Errorf("0-%s = %q, want %q", s, v2.String(), neg.String())
		}
	}
}

// TestQuantityCmp ports upstream TestQuantityCmp (parsed values, and
// zero/nil slow-path values).
func TestQuantityCmp(t *testing.T) {
	for _, c := range []struct {
		x, y   string
		expect int
	}{
		{"0", "0", 0},
		{"100m", "50m", 1},
		{"50m", "100m", -1},
		{"10000T", "100Gi", 1},
	} {
		if got := MustParse(c.x).Cmp(MustParse(c.y)); got != c.expect {
			t.Errorf("%s vs %s: %d, want %d", c.x, c.y, got, c.expect)
		}
	}
	zero := Quantity{Format: DecimalSI}
	for _, c := range []struct {
		x, y   Quantity
		expect int
	}{
		{dq(0, 0, DecimalSI), dq(0, 0, DecimalSI), 0},
		{zero, dq(0, 0, DecimalSI), 0},
		{dq(0, 0, DecimalSI), zero, 0},
		{zero, zero, 0},
		{zero, dq(10, 0, DecimalSI), -1},
		{zero, dq(-10, 0, DecimalSI), 1},
		{dq(10, 0, DecimalSI), zero, 1},
		{dq(-10, 0, DecimalSI), zero, -1},
	} {
		if got := c.x.Cmp(c.y); got != c.expect {
			t.Errorf("%s vs %s: %d, want %d", c.x, c.y, got, c.expect)
		}
	}
}

// TestQuantityCmpInt64AndDec ports upstream TestQuantityCmpInt64AndDec:
// comparisons across scales near the int64 limits, on every combination
// of representations.
func TestQuantityCmpInt64AndDec(t *testing.T) {
	cases := []struct {
		a, b Quantity
		cmp  int
	}{
		{iq(901, -2, DecimalSI), iq(901, -2, DecimalSI), 0},
		{iq(90, -1, DecimalSI), iq(901, -2, DecimalSI), -1},
		{iq(901, -2, DecimalSI), iq(900, -2, DecimalSI), 1},
		{iq(0, 0, DecimalSI), iq(0, 0, DecimalSI), 0},
		{iq(0, 1, DecimalSI), iq(0, -1, DecimalSI), 0},
		{iq(0, -1, DecimalSI), iq(0, 1, DecimalSI), 0},
		{iq(800, -3, DecimalSI), iq(1, 0, DecimalSI), -1},
		{iq(800, -3, DecimalSI), iq(79, -2, DecimalSI), 1},
		{iq(mostPositive, 0, DecimalSI), iq(1, -1, DecimalSI), 1},
		{iq(mostPositive, 1, DecimalSI), iq(1, 0, DecimalSI), 1},
		{iq(mostPositive, 1, DecimalSI), iq(1, 1, DecimalSI), 1},
		{iq(mostPositive, 1, DecimalSI), iq(0, 1, DecimalSI), 1},
		{iq(mostPositive, -16, DecimalSI), iq(1, 3, DecimalSI), -1},
		{iq(mostNegative, 0, DecimalSI), iq(0, 0, DecimalSI), -1},
		{iq(mostNegative, -18, DecimalSI), iq(-1, 0, DecimalSI), -1},
		{iq(mostNegative, -19, DecimalSI), iq(-1, 0, DecimalSI), 1},
		{iq(1e18, -17, DecimalSI), iq(1, 1, DecimalSI), 0},
		{iq(1e18, -17, DecimalSI), iq(-10, 0, DecimalSI), 1},
		{iq(-1e18, -17, DecimalSI), iq(-10, 0, DecimalSI), 0},
		{iq(1e18, -17, DecimalSI), iq(1, 0, DecimalSI), 1},
		{iq(1e18+1, -17, DecimalSI), iq(1, 1, DecimalSI), 1},
		{iq(1e18-1, -17, DecimalSI), iq(1, 1, DecimalSI), -1},
		// Scale gaps beyond 18 digits.
		{iq(1, 30, DecimalSI), iq(mostPositive, 0, DecimalSI), 1},
		{iq(-1, 30, DecimalSI), iq(mostNegative, 0, DecimalSI), -1},
		{iq(0, 30, DecimalSI), iq(-5, -9, DecimalSI), 1},
	}
	for _, c := range cases {
		for _, conv := range []struct{ a, b bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			a, b := c.a, c.b
			if conv.a {
				a = asBig(a)
			}
			if conv.b {
				b = asBig(b)
			}
			if got := a.Cmp(b); got != c.cmp {
				t.Errorf("%v %v (big %v): Cmp %d, want %d", c.a.i, c.b.i, conv, got, c.cmp)
			}
			if got := b.Cmp(a); got != -c.cmp {
				t.Errorf("%v %v (big %v): inverted Cmp %d, want %d", c.a.i, c.b.i, conv, got, -c.cmp)
			}
		}
	}
}

// TestQuantityRoundUp ports upstream TestQuantityRoundUp on both paths.
func TestQuantityRoundUp(t *testing.T) {
	cases := []struct {
		in     string
		scale  Scale
		expect Quantity
		ok     bool
	}{
		{"9.01", -3, dq(901, -2, DecimalSI), true},
		{"9.01", -2, dq(901, -2, DecimalSI), true},
		{"9.01", -1, dq(91, -1, DecimalSI), false},
		{"9.01", 0, dq(10, 0, DecimalSI), false},
		{"9.01", 1, dq(10, 0, DecimalSI), false},
		{"9.01", 2, dq(100, 0, DecimalSI), false},
		{"-9.01", -3, dq(-901, -2, DecimalSI), true},
		{"-9.01", -2, dq(-901, -2, DecimalSI), true},
		{"-9.01", -1, dq(-91, -1, DecimalSI), false},
		{"-9.01", 0, dq(-10, 0, DecimalSI), false},
		{"-9.01", 1, dq(-10, 0, DecimalSI), false},
		{"-9.01", 2, dq(-100, 0, DecimalSI), false},
	}
	for _, onBig := range []bool{false, true} {
		for _, c := range cases {
			got := MustParse(c.in)
			if onBig {
				got = asBig(got)
			}
			if ok := got.RoundUp(c.scale); ok != c.ok {
				t.Errorf("%s(%d, big=%v): ok %v", c.in, c.scale, onBig, ok)
			}
			if got.Cmp(c.expect) != 0 {
				t.Errorf("%s(%d, big=%v): %s, want %s", c.in, c.scale, onBig, got, c.expect)
			}
		}
	}
	// An unchanged fast-path value keeps its remembered string.
	q := MustParse("+1")
	if !q.RoundUp(-3) || q.String() != "+1" {
		t.Errorf("RoundUp changed %q", q.String())
	}
}

// TestQuantityNeg ports upstream TestQuantityNeg and TestNeg.
func TestQuantityNeg(t *testing.T) {
	for _, c := range []struct {
		a   Quantity
		out string
	}{
		{iq(901, -2, DecimalSI), "-9010m"},
		{dq(901, -2, DecimalSI), "-9010m"},
	} {
		out := c.a.DeepCopy()
		out.Neg()
		if out.Cmp(c.a) == 0 {
			t.Errorf("negating mutated nothing: %s", out)
		}
		if out.String() != c.out {
			t.Errorf("got %q, want %q", out.String(), c.out)
		}
	}
	for _, c := range []struct{ a, expected Quantity }{
		{iq(0, 0, DecimalSI), iq(0, 0, DecimalSI)},
		{Quantity{}, Quantity{}},
		{iq(10, 0, BinarySI), iq(-10, 0, BinarySI)},
		{iq(-10, 0, BinarySI), iq(10, 0, BinarySI)},
		{dq(0, 0, DecimalSI), iq(0, 0, DecimalSI)},
		{dq(10, 0, BinarySI), iq(-10, 0, BinarySI)},
		{dq(-10, 0, BinarySI), iq(10, 0, BinarySI)},
	} {
		a := c.a.DeepCopy()
		a.Neg()
		if a.Cmp(c.expected) != 0 {
			t.Errorf("-(%s) = %s, want %s", c.a, a, c.expected)
		}
	}
	// Quirk kept from upstream: the most negative int64 negates to itself.
	q := NewQuantity(mostNegative, DecimalSI)
	q.Neg()
	if v, _ := q.AsInt64(); v != mostNegative {
		t.Errorf("Neg(MinInt64) = %d", v)
	}
}

// TestAddSub ports upstream TestAdd and TestSub, plus the Format rule: a
// zero receiver takes the operand's Format.
func TestAddSub(t *testing.T) {
	zero := Quantity{Format: DecimalSI}
	adds := []struct{ a, b, expected Quantity }{
		{dq(10, 0, DecimalSI), dq(1, 1, DecimalSI), dq(20, 0, DecimalSI)},
		{dq(10, 0, DecimalSI), dq(1, 0, BinarySI), dq(11, 0, DecimalSI)},
		{dq(10, 0, BinarySI), dq(1, 0, DecimalSI), dq(11, 0, BinarySI)},
		{zero, dq(50, 0, DecimalSI), dq(50, 0, DecimalSI)},
		{dq(50, 0, DecimalSI), zero, dq(50, 0, DecimalSI)},
		{zero, zero, dq(0, 0, DecimalSI)},
		{iq(mostPositive, 0, DecimalSI), iq(1, 0, DecimalSI), bq(new(big.Int).Add(big.NewInt(mostPositive), bigOne), 0, DecimalSI)},
		{iq(1, 100, DecimalSI), iq(1, 0, DecimalSI), bq(new(big.Int).Add(exp10(100), bigOne), 0, DecimalSI)},
	}
	for i, c := range adds {
		a := c.a
		a.Add(c.b)
		if a.Cmp(c.expected) != 0 || a.Format != c.expected.Format {
			t.Errorf("add[%d]: got %s %s, want %s %s", i, a, a.Format, c.expected, c.expected.Format)
		}
	}
	subs := []struct{ a, b, expected Quantity }{
		{dq(10, 0, DecimalSI), dq(1, 1, DecimalSI), dq(0, 0, DecimalSI)},
		{dq(10, 0, DecimalSI), dq(1, 0, BinarySI), dq(9, 0, DecimalSI)},
		{dq(10, 0, BinarySI), dq(1, 0, DecimalSI), dq(9, 0, BinarySI)},
		{zero, dq(50, 0, DecimalSI), dq(-50, 0, DecimalSI)},
		{dq(50, 0, DecimalSI), zero, dq(50, 0, DecimalSI)},
		{zero, zero, dq(0, 0, DecimalSI)},
		{iq(mostNegative, 0, DecimalSI), iq(1, 0, DecimalSI), bq(new(big.Int).Sub(big.NewInt(mostNegative), bigOne), 0, DecimalSI)},
	}
	for i, c := range subs {
		a := c.a
		a.Sub(c.b)
		if a.Cmp(c.expected) != 0 || a.Format != c.expected.Format {
			t.Errorf("sub[%d]: got %s %s, want %s %s", i, a, a.Format, c.expected, c.expected.Format)
		}
	}
	// A zero receiver adopts the operand's Format.
	q := Quantity{}
	q.Add(MustParse("1Gi"))
	if q.Format != BinarySI || q.String() != "1Gi" {
		t.Errorf("0+1Gi = %s %s", q, q.Format)
	}
	q = MustParse("1Gi")
	q.Add(MustParse("512Mi"))
	if q.String() != "1536Mi" {
		t.Errorf("1Gi+512Mi = %s", q)
	}
	q.Sub(MustParse("1.5"))
	if q.Format != BinarySI || q.String() != "1610612734500m" {
		t.Errorf("1536Mi-1.5 = %s", q)
	}
	// Quirk kept from upstream: subtracting MinInt64 from zero negates it
	// with wrap-around.
	q = NewQuantity(0, DecimalSI)
	q.Sub(NewQuantity(mostNegative, DecimalSI))
	if v, _ := q.AsInt64(); v != mostNegative {
		t.Errorf("0-MinInt64 = %s", q)
	}
}

// TestAddSubRoundTrip ports upstream TestAddSubRoundTrip,
// TestAddSubRoundTripAcrossScales and TestNegateRoundTrip.
func TestAddSubRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for k := -10; k <= 10; k++ {
		q := Quantity{Format: DecimalSI}
		var order []int64
		for range 100 {
			j := r.Int63()
			order = append(order, j)
			q.Add(NewScaledQuantity(j, Scale(k)))
		}
		for _, j := range order {
			q.Sub(NewScaledQuantity(j, Scale(k)))
		}
		if !q.IsZero() {
			t.Errorf("scale %d: add/sub did not cancel: %s", k, q)
		}
	}
	q := Quantity{Format: DecimalSI}
	var order []int64
	for range 100 {
		j := r.Int63()
		order = append(order, j)
		q.Add(NewScaledQuantity(j, Scale(j%20-10)))
	}
	for _, j := range order {
		q.Sub(NewScaledQuantity(j, Scale(j%20-10)))
	}
	if !q.IsZero() {
		t.Errorf("across scales: add/sub did not cancel: %s", q)
	}
	for _, onBig := range []bool{false, true} {
		for k := -10; k <= 10; k++ {
			for range 100 {
				q := NewScaledQuantity(r.Int63(), Scale(k))
				if onBig {
					q = asBig(q)
				}
				b := q.DeepCopy()
				b.Neg()
				b.Neg()
				if b.Cmp(q) != 0 {
					t.Errorf("double negation of %s gave %s", q, b)
				}
			}
		}
	}
}

// TestNewAndSet ports upstream TestMilliNewSet, TestNewSet and
// TestNewScaledSet: constructors and setters print canonically (an unknown
// Format prints as DecimalExponent) and round-trip.
func TestNewAndSet(t *testing.T) {
	for _, c := range []struct {
		value  int64
		format Format
		expect string
		exact  bool
	}{
		{1, DecimalSI, "1m", true},
		{1000, DecimalSI, "1", true},
		{1234000, DecimalSI, "1234", true},
		{1024, BinarySI, "1024m", false},
		{1000000, "invalidFormatDefaultsToExponent", "1e3", true},
		{1024 * 1024, BinarySI, "1048576m", false},
	} {
		q := NewMilliQuantity(c.value, c.format)
		if q.String() != c.expect {
			t.Errorf("milli %d: %q, want %q", c.value, q.String(), c.expect)
		}
		if c.exact {
			if got := MustParse(q.String()).MilliValue(); got != c.value {
				t.Errorf("milli %d round trip: %d", c.value, got)
			}
		}
		q = NewQuantity(0, c.format)
		q.SetMilli(c.value)
		if q.String() != c.expect {
			t.Errorf("SetMilli %d: %q, want %q", c.value, q.String(), c.expect)
		}
	}
	for _, onBig := range []bool{false, true} {
		for _, c := range []struct {
			value  int64
			format Format
			expect string
		}{
			{1, DecimalSI, "1"},
			{1000, DecimalSI, "1k"},
			{1234000, DecimalSI, "1234k"},
			{1024, BinarySI, "1Ki"},
			{1000000, "invalidFormatDefaultsToExponent", "1e6"},
			{1024 * 1024, BinarySI, "1Mi"},
		} {
			q := NewQuantity(c.value, c.format)
			if onBig {
				q = asBig(q)
			}
			if q.String() != c.expect {
				t.Errorf("new %d: %q, want %q", c.value, q.String(), c.expect)
			}
			if got := MustParse(q.String()).Value(); got != c.value {
				t.Errorf("new %d round trip: %d", c.value, got)
			}
			q = NewQuantity(0, c.format)
			q.Set(c.value)
			if onBig {
				q = asBig(q)
			}
			if q.String() != c.expect {
				t.Errorf("Set %d: %q, want %q", c.value, q.String(), c.expect)
			}
		}
	}
	for _, c := range []struct {
		value  int64
		scale  Scale
		expect string
	}{
		{1, Nano, "1n"},
		{1000, Nano, "1u"},
		{1, Micro, "1u"},
		{1000, Micro, "1m"},
		{1, Milli, "1m"},
		{1000, Milli, "1"},
		{1, 0, "1"},
		{0, Nano, "0"},
		{0, Micro, "0"},
		{0, Milli, "0"},
		{0, 0, "0"},
	} {
		q := NewScaledQuantity(c.value, c.scale)
		if q.String() != c.expect {
			t.Errorf("scaled %d,%d: %q, want %q", c.value, c.scale, q.String(), c.expect)
		}
		if got := MustParse(q.String()).ScaledValue(c.scale); got != c.value {
			t.Errorf("scaled %d,%d round trip: %d", c.value, c.scale, got)
		}
		q3 := NewQuantity(0, DecimalSI)
		q3.SetScaled(c.value, c.scale)
		if q.Cmp(q3) != 0 {
			t.Errorf("SetScaled %d,%d differs", c.value, c.scale)
		}
	}
}

// wrapBase × 1000 overflows int64; upstream returns the wrapped product.
var wrapBase int64 = 2000000000000000000

// TestScaledValue ports upstream TestScaledValue, plus the rounding and
// overflow behaviour of both paths.
func TestScaledValue(t *testing.T) {
	for _, c := range []struct {
		from, to Scale
		expected int64
	}{
		{Nano, Nano, 1},
		{Nano, Micro, 1},
		{Nano, Milli, 1},
		{Nano, 0, 1},
		{Micro, Nano, 1000},
		{Micro, Micro, 1},
		{Micro, Milli, 1},
		{Micro, 0, 1},
		{Milli, Nano, 1000 * 1000},
		{Milli, Micro, 1000},
		{Milli, Milli, 1},
		{Milli, 0, 1},
		{0, Nano, 1000 * 1000 * 1000},
		{0, Micro, 1000 * 1000},
		{0, Milli, 1000},
		{0, 0, 1},
		{2, -2, 100 * 100},
	} {
		for _, onBig := range []bool{false, true} {
			q := NewScaledQuantity(1, c.from)
			if onBig {
				q = asBig(q)
			}
			if got := q.ScaledValue(c.to); got != c.expected {
				t.Errorf("%d→%d (big=%v): %d, want %d", c.from, c.to, onBig, got, c.expected)
			}
		}
	}
	for _, c := range []struct {
		q     Quantity
		scale Scale
		want  int64
	}{
		{MustParse("1.5"), 0, 2},
		{MustParse("-1.5"), 0, -2},                                 // away from zero on the fast path
		{asBig(MustParse("-1.5")), 0, 0},                           // upstream's slow path: truncate, then +1
		{MustParse("-0.0000000001"), 0, 1},                         // so a tiny negative rounds to +1
		{MustParse("1e100"), 0, 0},                                 // overflow with an unusual scale gives 0
		{MustParse("1E"), Milli, 0},                                // (1 × 10^18 needs 21 more digits)
		{NewQuantity(wrapBase, DecimalSI), Milli, wrapBase * 1000}, // scale 3 wraps around
		{MustParse("9223372036854775807"), Milli, -1000},           // as does the slow path
	} {
		if got := c.q.ScaledValue(c.scale); got != c.want {
			t.Errorf("%s.ScaledValue(%d) = %d, want %d", c.q, c.scale, got, c.want)
		}
	}
}

// TestAsApproximateFloat64 ports upstream
// TestQuantityAsApproximateFloat64 and TestStringQuantityAsApproximateFloat64.
func TestAsApproximateFloat64(t *testing.T) {
	cases := []struct {
		in  Quantity
		out float64
	}{
		{dq(0, 0, DecimalSI), 0.0},
		{dq(0, 0, DecimalExponent), 0.0},
		{dq(0, 0, BinarySI), 0.0},
		{dq(1, 0, DecimalSI), 1},
		{dq(1, 0, DecimalExponent), 1},
		{dq(1, 0, BinarySI), 1},
		{dq(1024, 0, BinarySI), 1024},
		{dq(8*1024, 0, BinarySI), 8 * 1024},
		{dq(7*1024*1024, 0, BinarySI), 7 * 1024 * 1024},
		{dq(7*1024*1024, 1, BinarySI), (7 * 1024 * 1024) * 10},
		{dq(7*1024*1024, 4, BinarySI), (7 * 1024 * 1024) * 10000},
		{dq(7*1024*1024, 8, BinarySI), (7 * 1024 * 1024) * 100000000},
		{dq(7*1024*1024, -1, BinarySI), (7 * 1024 * 1024) * math.Pow10(-1)},
		{dq(7*1024*1024, -8, BinarySI), (7 * 1024 * 1024) / float64(100000000)},
		{dq(1024, 0, DecimalSI), 1024},
		{dq(8*1024, 0, DecimalSI), 8 * 1024},
		{dq(7*1024*1024, 0, DecimalSI), 7 * 1024 * 1024},
		{dq(7*1024*1024, 1, DecimalSI), (7 * 1024 * 1024) * 10},
		{dq(7*1024*1024, 4, DecimalSI), (7 * 1024 * 1024) * 10000},
		{dq(7*1024*1024, 8, DecimalSI), (7 * 1024 * 1024) * 100000000},
		{dq(7*1024*1024, -1, DecimalSI), (7 * 1024 * 1024) * math.Pow10(-1)},
		{dq(7*1024*1024, -8, DecimalSI), (7 * 1024 * 1024) / float64(100000000)},
		{dq(1024, 0, DecimalExponent), 1024},
		{dq(8*1024, 0, DecimalExponent), 8 * 1024},
		{dq(7*1024*1024, 0, DecimalExponent), 7 * 1024 * 1024},
		{dq(7*1024*1024, 1, DecimalExponent), (7 * 1024 * 1024) * 10},
		{dq(7*1024*1024, 4, DecimalExponent), (7 * 1024 * 1024) * 10000},
		{dq(7*1024*1024, 8, DecimalExponent), (7 * 1024 * 1024) * 100000000},
		{dq(7*1024*1024, -1, DecimalExponent), (7 * 1024 * 1024) * math.Pow10(-1)},
		{dq(7*1024*1024, -8, DecimalExponent), (7 * 1024 * 1024) / float64(100000000)},
		{dq(mostPositive, 0, DecimalSI), math.MaxInt64},
		{dq(mostPositive, 0, BinarySI), math.MaxInt64},
		{dq(12, 18, DecimalSI), 1.2e19},
		{dq(12, 500, DecimalSI), math.Inf(0)},
		{dq(-12, 500, DecimalSI), math.Inf(-1)},
		{MustParse("2Ki"), 2048},
		{MustParse("1.1Ki"), 1126.4e+0},
		{MustParse("1Mi"), 1.048576e+06},
		{MustParse("2Gi"), 2.147483648e+09},
	}
	for i, c := range cases {
		for _, q := range []Quantity{c.in, fastIfPossible(c.in)} {
			if got := q.AsApproximateFloat64(); got != c.out {
				t.Errorf("%d %s: %v, want %v", i, q, got, c.out)
			}
		}
		if v, ok := c.in.AsInt64(); ok {
			if got := NewQuantity(v, c.in.Format).AsApproximateFloat64(); got != c.out {
				t.Errorf("%d as int: %v, want %v", i, got, c.out)
			}
		}
	}
	// Quirk kept from upstream: 0 × 10^400 is 0 × +Inf.
	if f := MustParse("0e400").AsApproximateFloat64(); !math.IsNaN(f) {
		t.Errorf("0e400 = %v, want NaN", f)
	}
}

// TestJSON ports upstream TestJSON (marshal then unmarshal preserves the
// value, for random quantities of every format) and checks exact bytes.
func TestJSON(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for range 500 {
		var q Quantity
		switch r.Intn(4) {
		case 0:
			q = dq(r.Int63(), 0, BinarySI)
		case 1:
			q = dq(r.Int63n(1024)<<uint(10*r.Intn(5)), 0, BinarySI)
		case 2:
			q = dq(r.Int63(), -int32(r.Intn(4)), []Format{DecimalSI, DecimalExponent}[r.Intn(2)])
		default:
			q = dq(r.Int63n(1000), int32(r.Intn(15))-3, []Format{DecimalSI, DecimalExponent}[r.Intn(2)])
		}
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatalf("marshal %s: %v", q, err)
		}
		var q2 Quantity
		if err := json.Unmarshal(b, &q2); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if q2.Cmp(q) != 0 {
			t.Errorf("%s: JSON %s decoded to %s", q, b, q2)
		}
	}
	for _, c := range []struct {
		q    Quantity
		want string
	}{
		{MustParse("100m"), `"100m"`},
		{MustParse("1.5"), `"1500m"`},
		{MustParse("+1"), `"+1"`},
		{NewQuantity(5*1024*1024*1024, BinarySI), `"5Gi"`},
		{Quantity{}, `"0"`},
		{MustParse("12345678901234567890123"), `"12345678901234567890123"`},
	} {
		b, err := json.Marshal(c.q)
		if err != nil || string(b) != c.want {
			t.Errorf("marshal %s: %s %v, want %s", c.q, b, err, c.want)
		}
	}
	// Inside a struct, both by value and by pointer.
	type pod struct {
		CPU Quantity  `json:"cpu"`
		Mem *Quantity `json:"mem,omitempty"`
	}
	mem := MustParse("1Gi")
	b, _ := json.Marshal(pod{CPU: MustParse("250m"), Mem: &mem})
	if string(b) != `{"cpu":"250m","mem":"1Gi"}` {
		t.Errorf("struct JSON %s", b)
	}
	var p pod
	if err := json.Unmarshal([]byte(`{"cpu":1.5,"mem":"512Mi"}`), &p); err != nil || p.CPU.String() != "1500m" || p.Mem.String() != "512Mi" {
		t.Errorf("struct decode %+v %v", p, err)
	}
}

// TestUnmarshalJSON ports upstream TestJSONWhitespace and pins the null,
// quoting and error behaviour.
func TestUnmarshalJSON(t *testing.T) {
	for _, c := range jsonWhitespaceCases {
		var q Quantity
		if err := json.Unmarshal([]byte(c.in), &q); err != nil {
			t.Errorf("%s: %v", c.in, err)
		}
		if q.String() != c.expect {
			t.Errorf("%s: got %q, want %q", c.in, q.String(), c.expect)
		}
		// UnmarshalJSON sees the raw bytes too (encoding/json would
		// reject some of these before calling it).
		var raw Quantity
		if err := raw.UnmarshalJSON([]byte(c.in)); err != nil || raw.String() != c.expect {
			t.Errorf("raw %s: %q %v", c.in, raw.String(), err)
		}
	}
	// Raw whitespace that encoding/json would reject is trimmed too.
	var raw Quantity
	if err := raw.UnmarshalJSON([]byte("\"\t1Gi\n\"")); err != nil || raw.String() != "1Gi" {
		t.Errorf("tab/newline: %q %v", raw.String(), err)
	}
	// null resets the value (upstream keeps the Format).
	q := MustParse("1Gi")
	if err := q.UnmarshalJSON([]byte("null")); err != nil || !q.IsZero() || q.String() != "0" || q.Format != BinarySI {
		t.Errorf("null: %q %s %v", q.String(), q.Format, err)
	}
	for _, in := range []string{`"null"`, ` null`, `""`, `"`, `"1x"`, `{}`, `"1"1"`, `true`} {
		var q Quantity
		if err := q.UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("%s: decoded as %s", in, q)
		}
	}
	// A lone quote pair of whitespace is an empty quantity: an error.
	if err := new(Quantity).UnmarshalJSON([]byte(`" "`)); !errors.Is(err, ErrFormatWrong) {
		t.Errorf(`" ": %v`, err)
	}
}

// TestDeepCopy ports upstream TestQuantityDeepCopy and TestDeepCopy.
func TestDeepCopy(t *testing.T) {
	for _, s := range []string{"0", "100m", "50m", "10000T"} {
		q := MustParse(s)
		if c := q.DeepCopy(); c != q {
			t.Errorf("%s: copy differs", s)
		}
	}
	for _, d := range []Quantity{dq(0, 0, DecimalSI), dq(10, 0, DecimalSI), dq(-10, 0, DecimalSI)} {
		c := d.DeepCopy()
		if c.Cmp(d) != 0 {
			t.Errorf("%s: copy %s", d, c)
		}
		c.Add(NewQuantity(2, DecimalSI))
		if c.Cmp(d) == 0 {
			t.Errorf("modifying the copy affected the original")
		}
	}
	q := NewQuantity(5, DecimalSI)
	c := q.DeepCopy()
	c.Set(6)
	if q.Value() == 6 {
		t.Errorf("copy shares state")
	}
	// Slow-path values are shared copy-on-write, never mutated in place.
	big1 := MustParse("12345678901234567890")
	big2 := big1
	big2.Add(NewQuantity(1, DecimalSI))
	if big1.String() != "12345678901234567890" {
		t.Errorf("shared slow path mutated: %s", big1)
	}
}

// TestEqualWithGoCmp checks that go-cmp compares quantities by value.
func TestEqualWithGoCmp(t *testing.T) {
	a := map[string]Quantity{"cpu": MustParse("1.5"), "memory": MustParse("1Gi")}
	b := map[string]Quantity{"cpu": MustParse("1500m"), "memory": MustParse("1024Mi")}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("equal quantities differ:\n%s", diff)
	}
	b["cpu"] = MustParse("1501m")
	if cmp.Equal(a, b) {
		t.Errorf("different quantities compare equal")
	}
}

// TestStringAllocation checks that printing the remembered form is free.
func TestStringAllocation(t *testing.T) {
	q := MustParse("100m")
	if n := testing.AllocsPerRun(100, func() { _ = q.String() }); n != 0 {
		t.Errorf("String of a parsed canonical value allocates %v times", n)
	}
}

// TestParseAllocations pins the zero-allocation fast path.
func TestParseAllocations(t *testing.T) {
	for _, s := range append(benchInputs, "1.500k", "-5n", "8.1k", "+7Ki") {
		n := testing.AllocsPerRun(100, func() {
			if _, err := ParseQuantity(s); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("ParseQuantity(%q) allocates %v times", s, n)
		}
	}
	a, b := MustParse("1.5"), MustParse("512Mi")
	n := testing.AllocsPerRun(100, func() {
		c := a
		c.Add(b)
		_ = c.Cmp(b) + int(c.Value()+c.MilliValue())
	})
	if n != 0 {
		t.Errorf("fast-path arithmetic allocates %v times", n)
	}
}

// TestFormatNames pins the Format strings, which appear in serialised
// forms elsewhere.
func TestFormatNames(t *testing.T) {
	got := []string{string(DecimalExponent), string(BinarySI), string(DecimalSI)}
	if want := []string{"DecimalExponent", "BinarySI", "DecimalSI"}; !cmp.Equal(got, want) {
		t.Errorf("got %v", got)
	}
	if s := strings.Join([]string{fmt.Sprint(Nano), fmt.Sprint(Exa)}, ","); s != "-9,18" {
		t.Errorf("scales %s", s)
	}
}
