// Package quantitygen provides pgregory.net/rapid generators of quantities
// and quantity strings for property-based tests.
//
// Every string from String parses, and every Quantity from these
// generators round-trips: parsing its String() gives an Equal quantity.
// The printed form is stable from then on; on the first round only a
// BinarySI value that is not a whole number of Ki may change spelling
// ("55335000" re-parses as DecimalSI and prints "55335k"). Upstream drops
// the suffix of DecimalSI values of 1000E and above, losing their value, so
// the generators stay below that.
package quantitygen

import (
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/quantity"
)

var (
	decimalSuffixes = []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E"}
	// decimalExp is the power of ten of each decimal suffix above.
	decimalExp      = []int{0, -9, -6, -3, 3, 6, 9, 12, 15, 18}
	binarySuffixes  = []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	formats         = []quantity.Format{quantity.DecimalSI, quantity.BinarySI, quantity.DecimalExponent}
	scales          = []quantity.Scale{quantity.Nano, quantity.Micro, quantity.Milli, 0, quantity.Kilo, quantity.Mega, quantity.Giga, quantity.Tera, quantity.Peta, quantity.Exa}
	maxDecimalDigit = 21 // DecimalSI values stay below 10^21 (1000E)
)

// digits draws a run of n decimal digits, biased towards zeros so that
// trailing and leading zeros (and hence canonicalisation) get exercised.
func digits(t *rapid.T, n int, label string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if rapid.IntRange(0, 3).Draw(t, label+"Zero") == 0 {
			b.WriteByte('0')
		} else {
			b.WriteByte(byte('0' + rapid.IntRange(1, 9).Draw(t, label+"Digit")))
		}
	}
	return b.String()
}

// String generates strings that quantity.ParseQuantity accepts: an
// optional sign, integer and fraction digits (either may be empty, and
// leading or trailing zeros are common), and a decimal SI suffix, a binary
// SI suffix or an e/E exponent. Odd but valid forms such as "1.", ".5",
// "+007", "1.Ki", "1E3" and "-0" all occur. DecimalSI strings stay below
// 1000E so that they print with a suffix.
func String() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		b.WriteString(rapid.SampledFrom([]string{"", "", "+", "-"}).Draw(t, "sign"))

		kind := rapid.IntRange(0, 2).Draw(t, "suffixKind")
		maxInt := 20
		var suffix string
		switch kind {
		case 0: // decimal SI
			i := rapid.IntRange(0, len(decimalSuffixes)-1).Draw(t, "decimalSuffix")
			suffix = decimalSuffixes[i]
			maxInt = min(maxInt, maxDecimalDigit-1-max(decimalExp[i], 0))
		case 1: // binary SI
			suffix = rapid.SampledFrom(binarySuffixes).Draw(t, "binarySuffix")
		default: // exponent
			e := rapid.IntRange(-30, 30).Draw(t, "exponent")
			mark := rapid.SampledFrom([]string{"e", "E"}).Draw(t, "expMark")
			sign := ""
			if e >= 0 && rapid.Bool().Draw(t, "expPlus") {
				sign = "+"
			}
			suffix = mark + sign + strconv.Itoa(e)
		}

		intPart := digits(t, rapid.IntRange(0, maxInt).Draw(t, "intLen"), "int")
		fracPart, point := "", false
		if rapid.IntRange(0, 2).Draw(t, "hasPoint") == 0 {
			point = true
			fracPart = digits(t, rapid.IntRange(0, 12).Draw(t, "fracLen"), "frac")
		}
		if intPart == "" && fracPart == "" {
			intPart = strconv.Itoa(rapid.IntRange(0, 9).Draw(t, "lone"))
		}
		b.WriteString(intPart)
		if point {
			b.WriteByte('.')
			b.WriteString(fracPart)
		}
		b.WriteString(suffix)
		return b.String()
	})
}

