package affinity

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

func node(name string, labels map[string]string) *api.Node {
	n := &api.Node{}
	n.Name = name
	n.Labels = labels
	return n
}

func expr(key string, op api.NodeSelectorOperator, vals ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
}

const keyRegexMsg = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`

// Pins component-helpers nodeaffinity TestNodeSelectorMatch.
func TestNodeSelectorMatchUpstream(t *testing.T) {
	cases := []struct {
		name    string
		ns      api.NodeSelector
		node    *api.Node
		wantErr string
		want    bool
	}{
		{name: "nil node"},
		{
			name: "invalid field selector and label selector",
			ns: api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
				{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1", "host_2")}},
				{
					MatchExpressions: []api.NodeSelectorRequirement{expr("label_1", api.NodeSelectorOpIn, "label_1_val")},
					MatchFields:      []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1")},
				},
				{MatchExpressions: []api.NodeSelectorRequirement{expr("invalid key", api.NodeSelectorOpIn, "label_value")}},
			}},
			wantErr: `[nodeSelectorTerms[0].matchFields[0].values: Invalid value: ["host_1","host_2"]: must have one element, ` +
				`nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: "invalid key": ` + keyRegexMsg + `]`,
		},
		{
			name: "node matches field selector, but not labels",
			ns: api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{expr("label_1", api.NodeSelectorOpIn, "label_1_val")},
				MatchFields:      []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1")},
			}}},
			node: node("host_1", nil),
		},
		{
			name: "node matches field selector and label selector",
			ns: api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchExpressions: []api.NodeSelectorRequirement{expr("label_1", api.NodeSelectorOpIn, "label_1_val")},
				MatchFields:      []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1")},
			}}},
			node: node("host_1", map[string]string{"label_1": "label_1_val"}),
			want: true,
		},
		{
			name: "second term matches",
			ns: api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
				{MatchExpressions: []api.NodeSelectorRequirement{expr("label_1", api.NodeSelectorOpIn, "label_1_val")}},
				{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1")}},
			}},
			node: node("host_1", nil),
			want: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewNodeSelector(&c.ns)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.wantErr {
				t.Fatalf("NewNodeSelector error:\n got %s\nwant %s", got, c.wantErr)
			}
			if err != nil {
				return
			}
			if m, _ := s.Match(c.node); m != c.want {
				t.Errorf("Match = %v, want %v", m, c.want)
			}
		})
	}
}

// Pins component-helpers nodeaffinity TestPreferredSchedulingTermsScore.
func TestPreferredSchedulingTermsScoreUpstream(t *testing.T) {
	cases := []struct {
		name    string
		terms   []api.PreferredSchedulingTerm
		node    *api.Node
		wantErr string
		want    int64
	}{
		{
			name: "invalid field selector and label selector",
			terms: []api.PreferredSchedulingTerm{
				{Weight: 1, Preference: api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1", "host_2")}}},
				{Weight: 1, Preference: api.NodeSelectorTerm{
					MatchExpressions: []api.NodeSelectorRequirement{expr("label_1", api.NodeSelectorOpIn, "label_1_val")},
					MatchFields:      []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1")},
				}},
				{Weight: 1, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("invalid key", api.NodeSelectorOpIn, "label_value")}}},
			},
			wantErr: `[[0].matchFields[0].values: Invalid value: ["host_1","host_2"]: must have one element, ` +
				`[2].matchExpressions[0].key: Invalid value: "invalid key": ` + keyRegexMsg + `]`,
		},
		{
			name: "invalid field selector but no weight, error not reported",
			terms: []api.PreferredSchedulingTerm{
				{Weight: 0, Preference: api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1", "host_2")}}},
			},
			node: node("host_1", nil),
		},
		{
			name: "first and third term match",
			terms: []api.PreferredSchedulingTerm{
				{Weight: 5, Preference: api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1")}}},
				{Weight: 7, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("unknown_label", api.NodeSelectorOpIn, "unknown_label_val")}}},
				{Weight: 11, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("label_1", api.NodeSelectorOpIn, "label_1_val")}}},
			},
			node: node("host_1", map[string]string{"label_1": "label_1_val"}),
			want: 16,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewPreferredSchedulingTerms(c.terms)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.wantErr {
				t.Fatalf("error:\n got %s\nwant %s", got, c.wantErr)
			}
			if err != nil {
				return
			}
			if s := p.Score(c.node); s != c.want {
				t.Errorf("Score = %d, want %d", s, c.want)
			}
		})
	}
}

// Pins component-helpers nodeaffinity TestNodeSelectorRequirementsAsSelector
// (errors; field paths here are relative to nodeSelectorTerms[0]).
func TestNodeSelectorRequirementErrors(t *testing.T) {
	cases := []struct {
		req  api.NodeSelectorRequirement
		want string
	}{
		{expr("foo", api.NodeSelectorOpIn, "bar", "baz"), ""},
		{expr("foo", api.NodeSelectorOpExists, "bar", "baz"), `nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: ["bar","baz"]: values set must be empty for exists and does not exist`},
		{expr("foo", api.NodeSelectorOpGt, "1"), ""},
		{expr("bar", api.NodeSelectorOpLt, "7"), ""},
		{expr("baz", "invalid", "5"), `nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "invalid": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"`},
		// Gt with a negative number: "-5" is an integer but not a valid
		// label value, so upstream rejects it.
		{expr("n", api.NodeSelectorOpGt, "-5"), `nodeSelectorTerms[0].matchExpressions[0].values[0][n]: Invalid value: "-5": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{expr("n", api.NodeSelectorOpGt, "1", "2"), `nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required`},
	}
	for _, c := range cases {
		_, err := NewNodeSelector(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{c.req}}}})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.req, got, c.want)
		}
	}
	_, err := NewNodeSelector(&api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpExists)}}}})
	if want := `nodeSelectorTerms[0].matchFields[0].operator: Unsupported value: "Exists": supported values: "In", "NotIn"`; err == nil || err.Error() != want {
		t.Errorf("matchFields Exists: %v", err)
	}
}

func podWith(nodeSelector map[string]string, required *api.NodeSelector) *api.Pod {
	p := &api.Pod{}
	p.Spec.NodeSelector = nodeSelector
	if required != nil {
		p.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: required}}
	}
	return p
}

func terms(ts ...api.NodeSelectorTerm) *api.NodeSelector {
	return &api.NodeSelector{NodeSelectorTerms: ts}
}

func exprs(es ...api.NodeSelectorRequirement) api.NodeSelectorTerm {
	return api.NodeSelectorTerm{MatchExpressions: es}
}

// Pins component-helpers nodeaffinity TestPodMatchesNodeSelectorAndAffinityTerms.
func TestRequiredNodeAffinityUpstream(t *testing.T) {
	nameIn := func(n string) api.NodeSelectorRequirement { return expr("metadata.name", api.NodeSelectorOpIn, n) }
	cases := []struct {
		name     string
		pod      *api.Pod
		labels   map[string]string
		nodeName string
		want     bool
	}{
		{name: "no selector", pod: &api.Pod{}, want: true},
		{name: "missing labels", pod: podWith(map[string]string{"foo": "bar"}, nil)},
		{name: "same labels", pod: podWith(map[string]string{"foo": "bar"}, nil), labels: map[string]string{"foo": "bar"}, want: true},
		{name: "node labels are superset", pod: podWith(map[string]string{"foo": "bar"}, nil), labels: map[string]string{"foo": "bar", "baz": "blah"}, want: true},
		{name: "node labels are subset", pod: podWith(map[string]string{"foo": "bar", "baz": "blah"}, nil), labels: map[string]string{"foo": "bar"}},
		{name: "In matches", pod: podWith(nil, terms(exprs(expr("foo", api.NodeSelectorOpIn, "bar", "value2")))), labels: map[string]string{"foo": "bar"}, want: true},
		{name: "Gt matches (leading zeros parse)", pod: podWith(nil, terms(exprs(expr("kernel-version", api.NodeSelectorOpGt, "0204")))), labels: map[string]string{"kernel-version": "0206"}, want: true},
		{name: "NotIn matches", pod: podWith(nil, terms(exprs(expr("mem-type", api.NodeSelectorOpNotIn, "DDR", "DDR2")))), labels: map[string]string{"mem-type": "DDR3"}, want: true},
		{name: "Exists matches", pod: podWith(nil, terms(exprs(expr("GPU", api.NodeSelectorOpExists)))), labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}, want: true},
		{name: "affinity does not match labels", pod: podWith(nil, terms(exprs(expr("foo", api.NodeSelectorOpIn, "value1", "value2")))), labels: map[string]string{"foo": "bar"}},
		{name: "nil []NodeSelectorTerm matches nothing", pod: podWith(nil, terms()), labels: map[string]string{"foo": "bar"}},
		{name: "empty []NodeSelectorTerm matches nothing", pod: podWith(nil, &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{}}), labels: map[string]string{"foo": "bar"}},
		{name: "empty MatchExpressions term matches nothing", pod: podWith(nil, terms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{}})), labels: map[string]string{"foo": "bar"}},
		{name: "no Affinity", pod: &api.Pod{}, labels: map[string]string{"foo": "bar"}, want: true},
		{name: "Affinity but nil NodeSelector", pod: &api.Pod{Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{}}}}, labels: map[string]string{"foo": "bar"}, want: true},
		{name: "expressions ANDed, match", pod: podWith(nil, terms(exprs(expr("GPU", api.NodeSelectorOpExists), expr("GPU", api.NodeSelectorOpNotIn, "AMD", "INTER")))), labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}, want: true},
		{name: "expressions ANDed, no match", pod: podWith(nil, terms(exprs(expr("GPU", api.NodeSelectorOpExists), expr("GPU", api.NodeSelectorOpIn, "AMD", "INTER")))), labels: map[string]string{"GPU": "NVIDIA-GRID-K1"}},
		{name: "terms ORed", pod: podWith(nil, terms(exprs(expr("foo", api.NodeSelectorOpIn, "bar", "value2")), exprs(expr("diffkey", api.NodeSelectorOpIn, "wrong", "value2")))), labels: map[string]string{"foo": "bar"}, want: true},
		{name: "affinity and nodeSelector both match", pod: podWith(map[string]string{"foo": "bar"}, terms(exprs(expr("foo", api.NodeSelectorOpExists)))), labels: map[string]string{"foo": "bar"}, want: true},
		{name: "affinity matches, nodeSelector does not", pod: podWith(map[string]string{"foo": "bar"}, terms(exprs(expr("foo", api.NodeSelectorOpExists)))), labels: map[string]string{"foo": "barrrrrr"}},
		{name: "invalid value in affinity term", pod: podWith(nil, terms(exprs(expr("foo", api.NodeSelectorOpNotIn, "invalid value: ___@#$%^")))), labels: map[string]string{"foo": "bar"}},
		{name: "matchFields In matches", pod: podWith(nil, terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node_1")}})), nodeName: "node_1", want: true},
		{name: "matchFields In does not match", pod: podWith(nil, terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node_1")}})), nodeName: "node_2"},
		{name: "two terms: fields miss, expressions match", pod: podWith(nil, terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node_1")}}, exprs(expr("foo", api.NodeSelectorOpIn, "bar")))), nodeName: "node_2", labels: map[string]string{"foo": "bar"}, want: true},
		{name: "one term: fields miss, expressions match", pod: podWith(nil, terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node_1")}, MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "bar")}})), nodeName: "node_2", labels: map[string]string{"foo": "bar"}},
		{name: "one term: both match", pod: podWith(nil, terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node_1")}, MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "bar")}})), nodeName: "node_1", labels: map[string]string{"foo": "bar"}, want: true},
		{name: "two terms: neither matches", pod: podWith(nil, terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{nameIn("node_1")}}, exprs(expr("foo", api.NodeSelectorOpIn, "not-match-to-bar")))), nodeName: "node_2", labels: map[string]string{"foo": "bar"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := GetRequiredNodeAffinity(c.pod)
			got, _ := r.Match(node(c.nodeName, c.labels))
			if got != c.want {
				t.Errorf("Match = %v, want %v", got, c.want)
			}
		})
	}
}

// Pins component-helpers corev1 TestMatchNodeSelectorTerms.
func TestMatchNodeSelectorTermsUpstream(t *testing.T) {
	label1 := expr("label_1", api.NodeSelectorOpIn, "label_1_val")
	host1 := expr("metadata.name", api.NodeSelectorOpIn, "host_1")
	cases := []struct {
		name string
		ns   *api.NodeSelector
		node *api.Node
		want bool
	}{
		{"nil terms", nil, nil, false},
		{"node label matches matchExpressions terms", terms(exprs(label1)), node("", map[string]string{"label_1": "label_1_val"}), true},
		{"node field matches matchFields terms", terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{host1}}), node("host_1", nil), true},
		{"invalid node field requirement", terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_1", "host_2")}}), node("host_1", nil), false},
		{"fieldSelectorTerm with node labels", terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{host1}}), node("not_host_1", map[string]string{"metadata.name": "host_1"}), false},
		{"labelSelectorTerm with node fields", terms(exprs(expr("metadata.name", api.NodeSelectorOpIn, "host_1"))), node("host_1", nil), false},
		{"label and field term, only node fields", terms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{label1}, MatchFields: []api.NodeSelectorRequirement{host1}}), node("host_1", nil), false},
		{"label and field term, both matched", terms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{label1}, MatchFields: []api.NodeSelectorRequirement{host1}}), node("host_1", map[string]string{"label_1": "label_1_val"}), true},
		{"label and field term, label mismatched", terms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{label1}, MatchFields: []api.NodeSelectorRequirement{host1}}), node("host_1", map[string]string{"label_1": "label_1_val-failed"}), false},
		{"multi-selector, one term matches", terms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{label1}}, api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{host1}}), node("host_1", map[string]string{"label_1": "label_1_val-failed"}), true},
	}
	for _, c := range cases {
		if got, _ := MatchNodeSelectorTerms(c.node, c.ns); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// Upstream nodeaffinity.go behaviours around nil, empty and invalid
// pieces, each named after the upstream code path it pins.
func TestNodeSelectorEdgeBehaviour(t *testing.T) {
	n := node("host_1", map[string]string{"a": "1"})

	// NewLazyErrorNodeSelector skips terms with neither expressions nor
	// fields: a selector made only of empty terms matches nothing.
	if m, err := CompileNodeSelector(terms(api.NodeSelectorTerm{}, api.NodeSelectorTerm{})).Match(n); m || err != nil {
		t.Errorf("empty terms: %v %v", m, err)
	}
	// ...but an empty term does not stop a later one from matching.
	if m, _ := CompileNodeSelector(terms(api.NodeSelectorTerm{}, exprs(expr("a", api.NodeSelectorOpExists)))).Match(n); !m {
		t.Error("empty term blocked a matching term")
	}
	// LazyErrorNodeSelector.Match: an invalid term's errors surface only
	// if no valid term matches.
	lazy := CompileNodeSelector(terms(exprs(expr("a", "Bogus")), exprs(expr("a", api.NodeSelectorOpIn, "1"))))
	if m, err := lazy.Match(n); !m || err != nil {
		t.Errorf("lazy with match: %v %v", m, err)
	}
	if m, err := lazy.Match(node("x", nil)); m || err == nil {
		t.Errorf("lazy without match: %v %v", m, err)
	}
	if lazy.Err() == nil {
		t.Error("Err() should report the invalid term")
	}
	// LazyErrorNodeSelector.Match(nil) is false, nil.
	if m, err := lazy.Match(nil); m || err != nil {
		t.Errorf("nil node: %v %v", m, err)
	}
	// nodeSelectorTerm.match: matchFields are skipped for a node whose
	// name is empty (extractNodeFields yields no fields).
	if m, _ := CompileNodeSelector(terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{expr("metadata.name", api.NodeSelectorOpIn, "host_9")}})).Match(node("", nil)); !m {
		t.Error("nameless node should skip matchFields")
	}
	// fields.Set.Get: a field other than metadata.name reads as "".
	other := CompileNodeSelector(terms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{expr("spec.unschedulable", api.NodeSelectorOpIn, "")}}))
	if m, _ := other.Match(n); !m {
		t.Error("unknown field should read as empty")
	}
	// GetRequiredNodeAffinity: an empty nodeSelector map is no constraint.
	r := NewRequiredNodeAffinity(map[string]string{}, nil)
	if m, err := r.Match(n); !m || err != nil || r.Err() != nil {
		t.Errorf("empty nodeSelector: %v %v", m, err)
	}
	// Required affinity with only invalid terms: false plus the error.
	r = NewRequiredNodeAffinity(nil, &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms(exprs(expr("a", api.NodeSelectorOpGt, "x")))}})
	if m, err := r.Match(n); m || err == nil || r.Err() == nil {
		t.Errorf("invalid required affinity: %v %v", m, err)
	}
	// Gt/Lt against a label that is not an integer: no match, no error.
	gt := CompileNodeSelector(terms(exprs(expr("a", api.NodeSelectorOpGt, "0"))))
	if m, err := gt.Match(node("", map[string]string{"a": "one"})); m || err != nil {
		t.Errorf("Gt non-integer label: %v %v", m, err)
	}
	// NewPreferredSchedulingTerms skips empty terms; Score of nil terms
	// or a nil node is 0.
	p, err := NewPreferredSchedulingTerms([]api.PreferredSchedulingTerm{{Weight: 5}})
	if err != nil || p.Score(n) != 0 {
		t.Errorf("empty preferred term: %v", err)
	}
	var nilTerms *PreferredSchedulingTerms
	if nilTerms.Score(n) != 0 || p.Score(nil) != 0 {
		t.Error("nil Score should be 0")
	}
	// Compiled selectors own their values: editing the source spec later
	// changes nothing.
	src := terms(exprs(expr("a", api.NodeSelectorOpIn, "1")))
	owned := CompileNodeSelector(src)
	src.NodeSelectorTerms[0].MatchExpressions[0].Values[0] = "2"
	if m, _ := owned.Match(n); !m {
		t.Error("compiled selector changed with its source")
	}
	if p, err := GetPreferredNodeAffinity(&api.Pod{}); p != nil || err != nil {
		t.Errorf("GetPreferredNodeAffinity(no affinity) = %v, %v", p, err)
	}
}
