package manifest

import (
	"fmt"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/workload"
)

// Workloads returns what the workload controllers read among objs, for
// workload.Expand: the nodes, pods, workloads and ControllerRevisions,
// the JSON the workloads were read from, and opts.Now and opts.Seed. Load
// with Options.ExpandWorkloads expands them and then admits the pods
// created; call workload.Expand on it for the pods as the controllers
// create them, before admission.
func Workloads(objs *Set, opts Options) *workload.Input {
	return &workload.Input{
		Nodes:                  objs.Nodes,
		Pods:                   objs.Pods,
		ReplicationControllers: objs.ReplicationControllers,
		ReplicaSets:            objs.ReplicaSets,
		StatefulSets:           objs.StatefulSets,
		Deployments:            objs.Deployments,
		DaemonSets:             objs.DaemonSets,
		Jobs:                   objs.Jobs,
		Claims:                 objs.PersistentVolumeClaims,
		ControllerRevisions:    objs.ControllerRevisions,
		Raw:                    objs.raw,
		Now:                    opts.Now,
		Seed:                   opts.Seed,
	}
}

// expandWorkloads is what the controllers would create from objs, with
// their warnings placed where the workload warned about was read.
func expandWorkloads(objs *Set, opts Options) (*workload.Created, []Warning) {
	created, ws := workload.ExpandAll(Workloads(objs, opts))
	var out []Warning
	for _, w := range ws {
		src, _ := objs.Source(w.Workload)
		out = append(out, Warning{Source: src, Object: w.Object, Message: w.Message})
	}
	return created, out
}

// admitClaims admits the claims the controllers create, in creation
// order, through DefaultStorageClass, LimitRanger and ResourceQuota (as
// the API server does for a StatefulSet controller's create), and drops
// the pods that mount a rejected one: the controller does not create a
// pod whose claims it could not create. It returns the claims admitted
// and the pods kept.
func admitClaims(objs *Set, created *workload.Created, ranges []api.LimitRange, chain *admission.Chain, rep *Report) ([]*api.PersistentVolumeClaim, []*api.Pod) {
	var admitted []*api.PersistentVolumeClaim
	rejected := map[[2]string]error{}
	for _, c := range created.Claims {
		a, err := admission.AdmitClaim(c, objs.StorageClasses, ranges)
		if err == nil {
			err = chain.AdmitObject(admission.CountedClaim(a), a.Namespace)
		}
		if err != nil {
			rejected[[2]string{c.Namespace, c.Name}] = err
			continue
		}
		admitted = append(admitted, a)
	}
	if len(rejected) == 0 {
		return admitted, created.Pods
	}
	var pods []*api.Pod
	for _, p := range created.Pods {
		var err error
		var claim string
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim == nil {
				continue
			}
			if e, ok := rejected[[2]string{p.Namespace, v.PersistentVolumeClaim.ClaimName}]; ok && err == nil {
				err, claim = e, v.PersistentVolumeClaim.ClaimName
			}
		}
		if err != nil {
			owner := ""
			if len(p.OwnerReferences) > 0 {
				owner = p.OwnerReferences[0].Kind + " " + p.Namespace + "/" + p.OwnerReferences[0].Name
			}
			rep.Warnings = append(rep.Warnings, Warning{Object: owner,
				Message: fmt.Sprintf("PersistentVolumeClaim %s rejected: %v: the controller does not create pod %s", claim, err, p.Name)})
			continue
		}
		pods = append(pods, p)
	}
	return admitted, pods
}
