package quantity

import "math/big"

// Helpers that build quantities with a chosen internal representation, the
// way upstream's tests use intQuantity / decQuantity / bigDecQuantity.

// iq is value × 10^scale on the int64 fast path.
func iq(value int64, scale Scale, f Format) Quantity {
	return Quantity{i: amount{value: value, scale: scale}, Format: f}
}

// dq is value × 10^exp on the math/big slow path.
func dq(value int64, exp int32, f Format) Quantity {
	return Quantity{d: newDecimal(big.NewInt(value), 0, -exp), Format: f}
}

// bq is value × 10^exp on the slow path with a big mantissa.
func bq(value *big.Int, exp int32, f Format) Quantity {
	return Quantity{d: newDecimal(value, 0, -exp), Format: f}
}

// asBig moves q onto the slow path, like upstream's Quantity.AsDec/ToDec.
func asBig(q Quantity) Quantity {
	q.d = q.big()
	q.i = amount{}
	return q
}

const (
	mostPositive = 1<<63 - 1
	mostNegative = -1 << 63
)

// parseCase pins upstream TestQuantityParse: the value and Format each
// input parses to.
type parseCase struct {
	in     string
	expect Quantity
}

// parseCases is upstream TestQuantityParse's table.
var parseCases = []parseCase{
	{"0", dq(0, 0, DecimalSI)},
	{"0n", dq(0, 0, DecimalSI)},
	{"0u", dq(0, 0, DecimalSI)},
	{"0m", dq(0, 0, DecimalSI)},
	{"0Ki", dq(0, 0, BinarySI)},
	{"0k", dq(0, 0, DecimalSI)},
	{"0Mi", dq(0, 0, BinarySI)},
	{"0M", dq(0, 0, DecimalSI)},
	{"0Gi", dq(0, 0, BinarySI)},
	{"0G", dq(0, 0, DecimalSI)},
	{"0Ti", dq(0, 0, BinarySI)},
	{"0T", dq(0, 0, DecimalSI)},

	// A bare number is allowed.
	{"1", dq(1, 0, DecimalSI)},

	// Binary suffixes.
	{"1Ki", dq(1024, 0, BinarySI)},
	{"8Ki", dq(8*1024, 0, BinarySI)},
	{"7Mi", dq(7*1024*1024, 0, BinarySI)},
	{"6Gi", dq(6*1024*1024*1024, 0, BinarySI)},
	{"5Ti", dq(5*1024*1024*1024*1024, 0, BinarySI)},
	{"4Pi", dq(4*1024*1024*1024*1024*1024, 0, BinarySI)},
	{"3Ei", dq(3*1024*1024*1024*1024*1024*1024, 0, BinarySI)},
	{"10Ti", dq(10*1024*1024*1024*1024, 0, BinarySI)},
	{"100Ti", dq(100*1024*1024*1024*1024, 0, BinarySI)},

	// Decimal suffixes.
	{"5n", dq(5, -9, DecimalSI)},
	{"4u", dq(4, -6, DecimalSI)},
	{"3m", dq(3, -3, DecimalSI)},
	{"9", dq(9, 0, DecimalSI)},
	{"8k", dq(8, 3, DecimalSI)},
	{"50k", dq(5, 4, DecimalSI)},
	{"7M", dq(7, 6, DecimalSI)},
	{"6G", dq(6, 9, DecimalSI)},
	{"5T", dq(5, 12, DecimalSI)},
	{"40T", dq(4, 13, DecimalSI)},
	{"300T", dq(3, 14, DecimalSI)},
	{"2P", dq(2, 15, DecimalSI)},
	{"1E", dq(1, 18, DecimalSI)},

	// Decimal exponents.
	{"1E-3", dq(1, -3, DecimalExponent)},
	{"1e3", dq(1, 3, DecimalExponent)},
	{"1E6", dq(1, 6, DecimalExponent)},
	{"1e9", dq(1, 9, DecimalExponent)},
	{"1E12", dq(1, 12, DecimalExponent)},
	{"1e15", dq(1, 15, DecimalExponent)},
	{"1E18", dq(1, 18, DecimalExponent)},

	// Nonstandard but parsable.
	{"1e14", dq(1, 14, DecimalExponent)},
	{"1e13", dq(1, 13, DecimalExponent)},
	{"100.035k", dq(100035, 0, DecimalSI)},

	// Things that look like floating point.
	{"0.001", dq(1, -3, DecimalSI)},
	{"0.0005k", dq(5, -1, DecimalSI)},
	{"0.005", dq(5, -3, DecimalSI)},
	{"0.05", dq(5, -2, DecimalSI)},
	{"0.5", dq(5, -1, DecimalSI)},
	{"0.00050k", dq(5, -1, DecimalSI)},
	{"0.00500", dq(5, -3, DecimalSI)},
	{"0.05000", dq(5, -2, DecimalSI)},
	{"0.50000", dq(5, -1, DecimalSI)},
	{"0.5e0", dq(5, -1, DecimalExponent)},
	{"0.5e-1", dq(5, -2, DecimalExponent)},
	{"0.5e-2", dq(5, -3, DecimalExponent)},
	{"10.035M", dq(10035, 3, DecimalSI)},
	{"1.2e3", dq(12, 2, DecimalExponent)},
	{"1.3E+6", dq(13, 5, DecimalExponent)},
	{"1.40e9", dq(14, 8, DecimalExponent)},
	{"1.53E12", dq(153, 10, DecimalExponent)},
	{"1.6e15", dq(16, 14, DecimalExponent)},
	{"1.7E18", dq(17, 17, DecimalExponent)},
	{"9.01", dq(901, -2, DecimalSI)},
	{"8.1k", dq(81, 2, DecimalSI)},
	{"7.123456M", dq(7123456, 0, DecimalSI)},
	{"6.987654321G", dq(6987654321, 0, DecimalSI)},
	{"5.444T", dq(5444, 9, DecimalSI)},
	{"40.1T", dq(401, 11, DecimalSI)},
	{"300.2T", dq(3002, 11, DecimalSI)},
	{"2.5P", dq(25, 14, DecimalSI)},
	{"1.01E", dq(101, 16, DecimalSI)},

	// Things that saturate or round.
	{"3.001n", dq(4, -9, DecimalSI)},
	{"1.1E-9", dq(2, -9, DecimalExponent)},
	{"0.0000000001", dq(1, -9, DecimalSI)},
	{"0.0000000005", dq(1, -9, DecimalSI)},
	{"0.00000000050", dq(1, -9, DecimalSI)},
	{"0.5e-9", dq(1, -9, DecimalExponent)},
	{"0.9n", dq(1, -9, DecimalSI)},
	{"0.00000012345", dq(124, -9, DecimalSI)},
	{"0.00000012354", dq(124, -9, DecimalSI)},
	{"9Ei", dq(mostPositive, 0, BinarySI)},
	{"9223372036854775807Ki", dq(mostPositive, 0, BinarySI)},
	{"12E", dq(12, 18, DecimalSI)},

	// Fractional binary amounts are accepted too.
	{"100.035Ki", dq(10243584, -2, BinarySI)},
	{"0.5Mi", dq(.5*1024*1024, 0, BinarySI)},
	{"0.05Gi", dq(536870912, -1, BinarySI)},
	{"0.025Ti", dq(274877906944, -1, BinarySI)},

	// Things written by trolls.
	{"0.000000000001Ki", dq(2, -9, DecimalSI)}, // rounds up, changes format
	{".001", dq(1, -3, DecimalSI)},
	{".0001k", dq(100, -3, DecimalSI)},
	{"1.", dq(1, 0, DecimalSI)},
	{"1.G", dq(1, 9, DecimalSI)},
}

