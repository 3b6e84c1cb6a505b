package taints

import "testing"

// FuzzParseTaint: ParseTaint never panics, a successful parse formats
// back to a spec that parses to the same taint, and ParseTaints agrees.
func FuzzParseTaint(f *testing.F) {
	for _, s := range []string{"", "foo", "foo=bar:NoSchedule", "foo:NoExecute", "foo=:PreferNoSchedule", "foo=bar:",
		"foo=a=b:NoSchedule", "a:b:c", "example.com/key=v:NoSchedule", "key-", "key:NoSchedule-", "=v:NoSchedule"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _, _ = ParseTaints([]string{s, s})
		tn, err := ParseTaint(s)
		if err != nil {
			return
		}
		if err := ValidateTaint(tn); err != nil {
			t.Fatalf("%q parsed to invalid %+v: %v", s, tn, err)
		}
		back, err := ParseTaint(FormatTaint(tn))
		if err != nil || back != tn {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, tn, FormatTaint(tn), back, err)
		}
	})
}
