package engine

import "unsafe"

// cacheLine is the cache line size the chunked passes lay their buffers
// out for.
const cacheLine = 64

// growAligned returns s with length n, in new memory starting at a cache
// line boundary when s has too little room. Goroutines that fill such a
// buffer in chunks of whole cache lines (64 elements of 8 bytes, as
// NodeChunkSize gives) then never write the same line: a line written
// on two CPUs at once moves between them at every write. T's size must
// divide 64 (else the memory is only as aligned as make's).
func growAligned[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	size := int(unsafe.Sizeof(*new(T)))
	if size == 0 || cacheLine%size != 0 {
		return make([]T, n)
	}
	b := make([]T, n+cacheLine/size)
	addr := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	off := (cacheLine - addr%cacheLine) % cacheLine / size
	return b[off : off+n]
}

// alignedStride is n rounded up to whole cache lines of 8-byte elements:
// the distance between the rows of a row-major buffer whose rows are
// chunked.
func alignedStride(n int) int { return (n + 7) &^ 7 }
