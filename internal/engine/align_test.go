package engine

import (
	"testing"
	"unsafe"
)

// growAligned's new memory starts on a cache line; memory with room is
// kept.
func TestGrowAligned(t *testing.T) {
	for n := 1; n < 300; n += 7 {
		s := growAligned[int64](nil, n)
		if len(s) != n || uintptr(unsafe.Pointer(&s[0]))%cacheLine != 0 {
			t.Fatalf("n=%d: len %d, address %% 64 = %d", n, len(s), uintptr(unsafe.Pointer(&s[0]))%cacheLine)
		}
		p := growAligned[*int](nil, n)
		if uintptr(unsafe.Pointer(&p[0]))%cacheLine != 0 {
			t.Fatalf("n=%d: pointers not aligned", n)
		}
		u := growAligned[uint32](nil, n)
		if uintptr(unsafe.Pointer(&u[0]))%cacheLine != 0 {
			t.Fatalf("n=%d: uint32s not aligned", n)
		}
		if r := growAligned(s, n/2+1); &r[0] != &s[0] {
			t.Fatalf("n=%d: memory with room not kept", n)
		}
	}
	if got := alignedStride(500); got != 504 {
		t.Errorf("alignedStride(500) = %d", got)
	}
}

// Ported from upstream parallelize TestChunkSize (parallelism 16).
func TestChunkSize(t *testing.T) {
	for _, tt := range []struct{ in, want int }{{32, 3}, {16, 2}, {1, 1}, {0, 1}, {5000, 70}} {
		if got := chunkSize(tt.in, 16); got != tt.want {
			t.Errorf("chunkSize(%d, 16) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if got := chunkSize(5000, 2); got != 70 {
		t.Errorf("chunkSize(5000, 2) = %d, want 70", got)
	}
	if got := chunkSize(100, 32); got != 4 {
		t.Errorf("chunkSize(100, 32) = %d, want 4", got)
	}
}
