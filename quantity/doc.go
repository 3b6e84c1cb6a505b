// Package quantity is Kubernetes' resource quantity ("100m", "1.5Gi",
// "1e3") with the semantics of k8s.io/apimachinery/pkg/api/resource,
// without depending on it.
//
// Parse, compare and add quantities; String gives the canonical form the
// API server would store:
//
//	q, err := quantity.ParseQuantity("1.5Gi")
//	q.Add(quantity.MustParse("512Mi"))
//	fmt.Println(q.String(), q.Cmp(quantity.MustParse("2Gi"))) // 2Gi 0
//
// # Grammar
//
// A quantity is a sign, digits and a suffix:
//
//	<quantity>        ::= <signedNumber><suffix>
//	<signedNumber>    ::= <number> | "+"<number> | "-"<number>
//	<number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
//	<suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
//	<binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei          (powers of 1024)
//	<decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
//	<decimalExponent> ::= "e"<signedNumber> | "E"<signedNumber>
//
// The suffix decides the [Format] a parsed quantity remembers: BinarySI for
// "Ki".."Ei", DecimalExponent for "e3"/"E-6", DecimalSI otherwise.
//
// # Canonical form
//
// [Quantity.String] prints the canonical form in the remembered format: no
// fractional digits, no lost precision, and the largest suffix (or exponent
// that is a multiple of three) that allows that. For example "1.5" prints
// as "1500m", "1.5Gi" as "1536Mi", "0.1" as "100m", "1000m" as "1" and
// "1024Ki" as "1Mi", while "1e3" stays "1e3". BinarySI values that are not
// whole numbers, or whose magnitude is below 1024, print as DecimalSI. As
// upstream does, a parsed string that is already canonical-looking is kept
// verbatim (so "+1" prints as "+1").
//
// # Rounding and range
//
// Quantities are exact decimals. Parsing rounds anything finer than one nano
// (1n) up, away from zero, so a request for a tiny amount still gets some.
// BinarySI inputs larger than 2^63-1 in magnitude are capped there.
// [Quantity.Value], [Quantity.MilliValue] and [Quantity.ScaledValue] round up
// to the requested scale (away from zero on the int64 fast path), and may
// overflow silently for values outside int64, exactly as upstream.
//
// Values that fit an int64 mantissa with a base-10 scale take an
// allocation-free fast path; larger or more precise ones fall back to
// math/big.
//
// The resource package of schedkit re-exports the everyday names
// (Quantity, Format and its constants, ParseQuantity, MustParse,
// NewQuantity, NewMilliQuantity) so that code written against apimachinery
// reads the same; this package holds the full API.
//
// # Differences from upstream
//
// Methods that only read a Quantity take a value receiver, so String does
// not cache and Cmp does not convert its receiver in place; constructors
// return values. Copies never share mutable state. JSON null also forgets
// a remembered input string (upstream keeps printing it). Where upstream's
// 32-bit scale arithmetic wraps around this package wraps identically, but
// where upstream would then build numbers with billions of digits (and
// not finish) it answers at once.
package quantity
