// Package regression replays the conformance suite's fixtures against
// schedkit.
//
// A fixture (conformance/testdata/regressions/<kind>/<name>.json) is one
// input on which schedkit was compared with upstream Kubernetes, together
// with upstream's answer. The conformance module (the only place that
// imports k8s.io) writes a fixture whenever a differential property fails,
// after rapid has shrunk the input, and also holds hand-picked seeds. This
// package, which imports only the standard library and schedkit, computes
// schedkit's answer for every fixture (Evaluate) and compares it with the
// recorded one, so a regression shows up in the core module's own tests
// without building Kubernetes.
//
// The conformance module computes schedkit's side of each comparison with
// the same Evaluate, so what is replayed here is exactly what was compared.
// The fixture format is described in conformance/README.md.
package regression

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Fixture is one recorded case.
type Fixture struct {
	// Kind names the comparison, and so the shape of Input and Upstream:
	// one of Kinds().
	Kind string `json:"kind"`
	// Name is the file's base name without .json; Load sets it.
	Name string `json:"-"`
	// Note says why the case is interesting, or what disagreed.
	Note string `json:"note,omitempty"`
	// Source is "seed" for a hand-picked case, "rapid" for a case a
	// differential property found (and shrank).
	Source string `json:"source"`
	// Open, when set, says that schedkit still disagrees with upstream on
	// this case (a known, reported bug): the replay skips it with this
	// text instead of failing. Remove it once the bug is fixed.
	Open string `json:"open,omitempty"`
	// Input is the kind's input, in schedkit's (Kubernetes-shaped) JSON.
	Input json.RawMessage `json:"input"`
	// Upstream is upstream Kubernetes' answer for Input, in the kind's
	// answer shape.
	Upstream json.RawMessage `json:"upstream"`
	// Schedkit is schedkit's answer when the fixture was written, for the
	// reader; the replay does not use it.
	Schedkit json.RawMessage `json:"schedkit,omitempty"`
}

// Path returns where the fixture lives under root
// (conformance/testdata/regressions).
func (f *Fixture) Path(root string) string {
	return filepath.Join(root, f.Kind, f.Name+".json")
}

// Load reads every fixture under root, sorted by kind and name. A missing
// root yields no fixtures.
func Load(root string) ([]Fixture, error) {
	var out []Fixture
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && path == root {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".json") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var f Fixture
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		f.Name = strings.TrimSuffix(filepath.Base(path), ".json")
		if dir := filepath.Base(filepath.Dir(path)); dir != f.Kind {
			return fmt.Errorf("%s: kind %q in directory %q", path, f.Kind, dir)
		}
		out = append(out, f)
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out, err
}

// Write stores f under root, naming it by a hash of its kind and input
// when f.Name is empty, so the same case is never stored twice. It returns
// the path written.
func Write(root string, f Fixture) (string, error) {
	in, err := Canonical(f.Input)
	if err != nil {
		return "", fmt.Errorf("fixture input: %w", err)
	}
	f.Input = in
	if f.Upstream, err = Canonical(f.Upstream); err != nil {
		return "", fmt.Errorf("fixture upstream answer: %w", err)
	}
	if len(f.Schedkit) > 0 {
		if f.Schedkit, err = Canonical(f.Schedkit); err != nil {
			return "", fmt.Errorf("fixture schedkit answer: %w", err)
		}
	}
	if f.Name == "" {
		sum := sha256.Sum256(append([]byte(f.Kind+"\n"), in...))
		f.Name = f.Source + "-" + hex.EncodeToString(sum[:6])
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return "", err
	}
	p := f.Path(root)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, os.WriteFile(p, append(b, '\n'), 0o644)
}

// Canonical re-encodes a JSON document with sorted object keys and no
// insignificant space, so that two answers compare byte for byte.
func Canonical(b json.RawMessage) (json.RawMessage, error) {
	if len(b) == 0 {
		return json.RawMessage("null"), nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// Marshal encodes v canonically.
func Marshal(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Canonical(b)
}

// Same reports whether two JSON answers are equal once canonical.
func Same(a, b json.RawMessage) bool {
	ca, err1 := Canonical(a)
	cb, err2 := Canonical(b)
	return err1 == nil && err2 == nil && bytes.Equal(ca, cb)
}
