// Package framework defines kube-scheduler's extension points for
// schedkit: plugin interfaces (PreFilter, Filter, PostFilter, PreScore,
// Score, NormalizeScore), the Status they return, the CycleState they
// share within one scheduling cycle and the Profile that lists them.
//
// A Profile runs plugins over many nodes at once: RunFilterPluginsOnNodes
// takes blocks of nodes through the filters (a BatchFilterPlugin in one
// call per block), and the score runs take chunks of nodes through the
// score plugins (BatchScorePlugin). RunScorePluginsTotals, when every
// normalising plugin is a MaxNormalizer, normalises, weights and sums
// each chunk on the goroutine that scored it and returns the best node
// with the totals (ScoreBuffer.Best). Results are those of running each
// plugin node by node, which the tests pin.
//
// A scheduler can also score nodes as they pass Filter when every
// PreScore and Score plugin is an EagerScorer (Profile.ScoresEagerly):
// it runs PreScore first, into a child of the cycle's state
// (CycleState.Child), filters a chunk with RunFilterPluginsOnNodesBits
// and scores the chunk's passing nodes at once with a ScoreRun
// (ScoreFirst), each chunk summed with its own highest scores; Normalize
// then re-sums only the chunks whose highest scores were not the
// cycle's. Buffers that goroutines fill chunk by chunk start on cache
// lines (GrowAligned), so that no two CPUs write one line.
//
// Parallel passes use a process-wide pool of helper goroutines
// (OfferHelp, HelpGroup, ChunkDealer): an idle helper polls for 100 µs
// before it parks, so that back-to-back cycles do not pay a wake-up
// (several hundred microseconds on a virtual machine), and an offer no
// helper has taken when the caller is done is withdrawn.
package framework
