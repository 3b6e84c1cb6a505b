package framework

// SetMinParallelPieces sets the fewest pieces each goroutine of a score
// run gets, so that tests exercise the parallel paths on small clusters,
// and returns a function that restores it.
func SetMinParallelPieces(n int) (restore func()) {
	old := minParallelPieces
	minParallelPieces = n
	return func() { minParallelPieces = old }
}