// invalidInputs pins the rejections of upstream TestQuantityParse, plus
// the error kind each gets.
var invalidInputs = []struct {
	in   string
	want error
}{
	{"", ErrFormatWrong},
	{"1.1.M", ErrFormatWrong},
	{"1+1.0M", ErrFormatWrong},
	{"0.1mi", ErrSuffix},
	{"0.1am", ErrFormatWrong},
	{"aoeu", ErrFormatWrong},
	{".5i", ErrSuffix},
	{"1i", ErrSuffix},
	{"-3.01i", ErrSuffix},
	{"-3.01e-", ErrSuffix},
	{" 1", ErrFormatWrong}, // whitespace is not trimmed by ParseQuantity
	{"1 ", ErrFormatWrong},
	{"Non-Numeric", ErrFormatWrong},
	{"1e", ErrSuffix},
	{"1ee3", ErrSuffix},
	{"1e3e", ErrFormatWrong},
	{"1Ki3", ErrSuffix},
	{"1K", ErrSuffix},
	{"--1", ErrSuffix}, // "-1" is scanned as an exponent-like suffix
	{"+-1", ErrSuffix},
	{"1e9223372036854775808", ErrSuffix}, // exponent beyond int64
	{"null", ErrFormatWrong},
	{"-.Ei", ErrNumeric}, // Ei always takes the slow path, which needs a digit
	{"Ei", ErrNumeric},
	{"1.5.5", ErrFormatWrong},
}

