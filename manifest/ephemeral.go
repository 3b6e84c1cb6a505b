package manifest

import (
	"maps"

	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
)

// ephemeralClaims are the claims the ephemeral volume controller creates
// for pods: one per volume with ephemeral.volumeClaimTemplate, named
// <pod>-<volume>, unless a claim of that name is among have. The claim
// is owned by the pod (controller, blockOwnerDeletion), carries the
// template's labels, annotations and spec, and is admitted as any claim
// create (admission.AdmitClaim: DefaultStorageClass, LimitRanger; then
// ResourceQuota through chain). A rejected claim is a warning: the pod
// stays waiting for it, as in a cluster.
func ephemeralClaims(pods []*api.Pod, have map[[2]string]bool, classes []*api.StorageClass, ranges []api.LimitRange, chain *admission.Chain, rep *Report) []*api.PersistentVolumeClaim {
	var out []*api.PersistentVolumeClaim
	t := true
	for _, p := range pods {
		for _, v := range p.Spec.Volumes {
			if v.Ephemeral == nil || v.Ephemeral.VolumeClaimTemplate == nil {
				continue
			}
			name := p.Name + "-" + v.Name
			key := [2]string{p.Namespace, name}
			if have[key] {
				continue
			}
			have[key] = true
			tpl := v.Ephemeral.VolumeClaimTemplate
			c := &api.PersistentVolumeClaim{
				TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
				ObjectMeta: api.ObjectMeta{
					Name: name, Namespace: p.Namespace,
					Labels: maps.Clone(tpl.Labels), Annotations: maps.Clone(tpl.Annotations),
					OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID, Controller: &t, BlockOwnerDeletion: &t}},
				},
				Spec: tpl.Spec,
			}
			a, err := admission.AdmitClaim(c, classes, ranges)
			if err == nil {
				err = chain.AdmitObject(admission.CountedClaim(a), a.Namespace)
			}
			if err != nil {
				rep.Warnings = append(rep.Warnings, Warning{Object: "Pod " + podName(p),
					Message: "ephemeral volume " + v.Name + ": PersistentVolumeClaim " + name + " rejected: " + err.Error()})
				continue
			}
			out = append(out, a)
		}
	}
	return out
}
