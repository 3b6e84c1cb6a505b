package cel

import (
	"context"
	"errors"
	"regexp"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/schedkit/schedkit/quantity"
)

// libraryCase is one expression of a library test: the value it gives, or
// a pattern its runtime or compile error matches.
type libraryCase struct {
	name       string // the upstream case it pins
	expr       string
	want       ref.Val
	runtimeErr string
	compileErr string
}

// evalLibraryCases evaluates each case in the scheduler's environment on
// an empty device.
func evalLibraryCases(t *testing.T, cases []libraryCase) {
	t.Helper()
	c, err := NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ast, issues := c.stored.Compile(tc.expr)
			if tc.compileErr != "" {
				if issues == nil || !regexp.MustCompile(tc.compileErr).MatchString(issues.String()) {
					t.Fatalf("compile issues %v, want %q", issues, tc.compileErr)
				}
				return
			}
			if issues != nil {
				t.Fatalf("compile: %v", issues)
			}
			prg, err := c.stored.Program(ast)
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := prg.ContextEval(context.Background(), &evalState{adapter: c.stored.CELTypeAdapter(), empty: c.empty})
			if tc.runtimeErr != "" {
				if err == nil || !regexp.MustCompile(tc.runtimeErr).MatchString(err.Error()) {
					t.Fatalf("runtime error %v, want %q", err, tc.runtimeErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.Equal(tc.want) != types.True {
				t.Fatalf("got %v (%T), want %v", out, out, tc.want)
			}
		})
	}
}

// TestQuantityLibrary pins apiserver's pkg/cel/library quantity_test.go
// TestQuantity at v0.37.2.
func TestQuantityLibrary(t *testing.T) {
	tr, fa := types.True, types.False
	evalLibraryCases(t, []libraryCase{
		{name: "parse", expr: `quantity("12Mi")`, want: Quantity{quantity.MustParse("12Mi")}},
		{name: "parseInvalidSuffix", expr: `quantity("10Mo")`, runtimeErr: "quantities must match the regular expression.*"},
		{name: "parseInvalidSuffixPassesRegex", expr: `quantity("10Mm")`, runtimeErr: "unable to parse quantity's suffix"},
		{name: "isQuantity", expr: `isQuantity("20")`, want: tr},
		{name: "isQuantity_megabytes", expr: `isQuantity("20M")`, want: tr},
		{name: "isQuantity_mebibytes", expr: `isQuantity("20Mi")`, want: tr},
		{name: "isQuantity_invalidSuffix", expr: `isQuantity("20Mo")`, want: fa},
		{name: "isQuantity_passingRegex", expr: `isQuantity("10Mm")`, want: fa},
		{name: "isQuantity_noOverload", expr: `isQuantity([1, 2, 3])`, compileErr: "found no matching overload for 'isQuantity' applied to.*"},
		{name: "equality_reflexivity", expr: `quantity("200M") == quantity("200M")`, want: tr},
		{name: "equality_symmetry", expr: `quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")`, want: tr},
		{name: "equality_transitivity", expr: `quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")`, want: tr},
		{name: "inequality", expr: `quantity("200M") == quantity("0.3G")`, want: fa},
		{name: "quantity_less", expr: `quantity("50M").isLessThan(quantity("50Mi"))`, want: tr},
		{name: "quantity_less_obvious", expr: `quantity("50M").isLessThan(quantity("100M"))`, want: tr},
		{name: "quantity_less_false", expr: `quantity("100M").isLessThan(quantity("50M"))`, want: fa},
		{name: "quantity_greater", expr: `quantity("50Mi").isGreaterThan(quantity("50M"))`, want: tr},
		{name: "quantity_greater_obvious", expr: `quantity("150Mi").isGreaterThan(quantity("100Mi"))`, want: tr},
		{name: "quantity_greater_false", expr: `quantity("50M").isGreaterThan(quantity("100M"))`, want: fa},
		{name: "compare_equal", expr: `quantity("200M").compareTo(quantity("0.2G"))`, want: types.Int(0)},
		{name: "compare_less", expr: `quantity("50M").compareTo(quantity("50Mi"))`, want: types.Int(-1)},
		{name: "compare_greater", expr: `quantity("50Mi").compareTo(quantity("50M"))`, want: types.Int(1)},
		{name: "add_quantity", expr: `quantity("50k").add(quantity("20")) == quantity("50.02k")`, want: tr},
		{name: "add_int", expr: `quantity("50k").add(20).isLessThan(quantity("50020"))`, want: fa},
		{name: "sub_quantity", expr: `quantity("50k").sub(quantity("20")) == quantity("49.98k")`, want: tr},
		{name: "sub_int", expr: `quantity("50k").sub(20) == quantity("49980")`, want: tr},
		{name: "arith_chain_1", expr: `quantity("50k").add(20).sub(quantity("100k")).asInteger()`, want: types.Int(-49980)},
		{name: "arith_chain", expr: `quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()`, want: types.Int(20)},
		{name: "as_integer", expr: `quantity("50k").asInteger()`, want: types.Int(50000)},
		{name: "as_integer_error", expr: `quantity("9999999999999999999999999999999999999G").asInteger()`, runtimeErr: `cannot convert value to integer`},
		{name: "is_integer (big)", expr: `quantity("9999999999999999999999999999999999999G").isInteger()`, want: fa},
		{name: "is_integer", expr: `quantity("50").isInteger()`, want: tr},
		{name: "as_float", expr: `quantity("50.703k").asApproximateFloat()`, want: types.Double(50703)},
		{name: "add_does_not_mutate_receiver", expr: `[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)`, want: tr},
		// Not upstream cases: the pointer result of add on the right of ==
		// is no overload, as in Kubernetes (the differential test pins it).
		{name: "sum on the right of ==", expr: `quantity("2") == quantity("1").add(1)`, runtimeErr: "^no such overload$"},
		{name: "sign", expr: `sign(quantity("-1m"))`, want: types.Int(-1)},
	})
}

