package api

import "testing"

// GetControllerOf finds the reference marked controller, as
// apimachinery's metav1.GetControllerOf does.
func TestGetControllerOf(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		refs []OwnerReference
		want string
	}{
		{"no references", nil, ""},
		{"owner, not controller", []OwnerReference{{Name: "a"}, {Name: "b", Controller: &no}}, ""},
		{"second is controller", []OwnerReference{{Name: "a", Controller: &no}, {Name: "b", Controller: &yes}}, "b"},
	}
	for _, tc := range tests {
		m := &ObjectMeta{OwnerReferences: tc.refs}
		got := GetControllerOf(m)
		switch {
		case tc.want == "" && got != nil:
			t.Errorf("%s: got %+v, want nil", tc.name, got)
		case tc.want != "" && (got == nil || got.Name != tc.want || got != &m.OwnerReferences[1]):
			t.Errorf("%s: got %+v, want %s", tc.name, got, tc.want)
		}
	}
}
