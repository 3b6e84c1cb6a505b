package quantity

import (
	"errors"
	"strings"
	"testing"
)

// hugeExponent reports whether s holds an exponent of ten or more digits.
// Such exponents push upstream's 32-bit scale arithmetic into wrap-around,
// where printing and re-parsing need not agree (upstream itself does not
// finish some of these computations).
func hugeExponent(s string) bool {
	run := 0
	afterE := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 'e' || c == 'E':
			afterE, run = true, 0
		case afterE && c >= '0' && c <= '9':
			run++
			if run >= 10 {
				return true
			}
		case afterE && (c == '+' || c == '-') && run == 0:
		default:
			afterE = false
		}
	}
	return false
}

// printsLossily reports the upstream quirk where a DecimalSI value of
// 1000E or more has no suffix for its exponent and prints as its bare
// mantissa ("1000E" prints "1").
func printsLossily(q Quantity) bool {
	if q.s != "" || q.Format != DecimalSI || q.IsZero() {
		return false
	}
	_, exp := q.canonical10(nil)
	_, ok := decimalSuffix(exp)
	return !ok
}

// checkReparse asserts the String round trip for a parsed quantity, except
// in the two documented quirk regimes.
func checkReparse(t *testing.T, input string, q Quantity) {
	if hugeExponent(input) || printsLossily(q) {
		return
	}
	s := q.String()
	q2, err := ParseQuantity(s)
	if err != nil {
		t.Fatalf("%q prints as %q, which does not parse: %v", input, s, err)
	}
	if !q2.Equal(q) {
		t.Fatalf("%q prints as %q, which re-parses to a different value", input, s)
	}
	binaryBare := q.Format == BinarySI && !strings.HasSuffix(s, "i")
	if s2 := q2.String(); s2 != s && !binaryBare {
		t.Fatalf("%q prints as %q, which re-prints as %q", input, s, s2)
	}
}

func isSentinel(err error) bool {
	return errors.Is(err, ErrFormatWrong) || errors.Is(err, ErrSuffix) || errors.Is(err, ErrNumeric)
}

// FuzzParseQuantity: parsing never panics, errors wrap a sentinel, and a
// parsed quantity's String re-parses to an equal quantity.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range seedStrings() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			if !isSentinel(err) || !strings.Contains(err.Error(), `"`) {
				t.Fatalf("%q: unexpected error %v", s, err)
			}
			return
		}
		// Exercise the accessors for panics.
		_, _ = q.Value(), q.MilliValue()
		_, _ = q.AsInt64()
		_ = q.AsApproximateFloat64()
		if _, err := q.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
		checkReparse(t, s, q)
	})
}

// FuzzUnmarshalJSON: decoding never panics, errors wrap a sentinel, and a
// decoded quantity survives MarshalJSON → UnmarshalJSON.
func FuzzUnmarshalJSON(f *testing.F) {
	for _, c := range jsonWhitespaceCases {
		f.Add([]byte(c.in))
	}
	for _, s := range seedStrings() {
		f.Add([]byte(s))
		f.Add([]byte(`"` + s + `"`))
	}
	f.Add([]byte("null"))
	f.Add([]byte(`"null"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var q Quantity
		if err := q.UnmarshalJSON(data); err != nil {
			if !isSentinel(err) {
				t.Fatalf("%q: unexpected error %v", data, err)
			}
			return
		}
		b, err := q.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if hugeExponent(string(data)) || printsLossily(q) {
			return
		}
		var back Quantity
		if err := back.UnmarshalJSON(b); err != nil {
			t.Fatalf("%q re-encoded as %s, which does not decode: %v", data, b, err)
		}
		if !back.Equal(q) {
			t.Fatalf("%q re-encoded as %s, which decodes differently", data, b)
		}
	})
}

// TestFuzzHelpers pins the quirk detectors used by the fuzz targets.
func TestFuzzHelpers(t *testing.T) {
	for s, want := range map[string]bool{"1e3": false, "1e123456789": false, "1e1234567890": true, "1E-0000000001": true, "1Ei": false} {
		if hugeExponent(s) != want {
			t.Errorf("hugeExponent(%q) != %v", s, want)
		}
	}
	for s, want := range map[string]bool{"1000E": true, "999E": false, "1000e18": false, "12345678901234567890123": false, "1e21": false} {
		if got := printsLossily(MustParse(s)); got != want {
			t.Errorf("printsLossily(%q) = %v", s, got)
		}
	}
}
