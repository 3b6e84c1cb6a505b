package scheduler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// WithUnmodelledFields tells the scheduler which fields of a pod were
// read without being modelled (manifest.Set.UnmodelledFields gives them
// for pods read from files): a pod that sets spec.resourceClaims this way
// still counts as using claims when Decision.Unverified is decided. f is
// called with the pod as given (or admitted) and may return nil.
func WithUnmodelledFields(f func(*api.Pod) []string) Option {
	return func(o *options) { o.unmodelled = f }
}

// feature is a pod feature some plugins decide on: when the profile lists
// one of them as not evaluated (this build lacks it), a decision about a
// pod that uses the feature is unverified.
type feature struct {
	// plugins are the plugins that read the feature.
	plugins []string
	// uses says how the pod uses it ("" if it does not); unmodelled are
	// the pod's fields read without being modelled.
	uses func(p *api.Pod, unmodelled []string) string
}

// features returns the features, in the order they are checked. The
// plugins come from kube-scheduler v1.37.2's default profile; the marks
// follow the profile's NotEvaluated list, so a plugin that lands stops
// marking pods. The table is built per call: it is not package state a
// caller could change.
func features() [6]feature {
	return [...]feature{
		{[]string{"DynamicResources"}, func(p *api.Pod, unmodelled []string) string {
			if len(p.Spec.ResourceClaims) > 0 || slices.Contains(unmodelled, "spec.resourceClaims") {
				return "resourceClaims"
			}
			for _, c := range slices.Concat(p.Spec.InitContainers, p.Spec.Containers) {
				if len(c.Resources.Claims) > 0 {
					return "resources.claims"
				}
			}
			return ""
		}},
		{[]string{"InterPodAffinity"}, func(p *api.Pod, _ []string) string {
			a := p.Spec.Affinity
			switch {
			case a != nil && a.PodAffinity != nil && a.PodAntiAffinity != nil:
				return "podAffinity and podAntiAffinity"
			case a != nil && a.PodAffinity != nil:
				return "podAffinity"
			case a != nil && a.PodAntiAffinity != nil:
				return "podAntiAffinity"
			}
			return ""
		}},
		{[]string{"PodTopologySpread"}, func(p *api.Pod, _ []string) string {
			if len(p.Spec.TopologySpreadConstraints) > 0 {
				return "topologySpreadConstraints"
			}
			return ""
		}},
		{[]string{"VolumeBinding", "VolumeZone", "VolumeRestrictions", "NodeVolumeLimits"}, func(p *api.Pod, _ []string) string {
			for _, v := range p.Spec.Volumes {
				switch {
				case v.PersistentVolumeClaim != nil:
					return "persistentVolumeClaim volumes"
				case v.Ephemeral != nil:
					return "ephemeral volumes"
				}
			}
			return ""
		}},
		{[]string{"VolumeRestrictions", "NodeVolumeLimits"}, func(p *api.Pod, _ []string) string {
			for _, v := range p.Spec.Volumes {
				switch {
				case v.GCEPersistentDisk != nil:
					return "gcePersistentDisk volumes"
				case v.AWSElasticBlockStore != nil:
					return "awsElasticBlockStore volumes"
				case v.ISCSI != nil:
					return "iscsi volumes"
				case v.RBD != nil:
					return "rbd volumes"
				}
			}
			return ""
		}},
		{[]string{"NodeVolumeLimits"}, func(p *api.Pod, _ []string) string {
			for _, v := range p.Spec.Volumes {
				switch {
				case v.CSI != nil:
					return "inline csi volumes"
				case v.AzureDisk != nil:
					return "azureDisk volumes"
				case v.Cinder != nil:
					return "cinder volumes"
				}
			}
			return ""
		}},
	}
}

// Unverified lists why a decision about pod under its profile may be
// wrong, before any cycle runs: each feature the pod uses whose plugins
// the profile lists as not evaluated (Decision.Unverified holds the same
// marks, plus the one for a pod that fits no node while DefaultPreemption
// is missing). It is nil for a pod no profile serves.
func (s *Scheduler) Unverified(pod *api.Pod) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	pod, err := s.admit(pod)
	if err != nil {
		return nil
	}
	prof, err := s.profileFor(pod)
	if err != nil {
		return nil
	}
	return s.unverified(prof, pod, false)
}

// unverified is Decision.Unverified for a cycle of prof about pod that
// ended unschedulable or not.
func (s *Scheduler) unverified(prof *framework.Profile, pod *api.Pod, unschedulable bool) []string {
	var marks []string
	if notEvaluated := prof.NotEvaluated(); len(notEvaluated) > 0 {
		var unmodelled []string
		if s.unmodelled != nil {
			unmodelled = s.unmodelled(pod)
		}
		marks = featureMarks(pod, notEvaluated, unmodelled, unschedulable)
	}
	return marks
}

// featureMarks are the marks of the features pod uses whose plugins are
// in notEvaluated, and, for a pod that fits no node, preemption when
// DefaultPreemption is missing.
func featureMarks(p *api.Pod, notEvaluated, unmodelled []string, unschedulable bool) []string {
	var marks []string
	for _, f := range features() {
		var missing []string
		for _, pl := range f.plugins {
			if slices.Contains(notEvaluated, pl) {
				missing = append(missing, pl)
			}
		}
		if len(missing) == 0 {
			continue
		}
		if use := f.uses(p, unmodelled); use != "" {
			marks = append(marks, fmt.Sprintf("uses %s (%s not implemented)", use, strings.Join(missing, ", ")))
		}
	}
	if unschedulable && slices.Contains(notEvaluated, "DefaultPreemption") &&
		(p.Spec.PreemptionPolicy == nil || *p.Spec.PreemptionPolicy != api.PreemptNever) {
		marks = append(marks, "fits no node; preemption not evaluated (DefaultPreemption not implemented)")
	}
	return marks
}
