package manifest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestReadControllerRevision reads a ControllerRevision from YAML and from
// JSON: its data kept as JSON, unknown fields warned about, and what
// ValidateControllerRevisionCreate refuses (upstream:
// TestValidateControllerRevisionCreate / validateControllerRevision)
// reported with file, line, document, object and field.
func TestReadControllerRevision(t *testing.T) {
	const yamlDoc = `apiVersion: apps/v1
kind: ControllerRevision
metadata:
  name: web-66d7d9f69d
  namespace: shop
  labels: {app: web}
data:
  spec:
    template:
      $patch: replace
      metadata: {labels: {app: web}}
      spec: {containers: [{name: c, image: "nginx:1.27"}]}
revision: 3
extra: 1
`
	r := NewReader()
	r.SetFieldValidation(ValidateWarn)
	if err := r.Read("cr.yaml", strings.NewReader(yamlDoc)); err != nil {
		t.Fatal(err)
	}
	crs := r.Objects().ControllerRevisions
	if len(crs) != 1 {
		t.Fatalf("read %d ControllerRevisions", len(crs))
	}
	cr := crs[0]
	want := `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]}}}}`
	if string(cr.Data) != want || cr.Revision != 3 || cr.Namespace != "shop" || cr.Kind != "ControllerRevision" || cr.APIVersion != "apps/v1" {
		t.Errorf("read %+v, data %s", cr, cr.Data)
	}
	var ws []string
	for _, w := range r.Report().Warnings {
		ws = append(ws, w.String())
	}
	if diff := cmp.Diff([]string{`cr.yaml:14: document 1 (ControllerRevision shop/web-66d7d9f69d): unknown field "extra"`}, ws); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// The same object as JSON, through the fast path.
	r = NewReader()
	if err := r.Read("cr.json", strings.NewReader(`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"x"},"data":`+want+`,"revision":1}`)); err != nil {
		t.Fatal(err)
	}
	if got := r.Objects().ControllerRevisions; len(got) != 1 || string(got[0].Data) != want {
		t.Errorf("JSON: read %v", got)
	}

	for _, c := range []struct{ name, in, want string }{
		{"no data", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\nrevision: 1\n",
			"f:1: document 1 (ControllerRevision default/r): data: Required value: data is mandatory"},
		{"null data", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\ndata: null\nrevision: 1\n",
			"f:1: document 1 (ControllerRevision default/r): data: Required value: data is mandatory"},
		{"data not an object", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\ndata: [1]\nrevision: 1\n",
			"f:1: document 1 (ControllerRevision default/r): data: Required value: data must be a valid JSON object"},
		{"negative revision", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\ndata: {}\nrevision: -1\n",
			"f:1: document 1 (ControllerRevision default/r): revision: Invalid value: -1: must be greater than or equal to 0"},
		{"revision not an integer", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\ndata: {}\nrevision: one\n",
			`f:5: document 1 (ControllerRevision default/r): revision: cannot unmarshal string "one" into Go value of type int64`},
	} {
		r := NewReader()
		err := r.Read("f", strings.NewReader(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
		if len(r.Objects().ControllerRevisions) != 0 {
			t.Errorf("%s: the revision was kept", c.name)
		}
	}
}
