package podhash

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"k8s.io/apiserver/pkg/storage/names"

	"github.com/schedkit/schedkit/manifest"
)

// TestGeneratedNames: a new object with only generateName is named as the
// API server's SimpleNameGenerator names it: the same base (cut to the
// same length) and as many characters of the same alphabet.
func TestGeneratedNames(t *testing.T) {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	rapid.Check(t, func(rt *rapid.T) {
		// A Namespace's name is an RFC 1123 label, which the API server
		// validates after naming it: bases that make one.
		base := rapid.StringMatching(`[a-z0-9][a-z0-9-]{0,79}`).Draw(rt, "base")
		b, _ := json.Marshal(base)
		r := manifest.NewReader()
		r.SetSeed(rapid.Uint64().Draw(rt, "seed"))
		if err := r.Read("f", strings.NewReader(`{"apiVersion":"v1","kind":"Namespace","metadata":{"generateName":`+string(b)+`}}`)); err != nil {
			rt.Fatal(err)
		}
		got := r.Objects().Namespaces[0].Name
		want := names.SimpleNameGenerator.GenerateName(base)
		if len(got) != len(want) || got[:len(got)-5] != want[:len(want)-5] {
			rt.Fatalf("name %q, upstream's form %q", got, want)
		}
		for _, c := range got[len(got)-5:] {
			if !strings.ContainsRune(alphabet, c) {
				rt.Fatalf("name %q: %q is not in the alphabet", got, c)
			}
		}
	})
}
