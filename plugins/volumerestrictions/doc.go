// Package volumerestrictions is the VolumeRestrictions plugin: disks a
// pod shares with a pod on the node, and ReadWriteOncePod claims already
// in use.
//
// A profile enables it under its name, and the registry builds it with
// New. PreFilter counts the uses of the pod's ReadWriteOncePod claims and
// returns Skip for a pod without restricted volumes. AddPod and RemovePod
// keep the count. Filter calls predicates.NoDiskConflict.
package volumerestrictions
