// Package nodevolumelimits is the NodeVolumeLimits plugin: the CSI
// volumes attached to a node must stay within the limits its CSINode
// declares.
//
// A profile enables it under its name, and the registry builds it with
// New. PreFilter resolves the pod's attachable volumes once per cycle
// into a predicates.VolumeLimitsState and returns Skip for a pod without
// any. Filter counts them against each node's limits. The volumes
// already attached to each node (its pods' and its VolumeAttachments')
// are kept across cycles in a predicates.VolumeLimitsCache, by node slot,
// and derived again only for a node whose NodeInfo changed or after a
// claim, volume, class or attachment changed.
package nodevolumelimits
