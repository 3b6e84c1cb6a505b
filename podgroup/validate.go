package podgroup

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/features"
	"github.com/schedkit/schedkit/field"
)

// Name rules of apimachinery's content package.
const (
	labelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	subdomainFmt = labelFmt + "(\\." + labelFmt + ")*"
	labelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	// highestUserDefinablePriority bounds a template's priority.
	highestUserDefinablePriority = 1000000000
)

var (
	labelRE     = regexp.MustCompile("^" + labelFmt + "$")
	subdomainRE = regexp.MustCompile("^" + subdomainFmt + "$")
)

func regexError(msg, format string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg + " (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		fmt.Fprintf(&b, "'%s', ", e)
	}
	fmt.Fprintf(&b, "regex used for validation is '%s')", format)
	return b.String()
}

// shortName is the k8s-short-name format (an RFC 1123 label).
func shortName(v string) []string {
	var out []string
	if len(v) > 63 {
		out = append(out, "must be no more than 63 characters")
	}
	if !labelRE.MatchString(v) {
		if subdomainRE.MatchString(v) {
			out = append(out, "must not contain dots")
		} else {
			out = append(out, regexError(labelMsg, labelFmt, "my-name", "123-abc"))
		}
	}
	return out
}

// longName is the k8s-long-name format (an RFC 1123 subdomain).
func longName(v string) []string {
	var out []string
	if len(v) > 253 {
		out = append(out, "must be no more than 253 characters")
	}
	if !subdomainRE.MatchString(v) {
		out = append(out, regexError(subdomainMsg, subdomainFmt, "example.com"))
	}
	return out
}

// pathSegmentName is the k8s-path-segment-name format.
func pathSegmentName(v string) []string {
	if v == "." || v == ".." {
		return []string{fmt.Sprintf("may not be '%s'", v)}
	}
	var out []string
	for _, s := range []string{"/", "%"} {
		if strings.Contains(v, s) {
			out = append(out, fmt.Sprintf("may not contain '%s'", s))
		}
	}
	return out
}

func format(p *field.Path, v string, check func(string) []string) field.ErrorList {
	var errs field.ErrorList
	for _, m := range check(v) {
		errs = append(errs, field.Invalid(p, v, m))
	}
	return errs
}

// union is the declarative +k8s:union check: exactly one member set.
func union(p *field.Path, names []string, set []bool) field.ErrorList {
	var on []string
	quoted := make([]string, len(names))
	for i, s := range set {
		quoted[i] = "`" + names[i] + "`"
		if s {
			on = append(on, quoted[i])
		}
	}
	switch {
	case len(on) == 0:
		return field.ErrorList{field.Invalid(p, "", "must specify one of: "+strings.Join(quoted, ", "))}
	case len(on) > 1:
		return field.ErrorList{field.Invalid(p, "{"+strings.Join(on, ", ")+"}", "must specify exactly one of: "+strings.Join(quoted, ", "))}
	}
	return nil
}

// DropDisabledPodGroupFields clears, in place, what a v1.37.2 API server
// with gates g drops from a new PodGroup before validating it
// (PrepareForCreate): the status, and the fields of gates that are off
// (schedulingConstraints, resourceClaims, preemptionPolicy,
// parentCompositePodGroupName).
func DropDisabledPodGroupFields(pg *api.PodGroup, g features.Gates) {
	pg.Status = api.PodGroupStatus{}
	if !g.Enabled(features.TopologyAwareWorkloadScheduling) {
		pg.Spec.SchedulingConstraints = nil
	}
	if !g.Enabled(features.DRAWorkloadResourceClaims) {
		pg.Spec.ResourceClaims = nil
	}
	if !g.Enabled(features.PodGroupPreemptionPolicy) {
		pg.Spec.PreemptionPolicy = nil
	}
	if !g.Enabled(features.CompositePodGroup) {
		pg.Spec.ParentCompositePodGroupName = nil
	}
}

