package manifest

import (
	"bytes"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// A YAML List in kubectl's shape (`kubectl get -o yaml`, sigs.k8s.io/yaml)
// is read item by item instead of as one yaml.Node tree: its text is cut
// at the lines that start at the items' column, each piece is parsed on
// its own, converted and dropped, so that memory is one item plus the
// objects. The cut is only taken where it reads what the whole document
// reads, and the document is otherwise read whole, as before:
//
//   - The document's top level is a block mapping at column 0 with one
//     `items:` key alone on its line, followed by `- ` entries at one
//     column c. The pieces are: the top-level entries before `items:`
//     (the head), each item (from its `- ` line to the next line with
//     content at a column <= c), and the top-level entries after the
//     items (the tail), up to a `---` line or the end of the stream.
//   - Every piece must parse on its own without an error. A line that
//     starts a piece is, for the whole document's parser, either a real
//     boundary (in block context a line with content at a column <= c
//     ends every node deeper than c: block and plain scalars included)
//     or a line inside a quoted scalar or flow collection that opened in
//     an earlier piece; the first such line is inside a construct opened
//     in the piece just before it, which then ends inside it and fails to
//     parse on its own. So when every piece parses, every cut is real,
//     each piece's tokens are the whole document's, and each item is what
//     the whole document's items hold.
//   - What could make a piece mean something else on its own falls back:
//     aliases (an anchor of another piece, or the whole document's alias
//     budget), line breaks the line scanner does not see (a lone CR, NEL,
//     LS, PS) or a byte order mark after the start, tabs before a line's
//     content, comments or other content at a column <= c that are not
//     `- ` entries, `...`, duplicate or merged top-level keys, a second
//     `items`, a kind that is not a List, nesting near yaml/v3's depth
//     limit, and any YAML or conversion error (the whole document then
//     reports it, with its message and line, as before).
//
// The items' effects (objects, warnings, errors, counts) are applied when
// the whole document has been read, so a fallback leaves nothing
// half-applied; the document is then read again from its start, from
// bytes still held or, when the stream can seek, from the file.

// yamlHead is a YAML document found to be in kubectl's List shape, up to
// its first item.
type yamlHead struct {
	start int64 // where the document's text starts (the fallback reads from here)
	lines int   // lines before start
	line  int   // line of the document's first key
	// head is the text of the top-level entries before `items:`, and
	// headLine the line it starts on.
	head     []byte
	headLine int
	col      int   // the items' column
	off      int64 // where the first item starts
}

// Classes of a YAML line, as the chunker sees it.
const (
	lineBlank   = iota // only spaces
	lineEntry          // "- " or "-" alone: a sequence entry
	lineStart          // "---" at column 0: a document start
	lineEnd            // "..." at column 0: a document end
	lineComment        // "#..."
	lineOther          // other content
	lineBad            // something the chunker does not read: fall back
)

// classify returns a line's indentation (its leading spaces) and class.
func classify(l []byte) (int, int, []byte) {
	l = bytes.TrimSuffix(l, []byte{'\n'})
	l = bytes.TrimSuffix(l, []byte{'\r'})
	if bytes.IndexByte(l, '\r') >= 0 {
		return 0, lineBad, nil // a lone CR breaks the line for YAML
	}
	k := 0
	for k < len(l) && l[k] == ' ' {
		k++
	}
	rest := l[k:]
	switch {
	case len(rest) == 0:
		return k, lineBlank, rest
	case rest[0] == '\t':
		return k, lineBad, rest
	case rest[0] == '#':
		return k, lineComment, rest
	case rest[0] == '-' && (len(rest) == 1 || rest[1] == ' '):
		return k, lineEntry, rest
	case rest[0] == '-' && rest[1] == '\t':
		return k, lineBad, rest
	case k == 0 && len(rest) >= 3 && (string(rest[:3]) == "---" || string(rest[:3]) == "..."):
		switch {
		case len(rest) == 3 || rest[3] == ' ':
			if rest[0] == '-' {
				return k, lineStart, rest
			}
			return k, lineEnd, rest
		case rest[3] == '\t':
			return k, lineBad, rest
		}
	}
	return k, lineOther, rest
}

// onlyComment reports whether s is spaces and at most a comment.
func onlyComment(s []byte) bool {
	t := bytes.TrimLeft(s, " ")
	return len(t) == 0 || (t[0] == '#' && len(t) < len(s))
}

// isItemsKey reports whether a column-0 line is `items:` alone (spaces
// may follow; a comment there is in no piece, so it is not taken).
func isItemsKey(rest []byte) bool {
	return bytes.HasPrefix(rest, []byte("items:")) && len(bytes.TrimLeft(rest[6:], " ")) == 0
}

// oddBytes reports whether b holds what YAML reads as a line break and
// the line scanner does not (NEL, LS, PS), or a byte order mark, which
// yaml/v3 skips at a line's start.
func oddBytes(b []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], 0xc2)
		if j < 0 {
			break
		}
		i += j + 1
		if i < len(b) && b[i] == 0x85 {
			return true
		}
	}
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], 0xe2)
		if j < 0 {
			break
		}
		i += j + 1
		if i+1 < len(b) && b[i] == 0x80 && (b[i+1] == 0xa8 || b[i+1] == 0xa9) {
			return true
		}
	}
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], 0xef)
		if j < 0 {
			break
		}
		i += j + 1
		if i+1 < len(b) && b[i] == 0xbb && b[i+1] == 0xbf {
			return true
		}
	}
	return false
}

