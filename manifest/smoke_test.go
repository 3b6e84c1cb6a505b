package manifest

import (
	"strings"
	"testing"
)

func TestSmoke(t *testing.T) {
	for _, in := range []string{
		"kind: Node\nmetadata: {name: a}\n--- # c\nkind: Node\nmetadata: {name: b}\n",
		`{"kind":"Node","metadata":{"name":"a"}}{"kind":"Node","metadata":{"name":"b"}}` + "\n" + `{"kind":"Pod","metadata":{"name":"p"},"spec":{"nodeSelectr":{}, "containers":[{"name":"c","resources":{"requests":{"cpu":"12parsecs"}}}]}}`,
		"{kind: Node, metadata: {name: a}}\n---\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 12parsecs}}\n",
		"--- !x\nkind: Node\n",
		"kind: List\nitems:\n- kind: Node\n  metadata: {name: a, labels: {on: yes}}\n- kind: Service\n",
	} {
		r := NewReader()
		err := r.Read("f.yaml", strings.NewReader(in))
		t.Logf("err: %v", err)
		for _, w := range r.Report().Warnings {
			t.Logf("warn: %s", w)
		}
		t.Logf("nodes %d pods %d skipped %v", len(r.Objects().Nodes), len(r.Objects().Pods), r.Report().Skipped)
	}
}
