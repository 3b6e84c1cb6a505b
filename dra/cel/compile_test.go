package cel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

func ptrTo[T any](v T) *T { return &v }

// features is the feature set an upstream case was written for. Stored
// expressions ignore it; schedkit validates new expressions only at the
// default set (consumable capacity on, list-typed attributes off).
type features struct {
	EnableConsumableCapacity bool
	EnableListTypeAttributes bool
}

// maxElementsListType is upstream's attribute size bound with list-typed
// attributes on: the larger of the value length and the list length.
const maxElementsListType = uint64(max(maxAttributeValueLen, maxAttributeValues))

// selectorCases are the cases of upstream's TestCEL
// (k8s.io/dynamic-resource-allocation@v0.37.2/cel/compile_test.go), each
// row named after the upstream case it pins. envType "new" or "stored"
// restricts a case to one environment; expectCost is upstream's
// worst-case estimate, kept for reference.
var selectorCases = []struct {
	name                     string
	envType                  string
	features                 *features
	expression               string
	driver                   string
	allowMultipleAllocations *bool
	attributes               map[api.QualifiedName]api.DeviceAttribute
	capacity                 map[api.QualifiedName]api.DeviceCapacity
	expectCompileError       string
	expectMatchError         string
	expectMatch              bool
	expectCost               uint64
}{
	// TestCEL/true
	{name: "true",
		expression:  "true",
		expectMatch: true,
	},
	// TestCEL/false
	{name: "false",
		expression:  "false",
		expectMatch: false,
	},
	// TestCEL/syntax-error
	{name: "syntax-error",
		expression:         "?!",
		expectCompileError: "Syntax error",
	},
	// TestCEL/type-error
	{name: "type-error",
		expression:         `1`,
		expectCompileError: "must evaluate to bool or the unknown type, not int",
	},
	// TestCEL/runtime-error-lookup-identifier
	{name: "runtime-error-lookup-identifier",
		expression:       `device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))`,
		expectMatchError: "no such key: noSuchAttr",
		expectCost:       6,
	},
	// TestCEL/runtime-error-lookup-map
	{name: "runtime-error-lookup-map",
		expression:       `device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))`,
		expectMatchError: "no such key: noSuchAttr",
		expectCost:       6,
	},
	// TestCEL/domain-check-negative
	{name: "domain-check-negative",
		expression:  `"no-such-domain" in device.attributes`,
		expectMatch: false,
		expectCost:  3,
	},
	// TestCEL/domain-check-positive
	{name: "domain-check-positive",
		expression:  `"dra.example.com" in device.attributes`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"dra.example.com/something": {BoolValue: ptrTo(true)}},
		expectMatch: true,
		expectCost:  3,
	},
	// TestCEL/empty-driver-name
	{name: "empty-driver-name",
		expression:  `device.driver == ""`,
		expectMatch: true,
		expectCost:  2,
	},
	// TestCEL/real-driver-name
	{name: "real-driver-name",
		expression:  `device.driver == "dra.example.com"`,
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4,
	},
	// TestCEL/driver-name-qualifier
	{name: "driver-name-qualifier",
		expression:  `device.attributes["dra.example.com"].name`,
		driver:      "dra.example.com",
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValue: ptrTo(true)}},
		expectMatch: true,
		expectCost:  4,
	},
	// TestCEL/driver-name-qualifier-map-lookup
	{name: "driver-name-qualifier-map-lookup",
		expression:  `device.attributes["dra.example.com"]["name"]`,
		driver:      "dra.example.com",
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValue: ptrTo(true)}},
		expectMatch: true,
		expectCost:  4,
	},
	// TestCEL/bind
	{name: "bind",
		expression:  `cel.bind(dra, device.attributes["dra.example.com"], dra.name)`,
		driver:      "dra.example.com",
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValue: ptrTo(true)}},
		expectMatch: true,
		expectCost:  15,
	},
	// TestCEL/qualified-attribute-name
	{name: "qualified-attribute-name",
		expression:  `device.attributes["other.example.com"].name`,
		driver:      "dra.example.com",
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"other.example.com/name": {BoolValue: ptrTo(true)}},
		expectMatch: true,
		expectCost:  4,
	},
	// TestCEL/bool
	{name: "bool",
		expression:  `device.attributes["dra.example.com"].name`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValue: ptrTo(true)}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4,
	},
	// TestCEL/int
	{name: "int",
		expression:  `device.attributes["dra.example.com"].name > 0`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {IntValue: ptrTo(int64(1))}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  5,
	},
	// TestCEL/string
	{name: "string",
		expression:  `device.attributes["dra.example.com"].name == "fish"`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {StringValue: ptrTo("fish")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  5,
	},
	// TestCEL/macro-compilation-error-new-expressions
	{name: "macro-compilation-error-new-expressions",
		features:           &features{EnableListTypeAttributes: false},
		envType:            "new",
		expression:         `device.attributes["dra.example.com"].ids.exists(id, id == 1)`,
		driver:             "dra.example.com",
		expectCompileError: "compilation failed",
	},
	// TestCEL/macro-exists-on-int
	{name: "macro-exists-on-int",
		features:         &features{EnableListTypeAttributes: true},
		expression:       `device.attributes["dra.example.com"].name.exists(x, x > 0)`,
		attributes:       map[api.QualifiedName]api.DeviceAttribute{"name": {IntValue: new(int64(1))}},
		driver:           "dra.example.com",
		expectMatchError: "got 'types.Int', expected iterable type",
		expectCost:       5 + ((3 + 3) * maxElementsListType /* (cost(loopCondition=="not_strictly_false(!accu)") + cost(loopStep=="accu && (x > 0)")) * maxElementsListType */),
	},
	// TestCEL/macro-exists-on-bool
	{name: "macro-exists-on-bool",
		features:         &features{EnableListTypeAttributes: true},
		expression:       `device.attributes["dra.example.com"].name.exists(x, x == true)`,
		attributes:       map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValue: new(true)}},
		driver:           "dra.example.com",
		expectMatchError: "got 'types.Bool', expected iterable type",
		expectCost:       5 + ((3 + 3) * maxElementsListType /* (cost(loopCondition=="not_strictly_false(!accu)") + cost(loopStep=="accu && (x > 0)")) * maxElementsListType */),
	},
	// TestCEL/macro-exists-on-string
	{name: "macro-exists-on-string",
		features:         &features{EnableListTypeAttributes: true},
		expression:       `device.attributes["dra.example.com"].name.exists(x, x == "fish")`,
		attributes:       map[api.QualifiedName]api.DeviceAttribute{"name": {StringValue: new("fish")}},
		driver:           "dra.example.com",
		expectMatchError: "got 'types.String', expected iterable type",
		expectCost:       5 + ((3 + 3) * maxElementsListType /* (cost(loopCondition=="not_strictly_false(!accu)") + cost(loopStep=="accu && (x > 0)")) * maxElementsListType */),
	},
	// TestCEL/list-result-type-causes-match-error
	{name: "list-result-type-causes-match-error",
		expression:       `device.attributes["dra.example.com"].names`,
		attributes:       map[api.QualifiedName]api.DeviceAttribute{"names": {StringValues: []string{"fish", "bird"}}},
		driver:           "dra.example.com",
		expectMatchError: "CEL result of type list could not be converted to bool",
		expectCost:       4,
	},
	// TestCEL/includes-function-can-evaluate
	{name: "includes-function-can-evaluate",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes("fish")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {StringValues: []string{"fish", "bird"}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/list-of-bool
	{name: "list-of-bool",
		expression:  `device.attributes["dra.example.com"].names.size() == 2`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {BoolValues: []bool{true, false}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  6,
	},
	// TestCEL/list-of-int
	{name: "list-of-int",
		expression:  `device.attributes["dra.example.com"].names.size() == 2`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {IntValues: []int64{1, 2}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  6,
	},
	// TestCEL/list-of-string
	{name: "list-of-string",
		expression:  `device.attributes["dra.example.com"].names.size() == 2`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {StringValues: []string{"fish", "bird"}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  6,
	},
	// TestCEL/list-of-semver
	{name: "list-of-semver",
		expression:  `device.attributes["dra.example.com"].names.size() == 2`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {VersionValues: []string{"1.0.0", "2.0.0"}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  6,
	},
	// TestCEL/macro-on-list-of-int
	{name: "macro-on-list-of-int",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].names.exists(x, x > 0)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {IntValues: []int64{1, 2}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  5 + ((3 + 3) * maxElementsListType /* (cost(loopCondition=="not_strictly_false(!accu)") + cost(loopStep=="accu && (x > 0)")) * maxElementsListType */),
	},
	// TestCEL/macro-on-list-of-string
	{name: "macro-on-list-of-string",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].names.all(x, x != "")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {StringValues: []string{"fish", "bird"}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  5 + ((2 + 2) * maxElementsListType /* (cost(loopCondition=="not_strictly_false(accu)") + cost(loopStep=="accu && (x != "")")) * maxElementsListType */),
	},
	// TestCEL/macro-on-list-of-semver
	{name: "macro-on-list-of-semver",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].names.all(x, x.isGreaterThan(semver("0.0.1")))`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {VersionValues: []string{"1.0.0", "2.0.0"}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  5 + ((2 + 4) * maxElementsListType /* (cost(loopCondition=="not_strictly_false(accu)") + cost(loopStep=="accu && (x.isGreaterThan(semver("0.0.1"))")) * maxElementsListType */),
	},
	// TestCEL/includes-function-compilation-error
	{name: "includes-function-compilation-error",
		features:           &features{EnableListTypeAttributes: false},
		envType:            "new",
		expression:         `device.attributes["dra.example.com"].attr.includes("fish")`,
		driver:             "dra.example.com",
		expectCompileError: "undeclared reference to 'includes'",
	},
	// TestCEL/includes-function-compilation-and-eval-success
	{name: "includes-function-compilation-and-eval-success",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].attr.includes("fish")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"attr": {StringValue: new("fish")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-bool-scalar-positive
	{name: "includes-function-on-bool-scalar-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(true)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValue: new(true)}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-bool-scalar-negative
	{name: "includes-function-on-bool-scalar-negative",
		features:    &features{EnableListTypeAttributes: true},
		envType:     "new",
		expression:  `device.attributes["dra.example.com"].name.includes(true)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValue: new(false)}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-bool-list-positive
	{name: "includes-function-on-bool-list-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(true)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValues: []bool{true, false}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-bool-list-negative
	{name: "includes-function-on-bool-list-negative",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(false)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {BoolValues: []bool{true, true}}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-int-scalar-positive
	{name: "includes-function-on-int-scalar-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(1)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {IntValue: new(int64(1))}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-int-scalar-negative
	{name: "includes-function-on-int-scalar-negative",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(1)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {IntValue: new(int64(2))}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-int-list-positive
	{name: "includes-function-on-int-list-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(1)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {IntValues: []int64{1, 2}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-int-list-negative
	{name: "includes-function-on-int-list-negative",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(3)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {IntValues: []int64{1, 2}}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-string-scalar-positive
	{name: "includes-function-on-string-scalar-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes("fish")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {StringValue: new("fish")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-string-scalar-negative
	{name: "includes-function-on-string-scalar-negative",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes("bird")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {StringValue: new("fish")}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-string-list-positive
	{name: "includes-function-on-string-list-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes("fish")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {StringValues: []string{"fish", "bird"}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-string-list-negative
	{name: "includes-function-on-string-list-negative",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes("cat")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {StringValues: []string{"fish", "bird"}}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/includes-function-on-semver-scalar-positive
	{name: "includes-function-on-semver-scalar-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(semver("1.0.0"))`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {VersionValue: new("1.0.0")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64 /* cost of "includes" on dynamic type */ + 1,
	},
	// TestCEL/includes-function-on-semver-scalar-negative
	{name: "includes-function-on-semver-scalar-negative",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(semver("2.0.0"))`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {VersionValue: new("1.0.0")}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64 /* cost of "includes" on dynamic type */ + 1,
	},
	// TestCEL/includes-function-on-semver-list-positive
	{name: "includes-function-on-semver-list-positive",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(semver("1.0.0"))`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {VersionValues: []string{"1.0.0", "2.0.0"}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64 /* cost of "includes" on dynamic type */ + 1,
	},
	// TestCEL/includes-function-on-semver-list-negative
	{name: "includes-function-on-semver-list-negative",
		features:    &features{EnableListTypeAttributes: true},
		expression:  `device.attributes["dra.example.com"].name.includes(semver("3.0.0"))`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {VersionValues: []string{"1.0.0", "2.0.0"}}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64 /* cost of "includes" on dynamic type */ + 1,
	},
	// TestCEL/includes-function-on-very-long-list-positive
	{name: "includes-function-on-very-long-list-positive",
		features:   &features{EnableListTypeAttributes: true},
		expression: fmt.Sprintf(`device.attributes["dra.example.com"].name.includes("value-%d")`, maxAttributeValues),
		attributes: map[api.QualifiedName]api.DeviceAttribute{"name": {StringValues: func() []string {
			values := make([]string, maxAttributeValues)
			for i := range values {
				values[i] = fmt.Sprintf("value-%d", i)
			}
			return values
		}()}},
		driver:      "dra.example.com",
		expectMatch: false,
		expectCost:  4 + 64, /* cost of "includes" on dynamic type */
	},
	// TestCEL/in-operator-on-list
	{name: "in-operator-on-list",
		// This case is for documenting purpose to present the difference of call cost estimation
		// between "in" operator and "includes" function.
		// The cost estimation of both "in" operator and "includes" function is based on maxElementsListType.
		expression:  `1 in device.attributes["dra.example.com"].names`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"names": {IntValues: []int64{1, 2, 3}}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  4 + 64, /* cost of "in" is maxElementsListType*/
	},
	// TestCEL/version
	{name: "version",
		expression:  `device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1"))`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {VersionValue: ptrTo("1.0.0")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  6,
	},
	// TestCEL/version_v
	{name: "version_v",
		// Relaxed parsing with v prefix.
		expression:  `device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"name": {VersionValue: ptrTo("1.0.0")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  7,
	},
	// TestCEL/macro-exists-on-version
	{name: "macro-exists-on-version",
		features:         &features{EnableListTypeAttributes: true},
		expression:       `device.attributes["dra.example.com"].name.exists(x, x.isGreaterThan(semver("0.0.1")))`,
		attributes:       map[api.QualifiedName]api.DeviceAttribute{"name": {VersionValue: new("1.0.0")}},
		driver:           "dra.example.com",
		expectMatchError: "got 'cel.Semver', expected iterable type",
		expectCost:       5 + ((3 + 4) * maxElementsListType /* (cost(loopCondition=="not_strictly_false(!accu)") + cost(loopStep=="accu && (x.isGreaterThan(semver("0.0.1"))")) * maxElementsListType */),
	},
	// TestCEL/quantity
	{name: "quantity",
		expression:  `device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`,
		capacity:    map[api.QualifiedName]api.DeviceCapacity{"name": {Value: quantity.MustParse("1Mi")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  6,
	},
	// TestCEL/check-positive
	{name: "check-positive",
		expression:  `"name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`,
		capacity:    map[api.QualifiedName]api.DeviceCapacity{"name": {Value: quantity.MustParse("1Mi")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  10,
	},
	// TestCEL/check-negative
	{name: "check-negative",
		expression:  `!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))`,
		expectMatch: true,
		expectCost:  11,
	},
	// TestCEL/all
	{name: "all",
		expression: `
device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
`,

		attributes: map[api.QualifiedName]api.DeviceAttribute{
			"bool":    {BoolValue: ptrTo(true)},
			"int":     {IntValue: ptrTo(int64(1))},
			"string":  {StringValue: ptrTo("fish")},
			"version": {VersionValue: ptrTo("1.0.0")},
		},
		capacity: map[api.QualifiedName]api.DeviceCapacity{
			"quantity": {Value: quantity.MustParse("1Mi")},
		},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  52,
	},
	// TestCEL/many
	{name: "many",
		expression: `device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c`,
		attributes: map[api.QualifiedName]api.DeviceAttribute{
			"a": {BoolValue: ptrTo(true)},
			"b": {BoolValue: ptrTo(true)},
			"c": {BoolValue: ptrTo(true)},
		},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  12,
	},
	// TestCEL/check_attribute_domains
	{name: "check_attribute_domains",
		expression:  `device.attributes.exists_one(x, x == "dra.example.com")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"services": {StringValue: ptrTo("some_example_value")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  164,
	},
	// TestCEL/check_attribute_ids
	{name: "check_attribute_ids",
		expression:  `device.attributes["dra.example.com"].exists_one(x, x == "services")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"services": {StringValue: ptrTo("some_example_value")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  133,
	},
	// TestCEL/split_attribute
	{name: "split_attribute",
		expression:  `device.attributes["dra.example.com"].services.split("example").size() >= 2`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"services": {StringValue: ptrTo("some_example_value")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  19,
	},
	// TestCEL/regexp_attribute
	{name: "regexp_attribute",
		expression:  `device.attributes["dra.example.com"].services.matches("[^a]?sym")`,
		attributes:  map[api.QualifiedName]api.DeviceAttribute{"services": {StringValue: ptrTo("asymetric")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  18,
	},
	// TestCEL/check_capacity_domains
	{name: "check_capacity_domains",
		expression:  `device.capacity.exists_one(x, x == "dra.example.com")`,
		capacity:    map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: quantity.MustParse("1Mi")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  164,
	},
	// TestCEL/check_capacity_ids
	{name: "check_capacity_ids",
		expression:  `device.capacity["dra.example.com"].exists_one(x, x == "memory")`,
		capacity:    map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: quantity.MustParse("1Mi")}},
		driver:      "dra.example.com",
		expectMatch: true,
		expectCost:  133,
	},
	// TestCEL/expensive
	{name: "expensive",
		// The worst-case is based on the maximum number of
		// attributes and the maximum attribute name length.
		// To actually reach that expected cost at runtime, we must
		// have many attributes.
		attributes: func() map[api.QualifiedName]api.DeviceAttribute {
			attributes := make(map[api.QualifiedName]api.DeviceAttribute)
			prefix := "dra.example.com/"
			attribute := api.DeviceAttribute{
				StringValue: ptrTo("abc"),
			}
			for i := 0; i < maxAttributesPerDevice; i++ {
				suffix := fmt.Sprintf("-%d", i)
				name := prefix + strings.Repeat("x", maxIDLength-len(suffix)) + suffix
				attributes[api.QualifiedName(name)] = attribute
			}
			return attributes
		}(),
		// From https://github.com/kubernetes/kubernetes/blob/50fc400f178d2078d0ca46aee955ee26375fc437/test/integration/apiserver/cel/validatingadmissionpolicy_test.go#L2150.
		expression:       `[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))`,
		driver:           "dra.example.com",
		expectMatchError: "actual cost limit exceeded",
		expectCost:       85555551, // Exceed limit!
	},
	// TestCEL/allow_multiple_allocations
	{name: "allow_multiple_allocations",
		features:                 &features{EnableConsumableCapacity: true},
		expression:               `device.allowMultipleAllocations == true`,
		allowMultipleAllocations: ptrTo(true),
		driver:                   "dra.example.com",
		expectMatch:              true,
		expectCost:               3,
	},
	// TestCEL/allow_multiple_allocations_default
	{name: "allow_multiple_allocations_default",
		features:                 &features{EnableConsumableCapacity: true},
		expression:               `device.allowMultipleAllocations == false`,
		allowMultipleAllocations: nil,
		driver:                   "dra.example.com",
		expectMatch:              true,
		expectCost:               3,
	},
	// TestCEL/allow_multiple_allocations_false
	{name: "allow_multiple_allocations_false",
		features:                 &features{EnableConsumableCapacity: true},
		expression:               `device.allowMultipleAllocations == false`,
		allowMultipleAllocations: ptrTo(false),
		driver:                   "dra.example.com",
		expectMatch:              true,
		expectCost:               3,
	},
	// TestCEL/allow_multiple_allocations_new
	{name: "allow_multiple_allocations_new",
		features:                 &features{EnableConsumableCapacity: true},
		expression:               `device.allowMultipleAllocations == false`,
		allowMultipleAllocations: ptrTo(false),
		driver:                   "dra.example.com",
		expectMatch:              true,
		expectCost:               3,
	},
	// TestCEL/allow_multiple_allocations_enabled
	{name: "allow_multiple_allocations_enabled",
		features:                 &features{EnableConsumableCapacity: true},
		expression:               `device.allowMultipleAllocations == false`,
		allowMultipleAllocations: ptrTo(false),
		driver:                   "dra.example.com",
		expectMatch:              true,
		expectCost:               3,
	},
	// TestCEL/allow_multiple_allocations_disabled
	{name: "allow_multiple_allocations_disabled",
		envType:            "new",
		features:           &features{EnableConsumableCapacity: false},
		expression:         `device.allowMultipleAllocations == false`,
		driver:             "dra.example.com",
		expectCompileError: `undefined field 'allowMultipleAllocations'`,
	},
}

// defaultFeatures reports whether f is nil or v1.37.2's default set.
func defaultFeatures(f *features) bool {
	return f == nil || (f.EnableConsumableCapacity && !f.EnableListTypeAttributes)
}

func TestSelectorCases(t *testing.T) {
	c, err := NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range selectorCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.envType != "new" {
				t.Run("stored", func(t *testing.T) {
					sel, err := c.Compile(tc.expression)
					if tc.expectCompileError != "" {
						if err == nil || !strings.Contains(err.Error(), tc.expectCompileError) {
							t.Fatalf("compile error %v, want one containing %q", err, tc.expectCompileError)
						}
						return
					}
					if err != nil {
						t.Fatalf("unexpected compile error: %v", err)
					}
					ok, err := sel.Matches(context.Background(), Device{Driver: tc.driver, AllowMultipleAllocations: tc.allowMultipleAllocations, Attributes: tc.attributes, Capacity: tc.capacity})
					if tc.expectMatchError != "" {
						if err == nil || !strings.Contains(err.Error(), tc.expectMatchError) {
							t.Fatalf("match error %v, want one containing %q", err, tc.expectMatchError)
						}
						return
					}
					if err != nil {
						t.Fatalf("unexpected match error: %v", err)
					}
					if ok != tc.expectMatch {
						t.Fatalf("match %v, want %v", ok, tc.expectMatch)
					}
				})
			}
			if tc.envType != "stored" && defaultFeatures(tc.features) {
				t.Run("new", func(t *testing.T) {
					cost, err := c.EstimateCost(tc.expression)
					if tc.expectCompileError != "" {
						if err == nil || !strings.Contains(err.Error(), tc.expectCompileError) {
							t.Fatalf("validation error %v, want one containing %q", err, tc.expectCompileError)
						}
						return
					}
					if err != nil && !(tc.expectCost > MaxCost && errors.Is(err, ErrTooComplex)) {
						t.Fatalf("unexpected validation error: %v", err)
					}
					// Upstream's estimates of list-typed cases assume the
					// gate on; at the default set attributes are scalars.
					if cost != tc.expectCost {
						t.Errorf("estimated cost %d, want %d", cost, tc.expectCost)
					}
				})
			}
		})
	}
}
