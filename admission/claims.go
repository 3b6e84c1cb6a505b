package admission

import (
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/resource"
)

// Annotations that make a StorageClass the default one.
const (
	// DefaultStorageClassAnnotation is storageclass.kubernetes.io/is-default-class.
	DefaultStorageClassAnnotation = "storageclass.kubernetes.io/is-default-class"
	// BetaDefaultStorageClassAnnotation is the beta form, still honoured.
	BetaDefaultStorageClassAnnotation = "storageclass.beta.kubernetes.io/is-default-class"
)

// DefaultStorageClass is the class the DefaultStorageClass admission
// plugin gives claims without one: among the classes annotated default
// ("true" in either annotation), the newest by creationTimestamp, ties
// broken by the smaller name. It is nil when no class is default.
func DefaultStorageClass(classes []*api.StorageClass) *api.StorageClass {
	var defaults []*api.StorageClass
	for _, sc := range classes {
		if sc.Annotations[DefaultStorageClassAnnotation] == "true" || sc.Annotations[BetaDefaultStorageClassAnnotation] == "true" {
			defaults = append(defaults, sc)
		}
	}
	if len(defaults) == 0 {
		return nil
	}
	slices.SortStableFunc(defaults, func(a, b *api.StorageClass) int {
		ta, tb := a.CreationTimestamp.UnixNano(), b.CreationTimestamp.UnixNano()
		switch {
		case ta > tb:
			return -1
		case ta < tb:
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return defaults[0]
}

// AdmitClaim returns a PersistentVolumeClaim being created as the API
// server stores it, or the first rejection: the DefaultStorageClass
// plugin sets spec.storageClassName to DefaultStorageClass(classes) when
// the claim names no class (neither the field, "" included, nor the beta
// annotation); then LimitRanger (resource.ValidateClaimLimits over the
// claim's namespace's LimitRanges); quota is charged by a Chain
// (AdmitObject with CountedClaim). pvc is not modified.
func AdmitClaim(pvc *api.PersistentVolumeClaim, classes []*api.StorageClass, ranges []api.LimitRange) (*api.PersistentVolumeClaim, error) {
	c := *pvc
	if c.Namespace == "" {
		c.Namespace = "default"
	}
	_, annotated := c.Annotations[api.BetaStorageClassAnnotation]
	if c.Spec.StorageClassName == nil && !annotated {
		if def := DefaultStorageClass(classes); def != nil {
			name := def.Name
			c.Spec.StorageClassName = &name
		}
	}
	var mine []api.LimitRange
	for _, lr := range ranges {
		if lr.Namespace == "" || lr.Namespace == c.Namespace {
			mine = append(mine, lr)
		}
	}
	if err := resource.ValidateClaimLimits(&c, mine); err != nil {
		return nil, err
	}
	return &c, nil
}
