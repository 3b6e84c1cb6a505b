package cluster

// layered is a map a snapshot shares with its forks: the writer's own
// map of changes over a chain of frozen layers that no one changes, so
// that forking freezes the writer's changes into a layer instead of
// copying the whole map. Its zero value is empty and ready for writing.
type layered[K comparable, V any] struct {
	own  changes[K, V]
	base *layer[K, V]
	n    int
}

// changes are values set and keys deleted over the layers below. The
// deletions are a set of their own, so that values are stored as they
// are (a snapshot's root map holds every pod: no flag per entry).
type changes[K comparable, V any] struct {
	m    map[K]V
	gone map[K]struct{}
}

// layer is a frozen set of changes over the layers below it.
type layer[K comparable, V any] struct {
	changes[K, V]
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
	return layered[K, V]{own: changes[K, V]{m: make(map[K]V, n)}}
}

// len returns the number of keys.
func (l *layered[K, V]) len() int { return l.n }

// find looks k up in c: found or deleted there, or neither.
func (c *changes[K, V]) find(k K) (v V, found, deleted bool) {
	if v, ok := c.m[k]; ok {
		return v, true, false
	}
	if len(c.gone) > 0 {
		if _, ok := c.gone[k]; ok {
			return v, false, true
		}
	}
	return v, false, false
}

// get returns the value of k.
func (l *layered[K, V]) get(k K) (V, bool) {
	if v, found, deleted := l.own.find(k); found || deleted {
		return v, found
	}
	for b := l.base; b != nil; b = b.below {
		if v, found, deleted := b.find(k); found || deleted {
			return v, found
		}
	}
	var zero V
	return zero, false
}

// inBase reports whether a frozen layer holds k.
func (l *layered[K, V]) inBase(k K) bool {
	for b := l.base; b != nil; b = b.below {
		if _, found, deleted := b.find(k); found || deleted {
			return found
		}
	}
	return false
}

// put sets k, which the map does not hold, to v.
func (l *layered[K, V]) put(k K, v V) {
	if l.own.m == nil {
		l.own.m = make(map[K]V)
	}
	delete(l.own.gone, k)
	l.own.m[k] = v
	l.n++
}

// del removes k, which the map holds.
func (l *layered[K, V]) del(k K) {
	delete(l.own.m, k)
	if l.inBase(k) {
		if l.own.gone == nil {
			l.own.gone = make(map[K]struct{})
		}
		l.own.gone[k] = struct{}{}
	}
	l.n--
}

// share returns a copy of l that changes independently of it: both get
// l's changes frozen into a layer and a new map of changes.
func (l *layered[K, V]) share() layered[K, V] {
	l.freeze()
	c := *l
	c.own = changes[K, V]{m: make(map[K]V)}
	return c
}

// freeze makes the writer's changes a frozen layer, merging layers when
// the chain grows deep, and starts a new map of changes.
func (l *layered[K, V]) freeze() {
	if len(l.own.m) == 0 && len(l.own.gone) == 0 {
		l.own = changes[K, V]{m: make(map[K]V)}
		return
	}
	depth := 1
	if l.base != nil {
		depth = l.base.depth + 1
	}
	l.base = &layer[K, V]{changes: l.own, below: l.base, depth: depth, live: l.n}
	l.own = changes[K, V]{m: make(map[K]V)}
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
	upper := changes[K, V]{m: map[K]V{}, gone: map[K]struct{}{}}
	for i := len(chain) - 2; i >= 0; i-- {
		for k := range chain[i].gone {
			delete(upper.m, k)
			upper.gone[k] = struct{}{}
		}
		for k, v := range chain[i].m {
			delete(upper.gone, k)
			upper.m[k] = v
		}
	}
	if len(upper.m)+len(upper.gone) <= len(bottom.m)/4 {
		return &layer[K, V]{changes: upper, below: bottom, depth: 2, live: b.live}
	}
	flat := make(map[K]V, b.live)
	for k, v := range bottom.m {
		flat[k] = v
	}
	for k := range upper.gone {
		delete(flat, k)
	}
	for k, v := range upper.m {
		flat[k] = v
	}
	return &layer[K, V]{changes: changes[K, V]{m: flat}, depth: 1, live: b.live}
}

// all yields every key and value, each key once.
func (l *layered[K, V]) all(yield func(K, V) bool) {
	seen := make(map[K]struct{}, len(l.own.m))
	visit := func(c *changes[K, V]) bool {
		for k := range c.gone {
			seen[k] = struct{}{}
		}
		for k, v := range c.m {
			if _, dup := seen[k]; dup {
				continue
			}
			seen[k] = struct{}{}
			if !yield(k, v) {
				return false
			}
		}
		return true
	}
	if !visit(&l.own) {
		return
	}
	for b := l.base; b != nil; b = b.below {
		if !visit(&b.changes) {
			return
		}
	}
}