// Quantity generates valid quantities of all three formats, covering the
// int64 fast path and the math/big slow path: parsed String() values, and
// values from NewQuantity, NewMilliQuantity and NewScaledQuantity,
// including extreme int64 mantissas.
func Quantity() *rapid.Generator[quantity.Quantity] {
	return rapid.OneOf(
		rapid.Map(String(), quantity.MustParse),
		rapid.Custom(func(t *rapid.T) quantity.Quantity {
			return quantity.NewQuantity(rapid.Int64().Draw(t, "value"), rapid.SampledFrom(formats).Draw(t, "format"))
		}),
		rapid.Custom(func(t *rapid.T) quantity.Quantity {
			return quantity.NewMilliQuantity(rapid.Int64().Draw(t, "milli"), rapid.SampledFrom(formats).Draw(t, "format"))
		}),
		rapid.Custom(func(t *rapid.T) quantity.Quantity {
			scale := rapid.SampledFrom(scales).Draw(t, "scale")
			// Keep |value| × 10^scale below 10^21 so the DecimalSI
			// suffix exists.
			bound := int64(1<<63 - 1)
			if room := maxDecimalDigit - int(scale); room < 19 {
				bound = 1
				for range room {
					bound *= 10
				}
				bound--
			}
			return quantity.NewScaledQuantity(rapid.Int64Range(-bound, bound).Draw(t, "value"), scale)
		}),
	)
}

// CPU generates realistic CPU amounts, from 1m to 128 cores, favouring
// round requests such as 100m, 250m, 500m, 1 and 2, in the printed forms
// people write ("250m", "2", "1.5", "0.1").
func CPU() *rapid.Generator[quantity.Quantity] {
	return rapid.Custom(func(t *rapid.T) quantity.Quantity {
		var milli int64
		if rapid.Bool().Draw(t, "round") {
			milli = rapid.SampledFrom([]int64{10, 50, 100, 200, 250, 500, 750, 1000, 1500, 2000, 4000, 8000, 16000, 32000}).Draw(t, "milli")
		} else {
			milli = rapid.Int64Range(1, 128000).Draw(t, "milli")
		}
		var s string
		switch {
		case milli%1000 == 0 && rapid.Bool().Draw(t, "cores"):
			s = strconv.FormatInt(milli/1000, 10)
		case rapid.Bool().Draw(t, "fraction"):
			s = strconv.FormatFloat(float64(milli)/1000, 'f', -1, 64)
		default:
			s = strconv.FormatInt(milli, 10) + "m"
		}
		return quantity.MustParse(s)
	})
}

// Memory generates realistic memory amounts, from 1Mi to 1Ti, mostly in
// BinarySI ("512Mi", "1.5Gi") with some DecimalSI ("100M", "2G") and plain
// byte counts.
func Memory() *rapid.Generator[quantity.Quantity] {
	return rapid.Custom(func(t *rapid.T) quantity.Quantity {
		var s string
		switch rapid.IntRange(0, 5).Draw(t, "style") {
		case 0, 1:
			n := rapid.SampledFrom([]int64{64, 128, 256, 512, 768, 1024, 1536, 2048, 4096}).Draw(t, "mi")
			s = strconv.FormatInt(n, 10) + "Mi"
		case 2:
			n := rapid.Int64Range(1, 512).Draw(t, "gi")
			s = strconv.FormatInt(n, 10) + "Gi"
			if rapid.Bool().Draw(t, "half") && n < 512 {
				s = strconv.FormatInt(n, 10) + ".5Gi"
			}
		case 3:
			if rapid.Bool().Draw(t, "giga") {
				s = strconv.FormatInt(rapid.Int64Range(1, 1024).Draw(t, "gb"), 10) + "G"
			} else {
				s = strconv.FormatInt(rapid.Int64Range(2, 1000000).Draw(t, "mb"), 10) + "M"
			}
		case 4:
			s = strconv.FormatInt(rapid.Int64Range(1<<20, 1<<40).Draw(t, "bytes"), 10)
		default:
			n := rapid.Int64Range(1, 1<<20).Draw(t, "ki")
			s = strconv.FormatInt(n*1024, 10) + "Ki"
		}
		return quantity.MustParse(s)
	})
}
