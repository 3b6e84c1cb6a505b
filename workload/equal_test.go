package workload

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// tplJSON is the JSON of a template as upstream's generatePodTemplateSpec
// (pkg/controller/deployment/util) builds it.
func tplJSON(t *testing.T, name, node string, annotations, labels map[string]string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"name": name, "annotations": annotations, "labels": labels},
		"spec":     map[string]any{"nodeName": node},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEqualIgnoreHashUpstream ports upstream's table, both orders.
// upstream: pkg/controller/deployment/util TestEqualIgnoreHash.
func TestEqualIgnoreHashUpstream(t *testing.T) {
	const h = podTemplateHashLabel
	none := map[string]string{}
	for _, c := range []struct {
		name           string
		former, latter []byte
		want           bool
	}{
		{"Same spec, same labels",
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}),
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}), true},
		{"Same spec, only pod-template-hash label value is different",
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}),
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-2", "something": "else"}), true},
		{"Same spec, the former doesn't have pod-template-hash label",
			tplJSON(t, "foo", "foo-node", none, map[string]string{"something": "else"}),
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-2", "something": "else"}), true},
		{"Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
			tplJSON(t, "foo", "foo-node", none, map[string]string{"something": "else"}),
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-2"}), false},
		{"Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-1"}),
			tplJSON(t, "foo", "foo-node", none, map[string]string{"something": "else"}), false},
		{"Same spec, the label is different, and the pod-template-hash label value is the same",
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-1"}),
			tplJSON(t, "foo", "foo-node", none, map[string]string{h: "value-1", "something": "else"}), false},
		{"Different spec, same labels",
			tplJSON(t, "foo", "foo-node", map[string]string{"former": "value"}, map[string]string{h: "value-1", "something": "else"}),
			tplJSON(t, "foo", "foo-node", map[string]string{"latter": "value"}, map[string]string{h: "value-1", "something": "else"}), false},
		{"Different spec, different pod-template-hash label value",
			tplJSON(t, "foo-1", "foo-node", none, map[string]string{h: "value-1", "something": "else"}),
			tplJSON(t, "foo-2", "foo-node", none, map[string]string{h: "value-2", "something": "else"}), false},
		{"Different spec, the former doesn't have pod-template-hash label",
			tplJSON(t, "foo-1", "foo-node-1", none, map[string]string{"something": "else"}),
			tplJSON(t, "foo-2", "foo-node-2", none, map[string]string{h: "value-2", "something": "else"}), false},
		{"Different spec, different labels",
			tplJSON(t, "foo", "foo-node-1", none, map[string]string{"something": "else"}),
			tplJSON(t, "foo", "foo-node-2", none, map[string]string{"nothing": "else"}), false},
	} {
		for _, rev := range []bool{false, true} {
			a, b := c.former, c.latter
			if rev {
				a, b = b, a
			}
			got, err := EqualIgnoreHash(a, b)
			if err != nil || got != c.want {
				t.Errorf("%s (reversed %v): got %v, %v; want %v", c.name, rev, got, err, c.want)
			}
		}
	}
}

// TestEqualIgnoreHashSemantic pins Semantic.DeepEqual's rules on the
// JSON (conformance: TestEqualIgnoreHash compares with upstream on
// random pairs).
func TestEqualIgnoreHashSemantic(t *testing.T) {
	const base = `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"1","memory":"1Ki"}}}]}}`
	for _, c := range []struct {
		name, a, b string
		want       bool
	}{
		{"quantity formats", base, strings.NewReplacer(`"1"`, `"1000m"`, `"1Ki"`, `"1024"`).Replace(base), true},
		{"quantity exponent", base, strings.Replace(base, `"1Ki"`, `"1.024e3"`, 1), true},
		{"quantity value", base, strings.Replace(base, `"1Ki"`, `"1k"`, 1), false},
		{"empty and absent list", base, strings.Replace(base, `"name":"c",`, `"name":"c","args":[],`, 1), true},
		{"empty and absent map", base, strings.Replace(base, `"labels"`, `"annotations":{},"labels"`, 1), true},
		{"null and absent", base, strings.Replace(base, `"name":"c",`, `"name":"c","command":null,"workingDir":null,`, 1), true},
		{"zero and absent", base, strings.Replace(base, `"spec":{`, `"spec":{"hostNetwork":false,"nodeName":"",`, 1), true},
		{"nil and empty pointer differ", base, strings.Replace(base, `"spec":{`, `"spec":{"securityContext":{},`, 1), false},
		{"label order", `{"metadata":{"labels":{"a":"1","b":"2"}}}`, `{"metadata":{"labels":{"b":"2","a":"1"}}}`, true},
		{"timestamps by instant", `{"metadata":{"creationTimestamp":"2026-01-02T03:04:05Z"}}`, `{"metadata":{"creationTimestamp":"2026-01-02T04:04:05+01:00"}}`, true},
		{"timestamps differ", `{"metadata":{"creationTimestamp":"2026-01-02T03:04:05Z"}}`, `{"metadata":{"creationTimestamp":null}}`, false},
		{"int or string", `{"spec":{"containers":[{"name":"c","livenessProbe":{"httpGet":{"port":80}}}]}}`, `{"spec":{"containers":[{"name":"c","livenessProbe":{"httpGet":{"port":"80"}}}]}}`, false},
		{"numbers", `{"spec":{"terminationGracePeriodSeconds":30}}`, `{"spec":{"terminationGracePeriodSeconds":3.0e1}}`, false},
		{"unknown fields ignored", base, strings.Replace(base, `"spec":{`, `"spec":{"noSuchField":1,`, 1), true},
	} {
		got, err := EqualIgnoreHash([]byte(c.a), []byte(c.b))
		if c.name == "numbers" {
			// 3.0e1 is no int64: the informer could not decode it.
			if err == nil {
				t.Errorf("%s: no error", c.name)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %v, %v; want %v", c.name, got, err, c.want)
		}
		if back, _ := EqualIgnoreHash([]byte(c.b), []byte(c.a)); back != got {
			t.Errorf("%s: not symmetric", c.name)
		}
	}
	bad := []byte(`{"spec":{"containers":[{"resources":{"limits":{"cpu":"lots"}}}]}}`)
	_, err := EqualIgnoreHash(bad, bad)
	if err == nil || !strings.Contains(err.Error(), "spec.containers[0].resources.limits.cpu") {
		t.Errorf("bad quantity: %v", err)
	}
}

// A Deployment's template and its ReplicaSet's, which the API server
// stores with another spelling of one quantity and the hash label: the
// Deployment controller takes the ReplicaSet for its new one.
func ExampleEqualIgnoreHash() {
	deployment := `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":"1024Mi"}}}]}}`
	replicaSet := `{"metadata":{"labels":{"app":"web","pod-template-hash":"5d8f"}},"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":"1Gi"}}}]}}`
	fmt.Println(EqualIgnoreHash([]byte(deployment), []byte(replicaSet)))
	// Output: true <nil>
}
