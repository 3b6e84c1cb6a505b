package config

// SetDefaults fills in kube-scheduler's v1 defaults: a nil ScoringStrategy
// becomes LeastAllocated over cpu and memory; an empty resource list
// becomes cpu and memory; a zero weight becomes 1. A non-nil strategy's
// empty Type is left empty (and fails validation), as upstream.
func (a *NodeResourcesFitArgs) SetDefaults() {
	if a.ScoringStrategy == nil {
		a.ScoringStrategy = &ScoringStrategy{Type: LeastAllocated, Resources: DefaultResourceSpec()}
	}
	if len(a.ScoringStrategy.Resources) == 0 {
		a.ScoringStrategy.Resources = append(a.ScoringStrategy.Resources, DefaultResourceSpec()...)
	}
	for i := range a.ScoringStrategy.Resources {
		if a.ScoringStrategy.Resources[i].Weight == 0 {
			a.ScoringStrategy.Resources[i].Weight = 1
		}
	}
}

// SetDefaults fills in kube-scheduler's v1 defaults: an empty resource
// list becomes cpu and memory with weight 1; a zero weight becomes 1.
func (a *NodeResourcesBalancedAllocationArgs) SetDefaults() {
	if len(a.Resources) == 0 {
		a.Resources = DefaultResourceSpec()
		return
	}
	for i := range a.Resources {
		if a.Resources[i].Weight == 0 {
			a.Resources[i].Weight = 1
		}
	}
}

// SetDefaults does nothing: NodeAffinityArgs has no defaults.
func (a *NodeAffinityArgs) SetDefaults() {}
