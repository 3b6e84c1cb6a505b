package sigcache

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

type entry struct {
	kind uint8
	id   int
}

func (e *entry) Kind() uint8 { return e.kind }

// TestStoreIsPerKindLRU checks the store against one list per kind, most
// recent first, each cut to PerKind: the halves' own caches it replaces.
func TestStoreIsPerKindLRU(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		per := rapid.IntRange(1, 4).Draw(t, "perKind")
		var s Store[*entry]
		model := map[uint8][]int{}
		next := 0
		for range rapid.IntRange(0, 50).Draw(t, "ops") {
			kind := uint8(rapid.IntRange(0, 1).Draw(t, "kind"))
			id := rapid.IntRange(0, 6).Draw(t, "id")
			found := -1
			for i, e := range s.Entries() {
				if e.kind == kind && e.id == id {
					found = i
					break
				}
			}
			m := model[kind]
			if j := slices.Index(m, id); (j >= 0) != (found >= 0) {
				t.Fatalf("kind %d id %d: store has it %v, model %v", kind, id, found >= 0, j >= 0)
			}
			if found >= 0 {
				if e := s.Touch(found); e.id != id || s.Entries()[0] != e {
					t.Fatalf("Touch(%d) gave %v", found, e)
				}
				m = slices.Delete(m, slices.Index(m, id), slices.Index(m, id)+1)
			} else {
				s.Push(&entry{kind: kind, id: id}, per)
				next++
			}
			m = append([]int{id}, m...)
			if len(m) > per {
				m = m[:per]
			}
			if rapid.Bool().Draw(t, "drop") && found < 0 {
				s.DropFront()
				m = m[1:]
			}
			model[kind] = m
			for k := range uint8(2) {
				var got []int
				for _, e := range s.Entries() {
					if e.kind == k {
						got = append(got, e.id)
					}
				}
				if !slices.Equal(got, model[k]) && !(len(got) == 0 && len(model[k]) == 0) {
					t.Fatalf("kind %d: store %v, model %v", k, got, model[k])
				}
			}
		}
	})
}
