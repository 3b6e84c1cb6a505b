package podtopologyspread

import (
	"encoding/binary"
	"slices"

	"github.com/schedkit/schedkit/priorities"
)

// A node's raw score depends only on, per constraint, whether it has the
// key and its domain (whose total the score reads) or, for
// kubernetes.io/hostname, its own matching pods; and on whether
// requireAll leaves it unscored. The score cache numbers these tuples
// ("classes") and keeps, per position of its nodes, the class of the
// node's contribution, updated when the contribution is recomputed.
// PreScore then computes one raw score per class from the per-domain
// totals, not one per node: a placement changes the class of its node
// only, and the totals of its domains.
//
// A state reads the classes of the cycle it was made in while later
// cycles change them: the per-position classes are kept in chunks, and
// a chunk a state may hold is copied before it changes (as the snapshot
// keeps its nodes, see cluster's nodeVec), so that a cycle copies only
// the chunks of the positions that changed.

const (
	classBits = 7
	classLen  = 1 << classBits
	classMask = classLen - 1
	// classInline is how many constraints a classKey holds inline;
	// the values of more are encoded in its more field.
	classInline = 4
	// classLinear is how many classes are searched linearly before the
	// counts index them by a map.
	classLinear = 16
)

// classChunk holds the classes of classLen consecutive positions. A
// chunk whose epoch is the counts' own may change in place; another may
// be held by a state and is copied first.
type classChunk struct {
	epoch uint64
	v     [classLen]int32
}

// classKey is what a node's raw score depends on (see above): for
// constraint i, has bit i and v[i], its domain id or, for a hostname
// constraint, its matching pods.
type classKey struct {
	ignored bool
	has     uint64
	v       [classInline]int32
	more    string
}

// classes are the score classes of one scoreCounts and the class of
// each position.
type classes struct {
	chunks []*classChunk
	// epoch: chunks of this epoch are owned; shared: a state holds the
	// chunks slice itself.
	epoch  uint64
	shared bool
	keys   []classKey
	// nodes[c] is the number of positions of class c.
	nodes []int32
	index map[classKey]int32
	// last is the class setClass gave last (a guess, checked).
	last int32
	// stamp and seen are PreScore's scratch: class c is among the
	// scored nodes' when seen[c] == stamp.
	stamp uint32
	seen  []uint32
}

// at returns position j's class, -1 for none.
func (c *classes) at(j int) int32 { return c.chunks[j>>classBits].v[j&classMask] }

// set makes id position j's class, copying its chunk (and the chunk
// list) first if a state may hold them.
func (c *classes) set(j int, id int32) {
	if c.shared {
		c.chunks = slices.Clone(c.chunks)
		c.shared = false
	}
	for len(c.chunks) <= j>>classBits {
		c.chunks = append(c.chunks, &classChunk{epoch: c.epoch})
	}
	ch := c.chunks[j>>classBits]
	if ch.epoch != c.epoch {
		cp := *ch
		cp.epoch = c.epoch
		ch = &cp
		c.chunks[j>>classBits] = ch
	}
	ch.v[j&classMask] = id
}

// share returns the chunks for a state: from now on they are copied
// before they change.
func (c *classes) share() []*classChunk {
	c.shared = true
	c.epoch++
	return c.chunks
}

// intern returns the id of class k, adding it if new.
func (c *classes) intern(k *classKey) int32 {
	if c.index == nil {
		for id := range c.keys {
			if c.keys[id] == *k {
				return int32(id)
			}
		}
		if len(c.keys) >= classLinear {
			c.index = make(map[classKey]int32, 2*len(c.keys))
			for id, key := range c.keys {
				c.index[key] = int32(id)
			}
		}
	} else if id, ok := c.index[*k]; ok {
		return id
	}
	id := int32(len(c.keys))
	c.keys = append(c.keys, *k)
	c.nodes = append(c.nodes, 0)
	if c.index != nil {
		c.index[*k] = id
	}
	return id
}

// reset forgets every class (not the positions' chunks).
func (c *classes) reset() {
	c.keys, c.nodes, c.index = c.keys[:0], c.nodes[:0], nil
}

// classOf returns the class key of the contribution at position j.
func (sc *scoreCounts) classOf(j int) classKey {
	k := len(sc.domains)
	var key classKey
	if sc.requireAll && !sc.all[j] {
		key.ignored = true
		return key
	}
	var more []byte
	for i := range k {
		x := j*k + i
		v := sc.dom[x]
		if sc.hostname(i) {
			v = sc.cnt[x]
		}
		has := sc.flag[x]&spreadHasKey != 0
		if i < classInline {
			if has {
				key.has |= 1 << i
			}
			key.v[i] = v
			continue
		}
		b := byte(0)
		if has {
			b = 1
		}
		more = binary.LittleEndian.AppendUint32(append(more, b), uint32(v))
	}
	key.more = string(more)
	return key
}

// setClass sets the class of position j from its contribution.
func (sc *scoreCounts) setClass(j int) {
	key := sc.classOf(j)
	// Neighbouring positions mostly share a class: try the last one
	// first.
	id := sc.cls.last
	if id < 0 || int(id) >= len(sc.cls.keys) || sc.cls.keys[id] != key {
		id = sc.cls.intern(&key)
		sc.cls.last = id
	}
	sc.cls.nodes[id]++
	sc.cls.set(j, id)
}

// dropClass takes position j out of its class's positions.
func (sc *scoreCounts) dropClass(j int) {
	if id := sc.cls.at(j); id >= 0 {
		sc.cls.nodes[id]--
	}
}

// reclass numbers the classes afresh from every position's
// contribution: after a renumbering the domain ids changed, and classes
// no position has any more are forgotten.
func (sc *scoreCounts) reclass() {
	sc.cls.reset()
	for j := range sc.all {
		sc.setClass(j)
	}
}

// at reports whether class key has constraint i's key, and its
// value for i.
func (k *classKey) at(i int) (bool, int32) {
	if i < classInline {
		return k.has&(1<<i) != 0, k.v[i]
	}
	o := (i - classInline) * 5
	return k.more[o] != 0, int32(binary.LittleEndian.Uint32([]byte(k.more[o+1 : o+5])))
}

// classScores returns the raw score of each class under the weights and
// the totals tot, as the plain score sums them: per constraint whose key
// the node has, SpreadScoreForCount of its domain's total (its own
// count for a hostname constraint), rounded; 0 for the ignored class.
func (sc *scoreCounts) classScores(weights []float64, tot [][]int64) []int64 {
	cs := sc.cs
	table := make([]int64, len(sc.cls.keys))
	for id := range sc.cls.keys {
		key := &sc.cls.keys[id]
		if key.ignored {
			continue
		}
		var score float64
		for i := range cs {
			has, v := key.at(i)
			if !has {
				continue
			}
			n := int64(v)
			if !sc.hostname(i) {
				n = 0
				if v >= 0 {
					n = tot[i][v]
				}
			}
			score += priorities.SpreadScoreForCount(n, cs[i].MaxSkew, weights[i])
		}
		table[id] = roundScore(score)
	}
	return table
}
