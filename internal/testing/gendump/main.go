// Command gendump writes a kubectl-style cluster dump (one JSON List, as
// `kubectl get nodes,pods -A -o json` prints it) for the command's speed
// and memory measurements: by default 2,000 nodes in 3 zones and 40,000
// pods, 39,800 of them bound and 200 pending, about 44 MB. It is
// deterministic for a seed.
//
//	go run ./internal/testing/gendump -nodes 2000 -pods 40000 -pending 200 > /tmp/dump.json
package main

import (
	"bufio"
	"flag"
	"log"
	"os"

	"github.com/schedkit/schedkit/internal/testing/gendump/dump"
)

func main() {
	nodes := flag.Int("nodes", 2000, "nodes")
	pods := flag.Int("pods", 40000, "pods, bound and pending")
	pending := flag.Int("pending", 200, "pods without spec.nodeName")
	seed := flag.Uint64("seed", 1, "seed")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if err := dump.Write(w, *nodes, *pods, *pending, *seed); err != nil {
		log.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}
