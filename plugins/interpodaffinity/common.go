package interpodaffinity

import (
	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// namespaceLister is where the InterPodAffinity plugin finds Namespace
// objects (the snapshot's object store), as upstream's plugin reads them
// from a namespace informer: to resolve the incoming pod's
// namespaceSelectors into namespace names and to match existing pods'
// namespaceSelectors against the labels of the incoming pod's namespace.
// A namespace without an object has no labels, and a non-empty
// namespaceSelector of the incoming pod does not select it.
type namespaceLister interface {
	// Namespace returns the named namespace, if known.
	Namespace(name string) (*api.Namespace, bool)
	// Namespaces returns every known namespace.
	Namespaces() []*api.Namespace
}

// objectNamespaces lists the Namespace objects of a snapshot view's
// object store.
type objectNamespaces struct{ o *cluster.Objects }

func (n objectNamespaces) Namespace(name string) (*api.Namespace, bool) {
	return cluster.GetObject[api.Namespace](n.o, "", name)
}

func (n objectNamespaces) Namespaces() []*api.Namespace {
	return cluster.ListObjects[api.Namespace](n.o, "")
}

// namespaceLabels returns the labels of the named namespace, nil if it
// is not known.
func namespaceLabels(l namespaceLister, name string) map[string]string {
	if ns, ok := l.Namespace(name); ok && ns != nil {
		if ns.Labels == nil {
			return map[string]string{}
		}
		return ns.Labels
	}
	return nil
}

// resolveNamespaces replaces each term's namespace selector by the
// namespaces it selects, as upstream's mergeAffinityTermNamespacesIfNotEmpty.
func resolveNamespaces(l namespaceLister, terms []affinity.AffinityTerm) {
	var all []*api.Namespace
	listed := false
	for i := range terms {
		if terms[i].NamespaceSelector.Empty() {
			continue
		}
		if !listed {
			all, listed = l.Namespaces(), true
		}
		terms[i] = terms[i].ResolveNamespaceSelector(all)
	}
}

var skipStatus = framework.NewStatus(framework.Skip)
