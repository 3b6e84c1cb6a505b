package cluster

import (
	"maps"
	"testing"

	"pgregory.net/rapid"
)

// TestPropLayeredMatchesMap: puts, deletes, freezes and shares (deep
// chains merged on the way) keep each copy equal to a plain map.
func TestPropLayeredMatchesMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := []*layered[int, int]{{}}
		models := []map[int]int{{}}
		t.Repeat(map[string]func(*rapid.T){
			"put": func(t *rapid.T) {
				i := rapid.IntRange(0, len(ls)-1).Draw(t, "copy")
				k := rapid.IntRange(0, 20).Draw(t, "key")
				if _, ok := models[i][k]; ok {
					t.Skip("present")
				}
				v := rapid.Int().Draw(t, "value")
				ls[i].put(k, v)
				models[i][k] = v
			},
			"del": func(t *rapid.T) {
				i := rapid.IntRange(0, len(ls)-1).Draw(t, "copy")
				k := rapid.IntRange(0, 20).Draw(t, "key")
				if _, ok := models[i][k]; !ok {
					t.Skip("absent")
				}
				ls[i].del(k)
				delete(models[i], k)
			},
			"freeze": func(t *rapid.T) {
				ls[rapid.IntRange(0, len(ls)-1).Draw(t, "copy")].freeze()
			},
			"share": func(t *rapid.T) {
				i := rapid.IntRange(0, len(ls)-1).Draw(t, "copy")
				c := ls[i].share()
				ls = append(ls, &c)
				models = append(models, maps.Clone(models[i]))
			},
			"": func(t *rapid.T) {
				for i, l := range ls {
					if l.len() != len(models[i]) {
						t.Fatalf("copy %d: len %d, model %d", i, l.len(), len(models[i]))
					}
					for k := range 21 {
						v, ok := l.get(k)
						mv, mok := models[i][k]
						if ok != mok || v != mv {
							t.Fatalf("copy %d key %d: %d %v, model %d %v", i, k, v, ok, mv, mok)
						}
					}
					got := map[int]int{}
					for k, v := range l.all {
						got[k] = v
					}
					if !maps.Equal(got, models[i]) {
						t.Fatalf("copy %d lists %v, model %v", i, got, models[i])
					}
				}
			},
		})
	})
}
