package manifest

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// The regular expressions the byte scans stand for (apimachinery's).
var (
	refDNS1123Label     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	refDNS1123Subdomain = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	refDNS1035Label     = regexp.MustCompile("^" + dns1035LabelFmt + "$")
)

// checkDNSName fails t when a byte scan and its regular expression
// disagree on s.
func checkDNSName(t *testing.T, s string) {
	t.Helper()
	if got, want := isDNS1123Label(s), refDNS1123Label.MatchString(s); got != want {
		t.Errorf("isDNS1123Label(%q) = %v, want %v", s, got, want)
	}
	if got, want := isDNS1123Subdomain(s), refDNS1123Subdomain.MatchString(s); got != want {
		t.Errorf("isDNS1123Subdomain(%q) = %v, want %v", s, got, want)
	}
	if got, want := isDNS1035Label(s), refDNS1035Label.MatchString(s); got != want {
		t.Errorf("isDNS1035Label(%q) = %v, want %v", s, got, want)
	}
}

// TestDNSNamesAgree compares the byte scans with the regular
// expressions on names drawn from the bytes that matter to them.
func TestDNSNamesAgree(t *testing.T) {
	for _, s := range []string{"", "a", "-", ".", "a.", ".a", "a..b", "a-", "-a", "0", "0a", "a0", "a-b.c-d", "A", "a\n", "a\x00", "é", "a.b.c", "a_b", "\xff"} {
		checkDNSName(t, s)
	}
	const alphabet = "az09-.A_\n\xffé"
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		checkDNSName(t, string(b))
	}
}

// FuzzDNSNames is TestDNSNamesAgree on fuzzed names.
func FuzzDNSNames(f *testing.F) {
	for _, s := range []string{"my-name", "example.com", "a..b", "-a", "123-abc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkDNSName(t, s) })
}
