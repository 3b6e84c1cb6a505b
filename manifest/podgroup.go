package manifest

import (
	"github.com/schedkit/schedkit/admission"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/field"
	"github.com/schedkit/schedkit/podgroup"
)

// schedulingGroup is the API group of Workloads and PodGroups, which
// v1.37.2 serves in v1beta1 with GenericWorkload on and the version
// enabled by --runtime-config.
const schedulingGroup = "scheduling.k8s.io"

// workloadGates are the gates of a cluster that serves Workloads and
// PodGroups: GenericWorkload on, the others at their defaults.
func workloadGates() features.Gates {
	g, _ := features.Gates{}.With(map[string]bool{features.GenericWorkload: true})
	return g
}

// validateScheduling validates a Workload or a PodGroup as the API
// server does on create: a new object first loses what its strategy
// drops (status, the fields of gates that are off); a stored one is
// validated as stored. Other objects have no issues here.
func validateScheduling(obj any) []objectIssue {
	var errs field.ErrorList
	switch o := obj.(type) {
	case *api.PodGroup:
		g := workloadGates()
		if !isStoredMeta(&o.ObjectMeta) {
			podgroup.DropDisabledPodGroupFields(o, g)
		}
		errs = podgroup.ValidatePodGroup(o, g)
	case *api.Workload:
		g := workloadGates()
		if !isStoredMeta(&o.ObjectMeta) {
			podgroup.DropDisabledWorkloadFields(o, g)
		}
		errs = podgroup.ValidateWorkload(o, g)
	default:
		return nil
	}
	out := make([]objectIssue, 0, len(errs))
	for _, e := range errs {
		out = append(out, objectIssue{e.Field, fieldBody{e}})
	}
	return out
}

// admitPodGroups returns objs with its new PodGroups admitted by the
// Priority plugin (admission.ResolvePodGroupPriority) on copies; those it
// rejects are reported and left out. Stored groups are kept as they are.
func admitPodGroups(objs *Set, classes []api.PriorityClass, rep *Report) *Set {
	out := *objs
	out.PodGroups = make([]*api.PodGroup, 0, len(objs.PodGroups))
	for _, pg := range objs.PodGroups {
		if isStoredMeta(&pg.ObjectMeta) {
			out.PodGroups = append(out.PodGroups, pg)
			continue
		}
		a := pg.DeepCopy()
		if err := admission.ResolvePodGroupPriority(a, classes); err != nil {
			src, _ := objs.Source(pg)
			rep.Rejected = append(rep.Rejected, Rejection{Source: src, Object: "PodGroup " + pg.Namespace + "/" + pg.Name, Err: err})
			continue
		}
		out.PodGroups = append(out.PodGroups, a)
	}
	return &out
}
