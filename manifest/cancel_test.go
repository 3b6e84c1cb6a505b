package manifest

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/internal/testing/gendump/dump"
)

// TestLoadCancelled: Load notices a deadline in the middle of a large
// file and returns context.DeadlineExceeded soon after it.
func TestLoadCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large dump")
	}
	path := filepath.Join(t.TempDir(), "dump.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := dump.Write(w, 2000, 40000, 200, 1); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// A deadline after the reading: NewCluster notices it too.
	start := time.Now()
	if _, err := Load(context.Background(), Options{}, path); err != nil {
		t.Fatal(err)
	}
	whole := time.Since(start)
	for _, deadline := range []time.Duration{0, 100 * time.Millisecond, 300 * time.Millisecond, whole * 95 / 100} {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		var last ReadProgress
		_, err := Load(ctx, Options{Progress: func(p ReadProgress) { last = p }}, path)
		took := time.Since(start)
		cancel()
		if err == nil && took < deadline {
			// The machine was faster this time: the load ended first.
			continue
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("deadline %v: error %v, want context.DeadlineExceeded", deadline, err)
		}
		// 100 ms past the deadline, with room for -race; or a fifth of
		// the whole load, whichever is longer, as a loaded machine
		// stretches both alike.
		bound := deadline + max(100*time.Millisecond*slowdown, whole/5)
		if took > bound {
			t.Errorf("deadline %v: Load returned after %v, want at most %v", deadline, took, bound)
		}
		if deadline > 0 && (last.Bytes == 0 || last.Objects == 0) {
			t.Errorf("deadline %v: no progress reported: %+v", deadline, last)
		}
		t.Logf("deadline %v: returned after %v, %d bytes and %d objects read", deadline, took, last.Bytes, last.Objects)
	}
}

// TestYAMLErrorLines: a YAML syntax error names the line where the broken
// construct opens, and a binary file is "not YAML or JSON", once.
func TestYAMLErrorLines(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"unclosed flow mapping", "apiVersion: v1\nkind: Pod\nmetadata: {name: x\nspec: {}\n", "f.yaml:3: document 1: yaml: did not find expected ',' or '}'"},
		{"unclosed flow sequence", "kind: Pod\nmetadata:\n  name: x\nspec: {containers: [{name: c}\n", "f.yaml:4: document 1: yaml: did not find expected ',' or ']'"},
		{"second document", "---\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: x\nspec: {}\n", "f.yaml:8: document 2: yaml: did not find expected ',' or '}'"},
		{"binary", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00", "f.yaml: document 1: not YAML or JSON: the file holds binary data"},
	}
	for _, c := range cases {
		r := NewReader()
		err := r.Read("f.yaml", strings.NewReader(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.name, err, c.want)
		}
	}
}
