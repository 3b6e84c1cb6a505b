//go:build !unix

package conformance

// watchRSS does not measure on this platform.
func watchRSS(int) func() int64 { return func() int64 { return 0 } }
