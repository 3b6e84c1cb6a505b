package manifest

import "bytes"

// blockReader reads the YAML that kubectl and sigs.k8s.io/yaml write for
// a List item straight into a value, without yaml/v3's token and node
// trees: block mappings and block sequences, one-line plain, single- and
// double-quoted scalars, `{}` and `[]`, in printable ASCII. It declines
// (ok false) anything else — comments, tabs, block scalars, multi-line
// scalars, other flow collections, anchors, aliases, tags, escapes,
// complex or merge keys, odd indentation — and the piece is then parsed
// by yaml/v3 as before. What it accepts it reads as yaml/v3 and the
// converter do (TestBlockReaderMatchesYAML, FuzzYAMLChunks).
type blockReader struct {
	text [][]byte // each line's content after its indentation
	ind  []int    // each line's indentation; -1 for a blank line
	i    int      // the current line
	base int32    // the first line's number
	// keys and vals are the entries of the maps being read (a stack),
	// copied into each map at its end so that it is allocated once.
	keys []string
	vals []value
	// dec shares short strings (nil: not shared).
	dec *decoder
	// slabK and slabV hold the maps' keys and the maps' and lists'
	// values of the items read; reuse starts them again once an item's
	// tree is dead (decoded), detach leaves them to an item kept for
	// later.
	slabK slab[string]
	slabV slab[value]
}

// slab hands out copies of slices from one allocation, from off on.
type slab[T any] struct {
	buf []T
	off int
}

// copyOf returns a copy of xs in the slab, in a new one when it is full.
func (s *slab[T]) copyOf(xs []T) []T {
	n := len(xs)
	if s.off+n > len(s.buf) {
		s.buf, s.off = make([]T, max(slabSize, n)), 0
	}
	out := s.buf[s.off : s.off+n : s.off+n]
	copy(out, xs)
	s.off += n
	return out
}

// slabSize is how many keys or values a slab holds.
const slabSize = 8192

// reuse lets the next item's tree take the place of the last one's, which
// nothing refers to any more.
func (br *blockReader) reuse() { br.slabK.off, br.slabV.off = 0, 0 }

// detach leaves the slabs to the trees read so far.
func (br *blockReader) detach() { br.slabK, br.slabV = slab[string]{}, slab[value]{} }

// str returns the string of b, shared with equal short strings.
func (br *blockReader) str(b []byte) string {
	if br.dec == nil {
		return string(b)
	}
	return br.dec.internKey(b)
}

// maxKey is yaml/v3's limit on the length of a simple key (1024), with a
// margin.
const maxKey = 1000

// readBlockItem reads a List item's piece (from its "- " line, which is
// line) as listItem does with yaml/v3.
func readBlockItem(b []byte, line int, br *blockReader) (value, bool) {
	br.text, br.ind, br.i, br.base = br.text[:0], br.ind[:0], 0, int32(line)
	for len(b) > 0 {
		var l []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			l, b = b, nil
		}
		l = bytes.TrimSuffix(l, []byte{'\r'})
		k := 0
		for k < len(l) && l[k] == ' ' {
			k++
		}
		if k == len(l) {
			br.text, br.ind = append(br.text, nil), append(br.ind, -1)
			continue
		}
		for _, c := range l[k:] {
			if c < 0x20 || c >= 0x7f {
				return value{}, false // tabs, CR, other controls, non-ASCII
			}
		}
		if l[k] == '#' {
			return value{}, false
		}
		br.text, br.ind = append(br.text, l[k:]), append(br.ind, k)
	}
	if len(br.ind) == 0 || br.ind[0] < 0 || !isDash(br.text[0]) {
		return value{}, false
	}
	v, ok := br.sequence(br.ind[0])
	br.skipBlank()
	if !ok || br.i != len(br.ind) || len(v.elems) != 1 {
		return value{}, false
	}
	return v.elems[0], true
}

// isDash reports whether a line's content is a sequence entry.
func isDash(t []byte) bool { return len(t) > 0 && t[0] == '-' && (len(t) == 1 || t[1] == ' ') }

func (br *blockReader) skipBlank() {
	for br.i < len(br.ind) && br.ind[br.i] < 0 {
		br.i++
	}
}

// node reads the block node whose first line is the current one, at
// indentation n.
func (br *blockReader) node(n int) (value, bool) {
	if isDash(br.text[br.i]) {
		return br.sequence(n)
	}
	return br.mapping(n)
}

// sequence reads the entries at indentation n.
func (br *blockReader) sequence(n int) (value, bool) {
	v := value{kind: kindList, line: br.base + int32(br.i)}
	mark := len(br.vals)
	defer func() { br.vals = br.vals[:mark] }()
	for {
		br.skipBlank()
		if br.i == len(br.ind) || br.ind[br.i] < n || (br.ind[br.i] == n && !isDash(br.text[br.i])) {
			v.elems = br.slabV.copyOf(br.vals[mark:])
			return v, true
		}
		if br.ind[br.i] > n {
			return value{}, false
		}
		t := br.text[br.i]
		m := 1
		for m < len(t) && t[m] == ' ' {
			m++
		}
		if m == len(t) {
			return value{}, false // an entry on the lines below
		}
		// The entry's content, as if indented where it starts.
		br.text[br.i], br.ind[br.i] = t[m:], n+m
		var e value
		ok := false
		if isDash(t[m:]) || isKeyLine(t[m:]) {
			e, ok = br.node(n + m)
		} else {
			e, ok = br.inline(t[m:], n)
		}
		if !ok {
			return value{}, false
		}
		br.vals = append(br.vals, e)
	}
}

