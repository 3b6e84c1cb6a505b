package quantity

import "testing"

// benchInputs are the common request forms the fast path is built for.
var benchInputs = []string{"100m", "1Gi", "512Mi", "2", "1.5", "250m", "1e3"}

// BenchmarkParseQuantity parses the common forms; it must report 0
// allocs/op.
func BenchmarkParseQuantity(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := ParseQuantity(benchInputs[i%len(benchInputs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseQuantitySlow parses inputs that need math/big.
func BenchmarkParseQuantitySlow(b *testing.B) {
	inputs := []string{"12345678901234567890", "0.0000000001", "1.5Ki", "9Ei"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := ParseQuantity(inputs[i%len(inputs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// benchQuantities mirrors upstream's benchmark values, none of which
// remembers its input string.
func benchQuantities() []Quantity {
	return []Quantity{
		iq(1024*1024*1024, 0, BinarySI),
		iq(1024*1024*1024*1024, 0, BinarySI),
		iq(1000000, 3, DecimalSI),
		iq(1000000000, 0, DecimalSI),
		iq(1, -3, DecimalSI),
		iq(80, -3, DecimalSI),
		iq(1080, -3, DecimalSI),
		iq(0, 0, BinarySI),
		iq(1, 9, DecimalExponent),
		iq(1, -9, DecimalSI),
		iq(1000000, 10, DecimalSI),
	}
}

// BenchmarkString formats values that must be canonicalised.
func BenchmarkString(b *testing.B) {
	values := benchQuantities()
	b.ReportAllocs()
	var s string
	for i := 0; b.Loop(); i++ {
		s = values[i%len(values)].String()
	}
	_ = s
}

// BenchmarkAdd adds fast-path values.
func BenchmarkAdd(b *testing.B) {
	values := benchQuantities()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		base := NewQuantity(100, DecimalSI)
		base.Add(values[i%len(values)])
	}
}

// BenchmarkCmp compares fast-path values across scales.
func BenchmarkCmp(b *testing.B) {
	values := benchQuantities()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if values[i%len(values)].Cmp(values[(i+1)%len(values)]) == 2 {
			b.Fatal()
		}
	}
}

// BenchmarkMilliValue converts fast-path values.
func BenchmarkMilliValue(b *testing.B) {
	values := benchQuantities()
	b.ReportAllocs()
	var sum int64
	for i := 0; b.Loop(); i++ {
		sum += values[i%len(values)].MilliValue()
	}
	_ = sum
}
