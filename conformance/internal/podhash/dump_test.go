package podhash

import "k8s.io/utils/dump"

// dumpForHash is the text upstream's hashutil.DeepHashObject writes.
func dumpForHash(v any) string { return dump.ForHash(v) }
