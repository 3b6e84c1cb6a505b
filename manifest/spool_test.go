package manifest

import (
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// TestSpool: a spool gives src's bytes, again after a seek back, and
// refuses seeks beyond what it read; close removes its file.
func TestSpool(t *testing.T) {
	sp, err := newSpool(iotest.OneByteReader(strings.NewReader("abcdef")))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if n, _ := io.ReadFull(sp, buf); n != 4 || string(buf) != "abcd" {
		t.Fatalf("read %q", buf[:n])
	}
	if _, err := sp.Seek(5, io.SeekStart); err == nil {
		t.Error("seek beyond what was read: no error")
	}
	if _, err := sp.Seek(0, io.SeekEnd); err == nil {
		t.Error("seek from the end: no error")
	}
	if pos, err := sp.Seek(1, io.SeekStart); err != nil || pos != 1 {
		t.Fatalf("seek 1: %d, %v", pos, err)
	}
	rest, err := io.ReadAll(sp)
	if err != nil || string(rest) != "bcdef" {
		t.Fatalf("after the seek: %q, %v", rest, err)
	}
	if pos, _ := sp.Seek(0, io.SeekCurrent); pos != 6 {
		t.Errorf("position %d, want 6", pos)
	}
	name := sp.f.Name()
	sp.close()
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("spool file left: %v", err)
	}
}

// TestReadPathPipe: "-" on a stream that cannot seek is spooled; what is
// read is what a file gives, a List read whole after all included.
func TestReadPathPipe(t *testing.T) {
	in := "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: Node\n  metadata: {name: b, labels: {x: &y v}}\n- kind: Node\n  metadata: {name: c, labels: {x: *y}}\nkind: List\n"
	r := NewReader()
	if err := r.ReadPath("-", false, iotest.OneByteReader(strings.NewReader(in))); err != nil {
		t.Fatal(err)
	}
	o := r.Objects()
	if len(o.Nodes) != 3 || o.Nodes[2].Labels["x"] != "v" {
		t.Fatalf("nodes %v", o.Nodes)
	}
}
