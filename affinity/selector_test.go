package affinity

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
)

// Pins apimachinery pkg/labels TestSelectorParse: good strings re-render
// as themselves minus spaces, bad strings fail.
func TestParseSelectorGoodAndBad(t *testing.T) {
	good := []string{"x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5"}
	bad := []string{"x=a||y=b", "x==a==b", "!x=a", "x<a"}
	for _, s := range good {
		sel, err := ParseSelector(s)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", s, err)
			continue
		}
		if want := strings.ReplaceAll(s, " ", ""); sel.String() != want {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", s, sel.String(), want)
		}
	}
	for _, s := range bad {
		if _, err := ParseSelector(s); err == nil {
			t.Errorf("ParseSelector(%q): want error", s)
		}
	}
}

// Pins apimachinery pkg/labels TestDeterministicParse.
func TestParseSelectorDeterministic(t *testing.T) {
	a, _ := ParseSelector("x=a,a=x")
	b, _ := ParseSelector("a=x,x=a")
	if a.String() != b.String() || a.String() != "a=x,x=a" {
		t.Errorf("got %q and %q", a.String(), b.String())
	}
}

// Pins apimachinery pkg/labels TestSetSelectorParser: the parse result,
// written as the selector's String(); "" for errors.
func TestParseSelectorUpstreamCases(t *testing.T) {
	cases := []struct {
		in, out string
		valid   bool
	}{
		{"", "", true},
		{"\rx", "x", true},
		{"this-is-a-dns.domain.com/key-with-dash", "this-is-a-dns.domain.com/key-with-dash", true},
		{"this-is-another-dns.domain.com/key-with-dash in (so,what)", "this-is-another-dns.domain.com/key-with-dash in (so,what)", true},
		{"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)", "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)", true},
		{"foo  in\t (abc)", "foo in (abc)", true},
		{"x notin\n (abc)", "x notin (abc)", true},
		{"x  notin\t\t\t(abc,def)", "x notin (abc,def)", true},
		{"x in (abc,def)", "x in (abc,def)", true},
		{"x in (abc,)", "x in (,abc)", true},
		{"x in (abc,abc)", "x in (abc)", true},
		{"x in ()", "x in ()", true},
		{"x in (a,,)", "x in (,a)", true},
		{"x in (a,,,)", "x in (,a)", true},
		{"x in (a,,,,,,)", "x in (,a)", true},
		{"x in (a,,a,,a,,a,,)", "x in (,a)", true},
		{"x notin (abc,,def),bar,z in (),w", "bar,w,x notin (,abc,def),z in ()", true},
		{"x,y in (a)", "x,y in (a)", true},
		{"x=a", "x=a", true},
		{"x>1", "x>1", true},
		{"x<7", "x<7", true},
		{"x=a,y!=b", "x=a,y!=b", true},
		{"x=a,y!=b,z in (h,i,j)", "x=a,y!=b,z in (h,i,j)", true},
		{"x=a||y=b", "", false},
		{"x,,y", "", false},
		{",x,y", "", false},
		{"x nott in (y)", "", false},
		{"x notin ( )", "x notin ()", true},
		{"x notin (, a)", "x notin (,a)", true},
		{"a in (xyz),", "", false},
		{"a in (xyz)b notin ()", "", false},
		{"a ", "a", true},
		{"a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)", true},
		{"a in (xyz abc)", "", false},
		{"a notin(", "", false},
		{"a (", "", false},
		{"(", "", false},
	}
	for _, c := range cases {
		sel, err := ParseSelector(c.in)
		if (err == nil) != c.valid {
			t.Errorf("ParseSelector(%q) error = %v, want valid=%v", c.in, err, c.valid)
			continue
		}
		if err == nil && sel.String() != c.out {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", c.in, sel.String(), c.out)
		}
	}
}

