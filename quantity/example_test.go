package quantity_test

import (
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/quantity"
)

func ExampleParseQuantity() {
	for _, s := range []string{"100m", "1.5Gi", "1e3", "2", "1.2.3", "5Ki3"} {
		q, err := quantity.ParseQuantity(s)
		if err != nil {
			fmt.Println(s, "→ error; format problem:", errors.Is(err, quantity.ErrFormatWrong), "suffix problem:", errors.Is(err, quantity.ErrSuffix))
			continue
		}
		fmt.Println(s, "→", q.String(), q.Format)
	}
	// Output:
	// 100m → 100m DecimalSI
	// 1.5Gi → 1536Mi BinarySI
	// 1e3 → 1e3 DecimalExponent
	// 2 → 2 DecimalSI
	// 1.2.3 → error; format problem: true suffix problem: false
	// 5Ki3 → error; format problem: false suffix problem: true
}

func ExampleQuantity_String() {
	for _, s := range []string{"1.5", "0.1", "1000m", "1024Ki", "1.5Gi", "0.5Ki", "1e3", "12e6", "0.0000000001", "-0.5n"} {
		fmt.Printf("%-13q prints as %q\n", s, quantity.MustParse(s).String())
	}
	fmt.Println(quantity.NewQuantity(5*1024*1024*1024, quantity.BinarySI))
	fmt.Println(quantity.NewQuantity(5*1000*1000*1000, quantity.DecimalSI))
	fmt.Println(quantity.NewMilliQuantity(5300, quantity.DecimalSI))
	// Output:
	// "1.5"         prints as "1500m"
	// "0.1"         prints as "100m"
	// "1000m"       prints as "1"
	// "1024Ki"      prints as "1Mi"
	// "1.5Gi"       prints as "1536Mi"
	// "0.5Ki"       prints as "512"
	// "1e3"         prints as "1e3"
	// "12e6"        prints as "12e6"
	// "0.0000000001" prints as "1n"
	// "-0.5n"       prints as "-1n"
	// 5Gi
	// 5G
	// 5300m
}

func ExampleQuantity_MilliValue() {
	cpu := quantity.MustParse("1.5")
	fmt.Println(cpu.Value(), cpu.MilliValue())

	small := quantity.MustParse("100m")
	fmt.Println(small.Value(), small.MilliValue(), small.ScaledValue(quantity.Micro))

	mem := quantity.MustParse("5Gi")
	fmt.Println(mem.Value(), mem.ScaledValue(quantity.Mega))
	// Output:
	// 2 1500
	// 1 100 100000
	// 5368709120 5369
}

func ExampleQuantity_Add() {
	total := quantity.MustParse("1Gi")
	total.Add(quantity.MustParse("512Mi"))
	fmt.Println(total, total.Format)

	cpu := quantity.MustParse("250m")
	cpu.Add(quantity.MustParse("1.5"))
	cpu.Sub(quantity.MustParse("750m"))
	fmt.Println(cpu)

	// A zero receiver takes the operand's format.
	var sum quantity.Quantity
	sum.Add(quantity.MustParse("2Ki"))
	fmt.Println(sum, sum.Cmp(quantity.MustParse("2048")))
	// Output:
	// 1536Mi BinarySI
	// 1
	// 2Ki 0
}

func ExampleMustParse() {
	memorySize := quantity.MustParse("5Gi")
	fmt.Printf("memorySize = %v (%v)\n", memorySize.Value(), memorySize.Format)

	diskSize := quantity.MustParse("5G")
	fmt.Printf("diskSize = %v (%v)\n", diskSize.Value(), diskSize.Format)

	cores := quantity.MustParse("5300m")
	fmt.Printf("milliCores = %v (%v)\n", cores.MilliValue(), cores.Format)

	cores2 := quantity.MustParse("5.4")
	fmt.Printf("milliCores = %v (%v)\n", cores2.MilliValue(), cores2.Format)
	// Output:
	// memorySize = 5368709120 (BinarySI)
	// diskSize = 5000000000 (DecimalSI)
	// milliCores = 5300 (DecimalSI)
	// milliCores = 5400 (DecimalSI)
}
