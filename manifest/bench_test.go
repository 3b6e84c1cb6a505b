package manifest

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/internal/testing/gendump/dump"
)

// benchDump writes internal/testing/gendump's dump (nodes nodes, pods pods, 1 %
// pending) as JSON, and as the same List in YAML, to a temporary folder.
func benchDump(b *testing.B, nodes, pods int) (jsonPath, yamlPath string) {
	b.Helper()
	dir := b.TempDir()
	jsonPath = filepath.Join(dir, "dump.json")
	f, err := os.Create(jsonPath)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := dump.Write(w, nodes, pods, pods/100, 1); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		b.Fatal(err)
	}
	y, err := sigsyaml.JSONToYAML(data)
	if err != nil {
		b.Fatal(err)
	}
	yamlPath = filepath.Join(dir, "dump.yaml")
	if err := os.WriteFile(yamlPath, y, 0o644); err != nil {
		b.Fatal(err)
	}
	return jsonPath, yamlPath
}

// fullDump makes BenchmarkRead read the command's full-size dump.
var fullDump = flag.Bool("full", false, "BenchmarkRead on internal/testing/gendump's default dump (2,000 nodes, 40,000 pods)")

// BenchmarkRead reads internal/testing/gendump's dump (a kubectl-style List) with
// a Reader: 200 nodes and 4,000 pods (a tenth of the command's 2,000 /
// 40,000 measurement; -full for that), as JSON through the fast path and
// through the token-by-token tree path it replaced, and as YAML in
// kubectl's shape (sigs.k8s.io/yaml, as `kubectl get -o yaml` writes it):
// item by item, item by item with the items indented by two, and whole
// (the path the item-by-item one replaced). Bytes/s is the JSON's size.
func BenchmarkRead(b *testing.B) {
	nodes, pods := 200, 4000
	if *fullDump {
		nodes, pods = 2000, 40000
	}
	jsonPath, yamlPath := benchDump(b, nodes, pods)
	st, _ := os.Stat(jsonPath)
	y, err := os.ReadFile(yamlPath)
	if err != nil {
		b.Fatal(err)
	}
	indented := filepath.Join(b.TempDir(), "indented.yaml")
	if err := os.WriteFile(indented, kubectlIndent(y), 0o644); err != nil {
		b.Fatal(err)
	}
	y = nil
	for _, c := range []struct {
		name  string
		path  string
		slow  bool
		whole bool
	}{{"json", jsonPath, false, false}, {"json-tree", jsonPath, true, false}, {"yaml", yamlPath, false, false},
		{"yaml-indented", indented, false, false}, {"yaml-whole", yamlPath, false, true}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			b.ReportAllocs()
			for b.Loop() {
				r := NewReader()
				r.slowJSON, r.wholeYAML = c.slow, c.whole
				if err := r.ReadPath(c.path, false, nil); err != nil {
					b.Fatal(err)
				}
				if len(r.Objects().Pods) != pods {
					b.Fatalf("%d pods", len(r.Objects().Pods))
				}
			}
		})
	}
}
