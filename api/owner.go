package api

// GetControllerOf returns the owner reference of m marked as its
// managing controller, nil when none is. At most one reference may be
// the controller, as the API server validates, so the first one found
// is it.
func GetControllerOf(m *ObjectMeta) *OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}