// Error texts recorded from apimachinery v0.37.2 labels.Parse (run
// against the same inputs), including its "<nil>" field name for a bad
// key.
func TestParseSelectorErrorText(t *testing.T) {
	valueMsg := "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	cases := []struct{ in, want string }{
		{"x=a||y=b", `unable to parse requirement: values[0][x]: Invalid value: "a||y": ` + valueMsg},
		{"x==a==b", "found '==', expected: ',' or 'end of string'"},
		{"!x=a", "found '=', expected: ',' or 'end of string'"},
		{"x<a", `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"x,,y", "found ',', expected: identifier after ','"},
		{",x,y", "found ',', expected: !, identifier, or 'end of string'"},
		{"x nott in (y)", "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"},
		{"a in (xyz),", "found '', expected: identifier after ','"},
		{"a in (xyz)b notin ()", "found 'b', expected: ',' or 'end of string'"},
		{"a in (xyz abc)", "unable to parse requirement: found 'abc', expected: ',' or ')'"},
		{"a notin(", "unable to parse requirement: found '', expected: ',', ')' or identifier"},
		{"a (", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"},
		{"(", "found '(', expected: !, identifier, or 'end of string'"},
		{"x>1.5", `unable to parse requirement: values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"x in (a,=)", "unable to parse requirement: found '=', expected: ',', or identifier"},
		{"!", "unable to parse requirement: found '', expected: identifier"},
		{"x!", "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"},
		{"x in a", "unable to parse requirement: found 'a' expected: '('"},
		{"x><1", "unable to parse requirement: found '<', expected: identifier"},
		{"a/b/c", `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		{"Aa/b", `unable to parse requirement: <nil>: Invalid value: "Aa/b": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
	}
	for _, c := range cases {
		_, err := ParseSelector(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseSelector(%q) error:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	// A bad key is reachable as a *FieldError.
	_, err := ParseSelector("a/b/c")
	var fe *FieldError
	if !errors.As(err, &fe) || fe.BadValue != "a/b/c" {
		t.Errorf("errors.As(%v) = %v", err, fe)
	}
}

// Pins apimachinery pkg/labels TestSelectorMatches.
func TestSelectorMatchesUpstream(t *testing.T) {
	cases := []struct {
		sel    string
		labels map[string]string
		want   bool
	}{
		{"", map[string]string{"x": "y"}, true},
		{"x=y", map[string]string{"x": "y"}, true},
		{"x=y,z=w", map[string]string{"x": "y", "z": "w"}, true},
		{"x!=y,z!=w", map[string]string{"x": "z", "z": "a"}, true},
		{"notin=in", map[string]string{"notin": "in"}, true},
		{"x", map[string]string{"x": "z"}, true},
		{"!x", map[string]string{"y": "z"}, true},
		{"x>1", map[string]string{"x": "2"}, true},
		{"x<1", map[string]string{"x": "0"}, true},
		{"x=z", map[string]string{}, false},
		{"x=y", map[string]string{"x": "z"}, false},
		{"x=y,z=w", map[string]string{"x": "w", "z": "w"}, false},
		{"x!=y,z!=w", map[string]string{"x": "z", "z": "w"}, false},
		{"x", map[string]string{"y": "z"}, false},
		{"!x", map[string]string{"x": "z"}, false},
		{"x>1", map[string]string{"x": "0"}, false},
		{"x<1", map[string]string{"x": "2"}, false},
		{"foo=bar", map[string]string{"foo": "bar", "baz": "blah"}, true},
		{"baz=blah", map[string]string{"foo": "bar", "baz": "blah"}, true},
		{"foo=bar,baz=blah", map[string]string{"foo": "bar", "baz": "blah"}, true},
		{"foo=blah", map[string]string{"foo": "bar", "baz": "blah"}, false},
		{"baz=bar", map[string]string{"foo": "bar", "baz": "blah"}, false},
		{"foo=bar,foobar=bar,baz=blah", map[string]string{"foo": "bar", "baz": "blah"}, false},
		// TestRequirementSelectorMatching.
		{"x in (foo),y notin (alpha)", map[string]string{"x": "foo", "y": "baz"}, true},
		{"x in (foo),y in (alpha)", map[string]string{"x": "foo", "y": "baz"}, false},
		{"x notin (),y", map[string]string{"y": ""}, true},
		{"!x,y", map[string]string{"y": ""}, true},
		{"x notin (),!y", map[string]string{"y": ""}, false},
		{"x in ()", map[string]string{"y": "baz"}, false},
		{"z>1", map[string]string{"z": "2"}, true},
		{"z>1", map[string]string{"z": "v2"}, false},
	}
	for _, c := range cases {
		sel, err := ParseSelector(c.sel)
		if err != nil {
			t.Fatalf("ParseSelector(%q): %v", c.sel, err)
		}
		if got := sel.Matches(c.labels); got != c.want {
			t.Errorf("%q.Matches(%v) = %v, want %v", c.sel, c.labels, got, c.want)
		}
	}
}

// Pins apimachinery pkg/labels TestSetMatches, TestNilMapIsValid and
// TestSetIsEmpty.
func TestSelectorFromSet(t *testing.T) {
	set := map[string]string{"foo": "bar", "baz": "blah"}
	for _, s := range []map[string]string{{}, {"foo": "bar"}, {"baz": "blah"}, set} {
		if !SelectorFromSet(s).Matches(set) {
			t.Errorf("SelectorFromSet(%v) does not match %v", s, set)
		}
	}
	if !SelectorFromSet(nil).Empty() || !SelectorFromSet(map[string]string{}).Empty() || !(Selector{}).Empty() {
		t.Error("nil / empty set selector should be empty")
	}
	if got := SelectorFromSet(map[string]string{"app": "foo", "a": "b"}).String(); got != "a=b,app=foo" {
		t.Errorf("String() = %q", got)
	}
}

// Pins apimachinery pkg/labels TestToString: requirements render sorted
// values, and the operators render as ==, !=, !key and so on.
func TestRequirementString(t *testing.T) {
	mk := func(k string, op Operator, vs ...string) Requirement {
		r, err := NewRequirement(k, op, vs)
		if err != nil {
			t.Fatalf("NewRequirement(%q, %q, %q): %v", k, op, vs, err)
		}
		return r
	}
	cases := []struct {
		reqs []Requirement
		want string
	}{
		{[]Requirement{mk("x", OpIn, "def", "abc"), mk("y", OpNotIn, "jkl"), mk("z", OpExists)}, "x in (abc,def),y notin (jkl),z"},
		{[]Requirement{mk("x", OpNotIn, "abc", "def"), mk("y", OpNotEquals, "jkl"), mk("z", OpDoesNotExist)}, "x notin (abc,def),y!=jkl,!z"},
		{[]Requirement{mk("x", OpNotIn, "abc"), mk("y", OpIn, "jkl", "mno"), mk("z", OpNotIn, "")}, "x notin (abc),y in (jkl,mno),z notin ()"},
		{[]Requirement{mk("x", OpEquals, "abc"), mk("y", OpDoubleEquals, "jkl"), mk("z", OpNotEquals, "a"), mk("z", OpExists)}, "x=abc,y==jkl,z!=a,z"},
		{[]Requirement{mk("x", OpGreaterThan, "2"), mk("y", OpLessThan, "8"), mk("z", OpExists)}, "x>2,y<8,z"},
	}
	for _, c := range cases {
		if got := NewSelector(c.reqs...).String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
	// String sorts for output only; the requirement keeps its order.
	r := mk("x", OpIn, "b", "a")
	_ = r.String()
	if got := r.Values(); !cmp.Equal(got, []string{"b", "a"}) {
		t.Errorf("Values() = %v after String()", got)
	}
}

// Pins apimachinery pkg/labels TestRequirementConstructor: which field is
// blamed and the value printed.
func TestNewRequirementErrors(t *testing.T) {
	long := strings.Repeat("a", 254)
	cases := []struct {
		key  string
		op   Operator
		vals []string
		want string // "" = valid
	}{
		{"x1", OpIn, []string{}, `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`},
		{"x2", OpNotIn, []string{}, `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`},
		{"x3", OpIn, []string{"foo"}, ""},
		{"x4", OpNotIn, []string{"foo"}, ""},
		{"x5", OpEquals, []string{"bar", "foo"}, `values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value`},
		{"x6", OpExists, nil, ""},
		{"x7", OpDoesNotExist, nil, ""},
		{"x8", OpExists, []string{"foo"}, `values: Invalid value: ["foo"]: values set must be empty for exists and does not exist`},
		{"x9", OpIn, []string{"bar"}, ""},
		{"x11", OpGreaterThan, []string{"1"}, ""},
		{"x12", OpLessThan, []string{"6"}, ""},
		{"x13", OpGreaterThan, []string{}, `values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required`},
		{"x14", OpGreaterThan, []string{"bar"}, `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"x15", OpLessThan, []string{"bar"}, `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`},
		{long, OpExists, nil, `key: Invalid value: "` + long + `": name part must be no more than 63 bytes`},
		{"x16", OpEquals, []string{long}, `values[0][x16]: Invalid value: "` + long + `": must be no more than 63 bytes`},
		{"x17", OpEquals, []string{"a b"}, `values[0][x17]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"x18", "unsupportedOp", nil, `operator: Unsupported value: "unsupportedOp": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`},
		// A nil value list prints as null, as upstream does for
		// matchExpressions without values.
		{"x19", OpIn, nil, `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
	}
	for _, c := range cases {
		_, err := NewRequirement(c.key, c.op, c.vals)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("NewRequirement(%.10q, %q, %q):\n got %s\nwant %s", c.key, c.op, c.vals, got, c.want)
		}
	}
}

// Pins metav1 LabelSelectorAsSelector (apis/meta/v1/helpers.go): nil →
// Nothing, empty → Everything, and the invalid-operator message.
func TestCompileLabelSelector(t *testing.T) {
	nothing, err := CompileLabelSelector(nil)
	if err != nil || !nothing.MatchesNothing() || nothing.Matches(nil) || nothing.Matches(map[string]string{"a": "b"}) || nothing.Empty() {
		t.Errorf("nil selector: %+v, %v", nothing, err)
	}
	every, err := CompileLabelSelector(&api.LabelSelector{})
	if err != nil || !every.Empty() || !every.Matches(nil) || !every.Matches(map[string]string{"a": "b"}) {
		t.Errorf("empty selector: %+v, %v", every, err)
	}
	every, _ = CompileLabelSelector(&api.LabelSelector{MatchLabels: map[string]string{}, MatchExpressions: []api.LabelSelectorRequirement{}})
	if !every.Empty() {
		t.Error("selector with empty (non-nil) lists should be Everything")
	}
	_, err = CompileLabelSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Equal", Values: []string{"b"}}}})
	if err == nil || err.Error() != `"Equal" is not a valid label selector operator` {
		t.Errorf("bad operator error = %v", err)
	}
	sel, err := CompileLabelSelector(&api.LabelSelector{
		MatchLabels: map[string]string{"tier": "web", "app": "shop"},
		MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "env", Operator: api.LabelSelectorOpNotIn, Values: []string{"prod", "dev"}},
			{Key: "legacy", Operator: api.LabelSelectorOpDoesNotExist},
			{Key: "app", Operator: api.LabelSelectorOpExists},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sel.String(), "app=shop,app,env notin (dev,prod),!legacy,tier=web"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	_, err = CompileLabelSelector(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: api.LabelSelectorOpIn}}})
	if err == nil || err.Error() != `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty` {
		t.Errorf("In without values error = %v", err)
	}
}

// Pins apimachinery api/validate/content TestIsLabelKey /
// TestIsLabelValue cases (valid and invalid), with the messages for the
// main failure shapes.
func TestValidateLabelKeyValue(t *testing.T) {
	goodKeys := []string{"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
		"now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple", "1-num.2-num/3-num",
		"1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo",
		strings.Repeat("a", 63), strings.Repeat("a", 253) + "/" + strings.Repeat("b", 63)}
	badKeys := []string{"nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash", "Example.com/abc",
		"example_com/abc", "example.com/", "/simple", strings.Repeat("a", 64), strings.Repeat("a", 254) + "/abc", ""}
	for _, k := range goodKeys {
		if errs := ValidateLabelKey(k); errs != nil {
			t.Errorf("ValidateLabelKey(%.20q) = %v", k, errs)
		}
	}
	for _, k := range badKeys {
		if errs := ValidateLabelKey(k); errs == nil {
			t.Errorf("ValidateLabelKey(%.20q) = nil, want errors", k)
		}
	}
	goodValues := []string{"simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", strings.Repeat("a", 63), "", "Uppercase_Is_OK_123"}
	badValues := []string{"nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad", "-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", strings.Repeat("a", 64)}
	for _, v := range goodValues {
		if errs := ValidateLabelValue(v); errs != nil {
			t.Errorf("ValidateLabelValue(%.20q) = %v", v, errs)
		}
	}
	for _, v := range badValues {
		if errs := ValidateLabelValue(v); errs == nil {
			t.Errorf("ValidateLabelValue(%.20q) = nil, want errors", v)
		}
	}
	if got := ValidateLabelKey(""); !cmp.Equal(got, []string{"name part must be non-empty", "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}) {
		t.Errorf("ValidateLabelKey(\"\") = %q", got)
	}
	if got := ValidateLabelKey("/a"); !cmp.Equal(got, []string{"prefix part must be non-empty"}) {
		t.Errorf("ValidateLabelKey(\"/a\") = %q", got)
	}
}

// Selector.Requirements and RequiresExactMatch (apimachinery
// TestRequiresExactMatch shapes).
func TestSelectorIntrospection(t *testing.T) {
	sel, _ := ParseSelector("key in (value),b in (x,y),c=d,e!=f")
	for _, c := range []struct {
		key, val string
		ok       bool
	}{{"key", "value", true}, {"b", "", false}, {"c", "d", true}, {"e", "", false}, {"zz", "", false}} {
		v, ok := sel.RequiresExactMatch(c.key)
		if v != c.val || ok != c.ok {
			t.Errorf("RequiresExactMatch(%q) = %q, %v", c.key, v, ok)
		}
	}
	reqs, ok := sel.Requirements()
	if !ok || len(reqs) != 4 || reqs[0].Key() != "b" || reqs[0].Operator() != OpIn {
		t.Errorf("Requirements() = %v, %v", reqs, ok)
	}
	if _, ok := Nothing().Requirements(); ok {
		t.Error("Nothing().Requirements() selectable")
	}
	if s := Nothing().Add(reqs...); !s.MatchesNothing() {
		t.Error("Nothing().Add should stay Nothing")
	}
	if s := Everything().Add(reqs...); s.String() != sel.String() {
		t.Errorf("Everything().Add = %q", s.String())
	}
}

func TestParseInt64Edges(t *testing.T) {
	cases := []struct {
		in string
		n  int64
		ok bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"+5", 5, true}, {"0204", 204, true}, {"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775807", 9223372036854775807, true}, {"9223372036854775808", 0, false}, {"", 0, false}, {"-", 0, false},
		{"1_000", 0, false}, {"0x10", 0, false}, {" 1", 0, false}, {"18446744073709551616", 0, false},
	}
	for _, c := range cases {
		n, ok := parseInt64(c.in)
		if n != c.n || ok != c.ok {
			t.Errorf("parseInt64(%q) = %d, %v", c.in, n, ok)
		}
	}
}
