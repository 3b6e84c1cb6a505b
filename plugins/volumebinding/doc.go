// Package volumebinding is the VolumeBinding plugin: a pod's
// PersistentVolumeClaims must be bound, or bindable or provisionable on
// the node.
//
// A profile enables it under its name, and the registry builds it with
// New from config.VolumeBindingArgs. PreFilter resolves the pod's claims
// once per cycle into a predicates.VolumeBindingState and returns Skip
// for a pod without claims. Filter checks each node with it. Score rates
// the capacity the node's matched volumes would use, with the configured
// shape.
package volumebinding
