//go:build !race

package dynamicresources

// raceEnabled is false: allocation counts are pinned.
const raceEnabled = false
