package conformance

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"pgregory.net/rapid"

	resourceapi "k8s.io/api/resource/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
	upcel "k8s.io/dynamic-resource-allocation/cel"

	"github.com/schedkit/schedkit/api"
	dracel "github.com/schedkit/schedkit/dra/cel"
	"github.com/schedkit/schedkit/quantity"
)

// The differential test of package dra/cel: random selector expressions
// from a small grammar, evaluated on random devices by upstream's
// k8s.io/dynamic-resource-allocation/cel (as the scheduler compiles them,
// and as the API server validates them) and by schedkit's. Both must
// agree on compile errors, results and runtime error texts.

var (
	celDrivers   = []string{"gpu.example.com", "x.org", ""}
	celDomains   = []string{"gpu.example.com", "x.org", "y.org", "", "dra.example.com"}
	celIDs       = []string{"model", "n", "s", "v", "b", "l", "mem", "cores", "x"}
	celStrings   = []string{"a100", "h100", "", "abc", "A100", "1.2.3", "v1.2", "10Gi", "1.2.3-rc.1+b"}
	celQuantity  = []string{"1", "0", "1Gi", "40Gi", "100m", "1.5", "1e3", "-1", "x", "", "9223372036854775807", "1Ki", "0.5"}
	celVersions  = []string{"1.2.3", "0.0.1", "1.2.3-rc.1", "1.2.3-alpha.1+b", "01.2.3", "1.2", "v1.2.3", "1.2.3-", "", "10.20.30", "1.0.0-0.3.7", "1.2.3+meta", "1.2.3-α"}
	celRawTokens = []string{
		"device", ".", "driver", "attributes", "capacity", "allowMultipleAllocations", "[", "]", "(", ")",
		"\"gpu.example.com\"", "\"model\"", "==", "!=", "&&", "||", "!", "<", ">", "1", "2.5", "true", "null",
		"quantity", "semver", "has", "in", ",", "?", ":", "{", "}", "size", "exists", "x", "'a'", "+", "-", "*",
		"cel.bind", "orValue", ".?", "@", "#", "\"", "foo", "isGreaterThan", "compareTo", "int", "dyn", "type",
	}
)

type celGen struct{ t *rapid.T }

func (g celGen) pick(label string, xs ...string) string {
	return rapid.SampledFrom(xs).Draw(g.t, label)
}

func (g celGen) n(label string, lo, hi int) int { return rapid.IntRange(lo, hi).Draw(g.t, label) }

func (g celGen) attr() string {
	d := g.pick("domain", celDomains...)
	id := g.pick("id", celIDs...)
	switch g.n("attrForm", 0, 4) {
	case 0:
		return fmt.Sprintf("device.attributes[%q].?%s.orValue(%s)", d, id, g.scalar())
	case 1:
		return fmt.Sprintf("device.attributes[%q][%q]", d, id)
	}
	return fmt.Sprintf("device.attributes[%q].%s", d, id)
}

func (g celGen) capacity() string {
	return fmt.Sprintf("device.capacity[%q].%s", g.pick("cdomain", celDomains...), g.pick("cid", celIDs...))
}

func (g celGen) scalar() string {
	switch g.n("scalar", 0, 5) {
	case 0:
		return fmt.Sprint(g.n("int", -3, 50))
	case 1:
		return fmt.Sprintf("%q", g.pick("str", celStrings...))
	case 2:
		return g.pick("bool", "true", "false")
	case 3:
		return g.pick("dbl", "1.5", "0.0", "2.0")
	case 4:
		return fmt.Sprintf("%du", g.n("uint", 0, 5))
	}
	return fmt.Sprintf("[%s, %s]", fmt.Sprint(g.n("l1", 0, 5)), fmt.Sprint(g.n("l2", 0, 5)))
}

func (g celGen) quantity(depth int) string {
	switch g.n("q", 0, 4) {
	case 0, 1:
		return g.capacity()
	case 2:
		return fmt.Sprintf("quantity(%q)", g.pick("qs", celQuantity...))
	case 3:
		if depth > 0 {
			return fmt.Sprintf("%s.%s(%s)", g.quantity(depth-1), g.pick("qop", "add", "sub"), g.pick("qarg", "1", "quantity(\"1Gi\")", "-5", g.capacity()))
		}
	}
	return g.attr()
}