// yline returns the line at off (up to and including its '\n'; bytes of
// the tracker, valid until it reads on) and where the next one starts;
// false at the end of the stream. The caller holds the bytes it needs.
func (s *stream) yline(off int64) ([]byte, int64, bool) {
	t := s.t
	from := 0
	for {
		b := t.buf[off-t.base:]
		if i := bytes.IndexByte(b[from:], '\n'); i >= 0 {
			return b[:from+i+1], off + int64(from+i+1), true
		}
		if t.err != nil {
			if len(b) == 0 {
				return nil, off, false
			}
			return b, t.end(), true
		}
		from = len(b)
		t.more(len(b) + 1)
	}
}

// maxHead bounds how far the chunker looks for `items:`.
const maxHead = 1 << 20

// listHead looks at the YAML document at s.yaOff: its head when it is a
// List in kubectl's shape, else nil. The document's bytes stay held.
func (s *stream) listHead() *yamlHead {
	t := s.t
	start := s.yaOff
	t.keep, t.pin = keepNone, start
	t.fill(start + peekSize)
	h := &yamlHead{start: start, lines: t.lineAt(start) - 1}
	off := start
	if start == 0 {
		b := t.buf[off-t.base:]
		if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
			off = 3
		} else if bytes.HasPrefix(b, []byte("\xfe\xff")) || bytes.HasPrefix(b, []byte("\xff\xfe")) {
			return nil // UTF-16
		}
	}
	h.headLine = t.lineAt(off)
	hs := off // the head piece starts with the comments and "---" before the first key
	marker := false
	for {
		l, next, ok := s.yline(off)
		if !ok {
			return nil
		}
		k, cls, rest := classify(l)
		switch {
		case cls == lineBlank || cls == lineComment:
			off = next
			continue
		case cls == lineStart && !marker && onlyComment(rest[3:]):
			marker = true
			off = next
			continue
		case k == 0 && (cls == lineOther || cls == lineEntry):
		default:
			return nil
		}
		break
	}
	h.line = t.lineAt(off)
	for {
		if off-hs > maxHead {
			return nil
		}
		l, next, ok := s.yline(off)
		if !ok {
			return nil
		}
		k, cls, rest := classify(l)
		if cls == lineBad || cls == lineStart || cls == lineEnd {
			return nil
		}
		if k == 0 && cls == lineOther && isItemsKey(rest) {
			h.head = bytes.Clone(t.buf[hs-t.base : off-t.base])
			off = next
			break
		}
		off = next
	}
	for {
		l, next, ok := s.yline(off)
		if !ok {
			return nil
		}
		k, cls, _ := classify(l)
		if cls == lineBlank {
			off = next
			continue
		}
		if cls != lineEntry {
			return nil
		}
		h.col, h.off = k, off
		break
	}
	return h
}

// Where an item ends.
const (
	itemNext = iota // another item follows
	itemTail        // the document's top-level entries go on
	itemLast        // the document ends (a "---" line or the end of the stream)
	itemOdd         // something the chunker does not read
)