// canonicalCase pins what upstream prints and returns for a parsed string:
// the examples of the package doc, big and tiny values, and quirks. The
// expectations were recorded from apimachinery v0.37.2.
type canonicalCase struct {
	in           string
	str          string
	format       Format
	value, milli int64
	asInt        int64
	asIntOK      bool
}

var canonicalCases = []canonicalCase{
	{in: "1.5Gi", str: "1536Mi", format: BinarySI, value: 1610612736, milli: 1610612736000, asInt: 0, asIntOK: false},
	{in: "0.1", str: "100m", format: DecimalSI, value: 1, milli: 100, asInt: 0, asIntOK: false},
	{in: "1000m", str: "1", format: DecimalSI, value: 1, milli: 1000, asInt: 0, asIntOK: false},
	{in: "1e3", str: "1e3", format: DecimalExponent, value: 1000, milli: 1000000, asInt: 1000, asIntOK: true},
	{in: "1024Ki", str: "1Mi", format: BinarySI, value: 1048576, milli: 1048576000, asInt: 1048576, asIntOK: true},
	{in: "1E", str: "1E", format: DecimalSI, value: 1000000000000000000, milli: 0, asInt: 1000000000000000000, asIntOK: true},
	{in: "9223372036854775807", str: "9223372036854775807", format: DecimalSI, value: 9223372036854775807, milli: -1000, asInt: 0, asIntOK: false},
	{in: "18446744073709551616", str: "18446744073709551616", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "1e100", str: "10e99", format: DecimalExponent, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "1n", str: "1n", format: DecimalSI, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "0.0000000001", str: "1n", format: DecimalSI, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "100m", str: "100m", format: DecimalSI, value: 1, milli: 100, asInt: 0, asIntOK: false},
	{in: "2", str: "2", format: DecimalSI, value: 2, milli: 2000, asInt: 2, asIntOK: true},
	{in: "1.5", str: "1500m", format: DecimalSI, value: 2, milli: 1500, asInt: 0, asIntOK: false},
	{in: "250m", str: "250m", format: DecimalSI, value: 1, milli: 250, asInt: 0, asIntOK: false},
	{in: "512Mi", str: "512Mi", format: BinarySI, value: 536870912, milli: 536870912000, asInt: 536870912, asIntOK: true},
	{in: "+1", str: "+1", format: DecimalSI, value: 1, milli: 1000, asInt: 1, asIntOK: true},
	{in: "05", str: "05", format: DecimalSI, value: 5, milli: 5000, asInt: 5, asIntOK: true},
	{in: "1.500", str: "1.500", format: DecimalSI, value: 2, milli: 1500, asInt: 0, asIntOK: false},
	{in: "1.500k", str: "1.500k", format: DecimalSI, value: 1500, milli: 1500000, asInt: 1500, asIntOK: true},
	{in: "1000E", str: "1", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "1.Ki", str: "1.Ki", format: BinarySI, value: 1024, milli: 1024000, asInt: 1024, asIntOK: true},
	{in: "01Ki", str: "01Ki", format: BinarySI, value: 1024, milli: 1024000, asInt: 1024, asIntOK: true},
	{in: ".", str: "0", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: true},
	{in: "-", str: "0", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: true},
	{in: "+", str: "0", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: true},
	{in: "Ki", str: "0", format: BinarySI, value: 0, milli: 0, asInt: 0, asIntOK: true},
	{in: "m", str: "0", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "e3", str: "0", format: DecimalExponent, value: 0, milli: 0, asInt: 0, asIntOK: true},
	{in: "-0.0000000001", str: "-1n", format: DecimalSI, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "-1234567890123456789", str: "-1234567890123456789", format: DecimalSI, value: -7888470987, milli: -7888470988683, asInt: 0, asIntOK: false},
	{in: "-1.5", str: "-1500m", format: DecimalSI, value: -2, milli: -1500, asInt: 0, asIntOK: false},
	{in: ".5Ki", str: "512", format: BinarySI, value: 512, milli: 512000, asInt: 0, asIntOK: false},
	{in: "1E3", str: "1E3", format: DecimalExponent, value: 1000, milli: 1000000, asInt: 1000, asIntOK: true},
	{in: "1e+3", str: "1e+3", format: DecimalExponent, value: 1000, milli: 1000000, asInt: 1000, asIntOK: true},
	{in: "1e4294967296", str: "1e4294967296", format: DecimalExponent, value: 1, milli: 1000, asInt: 1, asIntOK: true},
	{in: "1e9223372036854775807", str: "100e-3", format: DecimalExponent, value: 1, milli: 100, asInt: 0, asIntOK: false},
	{in: "8Ei", str: "9223372036854775807", format: BinarySI, value: 9223372036854775807, milli: -1000, asInt: 0, asIntOK: false},
	{in: "-8Ei", str: "-9223372036854775807", format: BinarySI, value: -9223372036854775807, milli: 1000, asInt: 0, asIntOK: false},
	{in: "-1.5Ki", str: "-1536", format: BinarySI, value: -1536, milli: -1536000, asInt: 0, asIntOK: false},
	{in: "0.5Ki", str: "512", format: BinarySI, value: 512, milli: 512000, asInt: 0, asIntOK: false},
	{in: "-0.0000000001Ki", str: "-103n", format: DecimalSI, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "0.0", str: "0", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "1000000E", str: "1", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "-9223372036854775808", str: "-9223372036854775808", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "1e-100", str: "1e-9", format: DecimalExponent, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "-1e-100", str: "-1e-9", format: DecimalExponent, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "0.5n", str: "1n", format: DecimalSI, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "-0.5n", str: "-1n", format: DecimalSI, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "1.5e-2147483648", str: "150e2147483646", format: DecimalExponent, value: 0, milli: 15, asInt: 0, asIntOK: false},
	{in: "-250m", str: "-250m", format: DecimalSI, value: -1, milli: -250, asInt: 0, asIntOK: false},
	{in: "1.1Ki", str: "1126400m", format: BinarySI, value: 1127, milli: 1126400, asInt: 0, asIntOK: false},
	{in: "-1.1Ki", str: "-1126400m", format: BinarySI, value: -1125, milli: -1126400, asInt: 0, asIntOK: false},
	{in: "1023", str: "1023", format: DecimalSI, value: 1023, milli: 1023000, asInt: 1023, asIntOK: true},
	{in: "1024", str: "1024", format: DecimalSI, value: 1024, milli: 1024000, asInt: 1024, asIntOK: true},
	{in: "1025Ki", str: "1025Ki", format: BinarySI, value: 1049600, milli: 1049600000, asInt: 1049600, asIntOK: true},
	{in: "99999999999Ki", str: "99999999999Ki", format: BinarySI, value: 102399999998976, milli: 102399999998976000, asInt: 102399999998976, asIntOK: true},
	{in: "999999Gi", str: "999999Gi", format: BinarySI, value: 1073740750258176, milli: 1073740750258176000, asInt: 0, asIntOK: false},
	{in: "99Ti", str: "99Ti", format: BinarySI, value: 108851651149824, milli: 108851651149824000, asInt: 108851651149824, asIntOK: true},
	{in: "1Pi", str: "1Pi", format: BinarySI, value: 1125899906842624, milli: 1125899906842624000, asInt: 0, asIntOK: false},
	{in: "-1Ei", str: "-1Ei", format: BinarySI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "1e-9", str: "1e-9", format: DecimalExponent, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "1e-10", str: "1e-9", format: DecimalExponent, value: 1, milli: 1, asInt: 0, asIntOK: false},
	{in: "123456789012345678e2", str: "12345678901234567800", format: DecimalExponent, value: -6101065172474983816, milli: 0, asInt: -6101065172474983816, asIntOK: false},
	{in: "-123456789012345678e-9", str: "-123456789012345678e-9", format: DecimalExponent, value: -123456790, milli: -123456789013, asInt: 0, asIntOK: false},
	{in: "1.0E", str: "1E", format: DecimalSI, value: 1000000000000000000, milli: 0, asInt: 1000000000000000000, asIntOK: true},
	{in: "12E", str: "12E", format: DecimalSI, value: 0, milli: 0, asInt: 0, asIntOK: false},
	{in: "0e400", str: "0", format: DecimalExponent, value: 0, milli: 0, asInt: 0, asIntOK: true},
}

