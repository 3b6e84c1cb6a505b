// Command schedkit answers, from Kubernetes manifests or a cluster dump,
// what kube-scheduler v1.37.2 would do and why. Its usage, flags and exit
// codes are package app's documentation; `schedkit --help` prints them.
package main

import (
	"os"

	"github.com/schedkit/schedkit/cmd/schedkit/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:]))
}
