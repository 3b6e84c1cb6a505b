// Package field is apimachinery's util/validation/field: the error a
// Kubernetes validator returns for one bad field, printed as Kubernetes
// prints it.
//
//	p := field.NewPath("spec", "containers").Index(0).Child("image")
//	err := field.Required(p, "")
//	fmt.Println(err) // spec.containers[0].image: Required value
//
// # Scope
//
// It models apimachinery's util/validation/field: the error a
// Kubernetes validator returns for one bad field. An Error holds the
// field's path (built with Path, such as
// "spec.containers[0].resources.requests[cpu]"), an ErrorType saying what
// is wrong, the bad value and a detail, and prints the way the API server
// prints it: `<field>: <type>: <value>: <detail>`, with the value left
// out for the types that never show it and each kind of value rendered as
// upstream renders it. An ErrorList gathers a validator's errors and
// aggregates like Kubernetes prints them: one error bare, several as
// "[a, b]", repeated messages once.
//
// Packages affinity, framework/config and resource report their
// validation errors with it. It imports nothing of schedkit, so every
// package may use it.
package field
