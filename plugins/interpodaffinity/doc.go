// Package interpodaffinity is the InterPodAffinity plugin: a pod's
// required and preferred pod affinity and anti-affinity, and those of the
// pods already running, per topology domain.
//
// A profile enables it under its name, and the registry builds it with
// New from config.InterPodAffinityArgs and a handle with a snapshot.
// Filter rejects a node whose domains break a required term. Score sums
// the weights of preferred terms, and NormalizeScore scales the sums
// between the lowest and the highest to [0, 100].
//
// # Filter
//
// PreFilter compiles the pod's required terms and resolves their
// namespaceSelectors against the Namespace objects of the snapshot. It
// counts, per topology domain, the existing pods whose required
// anti-affinity matches the pod, and the existing pods matching the pod's
// affinity and anti-affinity terms. It returns Skip exactly where
// upstream does. AddPod and RemovePod update the counts for nominated
// pods and preemption. Filter then costs one label lookup and one count
// lookup per term and key, whatever the number of pods.
//
// # Score
//
// PreScore reads the existing pods of every node of the snapshot: all
// pods when the pod has preferred terms, else only the pods with
// affinity. It sums weights per topology domain. Score looks up the
// node's value of each key.
//
// # Caches
//
// The plugin keeps one cache for both halves (affinityCache, cache.go):
// for each half the last four incoming pod signatures, with each node's
// contribution and the totals across cycles. A cycle recounts only the
// nodes whose NodeInfo changed since: another pointer or generation. The
// replicas of one workload, placed one after another, cost a pass over
// the node list and a recount of the node the last one went to. The
// halves count different terms, so their entries hold different
// payloads: filterCounts (filter_cache.go) and scoreSums
// (score_cache.go), under one lock.
//
// A new signature's first count reads no node at all where the
// snapshot's pod index counts the pods its terms match
// (cluster.View.CountPods: one affinity term at most, each a selector
// of one =, == or In requirement) and the existing pods' terms
// (cluster.View.CountTerms): the counts by domain id are summed from
// the index by slot (PodCounts.AddByDomain, TermCounts.AddByDomain), and
// the memo records the view's nodes unread (cluster.NodeMemo.SeedView),
// computing a node's contribution only when the node later changes, from
// its NodeInfo of that view. A first decision then costs the pods and
// terms its selectors read, not the number of nodes (filterCounts.seed,
// scoreSums.seed). Otherwise a first count reads, on each node, only the
// pods its terms may match where the index lists candidates
// (cluster.View.PodCandidates); a term whose selector the index cannot
// answer makes it read every pod.
// The existing pods' own terms (required anti-affinity for Filter, the
// terms PreScore weighs) are matched once per group of equal terms
// (cluster.View.CountTerms), not once per pod. The counts are kept by domain id of
// the view's topologies, and a placement changes them for its node only
// (filter_cold.go, score_cache.go) while the topologies stay the same.
package interpodaffinity
