package app

import (
	"io"
	"os"
	"strings"
	"testing"
)

// FuzzReadManifests feeds arbitrary YAML/JSON streams to the command: it
// must print or fail, never panic.
func FuzzReadManifests(f *testing.F) {
	if data, err := os.ReadFile("../../../examples/data/cluster.yaml"); err == nil {
		f.Add(string(data))
	}
	f.Add("apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n")
	f.Add("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: img, resources: {requests: {cpu: 1e3m}}}]}\n---\n")
	f.Add(`{"apiVersion":"v1","kind":"Node","status":{"allocatable":{"cpu":1.5}}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		// The reader's own fuzz target is manifest.FuzzRead; this one runs
		// the whole command.
		_ = run([]string{"explain", "-f", "-", "-o", "json"}, strings.NewReader(doc), io.Discard, io.Discard)
	})
}
