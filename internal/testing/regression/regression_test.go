package regression

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fixtureRoot is where the conformance module keeps its fixtures.
var fixtureRoot = filepath.Join("..", "..", "..", "conformance", "testdata", "regressions")

// TestReplay computes schedkit's answer for every fixture and compares it
// with the upstream answer the fixture recorded.
func TestReplay(t *testing.T) {
	fixtures, err := Load(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(fixtures) == 0 {
		t.Skip("no fixtures under " + fixtureRoot)
	}
	kinds := Kinds()
	for _, f := range fixtures {
		t.Run(f.Kind+"/"+f.Name, func(t *testing.T) {
			if !slices.Contains(kinds, f.Kind) {
				t.Fatalf("unknown kind %q", f.Kind)
			}
			got, err := Evaluate(f.Kind, f.Input)
			if err != nil {
				t.Fatal(err)
			}
			if Same(got, f.Upstream) {
				if f.Open != "" {
					t.Errorf("fixture is marked open (%s) but schedkit now agrees with upstream: remove \"open\"", f.Open)
				}
				return
			}
			if f.Open != "" {
				t.Skipf("known disagreement: %s", f.Open)
			}
			want, _ := Canonical(f.Upstream)
			t.Errorf("schedkit disagrees with upstream\ninput:    %s\nupstream: %s\nschedkit: %s\nnote: %s", f.Input, want, got, f.Note)
		})
	}
}

// TestFixturesWellFormed checks every fixture file decodes and is stored
// under its kind, and that every kind has seeds.
func TestFixturesWellFormed(t *testing.T) {
	fixtures, err := Load(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(fixtures) == 0 {
		t.Skip("no fixtures under " + fixtureRoot)
	}
	seeds := map[string]int{}
	for _, f := range fixtures {
		if f.Source != "seed" && f.Source != "rapid" {
			t.Errorf("%s/%s: source %q is neither seed nor rapid", f.Kind, f.Name, f.Source)
		}
		if !json.Valid(f.Input) || !json.Valid(f.Upstream) {
			t.Errorf("%s/%s: input or upstream answer is not JSON", f.Kind, f.Name)
		}
		if f.Source == "seed" {
			seeds[f.Kind]++
		}
	}
	for _, k := range Kinds() {
		if seeds[k] == 0 {
			t.Errorf("kind %s has no seed fixtures", k)
		}
	}
}

func TestWriteLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	f := Fixture{Kind: KindQuantity, Source: "seed", Note: "n",
		Input: json.RawMessage(`{"s": "1Ki"}`), Upstream: json.RawMessage(`{"string":"1Ki", "unmarshal":"1Ki"}`)}
	p, err := Write(dir, f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	p2, err := Write(dir, f)
	if err != nil || p2 != p {
		t.Fatalf("second write: %v, %s != %s", err, p2, p)
	}
	got, err := Load(dir)
	if err != nil || len(got) != 1 {
		t.Fatalf("Load: %v, %d fixtures", err, len(got))
	}
	if got[0].Name == "" || !Same(got[0].Input, json.RawMessage(`{"s":"1Ki"}`)) {
		t.Errorf("loaded %+v", got[0])
	}
	if fs, err := Load(filepath.Join(dir, "missing")); err != nil || len(fs) != 0 {
		t.Errorf("missing root: %v, %v", fs, err)
	}
}
