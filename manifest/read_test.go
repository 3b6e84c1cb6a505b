package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/schedkit/schedkit/cluster/clustergen"
	"github.com/schedkit/schedkit/quantity"
)

// names lists what was read as "Kind name", in reading order per kind.
func names(o *Set) []string {
	var out []string
	for _, n := range o.Nodes {
		out = append(out, "Node "+n.Name)
	}
	for _, p := range o.Pods {
		out = append(out, "Pod "+p.Namespace+"/"+p.Name)
	}
	for _, x := range o.Services {
		out = append(out, "Service "+x.Namespace+"/"+x.Name)
	}
	for _, x := range o.PriorityClasses {
		out = append(out, "PriorityClass "+x.Name)
	}
	return out
}

const node = "apiVersion: v1\nkind: Node\nmetadata: {name: %s}\n"

func nodes(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString("---\n")
		}
		fmt.Fprintf(&b, node, fmt.Sprint("n", i))
	}
	return b.String()
}

// TestReadStreams pins how streams are cut into documents: what kubectl's
// YAMLOrJSONDecoder / YAMLReader (k8s.io/apimachinery pkg/util/yaml)
// accepts, and the cases the issue reports the old reader losing.
func TestReadStreams(t *testing.T) {
	jsonStream := ""
	for i := range 8 {
		jsonStream += fmt.Sprintf(`{"kind":"Node","apiVersion":"v1","metadata":{"name":"j%d"}}`, i)
	}
	cases := []struct {
		name, in string
		want     []string
		skipped  map[string]int
		err      string
	}{
		{"separators", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n---   \napiVersion: v1\nkind: Node\nmetadata: {name: c}\n---\n",
			[]string{"Node a", "Node b", "Node c"}, nil, ""},
		// issue 14: a `--- # comment` separator dropped the next document.
		{"comment after separator", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n--- # the second\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n",
			[]string{"Node a", "Node b"}, nil, ""},
		{"leading separator and comments", "# header\n---\n# only a comment\n---\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n",
			[]string{"Node a"}, nil, ""},
		{"document end marker", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n...\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n...\n",
			[]string{"Node a", "Node b"}, nil, ""},
		// kubectl's YAMLReader: "invalid Yaml document separator".
		{"tag after separator", "--- !foo\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n", nil, nil, "invalid YAML document separator"},
		{"content after separator", "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n--- {kind: Node}\n", []string{"Node a"}, nil, "invalid YAML document separator"},
		{"CRLF", strings.ReplaceAll(nodes(3), "\n", "\r\n"), []string{"Node n0", "Node n1", "Node n2"}, nil, ""},
		{"BOM YAML", "\xef\xbb\xbf" + nodes(2), []string{"Node n0", "Node n1"}, nil, ""},
		{"BOM JSON", "\xef\xbb\xbf" + `{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}}`, []string{"Node a"}, nil, ""},
		// issue 14: a concatenated JSON stream of 8 objects gave 1 node.
		{"JSON stream", jsonStream, []string{"Node j0", "Node j1", "Node j2", "Node j3", "Node j4", "Node j5", "Node j6", "Node j7"}, nil, ""},
		{"JSON documents on lines", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}}\n\n  {\"apiVersion\":\"v1\",\"kind\":\"Node\",\n\"metadata\":{\"name\":\"b\"}}\n",
			[]string{"Node a", "Node b"}, nil, ""},
		// YAMLOrJSONDecoder: a stream starting with '{' that is not JSON is
		// read as YAML.
		{"YAML flow mapping", "{apiVersion: v1, kind: Node, metadata: {name: a}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n", []string{"Node a", "Node b"}, nil, ""},
		// ... and a JSON object followed by YAML documents too.
		{"JSON then YAML", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n", []string{"Node a", "Node b"}, nil, ""},
		{"List", "kind: List\napiVersion: v1\nitems:\n- kind: Node\n  metadata: {name: a}\n- kind: ConfigMap\n  metadata: {name: c}\n- kind: PriorityClass\n  apiVersion: scheduling.k8s.io/v1\n  metadata: {name: high}\n  value: 10\n",
			[]string{"Node a", "PriorityClass high"}, map[string]int{"ConfigMap": 1}, ""},
		// An API server's typed list leaves kind out of its items.
		{"NodeList", `{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}`,
			[]string{"Node a", "Node b"}, nil, ""},
		{"PodList", "kind: PodList\napiVersion: v1\nitems:\n- metadata: {name: p, namespace: ns}\n  spec: {containers: [{name: c}]}\n",
			[]string{"Pod ns/p"}, nil, ""},
		{"other groups", "apiVersion: example.com/v1\nkind: Node\nmetadata: {name: x}\n---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}\n",
			nil, map[string]int{"Node.example.com": 1, "Ingress.networking.k8s.io": 1}, ""},
		{"empty", "", nil, nil, ""},
		{"no kind", "metadata: {name: x}\n", nil, nil, "Object 'Kind' is missing"},
		// The API server's decoder needs apiVersion too.
		{"no apiVersion", "kind: Node\nmetadata: {name: x}\n", nil, nil, "f:1: document 1: Object 'apiVersion' is missing (kind Node)"},
		// Only the versions v1.37.2 serves are read; kubectl finds no
		// REST mapping for the others.
		{"removed version", "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: x}\nspec: {selector: {}}\n", nil, nil,
			`f:1: document 1: no matches for kind "PodDisruptionBudget" in version "policy/v1beta1": Kubernetes v1.37.2 serves PodDisruptionBudget in policy/v1 only`},
		{"invented version", "apiVersion: apps/v2\nkind: Deployment\nmetadata: {name: x}\n", nil, nil,
			`no matches for kind "Deployment" in version "apps/v2": Kubernetes v1.37.2 serves Deployment in apps/v1 only`},
		{"wrong group", "apiVersion: v1\nkind: Deployment\nmetadata: {name: x}\n", nil, nil,
			`no matches for kind "Deployment" in version "v1": Kubernetes v1.37.2 serves Deployment in apps/v1 only`},
		{"extensions", "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: x}\n", nil, nil,
			`no matches for kind "Deployment" in version "extensions/v1beta1": Kubernetes v1.37.2 serves Deployment in apps/v1 only`},
		{"removed version of a kind not modelled", "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: x}\n", nil, nil,
			`no matches for kind "Ingress" in version "extensions/v1beta1": Kubernetes v1.37.2 does not serve extensions/v1beta1`},
		{"not an object", "- a\n- b\n", nil, nil, "a document must be an object, not a array"},
		{"bad YAML", "kind: [\n", nil, nil, "yaml:"},
		{"bad JSON after two objects", `{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}}{"apiVersion":"v1","kind":"Node","metadata":{"name":"b"}}{"kind":`, []string{"Node a", "Node b"}, nil, "json:"},
		{"duplicate object", nodes(1) + "---\n" + nodes(1), []string{"Node n0"}, nil, "Node n0 already read at"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader()
			err := r.Read("f", strings.NewReader(c.in))
			if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("error %v, want %q", err, c.err)
			}
			if diff := cmp.Diff(c.want, names(r.Objects())); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			skipped := c.skipped
			if skipped == nil {
				skipped = map[string]int{}
			}
			if diff := cmp.Diff(skipped, r.Report().Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadErrors pins the text of errors and warnings: file, line,
// document, list item, object and field path.
func TestReadErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"quantity", "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: 12parsecs\n",
			`f:15: document 2 (Pod shop/web): spec.containers[0].resources.requests.cpu: quantity "12parsecs": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
		{"list item", "apiVersion: v1\nkind: List\nitems:\n- kind: Node\n  metadata: {name: a}\n- kind: Node\n  metadata: {name: b}\n  status: {allocatable: {cpu: lots}}\n",
			`f:8: document 1, items[1] (Node b): status.allocatable.cpu: quantity "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
		{"JSON line", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\n \"spec\":{\"priority\":\"high\"}}",
			`f:2: document 1 (Pod default/p): spec.priority: cannot unmarshal string "high" into Go value of type int32`},
		// kubectl resolves YAML 1.1: an unquoted yes is a boolean, which a
		// label cannot be.
		{"YAML 1.1 boolean", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    gpu: yes\n",
			`f:6: document 1 (Node n1): metadata.labels.gpu: cannot unmarshal bool true into Go value of type string`},
		{"not an integer", "kind: PriorityClass\napiVersion: scheduling.k8s.io/v1\nmetadata: {name: x}\nvalue: 1.5\n",
			`f:4: document 1 (PriorityClass x): value: cannot unmarshal number 1.5 into Go value of type int32`},
		{"no name", "apiVersion: v1\nkind: Node\nmetadata: {labels: {a: b}}\n", `f:1: document 1 (Node ): metadata.name: Required value: name or generateName is required`},
		// A new object with generateName alone is named (TestGenerateName);
		// a stored one must have its name.
		{"generateName on a stored object", "apiVersion: v1\nkind: Node\nmetadata: {generateName: n-, uid: u}\n", `f:1: document 1 (Node ): metadata.name: Required value: a stored object (uid, resourceVersion or creationTimestamp set) has a name; generateName is only for new objects`},
		{"syntax", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n - bad\n", `f:4: document 1: yaml: did not find expected key`},
	}
	for _, c := range cases {
		r := NewReader()
		err := r.Read("f", strings.NewReader(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}

// TestWarnings pins kubectl's strict-validation wording for unknown and
// duplicate fields, and that fields Kubernetes has and schedkit does not
// model are read silently.
func TestWarnings(t *testing.T) {
	in := `apiVersion: v1
kind: Pod
metadata:
  name: p
  managedFields: [{manager: kubectl, operation: Update}]
spec:
  dnsPolicy: ClusterFirst
  nodeSelectr: {disk: ssd}
  containers:
  - name: c
    env: [{name: A, value: "1"}]
    livenessProbe: {httpGet: {paht: /}}
    resources: {requests: {cpu: 1}, requests: {cpu: 2}}
  Tolerations: []
status: {phase: Pending, podIPs: []}
`
	r := NewReader()
	r.SetFieldValidation(ValidateWarn)
	if err := r.Read("f", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range r.Report().Warnings {
		got = append(got, w.String())
	}
	want := []string{
		`f:8: document 1 (Pod default/p): unknown field "spec.nodeSelectr"`,
		`f:13: document 1 (Pod default/p): duplicate field "spec.containers[0].resources.requests"`,
		`f:14: document 1 (Pod default/p): unknown field "spec.Tolerations"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if q := r.Objects().Pods[0].Spec.Containers[0].Resources.Requests["cpu"]; q.Cmp(quantity.MustParse("2")) != 0 {
		t.Errorf("the last duplicate should win: cpu %v", q.String())
	}
}

// TestHugeSingleLineJSON reads a single-line List of several megabytes
// (issue 14: a 73 MB single-line JSON failed with bufio.Scanner: token too
// long).
func TestHugeSingleLineJSON(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"kind":"List","apiVersion":"v1","items":[`)
	pad := strings.Repeat("x", 2000)
	const n = 2500
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"kind":"Node","apiVersion":"v1","metadata":{"name":"n%d","annotations":{"pad":"%s"}},"status":{"allocatable":{"cpu":"4"}}}`, i, pad)
	}
	b.WriteString(`]}`)
	if b.Len() < 5<<20 {
		t.Fatalf("only %d bytes", b.Len())
	}
	r := NewReader()
	if err := r.Read("big.json", &b); err != nil {
		t.Fatal(err)
	}
	if got := len(r.Objects().Nodes); got != n {
		t.Fatalf("%d nodes, want %d", got, n)
	}
}

// TestKubectlDump reads a `kubectl get nodes,pods,services,configmaps -A
// -o yaml` dump with managedFields and status blocks.
func TestKubectlDump(t *testing.T) {
	r := NewReader()
	if err := r.ReadPath("testdata/dump.yaml", false, nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Report().Warnings {
		t.Errorf("warning: %s", w)
	}
	want := []string{"Node node-1", "Pod shop/web-7d9c6b5f4d-x2kqp", "Pod shop/pending-1", "Service shop/web"}
	if diff := cmp.Diff(want, names(r.Objects())); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"ConfigMap": 1}, r.Report().Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	o := r.Objects()
	if src, _ := o.Source(o.Pods[1]); src.String() != "testdata/dump.yaml:126: document 1, items[2]" {
		t.Errorf("source %s", src)
	}
	if q := o.Nodes[0].Status.Allocatable["memory"]; q.Cmp(quantity.MustParse("16000000Ki")) != 0 {
		t.Errorf("memory %s", q.String())
	}
}

// TestResolveMatchesYAMLv2 compares the scalar resolution with what
// kubectl sends: sigs.k8s.io/yaml's YAMLToJSON over yaml/v2.
func TestResolveMatchesYAMLv2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringMatching(`[-+]?[0-9._xobeEaAfFnNyYsSlLtTrRuU~:]{0,12}`).Draw(t, "scalar")
		want, err := sigsyaml.YAMLToJSON([]byte("k: " + s + "\n"))
		if err != nil {
			return
		}
		st := newStream("t", strings.NewReader("k: "+s+"\n"))
		d, err := st.next()
		if err != nil {
			t.Skip("not a plain scalar for yaml/v3:", err)
		}
		got := d.v.appendJSON(nil)
		var a, b any
		if json.Unmarshal(want, &a) != nil || json.Unmarshal(got, &b) != nil {
			t.Fatalf("bad JSON %s / %s", want, got)
		}
		if string(got) != string(want) && !cmp.Equal(a, b) {
			t.Fatalf("%q: kubectl sends %s, schedkit reads %s", s, want, got)
		}
	})
}

// TestDumpEqualsJSON is the property of issue 14: the objects read from a
// YAML dump and from the same objects re-encoded as JSON are the same.
func TestDumpEqualsJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		objs := clustergen.Cluster(rapid.IntRange(1, 4).Draw(t, "nodes"), rapid.IntRange(0, 6).Draw(t, "pods")).Draw(t, "cluster")
		var items []any
		for _, n := range objs.Nodes {
			n.Kind, n.APIVersion = "Node", "v1"
			items = append(items, n)
		}
		for i, p := range objs.Pods {
			p.Kind, p.APIVersion = "Pod", "v1"
			p.Name = fmt.Sprint(p.Name, "-", i)
			if p.Namespace == "" {
				p.Namespace = "default"
			}
			items = append(items, p)
		}
		var yamlDump bytes.Buffer
		list, _ := json.Marshal(map[string]any{"kind": "List", "apiVersion": "v1", "items": items})
		y, err := sigsyaml.JSONToYAML(list)
		if err != nil {
			t.Fatal(err)
		}
		yamlDump.Write(y)
		var jsonStream bytes.Buffer
		for _, it := range items {
			b, _ := json.Marshal(it)
			jsonStream.Write(b)
		}
		ry, rj := NewReader(), NewReader()
		if err := ry.Read("y", &yamlDump); err != nil {
			t.Fatalf("yaml: %v\n%s", err, y)
		}
		if err := rj.Read("j", &jsonStream); err != nil {
			t.Fatalf("json: %v", err)
		}
		oy, oj := ry.Objects(), rj.Objects()
		cmpOpts := cmp.Comparer(func(a, b quantity.Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })
		if diff := cmp.Diff(oj.Nodes, oy.Nodes, cmpOpts); diff != "" {
			t.Fatalf("nodes (-json +yaml):\n%s", diff)
		}
		if diff := cmp.Diff(oj.Pods, oy.Pods, cmpOpts); diff != "" {
			t.Fatalf("pods (-json +yaml):\n%s", diff)
		}
		if len(ry.Report().Warnings)+len(rj.Report().Warnings) > 0 {
			t.Fatalf("warnings: %v %v", ry.Report().Warnings, rj.Report().Warnings)
		}
	})
}

