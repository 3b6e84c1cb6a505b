package workload

import (
	"fmt"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

// BenchmarkExpand expands, in one namespace, 500 stored Deployments each
// with its current and one old ReplicaSet of 5 running pods, and 100 new
// Deployments of 3 replicas (a pod-template-hash each, a new ReplicaSet's
// pods): claims cost what each controller may claim, not the namespace's
// pods.
func BenchmarkExpand(b *testing.B) {
	yes := true
	three := int32(3)
	five := int32(5)
	objs := &Input{}
	tpl := func(app, image string) api.PodTemplateSpec {
		t := api.PodTemplateSpec{}
		t.Labels = map[string]string{"app": app}
		t.Spec.Containers = []api.Container{{Name: "c", Image: image}}
		t.Spec.Containers[0].Resources.Requests = api.ResourceList{"cpu": quantity.MustParse("100m")}
		return t
	}
	for i := range 600 {
		app := fmt.Sprintf("app-%d", i)
		d := &api.Deployment{}
		d.Name, d.Namespace = app, "shop"
		d.Spec.Replicas = &five
		d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
		d.Spec.Template = tpl(app, "img:2")
		if i >= 500 {
			d.Spec.Replicas = &three
			objs.Deployments = append(objs.Deployments, d)
			continue
		}
		d.UID = "d-" + app
		objs.Deployments = append(objs.Deployments, d)
		for j, image := range []string{"img:2", "img:1"} {
			rs := &api.ReplicaSet{}
			rs.Name, rs.Namespace, rs.UID = fmt.Sprintf("%s-%d", app, j), "shop", fmt.Sprintf("rs-%s-%d", app, j)
			rs.Labels = map[string]string{"app": app, "pod-template-hash": fmt.Sprint(j)}
			rs.OwnerReferences = []api.OwnerReference{{Kind: "Deployment", Name: app, UID: d.UID, Controller: &yes}}
			rs.Spec.Replicas = &five
			rs.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": app, "pod-template-hash": fmt.Sprint(j)}}
			rs.Spec.Template = tpl(app, image)
			rs.Spec.Template.Labels["pod-template-hash"] = fmt.Sprint(j)
			objs.ReplicaSets = append(objs.ReplicaSets, rs)
			for k := range 5 {
				p := &api.Pod{}
				p.Name, p.Namespace, p.UID = fmt.Sprintf("%s-%d", rs.Name, k), "shop", fmt.Sprintf("p-%s-%d", rs.Name, k)
				p.Labels = rs.Spec.Template.Labels
				p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}
				p.Spec.NodeName = "n1"
				p.Status.Phase = api.PodRunning
				objs.Pods = append(objs.Pods, p)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		pods, ws := newExpander(objs, 1).expand()
		if len(pods) != 300 || len(ws) != 0 {
			b.Fatalf("%d pods, warnings %v", len(pods), ws)
		}
	}
}
