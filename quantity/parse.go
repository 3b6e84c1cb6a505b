package quantity

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// splitPattern is the (deliberately loose) shape every quantity must have;
// it only appears in ErrFormatWrong's message, as upstream.
const splitPattern = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"

// Errors reported by ParseQuantity, with upstream's messages. The errors
// returned by ParseQuantity wrap one of them; test with errors.Is.
var (
	// ErrFormatWrong means the string does not have the shape of a quantity.
	ErrFormatWrong = errors.New("quantities must match the regular expression '" + splitPattern + "'")
	// ErrNumeric means the numeric part could not be read.
	ErrNumeric = errors.New("unable to parse numeric part of quantity")
	// ErrSuffix means the suffix is not one of the known ones.
	ErrSuffix = errors.New("unable to parse quantity's suffix")
)

// ParseQuantity turns str into a Quantity. The Format is taken from the
// suffix. Values finer than 1n are rounded up (away from zero) to 1n;
// BinarySI values beyond 2^63-1 in magnitude are capped. On failure the
// error quotes str and wraps ErrFormatWrong, ErrSuffix or ErrNumeric.
//
// Common inputs ("100m", "1.5", "512Mi", "1e3") are parsed without
// allocating.
func ParseQuantity(str string) (Quantity, error) {
	q, err := parse(str)
	if err != nil {
		return Quantity{}, fmt.Errorf("quantity %q: %w", str, err)
	}
	return q, nil
}

// MustParse is ParseQuantity for strings known to be valid (tests,
// constants); it panics otherwise, with upstream's message
// "cannot parse '<str>': <reason>" (the panic value wraps the sentinel).
func MustParse(str string) Quantity {
	q, err := parse(str)
	if err != nil {
		panic(fmt.Errorf("cannot parse '%v': %w", str, err))
	}
	return q
}

// parse returns one of the sentinel errors unwrapped.
func parse(str string) (Quantity, error) {
	if len(str) == 0 {
		return Quantity{}, ErrFormatWrong
	}
	if str == "0" {
		return Quantity{Format: DecimalSI, s: str}, nil
	}

	positive, value, num, denom, suf, ok := scan(str)
	if !ok {
		return Quantity{}, ErrFormatWrong
	}
	base, exponent, format, ok := interpretSuffix(suf)
	if !ok {
		return Quantity{}, ErrSuffix
	}

	// Fast path: at most 18 significant digits, scale no finer than nano.
	var precision, scale int32
	mantissa := int64(1)
	switch format {
	case DecimalExponent, DecimalSI:
		scale = exponent
		precision = maxDigits - int32(len(num)+len(denom))
	case BinarySI:
		if exponent >= 0 && len(denom) == 0 {
			mantissa = 1 << uint(exponent)
			// 2^(10k) has about 3k decimal digits.
			precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
		} else {
			precision = -1
		}
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= int32(Nano) {
			v := digitValue(num, denom)
			if r, ok := mulInt64(v, mantissa); ok {
				if !positive {
					r = -r
				}
				q := Quantity{i: amount{value: r, scale: Scale(scale)}, Format: format}
				if looksCanonical(format, exponent, scale, v, num, denom) {
					q.s = str
				}
				return q, nil
			}
		}
	}
	return parseSlow(value, base, exponent, format)
}

// looksCanonical is upstream's test for keeping the input string as the
// printed form: for BinarySI a mantissa that is not a multiple of 8, for the
// decimal formats a scale that is a multiple of three, digits that do not
// end in "000" and do not start with '0'.
func looksCanonical(format Format, exponent, scale int32, v int64, num, denom string) bool {
	if format == BinarySI {
		return exponent%10 == 0 && v&0x07 != 0
	}
	return scale%3 == 0 && !endsWith000(num, denom) && num[0] != '0'
}

// endsWith000 reports whether a+b ends in "000".
func endsWith000(a, b string) bool {
	n := 0
	for i := len(b) - 1; i >= 0 && n < 3; i-- {
		if b[i] != '0' {
			return false
		}
		n++
	}
	for i := len(a) - 1; i >= 0 && n < 3; i-- {
		if a[i] != '0' {
			return false
		}
		n++
	}
	return n == 3
}

// digitValue reads the digits of a+b (at most 18 of them) as an integer.
func digitValue(a, b string) int64 {
	var v int64
	for i := 0; i < len(a); i++ {
		v = v*10 + int64(a[i]-'0')
	}
	for i := 0; i < len(b); i++ {
		v = v*10 + int64(b[i]-'0')
	}
	return v
}

// parseSlow handles everything the int64 path cannot: many digits, scales
// finer than nano, fractional or huge binary values.
func parseSlow(value string, base, exponent int32, format Format) (Quantity, error) {
	d, ok := parseDecimal(value)
	if !ok {
		return Quantity{}, ErrNumeric
	}
	switch base {
	case 10:
		d.scale += Scale(exponent).decScale()
	case 2:
		d.coef.Lsh(d.coef, uint(exponent))
	}

	negative := d.sign() < 0
	if negative {
		d.coef.Neg(d.coef)
	}
	// Round anything finer than a nano up: asking for a little of a
	// resource should get some.
	if d.sign() != 0 {
		d, _ = d.round(Nano.decScale())
	}
	if format == BinarySI {
		if d.cmp(maxInt64Decimal) > 0 {
			d = maxInt64Decimal
		}
		if d.sign() > 0 && d.cmp(oneDecimal) < 0 {
			format = DecimalSI
		}
	}
	if negative {
		d = d.neg()
	}
	return Quantity{d: d, Format: format}, nil
}

