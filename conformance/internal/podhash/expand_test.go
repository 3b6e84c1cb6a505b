package podhash

import (
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/schedkit/schedkit/manifest"
)

// TestExpandedDeploymentHash: a stored Deployment read from JSON or YAML
// (kubectl's forms) and expanded gets, on its new ReplicaSet's pods, the
// pod-template-hash the Deployment controller computes; a hand-written
// one (no uid) the hash of what the API server would store.
func TestExpandedDeploymentHash(t *testing.T) {
	checked, unreadable := 0, 0
	var firstErr string
	rapid.Check(t, func(rt *rapid.T) {
		var tpl corev1.PodTemplateSpec
		isStored := rapid.Bool().Draw(rt, "stored")
		seed := rapid.Int64().Draw(rt, "seed")
		if isStored {
			filler(seed).Fill(&tpl)
		} else {
			handWritten(seed).Fill(&tpl)
		}
		tpl.Labels = map[string]string{"app": "web"} // the selector's
		raw, err := json.Marshal(&tpl)
		if err != nil {
			rt.Fatal(err)
		}
		var want string
		meta := `{"name":"web","namespace":"default"}`
		if isStored {
			want = controller.ComputeHash(stored(t, &tpl), nil)
			meta = `{"name":"web","namespace":"default","uid":"d1","resourceVersion":"7"}`
		} else {
			want = controller.ComputeHash(apiServerCreate(t, raw), nil)
		}
		doc := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":` + meta + `,"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":` + string(raw) + `}}`
		in := doc
		if rapid.Bool().Draw(rt, "yaml") {
			y, err := yaml.JSONToYAML([]byte(doc))
			if err != nil {
				rt.Fatal(err)
			}
			in = string(y)
		}
		r := manifest.NewReader()
		if err := r.Read("d", strings.NewReader(in)); err != nil {
			// schedkit's typed decoding refuses some random values
			// (label keys, quantities it validates, ...).
			unreadable++
			if firstErr == "" {
				firstErr = err.Error()
			}
			return
		}
		checked++
		c, err := manifest.NewCluster(r.Objects(), r.Report(), manifest.Options{ExpandWorkloads: true})
		if err != nil {
			rt.Fatal(err)
		}
		var got []string
		for _, p := range c.Pending {
			got = append(got, p.Labels["pod-template-hash"])
		}
		for _, rj := range c.Report.Rejected {
			got = append(got, rj.Pod.Labels["pod-template-hash"])
		}
		for _, w := range c.Report.Warnings {
			if strings.Contains(w.Message, "pod-template-hash") {
				rt.Fatalf("warning: %s", w.Message)
			}
		}
		if len(got) != 1 || got[0] != want {
			rt.Fatalf("pod-template-hash %v, upstream %s", got, want)
		}
	})
	t.Logf("%d Deployments expanded, %d not read (first: %s)", checked, unreadable, firstErr)
	if checked == 0 {
		t.Error("no Deployment was read")
	}
}
