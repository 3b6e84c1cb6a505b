// Package affinity matches labels: label selectors, node selectors and
// node affinity, and pod affinity terms over topology domains.
//
// Compile a selector once, then match label sets without allocating:
//
//	sel, err := affinity.ParseSelector("app=web,tier!=cache")
//	ok := sel.Matches(pod.Labels)
//	ns, err := affinity.NewNodeSelector(pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
//	fits, err := ns.Match(node)
//
// # Scope
//
// It models how Kubernetes (v1.37) selects objects by
// labels and places pods relative to nodes and to other pods, without
// depending on k8s.io. Behaviour, quirks and error messages follow the
// upstream code named in each doc comment.
//
// The pieces, from the bottom up:
//
//   - Label selectors. A Selector is a compiled, sorted list of
//     Requirements (key, Operator, values). Build one from an API
//     selector with CompileLabelSelector (metav1.LabelSelectorAsSelector:
//     a nil selector matches nothing, an empty one everything), from the
//     string syntax with ParseSelector (labels.Parse, e.g.
//     "app=web,tier in (a,b),!legacy,env!=prod"), or from a map with
//     SelectorFromSet. Selector.String renders the string syntax again.
//     Matching a label map does not allocate. ValidateLabelKey and
//     ValidateLabelValue are the label syntax rules.
//
//   - Node selection. NodeSelector compiles an api.NodeSelector (terms
//     ORed; matchExpressions over labels with In, NotIn, Exists,
//     DoesNotExist, Gt, Lt and matchFields over metadata.name, ANDed
//     within a term). RequiredNodeAffinity combines a pod's nodeSelector
//     map and required node affinity (the NodeAffinity filter);
//     PreferredSchedulingTerms scores a node by the weights of the
//     preferred terms it matches (the NodeAffinity score). Invalid terms
//     are reported the way upstream reports them: lazily for required
//     affinity, eagerly for preferred terms.
//
//   - Pod (anti-)affinity. An AffinityTerm is a PodAffinityTerm compiled
//     with the pod that owns it: a pod label selector (with
//     matchLabelKeys / mismatchLabelKeys merged from the owner's labels,
//     as the API server does at pod creation), a namespace set and a
//     namespace selector, and a topology key. AffinityTerm.Matches
//     answers "does existing pod P match term T of pod Q"; TopologyValue
//     answers "which domain is node N in for key K". CompilePodAffinity
//     compiles all four term lists of a pod once.
//
// Compiled values are immutable and safe for concurrent use. Nothing
// here panics on bad input: invalid selectors yield errors that name the
// field and value (FieldError, ErrorList), printed as Kubernetes prints
// them.
package affinity
