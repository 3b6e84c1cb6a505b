package sigcache

// Entry is what a Store holds: Kind tells which of its halves the entry
// belongs to.
type Entry interface {
	Kind() uint8
}

// Store holds the entries of the last signatures, most recent first.
// The zero value is an empty store. A Store is not safe for concurrent
// use: its owner locks it.
type Store[E Entry] struct {
	entries []E
}

// Entries returns the entries, most recent first. It is valid until the
// next Touch, Push or DropFront.
func (s *Store[E]) Entries() []E { return s.entries }

// Touch makes entry i the most recent and returns it.
func (s *Store[E]) Touch(i int) E {
	e := s.entries[i]
	copy(s.entries[1:i+1], s.entries[:i])
	s.entries[0] = e
	return e
}

// Push adds e as the most recent entry. When the store then holds more
// than perKind entries of e's kind, the least recent of them goes.
func (s *Store[E]) Push(e E, perKind int) {
	var zero E
	s.entries = append(s.entries, zero)
	copy(s.entries[1:], s.entries)
	s.entries[0] = e
	n, k := 0, e.Kind()
	for i, x := range s.entries {
		if x.Kind() != k {
			continue
		}
		if n++; n > perKind {
			copy(s.entries[i:], s.entries[i+1:])
			s.entries[len(s.entries)-1] = zero
			s.entries = s.entries[:len(s.entries)-1]
			return
		}
	}
}

// DropFront removes the most recent entry.
func (s *Store[E]) DropFront() {
	var zero E
	copy(s.entries, s.entries[1:])
	s.entries[len(s.entries)-1] = zero
	s.entries = s.entries[:len(s.entries)-1]
}
