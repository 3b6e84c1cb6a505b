//go:build race

package dynamicresources

// raceEnabled: sync.Pool drops items at random under the race detector,
// so allocation counts are not pinned.
const raceEnabled = true
