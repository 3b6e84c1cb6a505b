package workload_test

import (
	"strings"

	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/workload"
)

// The internal tests read their manifests with package manifest's Reader,
// as Load reads them: the same objects, the same raw JSON.
func init() {
	workload.SetReadYAML(func(name, in string) (*workload.Input, []string, error) {
		r := manifest.NewReader()
		err := r.Read(name, strings.NewReader(in))
		var ws []string
		for _, w := range r.Report().Warnings {
			ws = append(ws, w.String())
		}
		return manifest.Workloads(r.Objects(), manifest.Options{}), ws, err
	})
}