func (g celGen) version(depth int) string {
	switch g.n("v", 0, 3) {
	case 0:
		return fmt.Sprintf("semver(%q)", g.pick("vs", celVersions...))
	case 1:
		return fmt.Sprintf("semver(%q, %s)", g.pick("vs", celVersions...), g.pick("norm", "true", "false"))
	}
	return g.attr()
}

func (g celGen) value(depth int) string {
	switch g.n("value", 0, 9) {
	case 0, 1, 2:
		return g.attr()
	case 3:
		return g.scalar()
	case 4:
		return "device.driver"
	case 5:
		if depth > 0 {
			return fmt.Sprintf("%s.%s()", g.quantity(depth-1), g.pick("qm", "asInteger", "isInteger", "asApproximateFloat", "sign"))
		}
	case 6:
		if depth > 0 {
			return fmt.Sprintf("%s.%s()", g.version(depth-1), g.pick("vm", "major", "minor", "patch"))
		}
	case 7:
		if depth > 0 {
			return fmt.Sprintf("%s.%s", g.value(depth-1), g.pick("sm", "size()", "lowerAscii()", "split(\".\")", "find(\"[0-9]+\")", "indexOf(\"1\")", "substring(1)", "charAt(0)",
				"exists(x, x == 1)", "all(x, x > 0)", "filter(x, x != \"a\").size()", "[0]", "[1]", "includes(1)", "includes(\"a100\")", "sum()", "max()", "min()", "isSorted()", "sort()", "distinct()", "reverse()", "lastIndexOf(2)", "slice(0, 1)", "flatten()", "join(\",\")", "exists_one(x, true)", "?[0].orValue(9)"))
		}
	case 8:
		if depth > 0 {
			return fmt.Sprintf("(%s %s %s)", g.value(depth-1), g.pick("arith", "+", "-", "*", "/", "%"), g.value(depth-1))
		}
	case 9:
		return fmt.Sprintf("%s(%s)", g.pick("conv", "int", "string", "double", "dyn", "type", "size", "uint", "bool"), g.value(0))
	}
	return g.attr()
}

