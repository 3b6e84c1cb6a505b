// Package imagelocality is the ImageLocality plugin: it favours nodes
// that already hold the pod's container images.
//
// A profile enables it under its name, and the registry builds it with
// New. PreScore normalises the pod's image names and reads the cluster's
// node count once per cycle. Score and ScoreNodes call
// priorities.ImageLocalityOfKeys and priorities.ImageLocalityNodes.
package imagelocality
