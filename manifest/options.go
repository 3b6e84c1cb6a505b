package manifest

import "io"

// Options control reading and loading.
type Options struct {
	// Recursive reads the subfolders of the folders given, as kubectl -R.
	Recursive bool
	// Stdin is read for the path "-"; nil means os.Stdin.
	Stdin io.Reader
}