// isKeyLine reports whether a line's content starts with a mapping key.
func isKeyLine(t []byte) bool {
	_, _, ok := splitKey(t)
	return ok
}

// splitKey splits "key: rest" into the key's text and what follows the
// colon; ok false when the line does not start with a key the reader
// takes. quoted tells a double-quoted key.
func splitKey(t []byte) (key []byte, rest []byte, ok bool) {
	if len(t) > 0 && t[0] == '"' {
		q := bytes.IndexByte(t[1:], '"')
		if q < 0 || bytes.IndexByte(t[1:q+1], '\\') >= 0 {
			return nil, nil, false
		}
		after := t[q+2:]
		if len(after) == 0 || after[0] != ':' || (len(after) > 1 && after[1] != ' ') || q+1 > maxKey {
			return nil, nil, false
		}
		return t[:q+2], after[1:], true
	}
	i := bytes.Index(t, []byte(": "))
	if i < 0 {
		if len(t) == 0 || t[len(t)-1] != ':' {
			return nil, nil, false
		}
		i = len(t) - 1
	}
	key = t[:i]
	if !plainStart(key) || bytes.Contains(key, []byte(" #")) || key[len(key)-1] == ' ' || len(key) > maxKey ||
		string(key) == "<<" || key[len(key)-1] == ':' {
		return nil, nil, false
	}
	return key, t[i+1:], true
}

// plainStart reports whether s can start a plain scalar the reader takes.
func plainStart(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	switch s[0] {
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	case '-':
		return len(s) > 1 && s[1] != ' ' && s[1] != '-'
	}
	return true
}

// keyOf resolves a key's text as the converter does.
func (br *blockReader) keyOf(k []byte) (string, bool) {
	if k[0] == '"' {
		return br.str(k[1 : len(k)-1]), true
	}
	s := br.str(k)
	v, err := resolvePlain(s)
	if err != nil {
		return "", false
	}
	key, err := keyText(v, s)
	return key, err == nil
}

// mapping reads the entries at indentation n.
func (br *blockReader) mapping(n int) (value, bool) {
	v := value{kind: kindMap, line: br.base + int32(br.i)}
	markK, markV := len(br.keys), len(br.vals)
	defer func() { br.keys, br.vals = br.keys[:markK], br.vals[:markV] }()
	for {
		br.skipBlank()
		if br.i == len(br.ind) || br.ind[br.i] < n {
			v.keys, v.elems = br.slabK.copyOf(br.keys[markK:]), br.slabV.copyOf(br.vals[markV:])
			return v, true
		}
		if br.ind[br.i] > n {
			return value{}, false
		}
		line := br.base + int32(br.i)
		kt, rest, ok := splitKey(br.text[br.i])
		if !ok {
			return value{}, false
		}
		key, ok := br.keyOf(kt)
		if !ok {
			return value{}, false
		}
		var e value
		if len(bytes.TrimLeft(rest, " ")) == 0 {
			br.i++
			br.skipBlank()
			switch {
			case br.i < len(br.ind) && br.ind[br.i] > n:
				e, ok = br.node(br.ind[br.i])
			case br.i < len(br.ind) && br.ind[br.i] == n && isDash(br.text[br.i]):
				e, ok = br.sequence(n)
			default:
				e, ok = value{kind: kindNull}, true
			}
		} else {
			e, ok = br.inline(bytes.TrimLeft(rest, " "), n)
		}
		if !ok {
			return value{}, false
		}
		e.line = line
		// As value.set: the last of equal keys wins, in the first's place.
		dup := false
		for j, k := range br.keys[markK:] {
			if k == key {
				v.dups = append(v.dups, key)
				br.vals[markV+j] = e
				dup = true
				break
			}
		}
		if !dup {
			br.keys, br.vals = append(br.keys, key), append(br.vals, e)
		}
	}
}

// inline reads a scalar (or `{}`, `[]`) that ends its line, the current
// one, in a node at indentation n; no line below may be indented more.
func (br *blockReader) inline(t []byte, n int) (value, bool) {
	line := br.base + int32(br.i)
	t = bytes.TrimRight(t, " ")
	var v value
	switch {
	case string(t) == "{}":
		v = value{kind: kindMap}
	case string(t) == "[]":
		v = value{kind: kindList}
	case t[0] == '"':
		if len(t) < 2 || t[len(t)-1] != '"' || bytes.IndexByte(t[1:len(t)-1], '"') >= 0 || bytes.IndexByte(t, '\\') >= 0 {
			return value{}, false
		}
		v = value{kind: kindString, text: br.str(t[1 : len(t)-1])}
	case t[0] == '\'':
		if len(t) < 2 || t[len(t)-1] != '\'' {
			return value{}, false
		}
		in := t[1 : len(t)-1]
		for j := 0; j < len(in); j++ {
			if in[j] == '\'' {
				if j+1 == len(in) || in[j+1] != '\'' {
					return value{}, false
				}
				j++
			}
		}
		v = value{kind: kindString, text: string(bytes.ReplaceAll(in, []byte("''"), []byte("'")))}
	default:
		if !plainStart(t) || bytes.Contains(t, []byte(": ")) || bytes.Contains(t, []byte(" #")) || t[len(t)-1] == ':' {
			return value{}, false
		}
		var err error
		if v, err = resolvePlain(br.str(t)); err != nil {
			return value{}, false
		}
	}
	v.line = line
	br.i++
	br.skipBlank()
	if br.i < len(br.ind) && br.ind[br.i] > n {
		return value{}, false // a continuation, or an error
	}
	return v, true
}
