package manifest

import (
	"strings"
	"testing"
)

// FuzzExpand reads arbitrary manifests and expands their workloads: pods
// and warnings, never a panic; expanded pods have names unique in their
// namespace among the pods read and created.
func FuzzExpand(f *testing.F) {
	f.Add(workloads)
	f.Add("kind: Deployment\napiVersion: apps/v1\nmetadata: {name: web, uid: d1}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}" + webTemplate + "\n")
	f.Add("kind: Job\napiVersion: batch/v1\nmetadata: {name: j}\nspec: {completions: 3, completionMode: Indexed, template: {spec: {containers: [{name: c}]}}}\n")
	f.Add("kind: Deployment\napiVersion: apps/v1\nmetadata: {generateName: w-}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}, creationTimestamp: x}, spec: {containers: [{name: c, resources: {limits: {cpu: 1e30}}}]}}}\n")
	f.Fuzz(func(t *testing.T, in string) {
		r := NewReader()
		_ = r.Read("in", strings.NewReader(in))
		pods, _ := newExpander(r.Objects(), 1).expand()
		seen := map[[2]string]bool{}
		for _, p := range r.Objects().Pods {
			seen[[2]string{p.Namespace, p.Name}] = true
		}
		for _, p := range pods {
			k := [2]string{p.Namespace, p.Name}
			if seen[k] && !strings.Contains(p.OwnerReferences[0].Kind, "StatefulSet") {
				t.Fatalf("pod name %s/%s given twice", p.Namespace, p.Name)
			}
			seen[k] = true
		}
	})
}
