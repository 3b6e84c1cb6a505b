package workload_test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/workload"
)

// TestExpandWorkloads checks the pods the controllers would create, and
// their names as the controllers name them.
func TestExpandWorkloads(t *testing.T) {
	r := manifest.NewReader()
	if err := r.Read("w.yaml", strings.NewReader(workload.WorkloadsYAML+"---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ml}\n")); err != nil {
		t.Fatal(err)
	}
	c, err := manifest.NewCluster(r.Objects(), r.Report(), manifest.Options{ExpandWorkloads: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Report.Rejected) > 0 {
		t.Fatalf("rejected: %v", c.Report.Rejected)
	}
	suffix := "[" + workload.NameAlphabet + "]{5}"
	patterns := []string{
		"kube-system/agent-" + suffix, // node a (b is tainted, c matches the second term)
		"kube-system/agent-" + suffix,
		"ml/train-0-" + suffix,
		"ml/train-1-" + suffix,
		"shop/api-5d8f-" + suffix, // 2 replicas, one already running
		"shop/db-0",
		"shop/db-1",
		"shop/web-[" + workload.NameAlphabet + "]+-" + suffix,
		"shop/web-[" + workload.NameAlphabet + "]+-" + suffix,
		"shop/web-[" + workload.NameAlphabet + "]+-" + suffix,
	}
	var got []string
	byName := map[string]*api.Pod{}
	for _, p := range c.Pending {
		got = append(got, p.Namespace+"/"+p.Name)
		byName[p.Name] = p
	}
	sort.Strings(got)
	if len(got) != len(patterns) {
		t.Fatalf("pending %v", got)
	}
	for i, pat := range patterns {
		if !regexp.MustCompile("^" + pat + "$").MatchString(got[i]) {
			t.Errorf("pending[%d] = %s, want %s", i, got[i], pat)
		}
	}
	db := byName["db-1"]
	if db == nil || len(db.Spec.Volumes) != 1 || db.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-db-1" {
		t.Errorf("db-1 volumes: %+v", db)
	}
	var nodes []string
	for _, p := range c.Pending {
		if strings.HasPrefix(p.Name, "agent-") {
			terms := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
			if len(terms) != 1 || len(terms[0].MatchExpressions) != 0 {
				t.Errorf("daemon pod affinity %+v", terms)
			}
			nodes = append(nodes, terms[0].MatchFields[0].Values[0])
			if len(p.Spec.Tolerations) != 6 {
				t.Errorf("daemon pod tolerations %v", p.Spec.Tolerations)
			}
		}
		if strings.HasPrefix(p.Name, "train-1-") && p.Annotations["batch.kubernetes.io/job-completion-index"] != "1" {
			t.Errorf("job pod annotations %v", p.Annotations)
		}
	}
	sort.Strings(nodes)
	if diff := cmp.Diff([]string{"a", "c"}, nodes); diff != "" {
		t.Errorf("daemon pods' nodes (-want +got):\n%s", diff)
	}
	// The same seed gives the same names.
	again, _ := manifest.NewCluster(r.Objects(), &manifest.Report{}, manifest.Options{ExpandWorkloads: true, Seed: 1})
	for i := range c.Pending {
		if c.Pending[i].Name != again.Pending[i].Name {
			t.Fatalf("names differ with the same seed: %s, %s", c.Pending[i].Name, again.Pending[i].Name)
		}
	}
}