var (
	maxInt64Decimal = newDecimal(big.NewInt(math.MaxInt64), 0, 0)
	oneDecimal      = newDecimal(bigOne, 0, 0)
)

// parseDecimal reads "[+-]digits[.digits]" (either digit run may be empty,
// but not both) into a fresh decimal whose scale is the number of digits
// after the point.
func parseDecimal(s string) (*decimal, bool) {
	buf := make([]byte, 0, len(s))
	var scale int32
	seenPoint, seenDigit := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '-' && i == 0:
			buf = append(buf, c)
		case c == '+' && i == 0:
		case c == '.' && !seenPoint:
			seenPoint = true
		case c >= '0' && c <= '9':
			seenDigit = true
			buf = append(buf, c)
			if seenPoint {
				scale++
			}
		default:
			return nil, false
		}
	}
	if !seenDigit {
		return nil, false
	}
	coef, ok := new(big.Int).SetString(string(buf), 10)
	if !ok {
		return nil, false
	}
	return &decimal{coef: coef, scale: scale}, true
}

// scan splits str into sign, number and suffix the way upstream's scanner
// does. value is the signed numeric text (for the slow path), num the
// integer digits without leading zeros ("0" if there are none), denom the
// fraction digits. ok is false when the string has the wrong shape.
func scan(str string) (positive bool, value, num, denom, suffix string, ok bool) {
	positive = true
	pos, end := 0, len(str)
	switch str[0] {
	case '-':
		positive = false
		pos++
	case '+':
		pos++
	}

	for pos < end && str[pos] == '0' {
		pos++
	}
	if pos == end {
		return positive, "0", "0", "", "", true
	}

	start := pos
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	num = str[start:pos]
	if pos == end {
		return positive, str, num, "", "", true
	}
	if num == "" {
		num = "0"
	}

	if str[pos] == '.' {
		pos++
		start = pos
		for pos < end && isDigit(str[pos]) {
			pos++
		}
		denom = str[start:pos]
		if pos == end {
			return positive, str, num, denom, "", true
		}
	}
	value = str[:pos]

	start = pos
	for pos < end && isSuffixLetter(str[pos]) {
		pos++
	}
	if pos < end && (str[pos] == '-' || str[pos] == '+') {
		pos++
	}
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	if pos < end {
		return positive, value, num, denom, "", false
	}
	return positive, value, num, denom, str[start:], true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSuffixLetter(c byte) bool {
	switch c {
	case 'e', 'E', 'i', 'n', 'u', 'm', 'k', 'K', 'M', 'G', 'T', 'P':
		return true
	}
	return false
}

// interpretSuffix maps a suffix to its base (10 or 2), exponent and format.
func interpretSuffix(s string) (base, exponent int32, format Format, ok bool) {
	switch s {
	case "":
		return 10, 0, DecimalSI, true
	case "n":
		return 10, -9, DecimalSI, true
	case "u":
		return 10, -6, DecimalSI, true
	case "m":
		return 10, -3, DecimalSI, true
	case "k":
		return 10, 3, DecimalSI, true
	case "M":
		return 10, 6, DecimalSI, true
	case "G":
		return 10, 9, DecimalSI, true
	case "T":
		return 10, 12, DecimalSI, true
	case "P":
		return 10, 15, DecimalSI, true
	case "E":
		return 10, 18, DecimalSI, true
	case "Ki":
		return 2, 10, BinarySI, true
	case "Mi":
		return 2, 20, BinarySI, true
	case "Gi":
		return 2, 30, BinarySI, true
	case "Ti":
		return 2, 40, BinarySI, true
	case "Pi":
		return 2, 50, BinarySI, true
	case "Ei":
		return 2, 60, BinarySI, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		v, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, 0, DecimalExponent, false
		}
		// Truncated to 32 bits, as upstream does.
		return 10, int32(v), DecimalExponent, true
	}
	return 0, 0, DecimalExponent, false
}

// decimalSuffix returns the DecimalSI suffix for a base-10 exponent, or
// false when there is none (the number is then printed bare, as upstream).
func decimalSuffix(exp int32) (string, bool) {
	switch exp {
	case -9:
		return "n", true
	case -6:
		return "u", true
	case -3:
		return "m", true
	case 0:
		return "", true
	case 3:
		return "k", true
	case 6:
		return "M", true
	case 9:
		return "G", true
	case 12:
		return "T", true
	case 15:
		return "P", true
	case 18:
		return "E", true
	}
	return "", false
}

// binarySuffix returns the BinarySI suffix for a base-2 exponent.
func binarySuffix(exp int32) (string, bool) {
	switch exp {
	case 10:
		return "Ki", true
	case 20:
		return "Mi", true
	case 30:
		return "Gi", true
	case 40:
		return "Ti", true
	case 50:
		return "Pi", true
	case 60:
		return "Ei", true
	}
	return "", false
}
