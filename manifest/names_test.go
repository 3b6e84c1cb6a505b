package manifest

import (
	"regexp"
	"strings"
	"testing"
)

// nameAlphabet is the alphabet of the API server's generated name
// suffixes, which workload.GenerateName draws from.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// TestGenerateName: a new object with only generateName is named as the
// API server's SimpleNameGenerator names it (base cut to 58 bytes, five
// characters of the rand alphabet), reproducibly for a seed and unique in
// its kind and namespace; a stored object without a name is an error.
func TestGenerateName(t *testing.T) {
	long := strings.Repeat("a", 70)
	in := "apiVersion: v1\nkind: Pod\nmetadata: {generateName: web-}\nspec: {containers: [{name: c}]}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {generateName: web-}\nspec: {containers: [{name: c}]}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {generateName: " + long + ", namespace: x}\nspec: {containers: [{name: c}]}\n---\n" +
		"apiVersion: v1\nkind: Namespace\nmetadata: {generateName: team-}\n"
	read := func(seed uint64) []string {
		r := NewReader()
		r.SetSeed(seed)
		if err := r.Read("f", strings.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range r.Objects().Pods {
			names = append(names, p.Namespace+"/"+p.Name)
		}
		for _, n := range r.Objects().Namespaces {
			names = append(names, n.Name)
		}
		return names
	}
	got := read(7)
	suffix := "[" + nameAlphabet + "]{5}"
	want := []string{"default/web-" + suffix, "default/web-" + suffix, "x/" + strings.Repeat("a", 58) + suffix, "team-" + suffix}
	if len(got) != len(want) {
		t.Fatalf("names %v", got)
	}
	for i := range want {
		if !regexp.MustCompile("^" + want[i] + "$").MatchString(got[i]) {
			t.Errorf("name[%d] = %s, want %s", i, got[i], want[i])
		}
	}
	if got[0] == got[1] {
		t.Errorf("two pods got the same generated name %s", got[0])
	}
	if again := read(7); strings.Join(again, ",") != strings.Join(got, ",") {
		t.Errorf("same seed, different names: %v, %v", got, again)
	}
	if other := read(8); strings.Join(other, ",") == strings.Join(got, ",") {
		t.Errorf("seeds 7 and 8 gave the same names %v", got)
	}

	// A generated name never takes a name already read.
	r := NewReader()
	r.SetSeed(7)
	first := strings.TrimPrefix(got[0], "default/")
	if err := r.Read("f", strings.NewReader("apiVersion: v1\nkind: Pod\nmetadata: {name: "+first+"}\nspec: {containers: [{name: c}]}\n---\n"+in)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range r.Objects().Pods {
		if seen[p.Namespace+"/"+p.Name] {
			t.Errorf("name %s given twice", p.Name)
		}
		seen[p.Namespace+"/"+p.Name] = true
	}

	// Stored objects have names.
	for _, meta := range []string{"{generateName: web-, uid: u1}", "{generateName: web-, resourceVersion: \"5\"}", "{generateName: web-, creationTimestamp: \"2024-01-01T00:00:00Z\"}"} {
		r := NewReader()
		err := r.Read("f", strings.NewReader("apiVersion: v1\nkind: Pod\nmetadata: "+meta+"\nspec: {containers: [{name: c}]}\n"))
		want := `f:1: document 1 (Pod default/): metadata.name: Required value: a stored object (uid, resourceVersion or creationTimestamp set) has a name; generateName is only for new objects`
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", meta, err, want)
		}
	}
}