// DropDisabledWorkloadFields clears, in place, what a v1.37.2 API server
// with gates g drops from a new Workload before validating it: the
// composite templates and, in every template, the fields of gates that
// are off.
func DropDisabledWorkloadFields(w *api.Workload, g features.Gates) {
	if !g.Enabled(features.CompositePodGroup) {
		w.Spec.CompositePodGroupTemplates = nil
	}
	for i := range w.Spec.PodGroupTemplates {
		t := &w.Spec.PodGroupTemplates[i]
		if !g.Enabled(features.TopologyAwareWorkloadScheduling) {
			t.SchedulingConstraints = nil
		}
		if !g.Enabled(features.DRAWorkloadResourceClaims) {
			t.ResourceClaims = nil
		}
		if !g.Enabled(features.PodGroupPreemptionPolicy) {
			t.PreemptionPolicy = nil
		}
	}
}

// ValidatePodGroup checks a new PodGroup as a v1.37.2 API server with
// gates g does on create, after DropDisabledPodGroupFields
// (ValidatePodGroup and the declarative rules of scheduling/v1beta1).
// Metadata names are checked by the caller.
func ValidatePodGroup(pg *api.PodGroup, g features.Gates) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if pg.Spec.ParentCompositePodGroupName != nil && !g.Enabled(features.CompositePodGroup) {
		errs = append(errs, field.Forbidden(spec.Child("parentCompositePodGroupName"), ""))
	}
	if r := pg.Spec.WorkloadRef; r != nil {
		p := spec.Child("workloadRef")
		errs = append(errs, format(p.Child("workloadName"), r.WorkloadName, longName)...)
		errs = append(errs, format(p.Child("templateName"), r.TemplateName, shortName)...)
	}
	errs = append(errs, validateGroupFields(spec, groupFields{
		policy: &pg.Spec.SchedulingPolicy, constraints: pg.Spec.SchedulingConstraints, claims: pg.Spec.ResourceClaims,
		disruption: pg.Spec.DisruptionMode, className: pg.Spec.PriorityClassName, priority: pg.Spec.Priority,
		preemption: pg.Spec.PreemptionPolicy,
	}, g)...)
	return errs
}

// groupFields are the fields a PodGroup's spec shares with a template.
type groupFields struct {
	policy      *api.PodGroupSchedulingPolicy
	constraints *api.PodGroupSchedulingConstraints
	claims      []api.PodGroupResourceClaim
	disruption  *api.DisruptionMode
	className   string
	priority    *int32
	preemption  *api.PreemptionPolicy
}

func validateGroupFields(p *field.Path, f groupFields, g features.Gates) field.ErrorList {
	var errs field.ErrorList
	pp := p.Child("schedulingPolicy")
	errs = append(errs, union(pp, []string{"basic", "gang"}, []bool{f.policy.Basic != nil, f.policy.Gang != nil})...)
	if f.policy.Gang != nil && f.policy.Gang.MinCount < 1 {
		errs = append(errs, field.Invalid(pp.Child("gang", "minCount"), f.policy.Gang.MinCount, "must be greater than or equal to 1"))
	}
	if f.constraints != nil && !g.Enabled(features.TopologyAwareWorkloadScheduling) {
		errs = append(errs, field.Forbidden(p.Child("schedulingConstraints"), ""))
	}
	cp := p.Child("resourceClaims")
	if len(f.claims) > api.MaxPodGroupResourceClaims {
		errs = append(errs, field.TooMany(cp, len(f.claims), api.MaxPodGroupResourceClaims))
	} else {
		seen := map[string]bool{}
		for i, c := range f.claims {
			ip := cp.Index(i)
			if seen[c.Name] {
				errs = append(errs, field.Duplicate(ip, c.Name))
			}
			seen[c.Name] = true
			if c.Name == "" {
				errs = append(errs, field.Required(ip.Child("name"), ""))
			} else {
				errs = append(errs, format(ip.Child("name"), c.Name, shortName)...)
			}
			errs = append(errs, union(ip, []string{"resourceClaimName", "resourceClaimTemplateName"}, []bool{c.ResourceClaimName != nil, c.ResourceClaimTemplateName != nil})...)
			if c.ResourceClaimName != nil {
				errs = append(errs, format(ip.Child("resourceClaimName"), *c.ResourceClaimName, longName)...)
			}
			if c.ResourceClaimTemplateName != nil {
				errs = append(errs, format(ip.Child("resourceClaimTemplateName"), *c.ResourceClaimTemplateName, longName)...)
			}
		}
	}
	if d := f.disruption; d != nil {
		errs = append(errs, union(p.Child("disruptionMode"), []string{"single", "all"}, []bool{d.Single != nil, d.All != nil})...)
	}
	if f.className != "" {
		errs = append(errs, format(p.Child("priorityClassName"), f.className, longName)...)
	}
	if f.priority != nil && *f.priority > highestUserDefinablePriority {
		errs = append(errs, field.Invalid(p.Child("priority"), *f.priority, fmt.Sprintf("must be less than or equal to %d", highestUserDefinablePriority)))
	}
	if f.preemption != nil && !g.Enabled(features.PodGroupPreemptionPolicy) {
		errs = append(errs, field.Forbidden(p.Child("preemptionPolicy"), ""))
	}
	return errs
}

