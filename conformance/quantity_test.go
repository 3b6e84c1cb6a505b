package conformance

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/conformance/internal/upstream"
	"github.com/schedkit/schedkit/internal/testing/regression"
	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/quantity/quantitygen"
)

// oddQuantities are inputs at the edges of the grammar and of int64.
var oddQuantities = []string{
	"", " ", "0", "-0", "+0", "+1", "-1", "5.", ".5", "-.5", "+.5", ".", "+", "-", "+-1", "--1",
	"00001", "0.000", "1e", "1E", "1e3", "1E3", "1e+3", "1E-3", "1.0e-3", "1e-9", "1e-10", "1e18", "1e19",
	"1e308", "1e-308", "1e+", "1e-", "e3", "E3", "1e1e1", "1..2", "1.2.3", "1Ki", "1Mi", "1.5Gi", "0.5Ki",
	"1.1Ki", "-1Ki", "1024Ki", "8Ei", "7Ei", "8191Pi", "9Ei", "16Ei", "1Ei", "1i", "1K", "1KI", "1ki",
	"1mi", "1b", "1n", "0.1n", "0.5n", "1.5n", "-1n", "-0.1n", "1u", "1m", "100m", "1000m", "-1000m", "0.1",
	"1.5", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"9223372036854775807m", "9223372036854775807k", "9223372036854775807E", "92233720368547758070",
	"18446744073709551616", "123456789012345678901234567890", "0.123456789012345678901234567890",
	"1" + strings.Repeat("0", 60), "0." + strings.Repeat("0", 60) + "1", strings.Repeat("9", 100) + "Ei",
	" 1", "1 ", "1\t", "\n1", "1 Ki", "1,5", "1_000", "0x10", "1e3Ki", "1Kie3", "١", "1\u00a0", "∞", "NaN",
	"Inf", "1.5e3", "2.5E-2", "-1.5e+3", "12E6", "12e-9", "1e-18", "1e-19", "123.456m", "0.0001m",
	"1e2m", "1mE2",
}

var suffixes = []string{
	"", "", "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
	"e", "E", "e0", "e3", "E6", "e-3", "E-9", "e+2", "e18", "e-18", "e19", "e-20", "e999", "e-999",
	"i", "K", "Kb", "mi", "x", "e3i", "e++3",
}

// quantityString draws strings that look like quantities, valid or not:
// a sign, digits (leading zeros, long runs), a fraction, a suffix or
// exponent, white space; schedkit's quantitygen strings and canonical
// forms; the odd inputs; arbitrary text.
func quantityString() *rapid.Generator[string] {
	digits := rapid.Custom(func(t *rapid.T) string {
		switch rapid.IntRange(0, 9).Draw(t, "digitsKind") {
		case 0:
			return ""
		case 1:
			return strings.Repeat("0", rapid.IntRange(1, 5).Draw(t, "zeros")) + rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 0, 4, -1).Draw(t, "d")
		case 2:
			return rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 15, 45, -1).Draw(t, "long")
		default:
			return rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 1, 6, -1).Draw(t, "d")
		}
	})
	structured := rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		b.WriteString(rapid.SampledFrom([]string{"", "", "", "+", "-"}).Draw(t, "sign"))
		b.WriteString(digits.Draw(t, "int"))
		if rapid.IntRange(0, 2).Draw(t, "hasDot") == 0 {
			b.WriteString(".")
			b.WriteString(digits.Draw(t, "frac"))
		}
		b.WriteString(rapid.SampledFrom(suffixes).Draw(t, "suffix"))
		s := b.String()
		if rapid.IntRange(0, 15).Draw(t, "space") == 0 {
			s = rapid.SampledFrom([]string{" ", "\t", "\n"}).Draw(t, "ws") + s
		}
		if rapid.IntRange(0, 15).Draw(t, "spaceAfter") == 0 {
			s += rapid.SampledFrom([]string{" ", "\t", "\n"}).Draw(t, "ws")
		}
		return s
	})
	return rapid.OneOf(
		structured, structured, structured, structured,
		quantitygen.String(),
		rapid.Map(quantitygen.Quantity(), quantity.Quantity.String),
		rapid.SampledFrom(oddQuantities),
		rapid.StringOfN(rapid.RuneFrom([]rune("0123456789.+-eEinumkKMGTP ")), 0, 12, -1),
		rapid.String(),
	)
}

func quantityInput() *rapid.Generator[*regression.QuantityInput] {
	return rapid.Custom(func(t *rapid.T) *regression.QuantityInput {
		in := &regression.QuantityInput{S: quantityString().Draw(t, "s")}
		if rapid.IntRange(0, 2).Draw(t, "binary") > 0 {
			o := quantityString().Draw(t, "other")
			in.Other = &o
		}
		if rapid.IntRange(0, 3).Draw(t, "constructors") == 0 {
			v := rapid.OneOf(rapid.Int64Range(-5000, 5000), rapid.Int64(),
				rapid.SampledFrom([]int64{0, 1, -1, 999, 1000, 1023, 1024, 1536, 1 << 20, 1<<63 - 1, -1 << 63, 1e18})).Draw(t, "value")
			in.New = &regression.NewQuantityInput{Value: v,
				Format: rapid.SampledFrom([]string{"DecimalSI", "BinarySI", "DecimalExponent", "", "bogus"}).Draw(t, "format"),
				Scale:  rapid.Int32Range(-12, 21).Draw(t, "newScale")}
		}
		if rapid.Bool().Draw(t, "scaled") {
			sc := rapid.SampledFrom([]int32{-9, -6, -3, -1, 0, 1, 2, 3, 6, 9, 12, 18, -12, -18, -20, 20}).Draw(t, "scale")
			in.Scale = &sc
		}
		return in
	})
}

// TestQuantity compares parsing, printing, values, JSON and arithmetic of
// quantities with apimachinery's resource.Quantity.
func TestQuantity(t *testing.T) {
	Property(t, regression.KindQuantity, quantityInput(), upFn(upstream.Quantity), nil)
}
