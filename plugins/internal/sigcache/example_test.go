package sigcache_test

import (
	"fmt"

	"github.com/schedkit/schedkit/plugins/internal/sigcache"
)

type entry struct {
	half uint8
	sig  string
}

func (e *entry) Kind() uint8 { return e.half }

// A filter half and a score half share one store, two entries each.
func Example() {
	var s sigcache.Store[*entry]
	find := func(half uint8, sig string) *entry {
		for i, e := range s.Entries() {
			if e.half == half && e.sig == sig {
				return s.Touch(i)
			}
		}
		e := &entry{half: half, sig: sig}
		s.Push(e, 2)
		return e
	}
	find(0, "a")
	find(1, "a")
	find(0, "b")
	find(0, "a") // touched: "b" is now the least recent filter entry
	find(0, "c") // evicts "b", not the score half's "a"
	for _, e := range s.Entries() {
		fmt.Println(e.half, e.sig)
	}
	// Output:
	// 0 c
	// 0 a
	// 1 a
}