// stringCase pins upstream TestQuantityString: the canonical form of a
// value, and an alternate spelling that parses to it.
type stringCase struct {
	in        Quantity
	expect    string
	alternate string
}

var stringCases = []stringCase{
	{dq(1024*1024*1024, 0, BinarySI), "1Gi", "1024Mi"},
	{dq(300*1024*1024, 0, BinarySI), "300Mi", "307200Ki"},
	{dq(6*1024, 0, BinarySI), "6Ki", ""},
	{dq(1001*1024*1024*1024, 0, BinarySI), "1001Gi", "1025024Mi"},
	{dq(1024*1024*1024*1024, 0, BinarySI), "1Ti", "1024Gi"},
	{dq(5, 0, BinarySI), "5", "5000m"},
	{dq(500, -3, BinarySI), "500m", "0.5"},
	{dq(1, 9, DecimalSI), "1G", "1000M"},
	{dq(1000, 6, DecimalSI), "1G", "0.001T"},
	{dq(1000000, 3, DecimalSI), "1G", ""},
	{dq(1000000000, 0, DecimalSI), "1G", ""},
	{dq(1, -3, DecimalSI), "1m", "1000u"},
	{dq(80, -3, DecimalSI), "80m", ""},
	{dq(1080, -3, DecimalSI), "1080m", "1.08"},
	{dq(108, -2, DecimalSI), "1080m", "1080000000n"},
	{dq(10800, -4, DecimalSI), "1080m", ""},
	{dq(300, 6, DecimalSI), "300M", ""},
	{dq(1, 12, DecimalSI), "1T", ""},
	{dq(1234567, 6, DecimalSI), "1234567M", ""},
	{dq(1234567, -3, BinarySI), "1234567m", ""},
	{dq(3, 3, DecimalSI), "3k", ""},
	{dq(1025, 0, BinarySI), "1025", ""},
	{dq(0, 0, DecimalSI), "0", ""},
	{dq(0, 0, BinarySI), "0", ""},
	{dq(1, 9, DecimalExponent), "1e9", ".001e12"},
	{dq(1, -3, DecimalExponent), "1e-3", "0.001e0"},
	{dq(1, -9, DecimalExponent), "1e-9", "1000e-12"},
	{dq(80, -3, DecimalExponent), "80e-3", ""},
	{dq(300, 6, DecimalExponent), "300e6", ""},
	{dq(1, 12, DecimalExponent), "1e12", ""},
	{dq(1, 3, DecimalExponent), "1e3", ""},
	{dq(3, 3, DecimalExponent), "3e3", ""},
	{dq(0, 0, DecimalExponent), "0", "00"},
	{dq(1, -9, DecimalSI), "1n", ""},
	{dq(80, -9, DecimalSI), "80n", ""},
	{dq(1080, -9, DecimalSI), "1080n", ""},
	{dq(108, -8, DecimalSI), "1080n", ""},
	{dq(10800, -10, DecimalSI), "1080n", ""},
	{dq(1, -6, DecimalSI), "1u", ""},
	{dq(80, -6, DecimalSI), "80u", ""},
	{dq(1080, -6, DecimalSI), "1080u", ""},
}