// itemEnd returns where the item starting at off (its "- " line at
// column col) ends, and what follows.
func (s *stream) itemEnd(off int64, col int) (int64, int) {
	l, next, _ := s.yline(off)
	if _, cls, _ := classify(l); cls == lineBad {
		return 0, itemOdd
	}
	for {
		l, nn, ok := s.yline(next)
		if !ok {
			return next, itemLast
		}
		k, cls, _ := classify(l)
		switch {
		case cls == lineBad:
			return 0, itemOdd
		case cls == lineBlank || k > col:
			next = nn
			continue
		case k == col && cls == lineEntry:
			return next, itemNext
		case k == 0 && cls == lineStart:
			return next, itemLast
		case k == 0 && cls == lineOther:
			return next, itemTail
		}
		return 0, itemOdd
	}
}

// tailEnd returns where the top-level entries from off end (a "---"
// line or the end of the stream); false when they hold something the
// chunker does not read.
func (s *stream) tailEnd(off int64) (int64, bool) {
	for {
		l, next, ok := s.yline(off)
		if !ok {
			return off, true
		}
		k, cls, _ := classify(l)
		switch {
		case cls == lineBad || cls == lineEnd:
			return 0, false
		case k == 0 && cls == lineStart:
			return off, true
		}
		off = next
	}
}

// cleanEnd reports whether a yaml/v3 decoder finishes a document that
// ends at the "---" line at off without an error: it scans the next
// document's first tokens before it returns the document, and an error
// there is the document's (the whole-document path reports it as such).
// The scanner's state after "---" does not depend on the document
// before it, so an empty document stands for it.
func (s *stream) cleanEnd(off int64) bool {
	s.t.hold = off
	d := yaml.NewDecoder(io.MultiReader(strings.NewReader("{}\n"), &cursor{t: s.t, off: off}))
	var n yaml.Node
	return d.Decode(&n) == nil
}

// wholeYAML gives the document h to the whole-document path: the
// document is read again from its start.
func (s *stream) wholeYAML(h *yamlHead) {
	t := s.t
	t.hold, t.pin = keepNone, keepNone
	if t.base > h.start {
		// Its first bytes are gone: read them again.
		t.buf, t.base, t.counted, t.lines, t.err = t.buf[:0], h.start, h.start, h.lines, nil
		if _, err := s.seek.Seek(s.seekBase+h.start, io.SeekStart); err != nil {
			t.err = err
		}
	}
	s.index--
	s.resumeYAML(h.start)
}

// chunkDone records that the chunked document ended at end.
func (s *stream) chunkDone(end int64) {
	s.t.hold, s.t.pin = keepNone, keepNone
	s.yaOff = end
}

// maxPieceDepth: deeper pieces are read whole (yaml/v3 limits nesting
// to 10,000 levels for the whole document).
const maxPieceDepth = 5000

// plainTree reports whether n has no alias and nests less than
// maxPieceDepth deep.
func plainTree(n *yaml.Node, depth int) bool {
	if n.Kind == yaml.AliasNode || depth > maxPieceDepth {
		return false
	}
	for _, c := range n.Content {
		if !plainTree(c, depth+1) {
			return false
		}
	}
	return true
}

// parsePiece parses a piece of a chunked document on its own; nil when
// it cannot stand for that part of the whole document.
func parsePiece(b []byte) (*yaml.Node, bool) {
	if oddBytes(b) {
		return nil, false
	}
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return nil, false
	}
	if !plainTree(&n, 0) {
		return nil, false
	}
	return &n, true
}

// topLevel parses the head or the tail: a block mapping at column 0
// without merge keys, or nothing.
func topLevel(b []byte, line int) (value, bool) {
	n, ok := parsePiece(b)
	if !ok {
		return value{}, false
	}
	if n.Kind == 0 {
		return value{kind: kindMap}, true // comments or nothing
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return value{}, false
	}
	m := n.Content[0]
	if m.Kind != yaml.MappingNode || m.Style&yaml.FlowStyle != 0 || m.Column != 1 || m.Tag != "!!map" {
		return value{}, false
	}
	for i := 0; i < len(m.Content); i += 2 {
		if m.Content[i].Tag == "!!merge" {
			return value{}, false
		}
	}
	c := yamlConverter{budget: maxAliasValues}
	v, err := c.convert(n, false)
	if err != nil || v.kind != kindMap || len(v.dups) > 0 {
		return value{}, false
	}
	shiftLines(&v, int32(line-1))
	return v, true
}

