// Package engine is the scheduler's fast cycle: everything that exists
// for speed only. The scheduler's plain cycle (scheduler/cycle.go) is the
// definition of what a cycle decides; Engine.Run takes a cycle after
// PreFilter and the nominated node and returns the same outcome (the
// winner, the ties, the feasible and rejected counts that advance the
// start index, and the diagnosis when nothing fits), faster. The
// scheduler's tests, and its WithEngineCheck option at every cycle,
// compare the two.
//
// # How the engine reaches the framework
//
// The engine uses only package framework's public API: the plugins of a
// Profile by extension point (Profile.FilterPlugins, PreScorePlugins,
// ScorePlugins with their weights), what each offers through the one
// optional interface framework.FastPathPlugin, the CycleState's skip sets,
// and the Profile's Run methods for the parts it runs plainly (PreScore,
// the nominated-pods filter, the plain scoring). What it derives from a
// profile (the batch functions, status stamp caches, eligibility bits)
// it keeps in its own profileInfo, built the first time it sees the
// profile. So framework exports nothing for the engine, and a plugin
// author reads nothing of it.
//
// # What is fast
//
//   - Filtering in chunks (filter.go): the nodes in rotation order are
//     cut into chunks of a multiple of 64 nodes; each chunk is taken
//     through the Filter plugins in blocks of 64 (a plugin's FilterNodes
//     in one call per block), and records which nodes passed as bits and
//     the statuses of the others only. A rejected node's status is a copy
//     of the plugin's shared status naming the plugin, made once per
//     profile (stampCache) rather than once per node. The outcome is that
//     of one goroutine: the first nodes to fit in rotation order, the
//     rejected nodes met before the next fitting one, and the diagnosis
//     only when none fits.
//   - Verdicts of unchanged nodes (memo.go): while every Filter plugin
//     active in a cycle is framework.FastPath.NodeLocalFilter and no pod
//     is nominated, the engine keeps each node's verdict by slot for the
//     pod's shape (framework.PodShape), the profile, the skip mask and
//     the snapshot's objects; the next cycle of that shape filters only
//     the nodes whose NodeInfo or Generation changed, and reads the
//     others' passes and statuses (the same objects) from the memo. In
//     a stream of pods of one template that fit nowhere but by
//     preemption, that is one node a pod. Error statuses are not kept.
//   - Helpers (pool.go): the calling goroutine shares a pass with helper
//     goroutines of the Engine's own pool, which Close stops. A helper
//     polls for 50 µs after a job before it parks, so that back-to-back
//     cycles do not pay a wake-up. Helpers are used only where they pay
//     (BENCHMARKS.md): a pass that filters and scores every node from
//     MinParallelNodes (256) nodes, a pass that only filters when it must
//     find MinParallelFilter (2,000) nodes, a separate score pass from
//     2,000 nodes. A sampled cycle of a 5,000-node cluster (500 nodes to
//     find) stays on one goroutine.
//   - Scoring by max (score.go): when every Score plugin active in the
//     cycle that normalises offers NormalizeByMax, each chunk is scored
//     (ScoreNodes where offered), normalised with the chunk's own highest
//     scores, weighted and summed on the goroutine that scored it, with
//     its best node; only the chunks whose highest scores were not the
//     cycle's are summed again. Only a plugin that normalises keeps a row
//     of raw scores: the others are weighted into one row of sums as each
//     chunk is scored, which a chunk summed again starts from. A
//     normalised score out of range sends the cycle to the plain scoring,
//     which reports it.
//   - General scoring (general.go): a cycle whose active normalising
//     plugins are not all by max (InterPodAffinity's normalises by the
//     lowest and highest sums) scores each active plugin over chunks of
//     nodes shared with helpers (ScoreNodes where offered) into one
//     reusable row per plugin, then normalises each row in plugin order
//     (NormalizeByMax given the row's highest score where offered, else
//     NormalizeNodes over the row where offered, else NormalizeScore
//     over a reusable NodeScoreList), then sums the
//     weighted rows over chunks again with each chunk's best node. It
//     allocates nothing per node; its totals, ties and errors are
//     framework.Profile.RunScorePlugins', which stays the readable
//     reference (and what Explain and the plain cycle run).
//   - Eager scoring: when every node is to be filtered, no pod is
//     nominated and every Score plugin promises ScoresAnyNodes (or has a
//     PreScore that may still skip it), the pass is offered to helpers at
//     once and, while they filter with the cycle's state, the calling
//     goroutine runs the PreScore plugins that promise it into a state of
//     the engine's own (preState: those plugins read nothing else), then
//     publishes the score run; each chunk's passing nodes are scored
//     right after the chunk is filtered, while their data is in the CPU's
//     cache. A plugin that normalises other than by max is scored so too,
//     and normalised over every scored node (NormalizeNodes over its row
//     when every node fit and it offers it, else NormalizeScore over a
//     reused NodeScoreList) once Filter is done, when every chunk is summed
//     again. The other PreScore plugins run after Filter over the
//     feasible nodes, into the cycle's state, as upstream; if one of the
//     Score plugins that do not promise it did not skip, the cycle scores
//     the feasible nodes again, after PreScore, by max or the general
//     way; and while one of those did not skip in its last cycle, cycles
//     of the profile do not try eager scoring (profileInfo.lateScored: a
//     guess that chooses the path, never the outcome). A PreScore that fails before Filter is run again in its place, after Filter,
//     so that its error is reported only when two or more nodes fit, as
//     upstream. A plugin that promises ScoresIfAllFit (PodTopologySpread)
//     is scored eagerly like one that promises ScoresAnyNodes; if a node
//     was rejected and such a plugin did not skip, the eager run is
//     dropped and the cycle scores the feasible nodes after Filter,
//     PreScore included; while the last cycle that filtered every node
//     rejected one, cycles of the profile do not try eager scoring
//     (profileInfo.someRejected, a guess like lateScored).
//   - Memory: a cycle's buffers are kept for the next; what goroutines
//     write chunk by chunk is laid out a cache line's worth apart (no
//     unsafe: aligning the buffers' start on cache lines with unsafe gained
//     about 1% at 5,000 nodes, under the 3% that would justify it, and was
//     dropped; see BENCHMARKS.md).
//
// Anything not covered runs the plain way: more than 64 Filter plugins
// (node-by-node filtering; scoring is still by max or general).
package engine