// parseEmitCases pins upstream TestQuantityParseEmit.
var parseEmitCases = []struct{ in, expect string }{
	{"1Ki", "1Ki"},
	{"1Mi", "1Mi"},
	{"1Gi", "1Gi"},
	{"1024Mi", "1Gi"},
	{"1000M", "1G"},
	{".001Ki", "1024m"},
	{".000001Ki", "1024u"},
	{".000000001Ki", "1024n"},
	{".000000000001Ki", "2n"},
}

// bigParseCase pins upstream TestParseQuantity: inputs around the int64
// and 18-digit boundaries, whether AsInt64 succeeds, the exact value, and
// the re-serialised form ("" means the input itself).
type bigParseCase struct {
	in        string
	asInt64   *int64
	exact     string // exact decimal value
	canonical string
}

func i64(v int64) *int64 { return &v }

var bigParseCases = []bigParseCase{
	// min/max 18 digits
	{"-999999999999999999", i64(-999999999999999999), "-999999999999999999", ""},
	{"999999999999999999", i64(999999999999999999), "999999999999999999", ""},
	{"-999999999999999999.0", nil, "-999999999999999999", "-999999999999999999"},
	{"999999999999999999.0", nil, "999999999999999999", "999999999999999999"},
	{"-999999999999999999.1", nil, "-999999999999999999.1", "-999999999999999999100m"},
	{"999999999999999999.1", nil, "999999999999999999.1", "999999999999999999100m"},
	// min/max 19 digits
	{"-9999999999999999999", nil, "-9999999999999999999", ""},
	{"9999999999999999999", nil, "9999999999999999999", ""},
	{"-1E", i64(-1000000000000000000), "-1000000000000000000", ""},
	{"1E", i64(1000000000000000000), "1000000000000000000", ""},
	{"-1000000000000000000", nil, "-1000000000000000000", "-1E"},
	{"1000000000000000000", nil, "1000000000000000000", "1E"},
	{"-9999999999999999999.0", nil, "-9999999999999999999", "-9999999999999999999"},
	{"9999999999999999999.0", nil, "9999999999999999999", "9999999999999999999"},
	{"-1.0E", i64(-1000000000000000000), "-1000000000000000000", "-1E"},
	{"1.0E", i64(1000000000000000000), "1000000000000000000", "1E"},
	{"-1000000000000000000.0", nil, "-1000000000000000000", "-1E"},
	{"1000000000000000000.0", nil, "1000000000000000000", "1E"},
	{"-9999999999999999999000m", nil, "-9999999999999999999", "-9999999999999999999"},
	{"9999999999999999999000m", nil, "9999999999999999999", "9999999999999999999"},
	{"-9999999999999999999.1", nil, "-9999999999999999999.1", "-9999999999999999999100m"},
	{"9999999999999999999.1", nil, "9999999999999999999.1", "9999999999999999999100m"},
	{"-1.0000000000000000001E", nil, "-1000000000000000000.1", "-1000000000000000000100m"},
	{"1.0000000000000000001E", nil, "1000000000000000000.1", "1000000000000000000100m"},
	{"-1000000000000000000.1", nil, "-1000000000000000000.1", "-1000000000000000000100m"},
	{"1000000000000000000.1", nil, "1000000000000000000.1", "1000000000000000000100m"},
	{"-1.000000000000000001E", nil, "-1000000000000000001", "-1000000000000000001"},
	{"1.000000000000000001E", nil, "1000000000000000001", "1000000000000000001"},
	{"-1000000000000000001", nil, "-1000000000000000001", ""},
	{"1000000000000000001", nil, "1000000000000000001", ""},
	// min/max 20 digits
	{"-10E", nil, "-10000000000000000000", ""},
	{"10E", nil, "10000000000000000000", ""},
	{"-10000000000000000000", nil, "-10000000000000000000", "-10E"},
	{"10000000000000000000", nil, "10000000000000000000", "10E"},
	{"-10.0E", nil, "-10000000000000000000", "-10E"},
	{"10.0E", nil, "10000000000000000000", "10E"},
	{"-10000000000000000000.0", nil, "-10000000000000000000", "-10E"},
	{"10000000000000000000.0", nil, "10000000000000000000", "10E"},
	{"-10000000000000000000000m", nil, "-10000000000000000000", "-10E"},
	{"10000000000000000000000m", nil, "10000000000000000000", "10E"},
	{"-10.0000000000000000001E", nil, "-10000000000000000000.1", "-10000000000000000000100m"},
	{"10.0000000000000000001E", nil, "10000000000000000000.1", "10000000000000000000100m"},
	{"-10000000000000000000.1", nil, "-10000000000000000000.1", "-10000000000000000000100m"},
	{"10000000000000000000.1", nil, "10000000000000000000.1", "10000000000000000000100m"},
	{"-10.000000000000000001E", nil, "-10000000000000000001", "-10000000000000000001"},
	{"10.000000000000000001E", nil, "10000000000000000001", "10000000000000000001"},
	{"-10000000000000000001", nil, "-10000000000000000001", ""},
	{"10000000000000000001", nil, "10000000000000000001", ""},
	// min/max int64 - 1
	{"-9223372036854775809", nil, "-9223372036854775809", ""},
	{"9223372036854775806", nil, "9223372036854775806", ""},
	{"-9223372036854775809.0", nil, "-9223372036854775809", "-9223372036854775809"},
	{"9223372036854775806.0", nil, "9223372036854775806", "9223372036854775806"},
	{"-9223372036854775809000m", nil, "-9223372036854775809", "-9223372036854775809"},
	{"9223372036854775806000m", nil, "9223372036854775806", "9223372036854775806"},
	{"-9223372036854775809.1", nil, "-9223372036854775809.1", "-9223372036854775809100m"},
	{"9223372036854775806.1", nil, "9223372036854775806.1", "9223372036854775806100m"},
	// min/max int64
	{"-9223372036854775808", nil, "-9223372036854775808", ""},
	{"9223372036854775807", nil, "9223372036854775807", ""},
	{"-9223372036854775808.0", nil, "-9223372036854775808", "-9223372036854775808"},
	{"9223372036854775807.0", nil, "9223372036854775807", "9223372036854775807"},
	{"-9223372036854775808000m", nil, "-9223372036854775808", "-9223372036854775808"},
	{"9223372036854775807000m", nil, "9223372036854775807", "9223372036854775807"},
	{"-9223372036854775808.1", nil, "-9223372036854775808.1", "-9223372036854775808100m"},
	{"9223372036854775807.1", nil, "9223372036854775807.1", "9223372036854775807100m"},
	// min/max int64 + 1
	{"-9223372036854775807", nil, "-9223372036854775807", ""},
	{"9223372036854775808", nil, "9223372036854775808", ""},
	{"-9223372036854775807.0", nil, "-9223372036854775807", "-9223372036854775807"},
	{"9223372036854775808.0", nil, "9223372036854775808", "9223372036854775808"},
	{"-9223372036854775807000m", nil, "-9223372036854775807", "-9223372036854775807"},
	{"9223372036854775808000m", nil, "9223372036854775808", "9223372036854775808"},
	{"-9223372036854775807.1", nil, "-9223372036854775807.1", "-9223372036854775807100m"},
	{"9223372036854775808.1", nil, "9223372036854775808.1", "9223372036854775808100m"},
}

// jsonWhitespaceCases pins upstream TestJSONWhitespace: whitespace inside
// the quotes, and around a bare number, is trimmed.
var jsonWhitespaceCases = []struct{ in, expect string }{
	{`" 1"`, "1"},
	{`"1 "`, "1"},
	{`1`, "1"},
	{` 1`, "1"},
	{`1 `, "1"},
	{`10`, "10"},
	{`-1`, "-1"},
	{` -1`, "-1"},
	{`1.5`, "1500m"},
	{`"1.5"`, "1500m"},
	{`"100m"`, "100m"},
	{`1e3`, "1e3"},
}

// seedStrings lists every input string of the tables, for fuzz corpora.
func seedStrings() []string {
	var out []string
	for _, c := range parseCases {
		out = append(out, c.in, "-"+c.in, "+"+c.in)
	}
	for _, c := range invalidInputs {
		out = append(out, c.in)
	}
	for _, c := range canonicalCases {
		out = append(out, c.in, c.str)
	}
	for _, c := range stringCases {
		out = append(out, c.expect, c.alternate)
	}
	for _, c := range parseEmitCases {
		out = append(out, c.in)
	}
	for _, c := range bigParseCases {
		out = append(out, c.in)
	}
	return out
}
