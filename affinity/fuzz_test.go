package affinity

import "testing"

// FuzzParseSelector: ParseSelector never panics, and a successful parse
// renders to a string that parses to the same string.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{
		"", "x", "!x", "x=a", "x==a", "x!=a", "x>1", "x<1", "x in (a,b)", "x notin (a,,b)", "x in ()",
		"app=web,tier in (a,b),!legacy,env!=prod", "example.com/role in (db)", "x=a||y=b", "a in (xyz),",
		"x=\x00a", "in in (in,notin)", " x  notin\t(a)", "a/b/c", "x>0204",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", s)
			}
			return
		}
		out := sel.String()
		again, err := ParseSelector(out)
		if err != nil {
			t.Fatalf("%q -> %q does not re-parse: %v", s, out, err)
		}
		if again.String() != out {
			t.Fatalf("%q -> %q -> %q", s, out, again.String())
		}
	})
}
