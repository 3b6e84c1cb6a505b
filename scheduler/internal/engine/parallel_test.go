package engine

import "testing"

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
