package cluster

// layered is a map a snapshot shares with its forks: the writer's own
// map of changes over a chain of frozen layers that no one changes, so
// that forking freezes the writer's changes into a layer instead of
// copying the whole map. Its zero value is empty and ready for writing.
type layered[K comparable, V any] struct {
	own  map[K]slot[V]
	base *layer[K, V]
	n    int
}

// slot is a value or, with gone, the deletion of a key a lower layer
// holds.
type slot[V any] struct {
	v    V
	gone bool
}

// layer is a frozen map of changes over the layers below it.
type layer[K comparable, V any] struct {
	m     map[K]slot[V]
	below *layer[K, V]
	// depth counts the layers from this one down; live is the number
	// of keys present in this layer and the ones below.
	depth int
	live  int
}

// Layers are merged once the chain is deeper than maxDepth, so that a
// lookup walks a few maps at most.
const maxDepth = 4

// makeLayered returns an empty map with room for n keys.
func makeLayered[K comparable, V any](n int) layered[K, V] {
	return layered[K, V]{own: make(map[K]slot[V], n)}
}

// len returns the number of keys.
func (l *layered[K, V]) len() int { return l.n }

// get returns the value of k.
func (l *layered[K, V]) get(k K) (V, bool) {
	if e, ok := l.own[k]; ok {
		return e.v, !e.gone
	}
	for b := l.base; b != nil; b = b.below {
		if e, ok := b.m[k]; ok {
			return e.v, !e.gone
		}
	}
	var zero V
	return zero, false
}

// inBase reports whether a frozen layer holds k.
func (l *layered[K, V]) inBase(k K) bool {
	for b := l.base; b != nil; b = b.below {
		if e, ok := b.m[k]; ok {
			return !e.gone
		}
	}
	return false
}

// put sets k, which the map does not hold, to v.
func (l *layered[K, V]) put(k K, v V) {
	if l.own == nil {
		l.own = make(map[K]slot[V])
	}
	l.own[k] = slot[V]{v: v}
	l.n++
}

// del removes k, which the map holds.
func (l *layered[K, V]) del(k K) {
	if l.inBase(k) {
		l.own[k] = slot[V]{gone: true}
	} else {
		delete(l.own, k)
	}
	l.n--
}

// share returns a copy of l that changes independently of it: both get
// l's changes frozen into a layer and a new map of changes.
func (l *layered[K, V]) share() layered[K, V] {
	l.freeze()
	c := *l
	c.own = make(map[K]slot[V])
	return c
}

// freeze makes the writer's changes a frozen layer, merging layers when
// the chain grows deep, and starts a new map of changes.
func (l *layered[K, V]) freeze() {
	if len(l.own) == 0 {
		if l.own == nil {
			l.own = map[K]slot[V]{}
		}
		return
	}
	depth := 1
	if l.base != nil {
		depth = l.base.depth + 1
	}
	l.base = &layer[K, V]{m: l.own, below: l.base, depth: depth, live: l.n}
	l.own = make(map[K]slot[V])
	if depth > maxDepth {
		l.base = l.base.merged()
	}
}

// merged returns the chain from b down merged into fewer layers: the
// layers above the bottom one become one layer, and when that layer
// grows past a quarter of the bottom one, everything becomes one map.
func (b *layer[K, V]) merged() *layer[K, V] {
	var chain []*layer[K, V]
	for x := b; x != nil; x = x.below {
		chain = append(chain, x)
	}
	bottom := chain[len(chain)-1]
	upper := map[K]slot[V]{}
	for i := len(chain) - 2; i >= 0; i-- {
		for k, e := range chain[i].m {
			upper[k] = e
		}
	}
	if len(upper) <= len(bottom.m)/4 {
		return &layer[K, V]{m: upper, below: bottom, depth: 2, live: b.live}
	}
	flat := make(map[K]slot[V], b.live)
	for k, e := range bottom.m {
		if !e.gone {
			flat[k] = e
		}
	}
	for k, e := range upper {
		if e.gone {
			delete(flat, k)
		} else {
			flat[k] = e
		}
	}
	return &layer[K, V]{m: flat, depth: 1, live: b.live}
}

// all yields every key and value, each key once.
func (l *layered[K, V]) all(yield func(K, V) bool) {
	seen := make(map[K]struct{}, len(l.own))
	visit := func(m map[K]slot[V]) bool {
		for k, e := range m {
			if _, dup := seen[k]; dup {
				continue
			}
			seen[k] = struct{}{}
			if !e.gone && !yield(k, e.v) {
				return false
			}
		}
		return true
	}
	if !visit(l.own) {
		return
	}
	for b := l.base; b != nil; b = b.below {
		if !visit(b.m) {
			return
		}
	}
}
