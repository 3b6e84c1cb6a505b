package framework

import (
	"errors"
	"fmt"
	"testing"
)

// %v prints a status's code, plugin and reasons; %s and String the
// message alone, as before.
func TestStatusFormat(t *testing.T) {
	fit := NewStatus(Unschedulable, "Insufficient cpu", "Insufficient memory").WithPlugin("NodeResourcesFit")
	tests := []struct {
		st        *Status
		v, s, str string
	}{
		{fit, "Unschedulable NodeResourcesFit: Insufficient cpu, Insufficient memory", "Insufficient cpu, Insufficient memory", `"Insufficient cpu, Insufficient memory"`},
		{nil, "Success", "", `""`},
		{NewStatus(UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector"), "UnschedulableAndUnresolvable: node(s) didn't match Pod's node affinity/selector", "node(s) didn't match Pod's node affinity/selector", `"node(s) didn't match Pod's node affinity/selector"`},
		{AsStatus(errors.New("boom")).WithPlugin("X"), "Error X: boom", "boom", `"boom"`},
		{NewStatus(Skip), "Skip", "", `""`},
	}
	for _, tc := range tests {
		if got := fmt.Sprintf("%v", tc.st); got != tc.v {
			t.Errorf("%%v = %q, want %q", got, tc.v)
		}
		if got := fmt.Sprintf("%+v", tc.st); got != tc.v {
			t.Errorf("%%+v = %q, want %q", got, tc.v)
		}
		if got := fmt.Sprintf("[%s]", tc.st); got != "["+tc.s+"]" || tc.st.String() != tc.s {
			t.Errorf("%%s = %q, String %q, want %q", got, tc.st.String(), tc.s)
		}
		if got := fmt.Sprintf("%q", tc.st); got != tc.str {
			t.Errorf("%%q = %s, want %s", got, tc.str)
		}
	}
}
