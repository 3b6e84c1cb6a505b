package quantity

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// Format is the notation a Quantity prints in. Parsing records the format
// of the suffix that was used; the field may be changed at will.
type Format string

// The three notations. Any other value (including "") prints as
// DecimalExponent.
const (
	DecimalExponent = Format("DecimalExponent") // e.g. 12e6
	BinarySI        = Format("BinarySI")        // e.g. 12Mi (12 × 2^20)
	DecimalSI       = Format("DecimalSI")       // e.g. 12M (12 × 10^6)
)

// Quantity is an exact decimal amount of a resource together with the
// notation it prints in. The zero value is a valid 0.
//
// Values whose mantissa fits an int64 (with a base-10 scale) are held
// without allocation; others use math/big. A Quantity is a value type:
// copies are independent, and the methods that change it take a pointer.
type Quantity struct {
	i amount   // the value when d == nil
	d *decimal // the value when non-nil; immutable, may be shared
	// s is the parsed input when upstream would print it verbatim; it is
	// cleared by every change of value.
	s string

	// Format is the notation used by String and MarshalJSON.
	Format Format
}

// NewQuantity returns value in the given format.
func NewQuantity(value int64, format Format) Quantity {
	return Quantity{i: amount{value: value}, Format: format}
}

// NewMilliQuantity returns value/1000 in the given format. BinarySI values
// that are not whole, or are below 1024 in magnitude, print as DecimalSI.
func NewMilliQuantity(value int64, format Format) Quantity {
	return Quantity{i: amount{value: value, scale: Milli}, Format: format}
}

// NewScaledQuantity returns value × 10^scale in DecimalSI format.
func NewScaledQuantity(value int64, scale Scale) Quantity {
	return Quantity{i: amount{value: value, scale: scale}, Format: DecimalSI}
}

// DeepCopy returns an independent copy of q. Quantities never share
// mutable state, so this is q itself; it exists for API compatibility.
func (q Quantity) DeepCopy() Quantity { return q }

// big returns the value as a decimal (converting the fast path).
func (q Quantity) big() *decimal {
	if q.d != nil {
		return q.d
	}
	return decimalFromAmount(q.i)
}

// IsZero reports whether q is 0.
func (q Quantity) IsZero() bool {
	if q.d != nil {
		return q.d.sign() == 0
	}
	return q.i.value == 0
}

// Sign returns -1, 0 or 1 as q is negative, zero or positive.
func (q Quantity) Sign() int {
	if q.d != nil {
		return q.d.sign()
	}
	return q.i.sign()
}

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y.
// The comparison is exact and ignores Format.
func (q Quantity) Cmp(y Quantity) int {
	if q.d == nil && y.d == nil {
		return q.i.cmp(y.i)
	}
	return q.big().cmp(y.big())
}

// CmpInt64 compares q with the integer y like Cmp.
func (q Quantity) CmpInt64(y int64) int {
	if q.d == nil {
		return q.i.cmp(amount{value: y})
	}
	return q.d.cmp(decimalFromAmount(amount{value: y}))
}

// Equal reports whether q and y have the same value (Format is ignored).
// It makes go-cmp compare quantities by value.
func (q Quantity) Equal(y Quantity) bool { return q.Cmp(y) == 0 }

// AsInt64 returns q as an int64 when that is cheap and exact: the value
// must be held on the fast path with a non-negative scale and fit an int64.
// Like upstream, it reports false for big-path values and for fast-path
// values with a fractional scale even when they are whole ("1000m").
func (q Quantity) AsInt64() (int64, bool) {
	if q.d != nil {
		return 0, false
	}
	return q.i.asInt64()
}

// AsApproximateFloat64 returns q as a float64, possibly losing precision;
// values beyond the float64 range give ±Inf.
func (q Quantity) AsApproximateFloat64() float64 {
	if q.d != nil {
		return q.d.float64()
	}
	base, exp := float64(q.i.value), int(q.i.scale)
	if exp == 0 {
		return base
	}
	return base * math.Pow10(exp)
}

// Value returns q rounded up to an integer (away from zero for int64-sized
// values). It overflows silently for values outside int64.
func (q Quantity) Value() int64 { return q.ScaledValue(0) }

// MilliValue returns q×1000 rounded up like Value. Compare Value with
// math.MaxInt64/1000 first if overflow matters.
func (q Quantity) MilliValue() int64 { return q.ScaledValue(Milli) }

// ScaledValue returns q / 10^scale rounded up, e.g.
// NewQuantity(1, DecimalSI).ScaledValue(Milli) is 1000. On the int64 fast
// path rounding is away from zero and an overflowing result is 0; big-path
// values follow upstream's arithmetic exactly, wrap-around included.
func (q Quantity) ScaledValue(scale Scale) int64 {
	if q.d == nil {
		v, _ := q.i.asScaledInt64(scale)
		return v
	}
	return q.d.scaledValue(int(scale.decScale()))
}

