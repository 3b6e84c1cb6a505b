package field

import "testing"

// TestPath pins upstream's TestPath and TestPathMultiArg: each step's
// string and its root, walking up through parent as upstream does.
func TestPath(t *testing.T) {
	up := func(p *Path) *Path { return p.parent }
	same := func(p *Path) *Path { return p }
	type step struct {
		op   func(*Path) *Path
		want string
	}
	cases := []struct {
		name  string
		root  *Path
		steps []step
	}{
		{"TestPath", NewPath("root"), []step{
			{same, "root"},
			{func(p *Path) *Path { return p.Child("first") }, "root.first"},
			{func(p *Path) *Path { return p.Child("second") }, "root.first.second"},
			{func(p *Path) *Path { return p.Index(0) }, "root.first.second[0]"},
			{func(p *Path) *Path { return p.Child("third") }, "root.first.second[0].third"},
			{func(p *Path) *Path { return p.Index(93) }, "root.first.second[0].third[93]"},
			{up, "root.first.second[0].third"},
			{up, "root.first.second[0]"},
			{func(p *Path) *Path { return p.Key("key") }, "root.first.second[0][key]"},
		}},
		{"TestPathMultiArg", NewPath("root", "first"), []step{
			{same, "root.first"},
			{func(p *Path) *Path { return p.Child("second", "third") }, "root.first.second.third"},
			{func(p *Path) *Path { return p.Index(0) }, "root.first.second.third[0]"},
			{up, "root.first.second.third"},
			{up, "root.first.second"},
			{up, "root.first"},
			{up, "root"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.root
			for i, s := range c.steps {
				p = s.op(p)
				if got := p.String(); got != s.want {
					t.Errorf("[%d] %q, want %q", i, got, s.want)
				}
				if p.Root() != c.root.Root() {
					t.Errorf("[%d] wrong root %#v", i, p.Root())
				}
			}
		})
	}
}

// TestNilPath pins how upstream's nil *Path prints: "<nil>" alone, and as
// an empty root below its children and subscripts.
func TestNilPath(t *testing.T) {
	var root *Path
	cases := []struct {
		p    *Path
		want string
	}{
		{root, "<nil>"},
		{root.Child("a"), "a"},
		{root.Child("a", "b").Index(1), "a.b[1]"},
		{root.Index(0).Child("matchExpressions").Index(2).Key("k"), "[0].matchExpressions[2][k]"},
		{NewPath("spec", "containers").Index(0).Child("resources", "requests").Key("cpu"), "spec.containers[0].resources.requests[cpu]"},
		{NewPath(""), "[]"},
	}
	for i, c := range cases {
		if got := c.p.String(); got != c.want {
			t.Errorf("[%d] %q, want %q", i, got, c.want)
		}
	}
}
