package resource

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

// rl builds a resource list from "name=quantity" pairs.
func rl(pairs ...string) api.ResourceList {
	l := api.ResourceList{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			panic("rl: " + p)
		}
		l[api.ResourceName(k)] = MustParse(v)
	}
	return l
}

func req(r api.ResourceList) api.ResourceRequirements { return api.ResourceRequirements{Requests: r} }
func lim(l api.ResourceList) api.ResourceRequirements { return api.ResourceRequirements{Limits: l} }
func both(r, l api.ResourceList) api.ResourceRequirements {
	return api.ResourceRequirements{Requests: r, Limits: l}
}

func ctr(name string, r api.ResourceRequirements) api.Container {
	return api.Container{Name: name, Image: "img", Resources: r}
}

func sidecar(name string, r api.ResourceRequirements) api.Container {
	always := api.ContainerRestartPolicyAlways
	return api.Container{Name: name, Resources: r, RestartPolicy: &always}
}

// show prints a list with sorted names, for failure messages.
func show(l api.ResourceList) string {
	var b strings.Builder
	b.WriteString("{")
	for i, k := range ResourceNames(l) {
		if i > 0 {
			b.WriteString(", ")
		}
		q := l[k]
		fmt.Fprintf(&b, "%s: %s", k, q.String())
	}
	b.WriteString("}")
	return b.String()
}

func wantList(t *testing.T, what string, got, want api.ResourceList) {
	t.Helper()
	if !Equals(got, want) {
		t.Errorf("%s = %s, want %s", what, show(got), show(want))
	}
}

func statusResources(r api.ResourceRequirements) *api.ResourceRequirements { return &r }

var infeasible = []api.PodCondition{{Type: api.PodResizePending, Status: api.ConditionTrue, Reason: PodReasonInfeasible}}

// quantityEqual compares quantities by value and printed form.
var quantityEqual = cmp.Comparer(func(a, b Quantity) bool { return a.Cmp(b) == 0 && a.String() == b.String() })

// podDiff returns the differences between two pods, empty if none.
func podDiff(a, b *api.Pod) string { return cmp.Diff(a, b, quantityEqual) }
