package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRunFromRoot builds every example command and runs it from the
// repository root, as the README tells a user to: each exits 0.
func TestRunFromRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example")
	}
	dirs, err := filepath.Glob("*/main.go")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example: %v", err)
	}
	bin := t.TempDir()
	for _, m := range dirs {
		name := filepath.Dir(m)
		exe := filepath.Join(bin, name)
		if out, err := exec.Command("go", "build", "-o", exe, "./"+name).CombinedOutput(); err != nil {
			t.Fatalf("%s: build: %v\n%s", name, err, out)
		}
		cmd := exec.Command(exe)
		cmd.Dir = ".."
		cmd.Env = os.Environ()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go run ./examples/%s from the repository root: %v\n%s", name, err, out)
		}
	}
}