func (g celGen) boolean(depth int) string {
	if depth <= 0 {
		switch g.n("leaf", 0, 5) {
		case 0:
			return g.pick("lit", "true", "false")
		case 1:
			return fmt.Sprintf("device.driver == %q", g.pick("drv", celDrivers...))
		case 2:
			return "device.allowMultipleAllocations"
		case 3:
			return fmt.Sprintf("has(device.attributes[%q].%s)", g.pick("hd", celDomains...), g.pick("hid", celIDs...))
		case 4:
			return fmt.Sprintf("%q in device.%s", g.pick("ind", celDomains...), g.pick("inf", "attributes", "capacity"))
		}
		return fmt.Sprintf("%s == %s", g.attr(), g.scalar())
	}
	d := depth - 1
	switch g.n("bool", 0, 16) {
	case 0:
		return fmt.Sprintf("(%s && %s)", g.boolean(d), g.boolean(d))
	case 1:
		return fmt.Sprintf("(%s || %s)", g.boolean(d), g.boolean(d))
	case 2:
		return "!" + g.boolean(d)
	case 3:
		return fmt.Sprintf("%s %s %s", g.value(d), g.pick("cmp", "==", "!=", "<", "<=", ">", ">="), g.value(d))
	case 4:
		return fmt.Sprintf("%s.%s(%s)", g.quantity(d), g.pick("qc", "isGreaterThan", "isLessThan"), g.quantity(d))
	case 5:
		return fmt.Sprintf("%s.compareTo(%s) %s 0", g.quantity(d), g.quantity(d), g.pick("cmp0", "==", ">=", "<"))
	case 6:
		return fmt.Sprintf("%s.%s(%s)", g.version(d), g.pick("vc", "isGreaterThan", "isLessThan"), g.version(d))
	case 7:
		return fmt.Sprintf("%s == %s", g.version(d), g.version(d))
	case 8:
		return fmt.Sprintf("%s == %s", g.quantity(d), g.quantity(d))
	case 9:
		return fmt.Sprintf("%s(%q)", g.pick("isf", "isQuantity", "isSemver", "isIP", "isCIDR", "isURL"), g.pick("iss", append(celQuantity, celVersions...)...))
	case 10:
		return fmt.Sprintf("device.%s[%q].%s(k, %s)", g.pick("mf", "attributes", "capacity"), g.pick("md", celDomains...), g.pick("mq", "exists", "all", "exists_one"), g.pick("mp", "k.startsWith(\"m\")", "k == \"n\"", "size(k) > 1"))
	case 11:
		return fmt.Sprintf("cel.bind(a, device.attributes[%q], %s)", g.pick("bd", celDomains...), strings.ReplaceAll(g.boolean(d), "device.attributes[\""+g.pick("bd2", celDomains...)+"\"]", "a"))
	case 12:
		return fmt.Sprintf("%s ? %s : %s", g.boolean(d), g.boolean(d), g.boolean(d))
	case 13:
		return fmt.Sprintf("%s.%s(%s)", g.value(d), g.pick("strf", "startsWith", "endsWith", "contains", "matches", "includes"), g.value(d))
	case 14:
		return fmt.Sprintf("%s in %s", g.value(d), g.pick("lst", "[1, 2, 3]", "[\"a100\", \"h100\"]", "device.attributes", "{\"model\": 1}", "[]"))
	case 15:
		return fmt.Sprintf("device.attributes[%q].size() %s %d", g.pick("sd", celDomains...), g.pick("scmp", "==", ">", "<"), g.n("sz", 0, 3))
	}
	return g.pick("misc",
		"lists.range(10).all(i, i < 10)",
		"lists.range(2000).all(i, lists.range(2000).all(j, i + j >= 0))",
		"sets.contains([1, 2], [1])",
		"[1, 2, 3].sum() == 6",
		"[3, 1].isSorted()",
		"[].max() == 1",
		"ip(\"10.0.0.1\").isLoopback()",
		"cidr(\"10.0.0.0/8\").containsIP(\"10.1.2.3\")",
		"url(\"https://a.b/c?x=1\").getHost() == \"a.b\"",
		"format.dns1123Label().validate(device.driver).hasValue()",
		"format.named(\"qualifiedName\").value().validate(\"a/b/c\").value().size() == 1",
		"\"abc\".findAll(\"[a-z]\").size() == 3",
		"\"a,b\".split(\",\").join(\"-\") == \"a-b\"",
		"quantity(\"1Gi\").asInteger() == 1073741824",
		"quantity(\"1\").add(1) == quantity(\"2\")",
		"quantity(\"2\") == quantity(\"1\").add(1)",
		"device.attributes.exists(d, device.attributes[d].exists(k, true))",
		"device.attributes.all(d, v, size(v) >= 0)",
		"device.capacity.transformMap(k, v, v.size()).size() >= 0",
		"\"x\".lowerAscii() == \"x\" && \"ab\".reverse() == \"ba\"",
		"{\"a\": 1}.exists(k, k == \"a\")",
		"device.attributes == {}",
		"device.attributes[\"gpu.example.com\"] == {}",
		"type(device.capacity[\"x.org\"].mem) == type(quantity(\"1\"))",
		"optional.of(1).hasValue()",
		"math.greatest(1, 2) == 2",
		"[1, 2].distinct().size() == 2",
		"string(ip(\"::1\")) == \"::1\"",
		"dyn(quantity(\"1\")).exists(x, true)",
		"dyn(quantity(\"1\").add(1)).exists(x, true)",
		"dyn(semver(\"1.2.3\")).all(x, true)",
		"dyn(ip(\"1.2.3.4\")).exists(x, true)",
		"dyn(cidr(\"1.2.3.0/24\")).exists(x, true)",
		"dyn(url(\"https://x\")).exists(x, true)",
		"dyn(format.dns1123Label()).exists(x, true)",
		"device.attributes[\"gpu.example.com\"].v.exists(x, true)",
		"device.capacity[\"gpu.example.com\"].mem.exists(x, true)",
		"dyn(device).exists(k, k == \"driver\")",
		"dyn(device).size() == 4",
	)
}

