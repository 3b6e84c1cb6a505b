package predicates

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

func checkStatus(t *testing.T, what string, got, want *framework.Status) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s: got %v %q, want %v %q", what, got.Code(), got.Reasons(), want.Code(), want.Reasons())
	}
}

func pvcs(bs ...vbPVC) []*api.PersistentVolumeClaim {
	out := make([]*api.PersistentVolumeClaim, len(bs))
	for i, b := range bs {
		out[i] = b.PersistentVolumeClaim
	}
	return out
}

func pvs(bs ...vbPV) []*api.PersistentVolume {
	out := make([]*api.PersistentVolume, len(bs))
	for i, b := range bs {
		out[i] = b.PersistentVolume
	}
	return out
}
