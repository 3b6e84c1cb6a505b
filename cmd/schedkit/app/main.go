package app

import (
	"io"
	"os"
	"time"
)

// Main runs the command line args (without the program's name) on the
// process's standard streams and returns the exit code for os.Exit. It
// paces the garbage collector unless GOGC or GOMEMLIMIT is set: the
// process is the command's alone.
func Main(args []string) int {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, terminal: isTerminal(os.Stderr), progressDelay: 500 * time.Millisecond, paceGC: gcTuned()}
	return e.main(args)
}

// Run runs the command line args (without the program's name) on the
// given streams and returns the exit code. It leaves the garbage
// collector as the caller set it: the caller shares the process.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr)
}

// run is Run; the package's tests call it by this name.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, terminal: isTerminal(stderr), progressDelay: 500 * time.Millisecond}
	return e.main(args)
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
