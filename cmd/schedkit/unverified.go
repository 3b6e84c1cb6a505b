package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
)

// feature is a pod feature some plugins decide on: when the profile lists
// one of them as not evaluated (this build lacks it), a decision about a
// pod that uses the feature is unverified.
type feature struct {
	// plugins are the plugins that read the feature.
	plugins []string
	// uses says how the pod uses it ("" if it does not); unmodelled are
	// the pod's fields schedkit read without modelling
	// (manifest.Set.UnmodelledFields).
	uses func(p *api.Pod, unmodelled []string) string
}

// features are checked in this order. The plugins come from kube-scheduler
// v1.37.2's default profile; the marks follow the profile's NotEvaluated
// list, so a plugin that lands stops marking pods.
func features() []feature {
	return []feature{
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

// unverifiedMarks lists why a decision about p may be wrong: each feature
// the pod uses whose plugins the profile could not evaluate, and, for a
// pod that fits no node, preemption when DefaultPreemption is missing.
func unverifiedMarks(p *api.Pod, notEvaluated, unmodelled []string, unschedulable bool) []string {
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

// antiAffinityNotice is the run's word about bound pods whose required
// anti-affinity no plugin checks new pods against.
func antiAffinityNotice(notEvaluated []string, boundWithAntiAffinity int) string {
	if boundWithAntiAffinity == 0 || !slices.Contains(notEvaluated, "InterPodAffinity") {
		return ""
	}
	return fmt.Sprintf("%d node(s) hold pods with required podAntiAffinity; pending pods are not checked against it (InterPodAffinity not implemented)", boundWithAntiAffinity)
}

// notEvaluatedWarning warns, once per run, when some pending pod uses what
// a plugin this build lacks reads: its decision is marked unverified. It
// says nothing when no pod does.
func (e *env) notEvaluatedWarning(o *options, notEvaluated []string, c *manifest.Cluster) {
	if len(notEvaluated) == 0 {
		return
	}
	unmodelled := map[string][]string{}
	for _, p := range c.Objects.Pods {
		if f := c.Objects.UnmodelledFields(p); f != nil {
			unmodelled[podName(p)] = f
		}
	}
	n := 0
	for _, p := range c.Pending {
		if len(unverifiedMarks(p, notEvaluated, unmodelled[podName(p)], false)) > 0 {
			n++
		}
	}
	if n > 0 {
		e.warnf(o, "%d pending pod(s) use what plugins not in this build read (%s): their decisions are marked unverified", n, strings.Join(notEvaluated, ", "))
	}
}
