package taints

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedkit/schedkit/api"
)

// Pins pkg/util/taints TestParseTaints.
func TestParseTaintsUpstream(t *testing.T) {
	ns := api.TaintEffectNoSchedule
	cases := []struct {
		name       string
		spec       []string
		add, rm    []api.Taint
		wantErr    bool
		wantErrMsg string
	}{
		{name: "invalid empty spec format", spec: []string{""}, wantErr: true},
		{name: "invalid spec format without effect", spec: []string{"foo=abc"}, wantErr: true},
		{name: "multiple '=' separators", spec: []string{"foo=abc=xyz:NoSchedule"}, wantErrMsg: "invalid taint spec: foo=abc=xyz:NoSchedule"},
		{name: "multiple ':' separators", spec: []string{"foo=abc:xyz:NoSchedule"}, wantErrMsg: "invalid taint spec: foo=abc:xyz:NoSchedule"},
		{name: "key only, for adding", spec: []string{"foo"}, wantErrMsg: "invalid taint spec: foo"},
		{name: "value with special chars", spec: []string{"foo=nospecialchars%^@:NoSchedule"}, wantErr: true},
		{name: "value with non-alphanumeric characters", spec: []string{"foo=Tama-nui-te-rā.is.Māori.sun:NoSchedule"}, wantErr: true},
		{name: "value with backslashes", spec: []string{"foo=\\backslashes\\are\\bad:NoSchedule"}, wantErr: true},
		{name: "value starts with '-'", spec: []string{"foo=-starts-with-dash:NoSchedule"}, wantErr: true},
		{name: "value ends with '-'", spec: []string{"foo=ends-with-dash-:NoSchedule"}, wantErr: true},
		{name: "value starts with '.'", spec: []string{"foo=.starts.with.dot:NoSchedule"}, wantErr: true},
		{name: "value ends with '.'", spec: []string{"foo=ends.with.dot.:NoSchedule"}, wantErr: true},
		{name: "invalid effect for adding", spec: []string{"foo=abc:invalid_effect"}, wantErrMsg: "invalid taint effect: invalid_effect, unsupported taint effect"},
		{name: "invalid effect for deleting", spec: []string{"foo:invalid_effect-"}, wantErrMsg: "invalid taint effect: invalid_effect, unsupported taint effect"},
		{name: "duplicated taints", spec: []string{"foo=abc:NoSchedule", "foo=abc:NoSchedule"}, wantErrMsg: "duplicated taints with the same key and effect: {foo abc NoSchedule <nil>}"},
		{name: "key exceeding the limit", spec: []string{strings.Repeat("a", 64)}, wantErr: true},
		{
			name: "add new taints",
			spec: []string{"foo=abc:NoSchedule", "bar=abc:NoSchedule", "baz:NoSchedule", "qux:NoSchedule", "foobar=:NoSchedule"},
			add:  []api.Taint{{Key: "foo", Value: "abc", Effect: ns}, {Key: "bar", Value: "abc", Effect: ns}, {Key: "baz", Effect: ns}, {Key: "qux", Effect: ns}, {Key: "foobar", Effect: ns}},
		},
		{
			name: "delete taints",
			spec: []string{"foo:NoSchedule-", "bar:NoSchedule-", "qux=:NoSchedule-", "dedicated-"},
			rm:   []api.Taint{{Key: "foo", Effect: ns}, {Key: "bar", Effect: ns}, {Key: "qux", Effect: ns}, {Key: "dedicated"}},
		},
		{
			name: "add and delete taints",
			spec: []string{"foo=abc:NoSchedule", "bar=abc:NoSchedule", "baz:NoSchedule", "qux:NoSchedule", "foobar=:NoSchedule", "foo:NoSchedule-", "bar:NoSchedule-", "baz=:NoSchedule-"},
			add:  []api.Taint{{Key: "foo", Value: "abc", Effect: ns}, {Key: "bar", Value: "abc", Effect: ns}, {Key: "baz", Effect: ns}, {Key: "qux", Effect: ns}, {Key: "foobar", Effect: ns}},
			rm:   []api.Taint{{Key: "foo", Effect: ns}, {Key: "bar", Effect: ns}, {Key: "baz", Effect: ns}},
		},
		// Same key with different effects is not a duplicate; the value
		// of a removal is dropped.
		{
			name: "same key, different effects",
			spec: []string{"k=v:NoSchedule", "k=v:NoExecute", "k=v:PreferNoSchedule-"},
			add:  []api.Taint{{Key: "k", Value: "v", Effect: ns}, {Key: "k", Value: "v", Effect: api.TaintEffectNoExecute}},
			rm:   []api.Taint{{Key: "k", Effect: api.TaintEffectPreferNoSchedule}},
		},
	}
	for _, c := range cases {
		add, rm, err := ParseTaints(c.spec)
		wantErr := c.wantErr || c.wantErrMsg != ""
		if (err != nil) != wantErr {
			t.Errorf("%s: err = %v", c.name, err)
			continue
		}
		if c.wantErrMsg != "" && err.Error() != c.wantErrMsg {
			t.Errorf("%s: err = %q, want %q", c.name, err, c.wantErrMsg)
		}
		if diff := cmp.Diff(c.add, add); diff != "" {
			t.Errorf("%s: add (-want +got):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(c.rm, rm); diff != "" {
			t.Errorf("%s: remove (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestParseTaintMessages(t *testing.T) {
	cases := []struct{ in, want string }{
		{"foo=bar:NoSchedule", ""},
		{"foo", ""},
		{"example.com/foo:NoExecute", ""},
		{"foo=bar:", "invalid taint effect: , unsupported taint effect"},
		{"foo=bar:Bogus", "invalid taint effect: Bogus, unsupported taint effect"},
		{"foo=b c:NoSchedule", "invalid taint spec: foo=b c:NoSchedule, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
		{"=bar:NoSchedule", "invalid taint spec: =bar:NoSchedule, name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
	}
	for _, c := range cases {
		_, err := ParseTaint(c.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("ParseTaint(%q):\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// Pins k8s.io/api core/v1 TestTaintToString.
func TestFormatTaint(t *testing.T) {
	cases := []struct {
		taint api.Taint
		want  string
	}{
		{api.Taint{Key: "foo", Value: "bar", Effect: api.TaintEffectNoSchedule}, "foo=bar:NoSchedule"},
		{api.Taint{Key: "foo", Effect: api.TaintEffectNoSchedule}, "foo:NoSchedule"},
		{api.Taint{Key: "foo"}, "foo"},
		{api.Taint{Key: "foo", Value: "bar"}, "foo=bar:"},
	}
	for _, c := range cases {
		if got := FormatTaint(c.taint); got != c.want {
			t.Errorf("FormatTaint(%+v) = %q, want %q", c.taint, got, c.want)
		}
	}
}

// Pins pkg/util/taints TestValidateTaint.
func TestValidateTaint(t *testing.T) {
	cases := []struct {
		taint   api.Taint
		wantErr bool
	}{
		{api.Taint{Key: "", Value: "bar_1", Effect: api.TaintEffectNoExecute}, true},
		{api.Taint{Key: "foo_1", Value: strings.Repeat("a", 64), Effect: api.TaintEffectNoExecute}, true},
		{api.Taint{Key: "foo_2", Value: "bar_2", Effect: "no_such_effect"}, true},
		{api.Taint{Key: "foo_3", Value: "bar_3", Effect: api.TaintEffectNoExecute}, false},
		{api.Taint{Key: "foo_4", Effect: api.TaintEffectNoExecute}, false},
		{api.Taint{Key: "foo_5", Value: "bar_5"}, false},
	}
	for _, c := range cases {
		if err := ValidateTaint(c.taint); (err != nil) != c.wantErr {
			t.Errorf("ValidateTaint(%+v) = %v", c.taint, err)
		}
	}
}
