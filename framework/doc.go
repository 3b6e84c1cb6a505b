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
// Parallel passes use a process-wide pool of helper goroutines
// (OfferHelp, HelpGroup, ChunkDealer): an idle helper polls for 100 µs
// before it parks, so that back-to-back cycles do not pay a wake-up
// (several hundred microseconds on a virtual machine), and an offer no
// helper has taken when the caller is done is withdrawn.
package framework
