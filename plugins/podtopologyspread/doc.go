// Package podtopologyspread is the PodTopologySpread plugin: a pod's
// topology spread constraints, its own or the default ones.
//
// A profile enables it under its name, and the registry builds it with
// New from config.PodTopologySpreadArgs and a handle with a snapshot.
// Filter rejects a node where the pod would break a DoNotSchedule
// constraint. Score favours nodes whose domains hold fewer pods matching
// the ScheduleAnyway constraints.
//
// # Filter
//
// PreFilter counts, per constraint, the matching pods of every eligible
// domain, as upstream does over the cluster's pods. Its domains are the
// ids of the view's cluster.Topology of each constraint's key. FilterNodes
// finds a node's domain by its slot, so Filter costs the same whatever
// the number of pods. AddPod and RemovePod change a cycle's copy of the
// counts only.
//
// # Score
//
// PreScore counts the ScheduleAnyway constraints' pods the same way and
// computes the raw score of every node it is given. Score and ScoreNodes
// read it.
//
// # Caches
//
// The plugin keeps one cache for both halves (spreadCache, cache.go):
// for each half the last four constraint sets (spreadSignature), with
// each node's matching pods and domain and the totals across cycles.
// Both halves follow the snapshot with one loop (nodeTrack.sync): a
// cycle recounts only the nodes whose NodeInfo changed since. When a
// later view numbers a key's domains otherwise, the kept totals move to
// the new ids. The halves' counts are their own payloads,
// filterCounts (filter_cache.go) and scoreCounts (score_cache.go). A
// constraint set's first count reads, on each node, only the pods its
// selectors may match, found through the snapshot's pod index
// (cluster.View.PodCandidates).
package podtopologyspread