// TestUnmodelledFields: a pod's spec.resourceClaims, which schedkit now
// models (package api's DRA types), is no longer recorded as unmodelled.
func TestUnmodelledFields(t *testing.T) {
	r := NewReader()
	doc := "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers: [{name: c}]\n  resourceClaims: [{name: gpu, resourceClaimName: g}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n  dnsPolicy: ClusterFirst\n  containers: [{name: c}]\n"
	if err := r.Read("f", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	objs := r.Objects()
	if got := objs.UnmodelledFields(objs.Pods[0]); got != nil {
		t.Errorf("pod a: %q", got)
	}
	if got := objs.UnmodelledFields(objs.Pods[1]); got != nil {
		t.Errorf("pod b: %q", got)
	}
}

// Unknown and duplicate fields are errors by default, as `kubectl apply`
// (--validate=strict) gets them from the API server's strict field
// validation: each names file, line, object and field. Files
// concatenated without "---" repeat the top-level keys: an error, not
// one document holding the last object. ValidateIgnore reads them
// silently.
func TestStrictFields(t *testing.T) {
	in := `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelectr: {disk: ssd}
  containers:
  - name: c
    image: x
    resources: {requets: {cpu: 1}}
`
	r := NewReader()
	err := r.Read("p.yaml", strings.NewReader(in))
	want := "p.yaml:5: document 1 (Pod default/p): strict decoding error: unknown field \"spec.nodeSelectr\"\n" +
		"p.yaml:9: document 1 (Pod default/p): strict decoding error: unknown field \"spec.containers[0].resources.requets\""
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
	if len(r.Objects().Pods) != 0 {
		t.Error("the pod was read")
	}
	nodes := `apiVersion: v1
kind: Node
metadata: {name: n1}
apiVersion: v1
kind: Node
metadata: {name: n2}
`
	r = NewReader()
	err = r.Read("n.yaml", strings.NewReader(nodes))
	if err == nil || !strings.Contains(err.Error(), `strict decoding error: duplicate field "metadata"`) {
		t.Errorf("concatenated nodes: %v", err)
	}
	r = NewReader()
	r.SetFieldValidation(ValidateIgnore)
	if err := r.Read("p.yaml", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if len(r.Objects().Pods) != 1 || len(r.Report().Warnings) != 0 {
		t.Errorf("ignore: %d pods, warnings %v", len(r.Objects().Pods), r.Report().Warnings)
	}
	for in, want := range map[string]FieldValidation{"strict": ValidateStrict, "true": ValidateStrict, "warn": ValidateWarn, "ignore": ValidateIgnore, "false": ValidateIgnore} {
		if got, err := ParseFieldValidation(in); err != nil || got != want {
			t.Errorf("ParseFieldValidation(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseFieldValidation("yes"); err == nil {
		t.Error("ParseFieldValidation(yes): no error")
	}
}
