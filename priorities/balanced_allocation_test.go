package priorities

import (
	"testing"
)

func TestBalancedResourceScore(t *testing.T) {
	tests := []struct {
		requested, allocatable []int64
		want                   int64
	}{
		{nil, nil, 100},
		{[]int64{3}, []int64{4}, 100},                         // one resource: σ = 0
		{[]int64{3000, 5000}, []int64{4000, 10000}, 87},       // |0.75-0.5|/2 = 0.125
		{[]int64{5, 0}, []int64{4, 10}, 50},                   // capped at 1: |1-0|/2
		{[]int64{5, 7}, []int64{0, 10}, 100},                  // zero allocatable left out
		{[]int64{1, 2, 3}, []int64{4, 4, 4}, 79},              // σ = sqrt(1/24)
		{[]int64{3000, 5000, 3}, []int64{3500, 40000, 8}, 69}, // upstream's node1, without the pod
		{[]int64{3000, 5000, 4}, []int64{3500, 40000, 8}, 70}, // and with it
	}
	for _, tc := range tests {
		if got := BalancedResourceScore(tc.requested, tc.allocatable); got != tc.want {
			t.Errorf("BalancedResourceScore(%v, %v) = %d, want %d", tc.requested, tc.allocatable, got, tc.want)
		}
	}
}