// listItem parses an item's piece (its "- " entry) starting on line:
// with the block reader when it can, else with yaml/v3.
func listItem(b []byte, line int, br *blockReader) (value, bool) {
	if v, ok := readBlockItem(b, line, br); ok {
		return v, true
	}
	return yamlItem(b, line)
}

// yamlItem parses an item's piece with yaml/v3.
func yamlItem(b []byte, line int) (value, bool) {
	n, ok := parsePiece(b)
	if !ok || n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return value{}, false
	}
	seq := n.Content[0]
	if seq.Kind != yaml.SequenceNode || seq.Style&yaml.FlowStyle != 0 || len(seq.Content) != 1 {
		return value{}, false
	}
	c := yamlConverter{budget: maxAliasValues}
	v, err := c.convert(seq.Content[0], false)
	if err != nil {
		return value{}, false
	}
	shiftLines(&v, int32(line-1))
	return v, true
}

// yamlList reads the List document h item by item (see above); when the
// cut does not hold, it hands the document back to the stream to be read
// whole, and nothing of it has been applied.
func (r *Reader) yamlList(s *stream, src Source, h *yamlHead) {
	t := s.t
	fallBack := func() {
		r.deferred = nil
		s.wholeYAML(h)
	}
	head, ok := topLevel(h.head, h.headLine)
	if !ok {
		fallBack()
		return
	}
	if s.seek != nil {
		t.pin = keepNone // read again from the file if need be
	}
	var items []func(defKind, defVersion string)
	br := blockReader{dec: r.dec}
	off := h.off
	end, what := int64(0), itemNext
	for i := 0; what == itemNext; i++ {
		t.hold = off
		end, what = s.itemEnd(off, h.col)
		if what == itemOdd {
			fallBack()
			return
		}
		v, ok := listItem(t.buf[off-t.base:end-t.base], t.lineAt(off), &br)
		if !ok {
			fallBack()
			return
		}
		isrc := src
		isrc.Item, isrc.Line = i, int(v.line)
		if v.kind != kindMap || (v.str("kind") != "" && v.str("apiVersion") != "") {
			// The List's kind and apiVersion do not change what it reads.
			var effects []func(*Reader)
			r.deferred = &effects
			r.document(isrc, &v, "", "")
			r.deferred = nil
			br.reuse() // decoding keeps nothing of the tree
			items = append(items, func(string, string) {
				for _, f := range effects {
					f(r)
				}
			})
		} else {
			br.detach() // the tree waits for the List's kind
			items = append(items, func(defKind, defVersion string) { r.document(isrc, &v, defKind, defVersion) })
		}
		off = end
		r.listed++
	}
	tail := value{kind: kindMap}
	if what == itemTail {
		t.hold = off
		e, ok := s.tailEnd(off)
		if !ok {
			fallBack()
			return
		}
		if tail, ok = topLevel(t.buf[off-t.base:e-t.base], t.lineAt(off)); !ok {
			fallBack()
			return
		}
		end = e
	}
	if t.err != nil && t.err != io.EOF {
		fallBack() // a read error: as the whole-document path meets it
		return
	}
	if l, _, ok := s.yline(end); ok && len(l) > 0 && !s.cleanEnd(end) {
		fallBack()
		return
	}
	for i, k := range tail.keys {
		if _, dup := head.get(k); dup {
			fallBack()
			return
		}
		head.set(k, tail.elems[i], true)
	}
	kind, apiVersion := head.str("kind"), head.str("apiVersion")
	if _, ok := head.get("items"); ok || kind == "" || !(kind == "List" || strings.HasSuffix(kind, "List")) {
		fallBack()
		return
	}
	s.chunkDone(end)
	r.chunked++
	itemKind := ""
	if kind != "List" {
		itemKind = strings.TrimSuffix(kind, "List")
	}
	for _, f := range items {
		f(itemKind, apiVersion)
	}
}
