//go:build !race

package dra_test

// raceEnabled is false: allocation counts are pinned.
const raceEnabled = false
