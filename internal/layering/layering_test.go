package layering

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/schedkit/schedkit"

// rank gives each package's layer; a package may import only packages of a
// strictly lower rank. Generator packages (…gen) sit just above the package
// they generate for.
var rank = map[string]int{
	"field":                     5, // apimachinery's field errors: imports nothing of the module
	"quantity":                  10,
	"features":                  8, // feature gates: imports nothing of the module
	"api":                       20,
	"resource":                  30,
	"qos":                       40,
	"affinity":                  40,
	"taints":                    42, // validates taint keys with affinity's label rules
	"framework/config":          45,
	"admission":                 47,
	"dra/cel":                   43, // CEL device selectors: api and quantity below it, cel-go beside
	"dra":                       48, // the structured allocator: selectors through an interface, node selectors from affinity
	"dra/dragen":                49,
	"podgroup":                  48, // Workload and PodGroup validation and the gang's members: api, field and features below
	"workload":                  48, // the controllers' pods: affinity, taints and resource below, manifest above
	"cluster":                   50,
	"framework":                 60,
	"predicates":                70,
	"priorities":                70,
	"preemption":                80,
	"plugins":                   85, // one package per framework plugin: framework and the function packages below
	"plugins/internal":          84, // what several plugins share: below them
	"scheduler":                 90,
	"autoscaler":                92, // cluster-autoscaler's scale-up and scale-down over scheduler forks
	"manifest":                  95, // files → objects → snapshot + pending pods; above scheduler, below commands
	"schedconfig":               95, // configuration files → scheduler options
	"cmd":                       100,
	"examples":                  100,
	"internal/layering":         0,   // holds only this test
	"internal/testing":          100, // harnesses and builders: imported by tests only (TestTestingOnlyInTests)
	"scheduler/internal/engine": 85,  // the scheduler's fast cycles: framework and below
	"quantity/quantitygen":      15,
	"resource/resourcegen":      35,
	"affinity/affinitygen":      45,
	"taints/taintsgen":          46,
	"cluster/clustergen":        55,
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", dir, err)
	}
	return dir
}

// rankOf finds the longest prefix of rel with a rank.
func rankOf(rel string) (int, string, bool) {
	for p := rel; p != "." && p != ""; p = filepath.Dir(p) {
		if r, ok := rank[p]; ok {
			return r, p, true
		}
	}
	return 0, "", false
}

type file struct {
	rel     string // package dir relative to the module root
	path    string
	test    bool
	imports []string
}

func walk(t *testing.T) []file {
	t.Helper()
	top := root(t)
	var files []file
	fset := token.NewFileSet()
	err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != top && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			if p != top {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // nested module (conformance)
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(top, filepath.Dir(p))
		fl := file{rel: filepath.ToSlash(rel), path: p, test: strings.HasSuffix(p, "_test.go")}
		for _, im := range f.Imports {
			s, _ := strconv.Unquote(im.Path.Value)
			fl.imports = append(fl.imports, s)
		}
		files = append(files, fl)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// kubernetes is the import path prefix of upstream Kubernetes, spelled so
// that a plain text search for its imports does not find this file.
const kubernetes = "k8s" + ".io/"

// TestNoKubernetesImports pins the promise that the core module never
// imports k8s.io: only the nested conformance module may.
func TestNoKubernetesImports(t *testing.T) {
	for _, f := range walk(t) {
		for _, im := range f.imports {
			if strings.HasPrefix(im, kubernetes) || strings.HasPrefix(im, "sigs."+kubernetes) && im != "sigs."+kubernetes+"yaml" {
				t.Errorf("%s imports %s", f.path, im)
			}
		}
	}
}

// testingDir is the folder of the module's test harnesses, builders and
// generator programs.
const testingDir = "internal/testing"

// underTesting reports whether rel, a path relative to the module root,
// is internal/testing or below it.
func underTesting(rel string) bool {
	return rel == testingDir || strings.HasPrefix(rel, testingDir+"/")
}

// TestTestingOnlyInTests checks that only test files, and the harnesses
// themselves, import a package under internal/testing: production code
// never depends on a test harness.
func TestTestingOnlyInTests(t *testing.T) {
	for _, f := range walk(t) {
		if f.test || underTesting(f.rel) {
			continue
		}
		for _, im := range f.imports {
			if underTesting(strings.TrimPrefix(im, module+"/")) {
				t.Errorf("%s imports %s: only tests may import internal/testing", f.path, im)
			}
		}
	}
}

// TestImportsPointDown checks that non-test code imports only packages of
// a lower layer.
func TestImportsPointDown(t *testing.T) {
	var unknown []string
	for _, f := range walk(t) {
		if f.test {
			continue
		}
		from, fromPkg, ok := rankOf(f.rel)
		if !ok {
			unknown = append(unknown, f.rel)
			continue
		}
		for _, im := range f.imports {
			if !strings.HasPrefix(im, module+"/") {
				continue
			}
			to, toPkg, ok := rankOf(strings.TrimPrefix(im, module+"/"))
			if !ok {
				continue // reported as unknown when walked
			}
			if toPkg == fromPkg {
				continue
			}
			if to >= from {
				t.Errorf("%s (%s, layer %d) imports %s (layer %d): imports must point down", f.path, fromPkg, from, im, to)
			}
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		t.Errorf("packages without a layer in layering_test.go: %v", unknown)
	}
}
