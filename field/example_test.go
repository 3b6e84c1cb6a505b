package field_test

import (
	"fmt"

	"github.com/schedkit/schedkit/field"
)

func Example() {
	c := field.NewPath("spec", "containers").Index(0)
	var errs field.ErrorList
	errs = append(errs,
		field.Required(c.Child("name"), ""),
		field.Invalid(c.Child("resources", "requests").Key("cpu"), "-1", "must be greater than or equal to 0"),
		field.NotSupported(c.Child("restartPolicy"), "Sometimes", []string{"Always", "Never", "OnFailure"}),
		field.Required(c.Child("name"), ""), // repeated: printed once
	)
	fmt.Println(errs[1])
	if err := errs.ToAggregate(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0
	// [spec.containers[0].name: Required value, spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0, spec.containers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"]
}
