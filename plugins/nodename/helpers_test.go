package nodename

import (
	"testing"

	"github.com/schedkit/schedkit/framework"
)

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}
