package framework

import (
	"testing"
	"unsafe"
)

// GrowAligned's new memory starts on a cache line; memory with room is
// kept.
func TestGrowAligned(t *testing.T) {
	for n := 1; n < 300; n += 7 {
		s := GrowAligned[int64](nil, n)
		if len(s) != n || uintptr(unsafe.Pointer(&s[0]))%cacheLine != 0 {
			t.Fatalf("n=%d: len %d, address %% 64 = %d", n, len(s), uintptr(unsafe.Pointer(&s[0]))%cacheLine)
		}
		p := GrowAligned[*int](nil, n)
		if uintptr(unsafe.Pointer(&p[0]))%cacheLine != 0 {
			t.Fatalf("n=%d: pointers not aligned", n)
		}
		u := GrowAligned[uint32](nil, n)
		if uintptr(unsafe.Pointer(&u[0]))%cacheLine != 0 {
			t.Fatalf("n=%d: uint32s not aligned", n)
		}
		if r := GrowAligned(s, n/2+1); &r[0] != &s[0] {
			t.Fatalf("n=%d: memory with room not kept", n)
		}
	}
	if got := alignedStride(500); got != 504 {
		t.Errorf("alignedStride(500) = %d", got)
	}
}
