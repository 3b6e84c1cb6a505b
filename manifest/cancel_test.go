package manifest

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
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
	for _, deadline := range []time.Duration{0, 100 * time.Millisecond, 300 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		start := time.Now()
		var last ReadProgress
		_, err := Load(ctx, Options{Progress: func(p ReadProgress) { last = p }}, path)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("deadline %v: error %v, want context.DeadlineExceeded", deadline, err)
		}
		// 100 ms past the deadline, with room for -race and a loaded
		// machine.
		if bound := deadline + 100*time.Millisecond*slowdown; took > bound {
			t.Errorf("deadline %v: Load returned after %v, want at most %v", deadline, took, bound)
		}
		if deadline > 0 && last.Bytes == 0 {
			t.Errorf("deadline %v: no progress reported", deadline)
		}
		t.Logf("deadline %v: returned after %v, %d bytes and %d objects read", deadline, took, last.Bytes, last.Objects)
	}
}
