// Command schedkit answers, from Kubernetes manifests or a cluster dump,
// what kube-scheduler v1.37.2 would do and why. Its usage, flags and exit
// codes are package app's documentation; `schedkit --help` prints them.
//
// For measuring the command itself, SCHEDKIT_CPUPROFILE=FILE writes a CPU
// profile of the whole run to FILE (go tool pprof reads it).
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/schedkit/schedkit/cmd/schedkit/app"
)

func main() {
	os.Exit(run())
}

// run is main with the optional CPU profile around the command, so that
// the profile is flushed before the process exits.
func run() int {
	if path := os.Getenv("SCHEDKIT_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "schedkit: SCHEDKIT_CPUPROFILE: %v\n", err)
			return 2
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "schedkit: SCHEDKIT_CPUPROFILE: %v\n", err)
			f.Close()
			return 2
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	return app.Main(os.Args[1:])
}
