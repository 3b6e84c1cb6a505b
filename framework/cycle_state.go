package framework

// StateKey names a piece of per-cycle state, conventionally
// "PreFilter" + plugin name.
type StateKey string

// StateData is anything a plugin stores in a CycleState. Clone is used
// when preemption simulates a cycle on a copy.
type StateData interface {
	Clone() StateData
}

// CycleState is the state plugins share within one scheduling cycle. It
// is written at the serial extension points (PreFilter, PreScore,
// PostFilter) and only read at the parallel ones (Filter, Score), so reads
// need no locking. Lookups scan a short slice and do not allocate.
type CycleState struct {
	keys   []StateKey
	values []StateData
	// SkipFilterPlugins are plugins whose PreFilter returned Skip.
	SkipFilterPlugins map[string]struct{}
	// SkipScorePlugins are plugins whose PreScore returned Skip.
	SkipScorePlugins map[string]struct{}

	// Skip sets of an earlier cycle, emptied by Reset, for the next
	// RunPreFilterPlugins and RunPreScorePlugins to fill.
	spareFilterSkip, spareScoreSkip map[string]struct{}

	// Room for the keys and values of a cycle of the default profile, so
	// that writing them allocates nothing.
	keyBuf [stateRoom]StateKey
	valBuf [stateRoom]StateData
}

// stateRoom is how many values a new CycleState holds without growing.
const stateRoom = 8

// NewCycleState returns an empty state.
func NewCycleState() *CycleState {
	c := &CycleState{}
	c.keys, c.values = c.keyBuf[:0], c.valBuf[:0]
	return c
}

// Reset empties c for another cycle, keeping its memory (the room for
// values, and the skip sets for the next cycle's PreFilter and PreScore
// to fill). Nothing may read c, or the skip sets it held, after Reset.
func (c *CycleState) Reset() {
	clear(c.keys)
	clear(c.values)
	c.keys, c.values = c.keys[:0], c.values[:0]
	c.spareFilterSkip = spare(c.SkipFilterPlugins, c.spareFilterSkip)
	c.spareScoreSkip = spare(c.SkipScorePlugins, c.spareScoreSkip)
	c.SkipFilterPlugins, c.SkipScorePlugins = nil, nil
}

// spare returns used, emptied, or else old.
func spare(used, old map[string]struct{}) map[string]struct{} {
	if used == nil {
		return old
	}
	clear(used)
	return used
}

// skipSet returns an empty set for the cycle's skipped plugins: *spare
// if there is one (which it takes), else a new map.
func skipSet(spare *map[string]struct{}) map[string]struct{} {
	if m := *spare; m != nil {
		*spare = nil
		return m
	}
	// Room for a profile's plugins: a set grown entry by entry
	// allocates several times.
	return make(map[string]struct{}, 16)
}

// Write stores v under k, replacing any earlier value.
func (c *CycleState) Write(k StateKey, v StateData) {
	for i, key := range c.keys {
		if key == k {
			c.values[i] = v
			return
		}
	}
	c.keys = append(c.keys, k)
	c.values = append(c.values, v)
}

// Read returns the value stored under k.
func (c *CycleState) Read(k StateKey) (StateData, bool) {
	if c == nil {
		return nil, false
	}
	for i, key := range c.keys {
		if key == k {
			return c.values[i], true
		}
	}
	return nil, false
}

// Delete removes k.
func (c *CycleState) Delete(k StateKey) {
	for i, key := range c.keys {
		if key == k {
			c.keys = append(c.keys[:i], c.keys[i+1:]...)
			c.values = append(c.values[:i], c.values[i+1:]...)
			return
		}
	}
}

// Clone returns a copy whose values are cloned.
func (c *CycleState) Clone() *CycleState {
	if c == nil {
		return nil
	}
	n := &CycleState{keys: append([]StateKey(nil), c.keys...), values: make([]StateData, len(c.values))}
	for i, v := range c.values {
		if v != nil {
			n.values[i] = v.Clone()
		}
	}
	if c.SkipFilterPlugins != nil {
		n.SkipFilterPlugins = make(map[string]struct{}, len(c.SkipFilterPlugins))
		for k := range c.SkipFilterPlugins {
			n.SkipFilterPlugins[k] = struct{}{}
		}
	}
	if c.SkipScorePlugins != nil {
		n.SkipScorePlugins = make(map[string]struct{}, len(c.SkipScorePlugins))
		for k := range c.SkipScorePlugins {
			n.SkipScorePlugins[k] = struct{}{}
		}
	}
	return n
}
