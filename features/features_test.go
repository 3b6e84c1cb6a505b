package features

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     map[string]bool // gates checked after a successful parse
		err      string
	}{
		{name: "empty is the defaults", in: "", want: map[string]bool{GenericWorkload: false, DynamicResourceAllocation: true, DRAFractionalCapacityRange: false}},
		{name: "GenericWorkload on", in: "GenericWorkload=true", want: map[string]bool{GenericWorkload: true}},
		{name: "blanks and empty pairs", in: " GenericWorkload = true ,,", want: map[string]bool{GenericWorkload: true}},
		{name: "default value of an unmodelled gate", in: "PodLevelResources=true,TopologyAwareWorkloadScheduling=false", want: map[string]bool{PodLevelResources: true}},
		// component-base featuregate: TestFeatureGateSetFromMap "set an unknown feature".
		{name: "unknown gate", in: "GenericWorkload=true,Foo=false", err: "unrecognized feature gate: Foo"},
		// component-base featuregate: "set locked feature to non-default".
		{name: "locked gate", in: "DynamicResourceAllocation=false", err: "cannot set feature gate DynamicResourceAllocation to false, feature is locked to true"},
		{name: "missing value", in: "GenericWorkload", err: "missing bool value for GenericWorkload"},
		{name: "bad bool", in: "GenericWorkload=yes", err: `invalid value of GenericWorkload=yes, err: strconv.ParseBool: parsing "yes": invalid syntax`},
		{name: "unmodelled non-default", in: "GenericWorkload=true,TopologyAwareWorkloadScheduling=true", err: "cannot set feature gate TopologyAwareWorkloadScheduling to true: schedkit models it only at its v1.37.2 default (false)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := Parse(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("Parse(%q) error = %v, want %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if g.Enabled(k) != v {
					t.Errorf("Enabled(%s) = %v, want %v", k, g.Enabled(k), v)
				}
			}
		})
	}
}

func TestDependencies(t *testing.T) {
	// A disabled dependency is named as component-base names it.
	_, err := Gates{}.With(map[string]bool{GenericWorkload: false, DRAWorkloadResourceClaims: false})
	if err != nil {
		t.Fatal(err)
	}
	g := Gates{set: map[string]bool{DRAWorkloadResourceClaims: true}}
	_, err = g.With(nil)
	if err == nil || err.Error() != "DRAWorkloadResourceClaims is enabled, but depends on features that are disabled: [GenericWorkload]" {
		t.Fatalf("err = %v", err)
	}
}

func TestTable(t *testing.T) {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
		for _, d := range s.DependsOn {
			if _, ok := Lookup(d); !ok {
				t.Errorf("%s depends on unknown %s", s.Name, d)
			}
		}
		if s.LockToDefault && s.Modelled {
			t.Errorf("%s is locked and modelled", s.Name)
		}
	}
	if !slices.IsSorted(names) {
		t.Error("specs are not sorted by name")
	}
	if got := MustParse("GenericWorkload=true").String(); got != "GenericWorkload=true" {
		t.Errorf("String = %q", got)
	}
	if !Defaults().IsDefault() || MustParse("GenericWorkload=true").IsDefault() || !MustParse("GenericWorkload=false").IsDefault() {
		t.Error("IsDefault")
	}
	k := Known()
	k[0].DependsOn[0] = "x"
	if strings.HasPrefix(specs[0].DependsOn[0], "x") {
		t.Error("Known shares the table")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("GenericWorkload=true,Foo=false")
	f.Add("DynamicResourceAllocation=false")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := Parse(s)
		if err != nil {
			return
		}
		if _, err := Parse(g.String()); err != nil {
			t.Fatalf("String %q does not parse: %v", g.String(), err)
		}
	})
}