// RoundUp rounds q up (away from zero) to a multiple of 10^scale and
// reports whether no precision was lost.
func (q *Quantity) RoundUp(scale Scale) bool {
	if q.d != nil {
		q.s = ""
		d, exact := q.d.round(scale.decScale())
		q.d = d
		return exact
	}
	if q.i.scale >= scale {
		return true // unchanged, keep the remembered string
	}
	q.s = ""
	var exact bool
	q.i, exact = q.i.roundTo(scale)
	return exact
}

// Add adds y to q. If q is zero it takes y's Format.
func (q *Quantity) Add(y Quantity) {
	q.s = ""
	if q.d == nil && y.d == nil {
		if q.i.value == 0 {
			q.Format = y.Format
		}
		if q.i.add(y.i) {
			return
		}
	} else if q.IsZero() {
		q.Format = y.Format
	}
	q.d = q.big().add(y.big())
}

// Sub subtracts y from q. If q is zero it takes y's Format.
func (q *Quantity) Sub(y Quantity) {
	q.s = ""
	if q.IsZero() {
		q.Format = y.Format
	}
	if q.d == nil && y.d == nil && q.i.sub(y.i) {
		return
	}
	q.d = q.big().add(y.big().neg())
}

// Neg negates q (math.MinInt64 on the fast path stays itself, as upstream).
func (q *Quantity) Neg() {
	q.s = ""
	if q.d == nil {
		q.i.value = -q.i.value
		return
	}
	q.d = q.d.neg()
}

// Set sets q to value, keeping its Format.
func (q *Quantity) Set(value int64) { q.SetScaled(value, 0) }

// SetMilli sets q to value/1000, keeping its Format.
func (q *Quantity) SetMilli(value int64) { q.SetScaled(value, Milli) }

// SetScaled sets q to value × 10^scale, keeping its Format.
func (q *Quantity) SetScaled(value int64, scale Scale) {
	q.s = ""
	q.d = nil
	q.i = amount{value: value, scale: scale}
}

// String returns the canonical form of q in its Format (see the package
// documentation), or the parsed input when upstream would keep it.
func (q Quantity) String() string {
	if q.s != "" {
		return q.s
	}
	var buf [32]byte
	return string(q.appendCanonical(buf[:0]))
}

// MarshalJSON encodes q as a JSON string holding q.String().
func (q Quantity) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 24)
	out = append(out, '"')
	if q.s != "" {
		out = append(out, q.s...)
	} else {
		out = q.appendCanonical(out)
	}
	return append(out, '"'), nil
}

var jsonNull = []byte("null")

// UnmarshalJSON accepts a JSON string or number holding a quantity, with
// surrounding whitespace tolerated inside the quotes (as upstream). A JSON
// null sets q to zero and keeps its Format.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	if bytes.Equal(data, jsonNull) {
		q.i, q.d, q.s = amount{}, nil, ""
		return nil
	}
	if l := len(data); l >= 2 && data[0] == '"' && data[l-1] == '"' {
		data = data[1 : l-1]
	}
	parsed, err := ParseQuantity(strings.TrimSpace(string(data)))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}

// appendCanonical appends the canonical text of q (ignoring q.s).
func (q Quantity) appendCanonical(out []byte) []byte {
	if q.IsZero() {
		return append(out, '0')
	}
	format := q.Format
	var rounded Quantity
	switch format {
	case DecimalExponent, DecimalSI:
	case BinarySI:
		if q.CmpInt64(-1024) > 0 && q.CmpInt64(1024) < 0 {
			// Small values would need fractions of Ki; print decimally.
			format = DecimalSI
		} else {
			var exact bool
			rounded = q
			if exact = rounded.RoundUp(0); !exact {
				// Not a whole number: don't lose precision.
				format = DecimalSI
			}
		}
	default:
		format = DecimalExponent
	}

	if format == BinarySI {
		var exp int32
		out, exp = rounded.canonical1024(out)
		if sfx, ok := binarySuffix(exp * 10); ok {
			out = append(out, sfx...)
		}
		return out
	}
	out, exp := q.canonical10(out)
	if format == DecimalSI {
		if sfx, ok := decimalSuffix(exp); ok {
			out = append(out, sfx...)
		}
		return out
	}
	if exp != 0 {
		out = append(out, 'e')
		out = strconv.AppendInt(out, int64(exp), 10)
	}
	return out
}

// canonical10 appends the base-10 mantissa and returns its exponent (a
// multiple of three), falling back to the big path on overflow.
func (q Quantity) canonical10(out []byte) ([]byte, int32) {
	if q.d == nil {
		if res, exp, ok := q.i.canonical(out); ok {
			return res, exp
		}
	}
	return q.big().canonical(out)
}

// canonical1024 appends the base-1024 mantissa of a whole q and returns its
// exponent.
func (q Quantity) canonical1024(out []byte) ([]byte, int32) {
	if q.d == nil {
		if res, exp, ok := q.i.canonical1024(out); ok {
			return res, exp
		}
	}
	return q.big().canonical1024(out)
}