// expression draws a selector: usually a boolean from the grammar, at
// times a value of another type, random tokens, or a mutation.
func (g celGen) expression() string {
	switch g.n("exprKind", 0, 9) {
	case 0:
		return g.value(2)
	case 1:
		n := g.n("ntok", 1, 8)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(g.pick("tok", celRawTokens...))
			if g.n("sp", 0, 1) == 0 {
				b.WriteString(" ")
			}
		}
		return b.String()
	case 2:
		e := g.boolean(2)
		if len(e) > 2 {
			i := g.n("cut", 1, len(e)-1)
			return e[:i]
		}
		return e
	}
	return g.boolean(g.n("depth", 0, 3))
}

// celDevice draws a device: attributes of every kind in the driver's and
// other domains, spelled qualified or not, capacities, at most one
// attribute that fails conversion.
func celDevice(t *rapid.T) (string, *bool, map[api.QualifiedName]api.DeviceAttribute, map[api.QualifiedName]api.DeviceCapacity) {
	g := celGen{t}
	driver := g.pick("driver", celDrivers...)
	var multi *bool
	switch g.n("multi", 0, 2) {
	case 1:
		multi = new(bool)
	case 2:
		v := true
		multi = &v
	}
	attrs := map[api.QualifiedName]api.DeviceAttribute{}
	slots := map[string]bool{}
	bad := false
	for i, n := 0, g.n("nattrs", 0, 6); i < n; i++ {
		dom := g.pick("adom", celDomains[:3]...)
		id := g.pick("aid", celIDs...)
		name := dom + "/" + id
		if dom == driver && g.n("short", 0, 1) == 0 {
			name = id
		}
		if dom == "" {
			name = id
		}
		slot := dom + "/" + id
		if dom == "" {
			slot = driver + "/" + id
		}
		if slots[slot] {
			continue
		}
		slots[slot] = true
		var a api.DeviceAttribute
		switch g.n("akind", 0, 8) {
		case 0:
			v := int64(g.n("ai", -5, 50))
			a.IntValue = &v
		case 1:
			v := g.n("ab", 0, 1) == 1
			a.BoolValue = &v
		case 2:
			v := g.pick("as", celStrings...)
			a.StringValue = &v
		case 3:
			v := g.pick("av", celVersions[:4]...)
			if !bad && g.n("badv", 0, 9) == 0 {
				v = g.pick("avbad", celVersions...)
				bad = true
			}
			a.VersionValue = &v
		case 4:
			a.IntValues = []int64{int64(g.n("li0", 0, 3)), int64(g.n("li1", 0, 3))}
		case 5:
			a.StringValues = []string{g.pick("ls", celStrings...)}
		case 6:
			a.BoolValues = []bool{true}
		case 7:
			a.VersionValues = []string{g.pick("lv", celVersions[:4]...)}
		case 8:
			if bad {
				v := int64(1)
				a.IntValue = &v
			} else {
				bad = true
			}
		}
		attrs[api.QualifiedName(name)] = a
	}
	caps := map[api.QualifiedName]api.DeviceCapacity{}
	cslots := map[string]bool{}
	for i, n := 0, g.n("ncaps", 0, 3); i < n; i++ {
		dom := g.pick("cdom", celDomains[:3]...)
		id := g.pick("cid", celIDs...)
		name := dom + "/" + id
		if dom == driver || dom == "" {
			name = id
			dom = driver
		}
		if cslots[dom+"/"+id] {
			continue
		}
		cslots[dom+"/"+id] = true
		caps[api.QualifiedName(name)] = api.DeviceCapacity{Value: quantity.MustParse(g.pick("cq", "1", "40Gi", "100m", "0", "1.5", "8"))}
	}
	return driver, multi, attrs, caps
}