// ValidateWorkload checks a new Workload as a v1.37.2 API server with
// gates g does on create, after DropDisabledWorkloadFields
// (ValidateWorkload and the declarative rules of scheduling/v1beta1).
func ValidateWorkload(w *api.Workload, g features.Gates) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if r := w.Spec.ControllerRef; r != nil {
		p := spec.Child("controllerRef")
		if r.APIGroup != "" {
			errs = append(errs, format(p.Child("apiGroup"), r.APIGroup, longName)...)
		}
		if r.Kind == "" {
			errs = append(errs, field.Required(p.Child("kind"), ""))
		} else {
			errs = append(errs, format(p.Child("kind"), r.Kind, pathSegmentName)...)
		}
		if r.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		} else {
			errs = append(errs, format(p.Child("name"), r.Name, pathSegmentName)...)
		}
	}
	errs = append(errs, union(spec, []string{"podGroupTemplates", "compositePodGroupTemplates"},
		[]bool{len(w.Spec.PodGroupTemplates) > 0, len(w.Spec.CompositePodGroupTemplates) > 0})...)
	tp := spec.Child("podGroupTemplates")
	if len(w.Spec.PodGroupTemplates) > api.WorkloadMaxPodGroupTemplates {
		errs = append(errs, field.TooMany(tp, len(w.Spec.PodGroupTemplates), api.WorkloadMaxPodGroupTemplates))
	} else {
		seen := map[string]bool{}
		for i := range w.Spec.PodGroupTemplates {
			t := &w.Spec.PodGroupTemplates[i]
			ip := tp.Index(i)
			if seen[t.Name] {
				errs = append(errs, field.Duplicate(ip, t.Name))
			}
			seen[t.Name] = true
			if t.Name == "" {
				errs = append(errs, field.Required(ip.Child("name"), ""))
			} else {
				errs = append(errs, format(ip.Child("name"), t.Name, shortName)...)
			}
			errs = append(errs, validateGroupFields(ip, groupFields{
				policy: &t.SchedulingPolicy, constraints: t.SchedulingConstraints, claims: t.ResourceClaims,
				disruption: t.DisruptionMode, className: t.PriorityClassName, priority: t.Priority,
				preemption: t.PreemptionPolicy,
			}, g)...)
		}
	}
	if len(w.Spec.CompositePodGroupTemplates) > 0 && !g.Enabled(features.CompositePodGroup) {
		errs = append(errs, field.Forbidden(spec.Child("compositePodGroupTemplates"), ""))
	}
	// validateWorkloadPriority: every template has one priority setting.
	for i := 1; i < len(w.Spec.PodGroupTemplates); i++ {
		a, b := &w.Spec.PodGroupTemplates[0], &w.Spec.PodGroupTemplates[i]
		if a.PriorityClassName != b.PriorityClassName || (a.Priority == nil) != (b.Priority == nil) ||
			a.Priority != nil && *a.Priority != *b.Priority {
			errs = append(errs, field.Invalid(spec, nil, "detected multiple priority configurations"))
			break
		}
	}
	return errs
}

// ValidateSchedulingGroup checks a pod's spec.schedulingGroup as the API
// server does (validateSchedulingGroup).
func ValidateSchedulingGroup(sg *api.PodSchedulingGroup) field.ErrorList {
	p := field.NewPath("spec", "schedulingGroup", "podGroupName")
	if sg == nil {
		return nil
	}
	if sg.PodGroupName == nil {
		return field.ErrorList{field.Invalid(p, nil, "must specify one of: `podGroupName`")}
	}
	return format(p, *sg.PodGroupName, longName)
}
