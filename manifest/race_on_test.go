//go:build race

package manifest

// slowdown widens time bounds under the race detector.
const slowdown = 10