func toUpstreamDevice(driver string, multi *bool, attrs map[api.QualifiedName]api.DeviceAttribute, caps map[api.QualifiedName]api.DeviceCapacity) upcel.Device {
	d := upcel.Device{Driver: driver, AllowMultipleAllocations: multi,
		Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{},
		Capacity:   map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}}
	for n, a := range attrs {
		d.Attributes[resourceapi.QualifiedName(n)] = resourceapi.DeviceAttribute{
			IntValue: a.IntValue, BoolValue: a.BoolValue, StringValue: a.StringValue, VersionValue: a.VersionValue,
			IntValues: a.IntValues, BoolValues: a.BoolValues, StringValues: a.StringValues, VersionValues: a.VersionValues,
		}
	}
	for n, c := range caps {
		d.Capacity[resourceapi.QualifiedName(n)] = resourceapi.DeviceCapacity{Value: k8sresource.MustParse(c.Value.String())}
	}
	return d
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestDRACELDifferential compares compile errors, results and runtime
// errors with upstream's DRA CEL package, as the scheduler compiles
// (stored expressions) and as the API server validates (new expressions).
func TestDRACELDifferential(t *testing.T) {
	ours, err := dracel.NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	features := upcel.Features{EnableConsumableCapacity: true}
	cache := upcel.NewCache(10, features)
	newEnv := environment.NewExpressions
	var compiled, failed, matched, runtimeErrs, evaluated int
	defer func() {
		t.Logf("%d expressions compiled, %d did not; %d evaluations: %d true, %d runtime errors",
			compiled, failed, evaluated, matched, runtimeErrs)
	}()
	rapid.Check(t, func(t *rapid.T) {
		expr := celGen{t}.expression()
		up := cache.GetOrCompile(expr)
		sel, err := ours.Compile(expr)
		if (up.Error == nil) != (err == nil) || (up.Error != nil && up.Error.Error() != err.Error()) {
			t.Fatalf("compile %q:\nupstream: %v\nschedkit: %v", expr, up.Error, err)
		}
		upv := upcel.GetCompiler(features).CompileCELExpression(expr, upcel.Options{EnvType: &newEnv})
		cost, verr := ours.EstimateCost(expr)
		if upv.Error != nil {
			if verr == nil || upv.Error.Error() != verr.Error() {
				t.Fatalf("validate %q:\nupstream: %v\nschedkit: %v", expr, upv.Error, verr)
			}
		} else {
			if verr != nil && !errors.Is(verr, dracel.ErrTooComplex) {
				t.Fatalf("validate %q: upstream accepts, schedkit: %v", expr, verr)
			}
			if cost != upv.MaxCost || (upv.MaxCost > resourceapi.CELSelectorExpressionMaxCost) != (verr != nil) {
				t.Fatalf("validate %q: upstream cost %d, schedkit %d (%v)", expr, upv.MaxCost, cost, verr)
			}
		}
		if up.Error != nil {
			failed++
			return
		}
		compiled++
		for i, n := 0, rapid.IntRange(1, 4).Draw(t, "ndev"); i < n; i++ {
			driver, multi, attrs, caps := celDevice(t)
			wantOK, details, wantErr := up.DeviceMatches(context.Background(), toUpstreamDevice(driver, multi, attrs, caps))
			var wantCost uint64
			if c := details.ActualCost(); c != nil {
				wantCost = *c
			}
			gotOK, gotCost, gotErr := sel.MatchesCost(context.Background(), dracel.Device{Driver: driver, AllowMultipleAllocations: multi, Attributes: attrs, Capacity: caps})
			if wantOK != gotOK || errText(wantErr) != errText(gotErr) || (wantCost != gotCost && !mapOrderCost(expr)) {
				t.Fatalf("%q on driver %q multi %v attributes %v capacity %v:\nupstream: %v %v cost %d\nschedkit: %v %v cost %d",
					expr, driver, multi, attrs, caps, wantOK, wantErr, wantCost, gotOK, gotErr, gotCost)
			}
			evaluated++
			if gotOK {
				matched++
			}
			if gotErr != nil {
				runtimeErrs++
			}
			if w, g := errText(upcel.EnhanceRuntimeError(wantErr)), errText(dracel.EnhanceRuntimeError(gotErr)); w != g {
				t.Fatalf("enhanced error of %q: upstream %s, schedkit %s", expr, w, g)
			}
		}
	})
}

