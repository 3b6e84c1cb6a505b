// Package podgroup validates the gang scheduling objects of
// scheduling.k8s.io/v1beta1 as a v1.37.2 API server does on create, and
// tells which pods make up a gang. A user reading Workloads and PodGroups
// runs the strategy's drops, then the validation:
//
//	podgroup.DropDisabledPodGroupFields(pg, gates)
//	errs := podgroup.ValidatePodGroup(pg, gates)
//
// Validation follows upstream's two layers: the hand-written
// pkg/apis/scheduling/validation (template names, one priority setting)
// and the declarative rules generated from the v1beta1 tags (unions of
// basic and gang, of single and all, minCount at least 1, list bounds,
// name formats). Fields whose gates are off are dropped on create before
// validation, as the registry strategies drop them, so they are never
// errors: schedulingConstraints (TopologyAwareWorkloadScheduling),
// resourceClaims (DRAWorkloadResourceClaims), preemptionPolicy
// (PodGroupPreemptionPolicy) and composite groups (CompositePodGroup),
// all off in v1.37.2 and not modelled.
//
// CompositePodGroup itself is served only in scheduling.k8s.io/v1alpha3,
// an alpha version off by default, so schedkit does not read it.
package podgroup
