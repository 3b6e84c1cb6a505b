package quantitygen_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/quantity"
	"github.com/schedkit/schedkit/quantity/quantitygen"
)

func TestStringParses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := quantitygen.String().Draw(t, "s")
		if _, err := quantity.ParseQuantity(s); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
	})
}

func TestGeneratorsRoundTrip(t *testing.T) {
	gens := map[string]*rapid.Generator[quantity.Quantity]{
		"Quantity": quantitygen.Quantity(),
		"CPU":      quantitygen.CPU(),
		"Memory":   quantitygen.Memory(),
	}
	for name, g := range gens {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				q := g.Draw(t, "q")
				back, err := quantity.ParseQuantity(q.String())
				if err != nil || !back.Equal(q) {
					t.Fatalf("%q: %v %v", q.String(), back, err)
				}
				if name != "Quantity" && q.Sign() <= 0 {
					t.Fatalf("%s generated non-positive %s", name, q)
				}
			})
		})
	}
}