// TestDRACELFormats compares the messages of every named format of
// Kubernetes' format library on drawn strings: upstream's validator
// gives the expected list, and schedkit's selector must see it.
func TestDRACELFormats(t *testing.T) {
	ours, err := dracel.NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range library.ConstantFormats {
		names = append(names, n)
	}
	sort.Strings(names)
	samples := []string{"", "a", "a-b", "a_b", "A", "-a", "a-", "a.b", "1a", "a/b", "a/b/c", "/b", "a/", "example.com/Name", "1.2.3",
		strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 127) + "a", "https://x/y", "x y", "550e8400-e29b-41d4-a716-446655440000",
		"550E8400E29B41D4A716446655440000", "aGVsbG8=", "aGVsbG8", "2024-02-29", "2023-02-29", "2024-01-01T10:00:00Z", "2024-01-01t25:00:00z", "2024-01-01T10:00:00.5+01:00"}
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(names).Draw(t, "format")
		s := rapid.OneOf(rapid.SampledFrom(samples), rapid.StringOfN(rapid.RuneFrom([]rune("aZ09-._/:T+ ")), 0, 70, -1)).Draw(t, "s")
		msgs := library.ConstantFormats[name].ValidateFunc(s)
		quoted := make([]string, len(msgs))
		for i, m := range msgs {
			quoted[i] = fmt.Sprintf("%q", m)
		}
		expr := fmt.Sprintf("format.%s().validate(%q).orValue([]) == [%s]", name, s, strings.Join(quoted, ", "))
		sel, err := ours.Compile(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if ok, err := sel.Matches(context.Background(), dracel.Device{}); !ok || err != nil {
			t.Fatalf("%s: %v %v", expr, ok, err)
		}
	})
}

// TestDRACELLibraries compares the Kubernetes library functions on drawn
// strings (addresses, prefixes, URLs, quantities, versions, patterns):
// results and error texts, evaluated by upstream and by schedkit.
func TestDRACELLibraries(t *testing.T) {
	ours, err := dracel.NewCompiler(0)
	if err != nil {
		t.Fatal(err)
	}
	cache := upcel.NewCache(10, upcel.Features{EnableConsumableCapacity: true})
	templates := []string{
		"isIP($S)", "ip($S).family() > 0", "ip.isCanonical($S)", "ip($S).isLoopback() || ip($S).isGlobalUnicast()",
		"ip($S).isUnspecified() || ip($S).isLinkLocalMulticast() || ip($S).isLinkLocalUnicast()", "string(ip($S)) == $T",
		"ip($S) == ip($T)", "isCIDR($S)", "cidr($S).prefixLength() >= 0", "cidr($S).containsIP($T)", "cidr($S).containsIP(ip($T))",
		"cidr($S).containsCIDR($T)", "cidr($S).containsCIDR(cidr($T))", "cidr($S).masked() == cidr($T)", "string(cidr($S).ip()) == $T",
		"isURL($S)", "url($S).getHost() == $T", "url($S).getHostname() == $T", "url($S).getPort() == $T", "url($S).getScheme() == $T",
		"url($S).getEscapedPath() == $T", "url($S).getQuery().size() > 0", "url($S) == url($T)",
		"isQuantity($S)", "quantity($S).isInteger()", "quantity($S).asInteger() > 0", "quantity($S).asApproximateFloat() > 0.0",
		"quantity($S).compareTo(quantity($T)) == 0", "quantity($S) == quantity($T)", "quantity($S).add(quantity($T)).sign() > 0",
		"quantity($S).sub(3).isLessThan(quantity($T))",
		"isSemver($S)", "isSemver($S, true)", "semver($S).major() >= 0", "semver($S, true).minor() >= 0", "semver($S).compareTo(semver($T)) > 0",
		"semver($S, true) == semver($T, true)", "semver($S).isLessThan(semver($T))",
		"$S.find($T) == \"\"", "$S.findAll($T).size() > 0", "$S.findAll($T, 1).size() > 0", "$S.matches($T)",
		"[$S, $T].isSorted()", "[$S, $T].max() == $S", "[$S, $T].indexOf($T) == 1", "[$S].includes($T)",
		"$S.lowerAscii() == $T", "$S.split(\".\").size() > 2", "$S.replace(\"1\", $T) == $S", "$S.substring(1) == $T", "$S.trim() == $T",
		"$S.format([$T]) == $T", "strings.quote($S) == $T", "$S.indexOf($T) > 0", "$S.charAt(1) == $T",
	}
	samples := []string{"", "1.2.3.4", "::1", "fe80::1%eth0", "::ffff:1.2.3.4", "10.0.0.0/8", "10.1.2.3/8", "2001:db8::/32", "1.2.3.4/33",
		"0.0.0.0", "224.0.0.1", "169.254.1.1", "https://example.com:8080/a%20b?x=1&y=2", "/path", "http://[::1]:80", "mailto:a@b", "a b",
		"1", "0", "1Gi", "100m", "1.5", "-1", "1e3", "9223372036854775807", "1Ki", "10Mm", "1.2.3", "v1.2", "01.02.03", "1.2.3-rc.1+b",
		"[0-9]+", "(", "a.b.c", "a*", "%s", "%d", "12", "Ab"}
	str := rapid.OneOf(rapid.SampledFrom(samples), rapid.StringOfN(rapid.RuneFrom([]rune("0123456789abcf.:/%[]-+eEiKMGmv ")), 0, 20, -1))
	var evaluated, failed int
	defer func() { t.Logf("%d evaluations, %d runtime errors", evaluated, failed) }()
	rapid.Check(t, func(t *rapid.T) {
		tmpl := rapid.SampledFrom(templates).Draw(t, "template")
		s, u := str.Draw(t, "S"), str.Draw(t, "T")
		expr := strings.NewReplacer("$S", fmt.Sprintf("%q", s), "$T", fmt.Sprintf("%q", u)).Replace(tmpl)
		up := cache.GetOrCompile(expr)
		sel, err := ours.Compile(expr)
		if (up.Error == nil) != (err == nil) || (up.Error != nil && up.Error.Error() != err.Error()) {
			t.Fatalf("compile %q:\nupstream: %v\nschedkit: %v", expr, up.Error, err)
		}
		if up.Error != nil {
			return
		}
		wantOK, details, wantErr := up.DeviceMatches(context.Background(), upcel.Device{})
		var wantCost uint64
		if c := details.ActualCost(); c != nil {
			wantCost = *c
		}
		gotOK, gotCost, gotErr := sel.MatchesCost(context.Background(), dracel.Device{})
		evaluated++
		if gotErr != nil {
			failed++
		}
		if wantOK != gotOK || errText(wantErr) != errText(gotErr) || wantCost != gotCost {
			t.Fatalf("%s:\nupstream: %v %v cost %d\nschedkit: %v %v cost %d", expr, wantOK, wantErr, wantCost, gotOK, gotErr, gotCost)
		}
	})
}

