// Package cel evaluates DRA device selectors, the CEL expressions of
// DeviceClass and ResourceClaim selectors, exactly as Kubernetes v1.37.2
// does: the same environment, results, runtime errors and compile error
// texts, the same cost limits.
//
// A user builds one Compiler, compiles each expression (compiled
// expressions are cached) and evaluates it on devices:
//
//	c, err := cel.NewCompiler(0)
//	sel, err := c.Compile(`device.attributes["gpu.example.com"].model == "a100"`)
//	ok, err := sel.MatchesDevice(ctx, "gpu.example.com", device)
//
// Compile is the scheduler's view: it compiles in Kubernetes'
// StoredExpressions environment, where every declaration of the release
// is visible regardless of feature gates, and its error is the text the
// scheduler prints after "CEL compile error: ". Validate, EstimateCost
// and Check are the API server's view of a new or changed expression:
// the NewExpressions environment at compatibility version 1.36 with the
// default feature gates, the length limit and the worst-case cost
// estimate against MaxCost. Matches returns cel-go's runtime errors as
// Kubernetes' DeviceMatches does; MatchesDevice adds the scheduler's hint
// to missing-key errors (EnhanceRuntimeError).
//
// # The environment
//
// The variable device has driver, allowMultipleAllocations, attributes
// and capacity. device.attributes[domain] maps the ids of the device's
// attributes in that domain to their values; a name without a domain is
// in the driver's. A domain the device has no attributes in reads as an
// empty map, so that a missing attribute fails with "no such key: <id>".
// Attribute values are int, bool, string, semantic versions (the semver
// library) and, for stored expressions, lists of those. Capacities are
// quantities (the quantity library). Around them is Kubernetes' base
// environment: cel-go's standard library with optional types, cross-type
// numeric comparisons, strings version 2, sets, lists version 3, two-
// variable comprehensions and cel.bind; and Kubernetes' URL, regex,
// lists (version 1 with includes for stored expressions, version 0 for
// new ones), quantity, semver, IP, CIDR and format libraries, with the
// authorization functions declared though no authorizer exists here.
// Runtime costs are Kubernetes' (cost limit MaxCost, cancellation checked
// every 100 comprehension steps).
//
// # Internals
//
// No map is built per evaluation. The device variable and its attribute
// and capacity maps are views on the caller's maps: a lookup of
// device.attributes["d"].id reads "d/id" (or "id" in the driver's
// domain) from the device's attribute map and converts that one value.
// Kubernetes converts every attribute before it evaluates, so a device
// with an attribute that has no value or a version that does not parse
// fails every selector; Matches checks for that first, without
// converting. CEL values print their Go types in a few cel-go errors
// ("got 'cel.Semver', expected iterable type"), so the value types are
// named as Kubernetes' are: Quantity (and *Quantity, the result of add
// and sub), Semver, IP, CIDR, URL and Format.
//
// The package is the only one of the module that imports cel-go.
package cel