// TestSemverLibrary pins apiserver's pkg/cel/library semver_test.go
// TestSemver at v0.37.2 (the environment has library version 1).
func TestSemverLibrary(t *testing.T) {
	tr, fa := types.True, types.False
	v123, _ := ParseVersion("1.2.3")
	evalLibraryCases(t, []libraryCase{
		{name: "parse", expr: `semver("1.2.3")`, want: Semver{v123}},
		{name: "parseInvalidVersion", expr: `semver("v1.0")`, runtimeErr: "No Major.Minor.Patch elements found"},
		{name: "isSemver", expr: `isSemver("1.2.3-beta.1+build.1")`, want: tr},
		{name: "isSemver_empty_false", expr: `isSemver("")`, want: fa},
		{name: "isSemver_v_prefix_false", expr: `isSemver("v1.0.0")`, want: fa},
		{name: "isSemver_v_leading_whitespace_false", expr: `isSemver(" 1.0.0")`, want: fa},
		{name: "isSemver_v_contains_whitespace_false", expr: `isSemver("1. 0.0")`, want: fa},
		{name: "isSemver_v_trailing_whitespace_false", expr: `isSemver("1.0.0 ")`, want: fa},
		{name: "isSemver_leading_zeros_false", expr: `isSemver("01.01.01")`, want: fa},
		{name: "isSemver_major_only_false", expr: `isSemver("1")`, want: fa},
		{name: "isSemver_major_minor_only_false", expr: `isSemver("1.1")`, want: fa},
		{name: "isSemver_empty_normalize_false", expr: `isSemver("", true)`, want: fa},
		{name: "isSemver_v_leading_whitespace_normalize_false", expr: `isSemver(" 1.0.0", true)`, want: fa},
		{name: "isSemver_v_contains_whitespace_normalize_false", expr: `isSemver("1. 0.0", true)`, want: fa},
		{name: "isSemver_v_trailing_whitespace_normalize_false", expr: `isSemver("1.0.0 ", true)`, want: fa},
		{name: "isSemver_v_prefix_normalize_true", expr: `isSemver("v1.0.0", true)`, want: tr},
		{name: "isSemver_leading_zeros_normalize_true", expr: `isSemver("01.01.01", true)`, want: tr},
		{name: "isSemver_major_only_normalize_true", expr: `isSemver("1", true)`, want: tr},
		{name: "isSemver_major_minor_only_normalize_true", expr: `isSemver("1.1", true)`, want: tr},
		{name: "isSemver_noOverload", expr: `isSemver([1, 2, 3])`, compileErr: "found no matching overload for 'isSemver' applied to.*"},
		{name: "equality_normalize", expr: `semver("v01.01", true) == semver("1.1.0")`, want: tr},
		{name: "equality_reflexivity", expr: `semver("1.2.3") == semver("1.2.3")`, want: tr},
		{name: "inequality", expr: `semver("1.2.3") == semver("1.0.0")`, want: fa},
		{name: "semver_less", expr: `semver("1.0.0").isLessThan(semver("1.2.3"))`, want: tr},
		{name: "semver_less_false", expr: `semver("1.0.0").isLessThan(semver("1.0.0"))`, want: fa},
		{name: "semver_greater", expr: `semver("1.2.3").isGreaterThan(semver("1.0.0"))`, want: tr},
		{name: "semver_greater_false", expr: `semver("1.0.0").isGreaterThan(semver("1.0.0"))`, want: fa},
		{name: "compare_equal", expr: `semver("1.2.3").compareTo(semver("1.2.3"))`, want: types.Int(0)},
		{name: "compare_less", expr: `semver("1.0.0").compareTo(semver("1.2.3"))`, want: types.Int(-1)},
		{name: "compare_greater", expr: `semver("1.2.3").compareTo(semver("1.0.0"))`, want: types.Int(1)},
		{name: "major", expr: `semver("1.2.3").major()`, want: types.Int(1)},
		{name: "minor", expr: `semver("1.2.3").minor()`, want: types.Int(2)},
		{name: "patch", expr: `semver("1.2.3").patch()`, want: types.Int(3)},
	})
}

