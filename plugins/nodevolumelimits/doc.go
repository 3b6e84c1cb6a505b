// Package nodevolumelimits is the NodeVolumeLimits plugin: the CSI
// volumes attached to a node must stay within the limits its CSINode
// declares.
//
// A profile enables it under its name, and the registry builds it with
// New. PreFilter resolves the pod's attachable volumes once per cycle
// into a predicates.VolumeLimitsState, grouped by driver with each
// driver's CSIDriver read, and returns Skip for a pod without any.
// Filter counts them against each node's limits. What a node contributes
// (its CSINode, the volumes already attached by its pods and its
// VolumeAttachments, and the per-driver limits and counts) is kept
// across cycles in a predicates.VolumeLimitsCache, by node slot, and
// derived again only for a node whose NodeInfo changed (the node the
// last pod was assumed on) or after a CSINode, claim, volume, class or
// attachment changed. A node's Filter is then a lookup and the pod's
// own volumes, without a map access.
package nodevolumelimits
