package manifest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
	"github.com/schedkit/schedkit/podgroup"
	"github.com/schedkit/schedkit/resource"
)

// validatePod checks a new pod as the API server's validation does for
// what scheduling reads: resources (resource.Validate), tolerations, node
// selector requirements, pod (anti-)affinity label selectors and topology
// spread constraints. It returns the API server's answer,
// `Pod "name" is invalid: ...`, or nil.
func validatePod(p *api.Pod) error {
	var errs field.ErrorList
	if err := resource.Validate(p); err != nil {
		var fe *field.Error
		if u, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range u.Unwrap() {
				if errors.As(e, &fe) {
					errs = append(errs, fe)
				}
			}
		} else if errors.As(err, &fe) {
			errs = append(errs, fe)
		} else {
			errs = append(errs, field.InternalError(field.NewPath("spec"), err))
		}
	}
	spec := field.NewPath("spec")
	errs = append(errs, validateTolerations(p.Spec.Tolerations, spec.Child("tolerations"))...)
	if a := p.Spec.Affinity; a != nil {
		ap := spec.Child("affinity")
		if na := a.NodeAffinity; na != nil {
			np := ap.Child("nodeAffinity")
			if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
				tp := np.Child("requiredDuringSchedulingIgnoredDuringExecution").Child("nodeSelectorTerms")
				for i, t := range r.NodeSelectorTerms {
					errs = append(errs, validateNodeSelectorTerm(t, tp.Index(i))...)
				}
			}
			pp := np.Child("preferredDuringSchedulingIgnoredDuringExecution")
			for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
				errs = append(errs, validateNodeSelectorTerm(t.Preference, pp.Index(i).Child("preference"))...)
			}
		}
		terms := func(path *field.Path, req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm) {
			rp := path.Child("requiredDuringSchedulingIgnoredDuringExecution")
			for i := range req {
				errs = append(errs, validateLabelSelector(req[i].LabelSelector, rp.Index(i).Child("labelSelector"))...)
			}
			pp := path.Child("preferredDuringSchedulingIgnoredDuringExecution")
			for i := range pref {
				errs = append(errs, validateLabelSelector(pref[i].PodAffinityTerm.LabelSelector, pp.Index(i).Child("podAffinityTerm", "labelSelector"))...)
			}
		}
		if pa := a.PodAffinity; pa != nil {
			terms(ap.Child("podAffinity"), pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
		if pa := a.PodAntiAffinity; pa != nil {
			terms(ap.Child("podAntiAffinity"), pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
	}
	errs = append(errs, podgroup.ValidateSchedulingGroup(p.Spec.SchedulingGroup)...)
	tsc := spec.Child("topologySpreadConstraints")
	for i, c := range p.Spec.TopologySpreadConstraints {
		cp := tsc.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(cp.Child("maxSkew"), c.MaxSkew, "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(cp.Child("topologyKey"), "can not be empty"))
		}
		switch c.WhenUnsatisfiable {
		case api.DoNotSchedule, api.ScheduleAnyway:
		case "":
			errs = append(errs, field.Required(cp.Child("whenUnsatisfiable"), ""))
		default:
			errs = append(errs, field.NotSupported(cp.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, []api.UnsatisfiableConstraintAction{api.DoNotSchedule, api.ScheduleAnyway}))
		}
		errs = append(errs, validateLabelSelector(c.LabelSelector, cp.Child("labelSelector"))...)
	}
	if len(errs) == 0 {
		return nil
	}
	//lint:ignore ST1005 the API server's message, word for word
	return fmt.Errorf("Pod %q is invalid: %w", p.Name, errs.ToAggregate())
}

// validateTolerations follows upstream's ValidateTolerations with the
// TaintTolerationComparisonOperators gate off (its v1.37 default).
func validateTolerations(tols []api.Toleration, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tols {
		p := path.Index(i)
		if t.Key != "" {
			for _, msg := range affinity.ValidateLabelKey(t.Key) {
				errs = append(errs, field.Invalid(p.Child("key"), t.Key, msg))
			}
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			errs = append(errs, field.Invalid(p.Child("operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(p.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if msgs := affinity.ValidateLabelValue(t.Value); len(msgs) > 0 {
				errs = append(errs, field.Invalid(p.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Invalid(p.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		case "Lt", "Gt":
			errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator, []api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists, "Lt", "Gt"}))
		default:
			errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator, []api.TolerationOperator{api.TolerationOpEqual, api.TolerationOpExists}))
		}
		if t.Effect != "" {
			switch t.Effect {
			case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
			default:
				errs = append(errs, field.NotSupported(p.Child("effect"), t.Effect, []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}))
			}
		}
	}
	return errs
}

// validateNodeSelectorTerm follows upstream's ValidateNodeSelectorRequirement
// for matchExpressions (label values checked) and the operators of
// matchFields.
func validateNodeSelectorTerm(t api.NodeSelectorTerm, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, r := range t.MatchExpressions {
		p := path.Child("matchExpressions").Index(j)
		errs = append(errs, validateNodeSelectorRequirement(r, p)...)
		for _, msg := range affinity.ValidateLabelKey(r.Key) {
			errs = append(errs, field.Invalid(p.Child("key"), r.Key, msg))
		}
		for k, v := range r.Values {
			for _, msg := range affinity.ValidateLabelValue(v) {
				errs = append(errs, field.Invalid(p.Child("values").Index(k), v, msg))
			}
		}
	}
	for j, r := range t.MatchFields {
		p := path.Child("matchFields").Index(j)
		switch r.Operator {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			if len(r.Values) != 1 {
				errs = append(errs, field.Required(p.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), r.Operator, "not a valid selector operator"))
		}
		if r.Key != "metadata.name" {
			errs = append(errs, field.Invalid(p.Child("key"), r.Key, "not a valid field selector key"))
		}
	}
	return errs
}

func validateNodeSelectorRequirement(r api.NodeSelectorRequirement, p *field.Path) field.ErrorList {
	switch r.Operator {
	case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
		if len(r.Values) == 0 {
			return field.ErrorList{field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'")}
		}
	case api.NodeSelectorOpExists, api.NodeSelectorOpDoesNotExist:
		if len(r.Values) > 0 {
			return field.ErrorList{field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")}
		}
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if len(r.Values) != 1 {
			return field.ErrorList{field.Required(p.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'")}
		}
	default:
		return field.ErrorList{field.Invalid(p.Child("operator"), r.Operator, "not a valid selector operator")}
	}
	return nil
}

// validateLabelSelector follows apimachinery's ValidateLabelSelector for
// operators and values.
func validateLabelSelector(ls *api.LabelSelector, path *field.Path) field.ErrorList {
	if ls == nil {
		return nil
	}
	var errs field.ErrorList
	for i, r := range ls.MatchExpressions {
		p := path.Child("matchExpressions").Index(i)
		switch r.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(r.Values) == 0 {
				errs = append(errs, field.Required(p.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			if len(r.Values) > 0 {
				errs = append(errs, field.Forbidden(p.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), r.Operator, "not a valid selector operator"))
		}
		for _, msg := range affinity.ValidateLabelKey(r.Key) {
			errs = append(errs, field.Invalid(p.Child("key"), r.Key, msg))
		}
		for k, v := range r.Values {
			for _, msg := range affinity.ValidateLabelValue(v) {
				errs = append(errs, field.Invalid(p.Child("values").Index(k), v, msg))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(ls.MatchLabels)) {
		v := ls.MatchLabels[k]
		for _, msg := range affinity.ValidateLabelKey(k) {
			errs = append(errs, field.Invalid(path.Child("matchLabels"), k, msg))
		}
		for _, msg := range affinity.ValidateLabelValue(v) {
			errs = append(errs, field.Invalid(path.Child("matchLabels"), v, msg))
		}
	}
	return errs
}

// objectIssue is a field of a decoded object the API server's validation
// refuses.
type objectIssue struct {
	path string
	err  error
}

// validateObject checks what the API server's create validation checks
// of the kinds whose values the decoder cannot check alone: a
// ControllerRevision's data must be a JSON object and its revision not
// negative (ValidateControllerRevisionCreate).
func validateObject(obj any) []objectIssue {
	if svc, ok := obj.(*api.Service); ok {
		return validateService(svc)
	}
	cr, ok := obj.(*api.ControllerRevision)
	if !ok {
		return nil
	}
	var out []objectIssue
	if len(cr.Data) == 0 || string(cr.Data) == "null" {
		//lint:ignore ST1005 the API server's message, word for word
		out = append(out, objectIssue{"data", errors.New("Required value: data is mandatory")})
	} else if cr.Data[0] != '{' {
		//lint:ignore ST1005 the API server's message, word for word
		out = append(out, objectIssue{"data", errors.New("Required value: data must be a valid JSON object")})
	}
	if cr.Revision < 0 {
		//lint:ignore ST1005 the API server's message, word for word
		out = append(out, objectIssue{"revision", fmt.Errorf("Invalid value: %d: must be greater than or equal to 0", cr.Revision)})
	}
	return out
}

// Name rules of the API server's object validation (apimachinery's
// IsDNS1123Label, IsDNS1123Subdomain, IsDNS1035Label).
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
)

// isLabelByte reports whether c may stand inside an RFC 1123 or 1035
// label ([-a-z0-9]).
func isLabelByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' }

// isDNS1123Label reports whether s matches dns1123LabelFmt whole: a
// byte scan, as every object name is checked while a dump is read.
func isDNS1123Label(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLabelByte(s[i]) {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain reports whether s matches dns1123SubdomainFmt
// whole: labels joined by single dots.
func isDNS1123Subdomain(s string) bool {
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return isDNS1123Label(s)
		}
		if !isDNS1123Label(s[:i]) {
			return false
		}
		s = s[i+1:]
	}
}

// isDNS1035Label reports whether s matches dns1035LabelFmt whole: an
// RFC 1123 label that starts with a letter.
func isDNS1035Label(s string) bool {
	return s != "" && s[0] >= 'a' && s[0] <= 'z' && isDNS1123Label(s)
}

// regexMessage is apimachinery's RegexError text.
func regexMessage(msg, format string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		fmt.Fprintf(&b, "'%s', ", e)
	}
	fmt.Fprintf(&b, "regex used for validation is '%s')", format)
	return b.String()
}

// nameMessages are what the API server's name rule for kind says about
// name: Namespaces and StatefulSets are RFC 1123 labels, Services RFC
// 1035 labels, every other kind RFC 1123 subdomains.
func nameMessages(kind, name string) []string {
	var out []string
	switch kind {
	case "Namespace", "StatefulSet":
		if len(name) > 63 {
			out = append(out, "must be no more than 63 characters")
		}
		if !isDNS1123Label(name) {
			out = append(out, regexMessage("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dns1123LabelFmt, "my-name", "123-abc"))
		}
	case "Service":
		if len(name) > 63 {
			out = append(out, "must be no more than 63 characters")
		}
		if !isDNS1035Label(name) {
			out = append(out, regexMessage("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", dns1035LabelFmt, "my-name", "abc-123"))
		}
	default:
		if len(name) > 253 {
			out = append(out, "must be no more than 253 characters")
		}
		if !isDNS1123Subdomain(name) {
			out = append(out, regexMessage("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dns1123SubdomainFmt, "example.com"))
		}
	}
	return out
}

// validateName is the name half of the API server's ValidateObjectMeta
// for an object of kind: metadata.name by the kind's rule, and
// metadata.namespace, when set, as an RFC 1123 label.
func validateName(kind string, meta *api.ObjectMeta) []objectIssue {
	var out []objectIssue
	if meta.Name != "" {
		for _, msg := range nameMessages(kind, meta.Name) {
			//lint:ignore ST1005 the API server's message, word for word
			out = append(out, objectIssue{"metadata.name", fmt.Errorf("Invalid value: %q: %s", meta.Name, msg)})
		}
	}
	if meta.Namespace != "" {
		for _, msg := range nameMessages("Namespace", meta.Namespace) {
			//lint:ignore ST1005 the API server's message, word for word
			out = append(out, objectIssue{"metadata.namespace", fmt.Errorf("Invalid value: %q: %s", meta.Namespace, msg)})
		}
	}
	return out
}

// validateService is the part of the API server's Service validation
// (validateService, validateServicePort) that decides whether a Service
// exists to be counted by quota and read by the default spreading: ports
// are required but for headless and ExternalName Services; each port has
// a valid number, a supported protocol (empty is defaulted to TCP) and,
// when there are several, a unique RFC 1123 label as name; the type is
// one of the four (empty is defaulted to ClusterIP); an ExternalName
// Service names its host.
func validateService(svc *api.Service) []objectIssue {
	var out []objectIssue
	spec := &svc.Spec
	headless := spec.ClusterIP == "None"
	if len(spec.Ports) == 0 && !headless && spec.Type != "ExternalName" {
		out = append(out, objectIssue{"spec.ports", apiError("Required value")})
	}
	switch spec.Type {
	case "", "ClusterIP", "NodePort", "LoadBalancer":
	case "ExternalName":
		if strings.TrimSuffix(spec.ExternalName, ".") == "" {
			out = append(out, objectIssue{"spec.externalName", apiError("Required value")})
		}
	default:
		out = append(out, objectIssue{"spec.type", apiError("Unsupported value: %q: supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"", spec.Type)})
	}
	names := map[string]bool{}
	for i, p := range spec.Ports {
		path := fmt.Sprintf("spec.ports[%d]", i)
		if p.Name == "" && len(spec.Ports) > 1 {
			out = append(out, objectIssue{path + ".name", apiError("Required value")})
		} else if p.Name != "" {
			for _, msg := range nameMessages("Namespace", p.Name) {
				out = append(out, objectIssue{path + ".name", apiError("Invalid value: %q: %s", p.Name, msg)})
			}
			if names[p.Name] {
				out = append(out, objectIssue{path + ".name", apiError("Duplicate value: %q", p.Name)})
			}
			names[p.Name] = true
		}
		if p.Port < 1 || p.Port > 65535 {
			out = append(out, objectIssue{path + ".port", apiError("Invalid value: %d: must be between 1 and 65535, inclusive", p.Port)})
		}
		switch p.Protocol {
		case "", "TCP", "UDP", "SCTP":
		default:
			out = append(out, objectIssue{path + ".protocol", apiError("Unsupported value: %q: supported values: \"SCTP\", \"TCP\", \"UDP\"", p.Protocol)})
		}
	}
	return out
}

// apiError is an error worded as the API server words it (capitalised,
// as its field errors are).
func apiError(format string, args ...any) error { return fmt.Errorf(format, args...) }