// TestParseVersion pins the error texts of the semantic version parser
// Kubernetes uses (github.com/blang/semver/v4 Parse), and precedence.
func TestParseVersion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "Version string empty"},
		{"1.2", "No Major.Minor.Patch elements found"},
		{"a.2.3", `Invalid character(s) found in major number "a"`},
		{"01.2.3", `Major number must not contain leading zeroes "01"`},
		{"1.b.3", `Invalid character(s) found in minor number "b"`},
		{"1.02.3", `Minor number must not contain leading zeroes "02"`},
		{"1.2.c", `Invalid character(s) found in patch number "c"`},
		{"1.2.03", `Patch number must not contain leading zeroes "03"`},
		{"1..3", `strconv.ParseUint: parsing "": invalid syntax`},
		{"1.2.3-", "Prerelease is empty"},
		{"1.2.3-01", `Numeric PreRelease version must not contain leading zeroes "01"`},
		{"1.2.3-a_b", `Invalid character(s) found in prerelease "a_b"`},
		{"1.2.3+", "Build meta data is empty"},
		{"1.2.3+a_b", `Invalid character(s) found in build meta data "a_b"`},
		{"99999999999999999999.2.3", `strconv.ParseUint: parsing "99999999999999999999": value out of range`},
		{"1.2.3-rc.1+b.2", ""},
	} {
		_, err := ParseVersion(tc.in)
		if got := errText(err); got != tc.want {
			t.Errorf("ParseVersion(%q): %q, want %q", tc.in, got, tc.want)
		}
	}
	order := []string{"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0"}
	for i := range order {
		for j := range order {
			a, _ := ParseVersion(order[i])
			b, _ := ParseVersion(order[j])
			if got, want := a.Compare(b), cmpInt(i, j); got != want {
				t.Errorf("%s vs %s: %d, want %d", order[i], order[j], got, want)
			}
		}
	}
	v, _ := ParseVersion("1.2.3-rc.1+b.2")
	if v.String() != "1.2.3-rc.1+b.2" {
		t.Errorf("String: %s", v)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestEnhanceRuntimeError pins upstream's errors_test.go at
// k8s.io/dynamic-resource-allocation@v0.37.2/cel.
func TestEnhanceRuntimeError(t *testing.T) {
	const hint = ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields"
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil error returns nil", nil, ""},
		{"no such key error gets enhanced with usage hint", errors.New("no such key: sharingStrategy"), "no such key: sharingStrategy" + hint},
		{"other error is returned unchanged", errors.New("some other error"), "some other error"},
		{"wrapped no such key error gets enhanced", errors.New("context: no such key: fieldY"), "context: no such key: fieldY" + hint},
		{"error with hint text but not enhancedError type still gets enhanced", errors.New("no such key: fieldZ. consider using CEL optional chaining"), "no such key: fieldZ. consider using CEL optional chaining" + hint},
	} {
		if got := errText(EnhanceRuntimeError(tc.err)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	// TestEnhanceRuntimeErrorIdempotent
	once := EnhanceRuntimeError(errors.New("no such key: fieldA"))
	if twice := EnhanceRuntimeError(once); twice.Error() != once.Error() {
		t.Errorf("not idempotent: %q then %q", once, twice)
	}
}