// BenchmarkDRACELMatches compares one evaluation of a typical selector on
// a typical device, upstream's DeviceMatches against schedkit's.
func BenchmarkDRACELMatches(b *testing.B) {
	const expr = `device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"`
	str := func(s string) *string { return &s }
	attrs := map[api.QualifiedName]api.DeviceAttribute{
		"model": {StringValue: str("a100")}, "driverVersion": {VersionValue: str("535.104.5")},
		"index": {IntValue: new(int64)}, "resource.kubernetes.io/pcieRoot": {StringValue: str("pci0000:00")},
	}
	caps := map[api.QualifiedName]api.DeviceCapacity{"memory": {Value: quantity.MustParse("80Gi")}}
	ctx := context.Background()
	b.Run("upstream", func(b *testing.B) {
		up := upcel.NewCache(10, upcel.Features{EnableConsumableCapacity: true}).GetOrCompile(expr)
		d := toUpstreamDevice("gpu.example.com", nil, attrs, caps)
		b.ReportAllocs()
		for b.Loop() {
			if ok, _, err := up.DeviceMatches(ctx, d); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("schedkit", func(b *testing.B) {
		c, err := dracel.NewCompiler(0)
		if err != nil {
			b.Fatal(err)
		}
		sel, err := c.Compile(expr)
		if err != nil {
			b.Fatal(err)
		}
		d := dracel.Device{Driver: "gpu.example.com", Attributes: attrs, Capacity: caps}
		b.ReportAllocs()
		for b.Loop() {
			if ok, err := sel.Matches(ctx, d); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
}

// mapOrderCost reports whether expr's runtime cost depends on the order a
// map is iterated in: exists and all stop at the first element that
// decides, and upstream iterates the attribute and capacity maps in Go's
// random order, schedkit in sorted order. The results still agree.
func mapOrderCost(expr string) bool {
	// The device itself is a map too: dyn(device).exists(k, …) stops at
	// a key whose place follows map order.
	overMap := strings.Contains(expr, "device.attributes[") || strings.Contains(expr, "device.capacity[") ||
		strings.Contains(expr, "dyn(device)") || strings.Contains(expr, "device.exists(") || strings.Contains(expr, "device.all(")
	return overMap && (strings.Contains(expr, ".exists(") || strings.Contains(expr, ".all("))
}
