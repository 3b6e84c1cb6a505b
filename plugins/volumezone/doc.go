// Package volumezone is the VolumeZone plugin: a pod's bound volumes
// must be in the node's zone and region.
//
// A profile enables it under its name, and the registry builds it with
// New. PreFilter reads the zones of the pod's volumes once per cycle
// into a predicates.VolumeZoneState and returns Skip for a pod without
// claims. Filter checks each node's labels against it.
package volumezone
