package admission

import (
	"fmt"

	"github.com/schedkit/schedkit/api"
)

// ResolvePodGroupPriority is the Priority admission plugin on PodGroup
// creation with GenericWorkload on (admitPodGroup), in place: the named
// class, or with no name the global default class with the lowest value
// (priority 0 when there is none), sets spec.priorityClassName and
// spec.priority. A group already carrying a different priority is
// rejected as upstream rejects it, with a *ForbiddenError
// (`podgroups.scheduling.k8s.io "g" is forbidden: ...`). The preemption
// policy is left alone: it needs PodGroupPreemptionPolicy, which is off.
func ResolvePodGroupPriority(pg *api.PodGroup, classes []api.PriorityClass) error {
	forbidden := func(reason error) error {
		return &ForbiddenError{Resource: "podgroups.scheduling.k8s.io", Name: pg.Name, Reason: reason}
	}
	name := pg.Spec.PriorityClassName
	var value int32
	if name == "" {
		var def *api.PriorityClass
		for i := range classes {
			if classes[i].GlobalDefault && (def == nil || classes[i].Value < def.Value) {
				def = &classes[i]
			}
		}
		if def != nil {
			name, value = def.Name, def.Value
		}
	} else {
		pc := findClass(classes, name)
		if pc == nil {
			return forbidden(classNotFound(name))
		}
		value = pc.Value
	}
	if pg.Spec.Priority != nil && *pg.Spec.Priority != value {
		return forbidden(fmt.Errorf("priority set in the pod group (%d) must match the priority computed (%d) based on the priority class set in the spec", *pg.Spec.Priority, value))
	}
	pg.Spec.PriorityClassName = name
	pg.Spec.Priority = &value
	return nil
}
