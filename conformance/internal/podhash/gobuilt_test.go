package podhash

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/workload"
)

// TestGoBuiltTemplateHash: a stored template held in schedkit's types
// (an Objects built in Go, without the document's JSON) hashes as
// upstream hashes the same fields: schedkit's JSON of its types keeps
// what upstream's Go values distinguish (nil and zero pointers, ...).
func TestGoBuiltTemplateHash(t *testing.T) {
	checked, refused := 0, 0
	var firstErr error
	rapid.Check(t, func(rt *rapid.T) {
		var tpl corev1.PodTemplateSpec
		filler(rapid.Int64().Draw(rt, "seed")).Fill(&tpl)
		raw, _ := json.Marshal(stored(t, &tpl))
		var ours api.PodTemplateSpec
		if err := json.Unmarshal(raw, &ours); err != nil {
			refused++ // a value schedkit's types refuse
			if firstErr == nil {
				firstErr = err
			}
			return
		}
		checked++
		b, err := json.Marshal(&ours)
		if err != nil {
			rt.Fatal(err)
		}
		// Upstream, on the fields schedkit keeps.
		var theirs corev1.PodTemplateSpec
		if err := json.Unmarshal(b, &theirs); err != nil {
			rt.Fatal(err)
		}
		want := controller.ComputeHash(stored(t, &theirs), nil)
		got, err := workload.PodTemplateHash(b, nil)
		if err != nil {
			rt.Fatal(err)
		}
		if got != want {
			rt.Fatalf("hash %s, upstream %s\nschedkit's JSON: %s", got, want, b)
		}
	})
	t.Logf("%d templates checked, %d refused by schedkit's types (first: %v)", checked, refused, firstErr)
	if checked == 0 {
		t.Error("no template checked")
	}
}
