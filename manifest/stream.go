package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// maxAliasValues bounds how many values YAML aliases may expand to in one
// document.
const maxAliasValues = 1 << 20

// fallbackWindow is how much of a stream that starts like JSON is kept so
// that it can be read again as YAML if it is not JSON after all (as
// kubectl's YAMLOrJSONDecoder does for the first object of a stream).
const fallbackWindow = 1 << 20

// peekSize is how far the first non-space byte is looked for, as kubectl
// looks (resource builder: 4096 bytes).
const peekSize = 4096

// tracker reads the underlying stream once and keeps the bytes that have
// been read but not yet line-counted (and, while a JSON stream may still
// turn out to be YAML, the current document), so lines can be told for
// JSON offsets without keeping the file.
type tracker struct {
	r       io.Reader
	err     error
	buf     []byte // bytes from offset base
	base    int64
	counted int64 // newlines before this offset are in lines
	lines   int
	keep    int64 // bytes from here on must stay (fallback), or keepNone
	hold    int64 // bytes from here on are being scanned (fast JSON), or keepNone
	// floor: the start of a streamed JSON document, kept while it is
	// within fallbackWindow so that an error in it can be read again by
	// the token reader (keepNone: too late).
	floor int64
	// pin: the start of a YAML document being read item by item, kept
	// while it may have to be read again whole (keepNone: not kept).
	pin int64
}

// keepNone: no bytes need to stay for a fallback.
const keepNone = int64(math.MaxInt64)

func (t *tracker) end() int64 { return t.base + int64(len(t.buf)) }

// fill reads until the buffer holds bytes up to offset off, or the stream
// ends.
func (t *tracker) fill(off int64) {
	for t.err == nil && t.end() < off {
		t.more(int(off - t.end()))
	}
}

func (t *tracker) more(n int) {
	if n < 32<<10 {
		n = 32 << 10
	}
	if t.keep != keepNone && t.end()-t.keep > fallbackWindow {
		t.keep = keepNone // too late to read the document again as YAML
	}
	if t.floor != keepNone && t.end()-t.floor > fallbackWindow {
		t.floor = keepNone
	}
	t.trim()
	l := len(t.buf)
	if cap(t.buf)-l < n {
		nb := make([]byte, l, 2*cap(t.buf)+n)
		copy(nb, t.buf)
		t.buf = nb
	}
	m, err := t.r.Read(t.buf[l : l+n])
	t.buf = t.buf[:l+m]
	if err != nil {
		t.err = err
	}
}

// trim drops the bytes nobody needs any more.
func (t *tracker) trim() {
	low := min(t.counted, t.keep, t.hold, t.floor, t.pin)
	if d := low - t.base; d > 0 && d >= int64(len(t.buf))/2 {
		n := copy(t.buf, t.buf[d:])
		t.buf = t.buf[:n]
		t.base = low
	}
}

// lineAt returns the 1-based line of offset off; offsets may go
// backwards only over bytes still held.
func (t *tracker) lineAt(off int64) int {
	if off < t.counted && off >= t.base {
		t.lines -= bytes.Count(t.buf[off-t.base:t.counted-t.base], []byte{'\n'})
		t.counted = off
	}
	if off > t.counted {
		end := min(off, t.end())
		t.lines += bytes.Count(t.buf[t.counted-t.base:end-t.base], []byte{'\n'})
		t.counted = end
	}
	return t.lines + 1
}

// cursor reads the tracked stream from an offset.
type cursor struct {
	t   *tracker
	off int64
	// drop: nothing before the cursor is needed again (YAML).
	drop bool
}

func (c *cursor) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	t := c.t
	if c.off >= t.end() {
		if t.err != nil {
			return 0, t.err
		}
		t.more(len(p))
	}
	n := copy(p, t.buf[c.off-t.base:])
	c.off += int64(n)
	if c.drop {
		t.counted, t.keep = c.off, c.off
	}
	if n == 0 && t.err != nil {
		return 0, t.err
	}
	return n, nil
}

// document is one top-level document of a stream.
type document struct {
	index int // 1-based, counting empty documents too
	line  int
	v     value
	// raw is a JSON object's bytes (fast path; v is then an empty map),
	// valid until the next call of next.
	raw []byte
	// big: a JSON object too large to hold, to be read item by item
	// from the stream (Reader.bigDocument).
	big bool
	// list: a YAML List in kubectl's shape, to be read item by item from
	// the stream (Reader.yamlList).
	list *yamlHead
}

// stream reads the documents of one file as kubectl does.
type stream struct {
	name  string
	t     *tracker
	count int // documents returned
	index int // documents seen, empty ones included

	js       *json.Decoder
	jsCursor *cursor
	jsBase   int64 // offset the JSON decoder started at
	jsonDocs int   // JSON documents decoded
	// jsFast: JSON is scanned from jsOff by the fast path; any document
	// it cannot scan is handed to the token reader (js) from its start.
	jsFast  bool
	jsOff   int64
	bigSize int64 // documents at least this large are streamed
	ya      *yaml.Decoder
	yaLine  int // lines before the YAML decoder's start
	// yaOff: while YAML is read and ya is nil, the next document starts
	// here, and Lists in kubectl's shape are read item by item (chunk).
	yaOff int64
	// yaStart and yaStartLine are the offset and line where the yaml/v3
	// decoder started, for constructLine.
	yaStart     int64
	yaStartLine int
	chunk       bool
	// seek, when the stream can seek, reads a chunked document again:
	// offset 0 is seekBase in it.
	seek     io.Seeker
	seekBase int64
	done     bool
}

// bigDocumentSize is the size from which a JSON document is read item by
// item instead of being held whole.
const bigDocumentSize = 256 << 10

func newStream(name string, r io.Reader) *stream { return newStreamFast(name, r, true, 0) }

// newStreamFast is newStream with the fast JSON path on or off, and the
// size from which JSON documents are streamed (0: bigDocumentSize).
func newStreamFast(name string, r io.Reader, fast bool, bigSize int64) *stream {
	if bigSize <= 0 {
		bigSize = bigDocumentSize
	}
	s := &stream{name: name, t: &tracker{r: r, hold: keepNone, floor: keepNone, pin: keepNone}, jsFast: fast, bigSize: bigSize}
	t := s.t
	t.fill(peekSize)
	start := int64(0)
	b := t.buf
	if bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
		start = 3
	}
	if first := bytes.TrimLeft(b[start:], " \t\r\n\f\v"); len(first) > 0 && first[0] == '{' {
		s.startJSON(start)
	} else {
		s.jsFast = false // YAML: the first document is looked at by next
	}
	return s
}

func (s *stream) startJSON(off int64) {
	if s.jsFast {
		s.jsBase, s.jsOff = off, off
		s.t.keep = off
		return
	}
	s.tokens(off)
}

// retryBig gives the streamed document that started at off, in which an
// error was found, to the token reader, if its bytes are still held: it
// reports the error as it always has, or reads the stream as YAML. It
// reports whether it could.
func (s *stream) retryBig(off int64) bool {
	if s.t.floor == keepNone || s.t.floor > off || s.t.base > off {
		s.t.floor = keepNone
		return false
	}
	s.t.floor = keepNone
	s.index--
	s.tokens(off)
	return true
}

// tokens reads JSON token by token from off on.
func (s *stream) tokens(off int64) {
	s.jsFast = false
	s.t.hold = keepNone
	s.jsCursor = &cursor{t: s.t, off: off}
	s.jsBase = off
	s.t.keep = off
	s.js = json.NewDecoder(s.jsCursor)
	s.js.UseNumber()
}

func (s *stream) startYAML(off int64) {
	s.yaStart, s.yaStartLine = off, s.t.lineAt(off)
	s.yaLine = s.t.lineAt(off) - 1
	s.t.keep = off
	s.js = nil
	s.jsFast = false
	s.t.hold = keepNone
	s.ya = yaml.NewDecoder(&cursor{t: s.t, off: off, drop: true})
}

// resumeYAML is startYAML at a "---" line that is not the stream's first
// line, after documents read item by item. yaml/v3 leaves the line out of
// an error found on its input's first line (and counts parser errors' lines
// from 0): a blank line before it keeps every line as a decoder reading
// from the stream's start would tell it.
func (s *stream) resumeYAML(off int64) {
	if off == 0 {
		s.startYAML(0)
		return
	}
	s.startYAML(off)
	s.yaLine--
	s.ya = yaml.NewDecoder(io.MultiReader(strings.NewReader("\n"), &cursor{t: s.t, off: off, drop: true}))
}

// next returns the next non-empty document, or io.EOF.
func (s *stream) next() (document, error) {
	for !s.done {
		var d document
		var err error
		if s.jsFast {
			d, err = s.nextFast()
		} else if s.js != nil {
			d, err = s.nextJSON()
		} else if s.ya == nil {
			d, err = s.nextYAMLStart()
		} else {
			d, err = s.nextYAML()
		}
		if err != nil {
			if err != io.EOF {
				s.done = true
			}
			return document{}, err
		}
		if d.v.kind == kindNull {
			continue
		}
		s.count++
		return d, nil
	}
	return document{}, io.EOF
}

// nextYAMLStart returns the YAML document at yaOff: a List in kubectl's
// shape to be read item by item, or else the next document of a yaml/v3
// decoder that reads the rest of the stream.
func (s *stream) nextYAMLStart() (document, error) {
	if s.chunk {
		if h := s.listHead(); h != nil {
			s.index++
			return document{index: s.index, line: h.line, v: value{kind: kindMap}, list: h}, nil
		}
	}
	s.t.pin = keepNone
	s.resumeYAML(s.yaOff)
	return s.nextYAML()
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+):`)

func (s *stream) nextYAML() (document, error) {
	var n yaml.Node
	if err := s.ya.Decode(&n); err != nil {
		if err == io.EOF {
			return document{}, io.EOF
		}
		msg := err.Error()
		line := 0
		if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
			l, _ := strconv.Atoi(m[1])
			line = l + s.yaLine
			msg = msg[len(m[0]):]
			if len(msg) > 0 && msg[0] == ' ' {
				msg = msg[1:]
			}
		}
		s.index++
		msg = strings.TrimPrefix(msg, "yaml: ")
		if binaryYAMLError(msg) {
			// The whole input is given up: one error for the file.
			return document{}, &Error{Source: Source{File: s.name, Document: s.index, Item: -1}, Err: errors.New("not YAML or JSON: the file holds binary data")}
		}
		if l := s.constructLine(line, msg); l > 0 {
			line = l
		}
		return document{}, &Error{Source: Source{File: s.name, Line: line, Document: s.index, Item: -1}, Line: line, Err: fmt.Errorf("yaml: %s", msg)}
	}
	s.index++
	docLine := n.Line + s.yaLine
	src := Source{File: s.name, Line: docLine, Document: s.index, Item: -1}
	if len(n.Content) > 0 {
		root := n.Content[0]
		if root.Line == n.Line && root.Column > n.Column {
			// kubectl's YAMLReader allows only spaces or a comment after a
			// "---" separator.
			return document{}, &Error{Source: src, Line: docLine, Err: errors.New("invalid YAML document separator: content after \"---\" on the same line (kubectl allows only a comment there)")}
		}
		src.Line = root.Line + s.yaLine
	}
	c := yamlConverter{budget: maxAliasValues}
	v, err := c.convert(&n, false)
	if err != nil {
		var le *lineError
		if errors.As(err, &le) {
			return document{}, &Error{Source: src, Line: le.line + s.yaLine, Err: le.err}
		}
		return document{}, &Error{Source: src, Line: src.Line, Err: err}
	}
	if s.yaLine != 0 {
		shiftLines(&v, int32(s.yaLine))
	}
	return document{index: s.index, line: src.Line, v: v}, nil
}

func shiftLines(v *value, d int32) {
	v.line += d
	for i := range v.elems {
		shiftLines(&v.elems[i], d)
	}
}

func (s *stream) nextJSON() (document, error) {
	if !s.js.More() {
		_, err := s.js.Token()
		if err == io.EOF {
			return document{}, io.EOF
		}
		if err == nil {
			err = errors.New("unexpected end of an array or object")
		}
		s.index++
		line := s.t.lineAt(s.jsBase + s.js.InputOffset())
		return document{}, &Error{Source: Source{File: s.name, Line: line, Document: s.index, Item: -1}, Line: line, Err: fmt.Errorf("json: %w", err)}
	}
	start := s.jsBase + s.js.InputOffset()
	s.index++
	jr := jsonReader{s: s}
	v, err := jr.value()
	if err != nil {
		if s.jsonDocs <= 1 && isSyntax(err) && s.t.keep <= start {
			// Not JSON after all: read it again as YAML, as kubectl does
			// while the stream has yielded at most one object.
			s.index--
			s.startYAML(start)
			return s.nextYAML()
		}
		line := s.t.lineAt(s.jsBase + s.js.InputOffset())
		return document{}, &Error{Source: Source{File: s.name, Line: int(v.line), Document: s.index, Item: -1}, Line: line, Err: fmt.Errorf("json: %w", err)}
	}
	s.jsonDocs++
	if s.jsonDocs >= 2 {
		s.t.keep = keepNone // an unambiguous JSON stream: no fallback any more
	} else if s.t.keep != keepNone {
		s.t.keep = s.jsBase + s.js.InputOffset()
	}
	return document{index: s.index, line: int(v.line), v: v}, nil
}

func isSyntax(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, errNotObject)
}

var errNotObject = errors.New("not a JSON object")

// jsonReader builds a value from a JSON stream token by token, so that a
// single huge line costs the objects it holds and not a copy of itself.
type jsonReader struct{ s *stream }

func (j jsonReader) line() int32 {
	return int32(j.s.t.lineAt(j.s.jsBase + j.s.js.InputOffset()))
}

func (j jsonReader) value() (value, error) {
	tok, err := j.s.js.Token()
	if err != nil {
		return value{}, err
	}
	return j.from(tok)
}

func (j jsonReader) from(tok json.Token) (value, error) {
	line := j.line()
	switch t := tok.(type) {
	case nil:
		return value{kind: kindNull, line: line}, nil
	case bool:
		return value{kind: kindBool, line: line, text: strconv.FormatBool(t)}, nil
	case json.Number:
		return value{kind: kindNumber, line: line, text: string(t)}, nil
	case string:
		return value{kind: kindString, line: line, text: t}, nil
	case json.Delim:
		switch t {
		case '[':
			v := value{kind: kindList, line: line}
			for j.s.js.More() {
				e, err := j.value()
				if err != nil {
					return v, err
				}
				v.elems = append(v.elems, e)
			}
			_, err := j.s.js.Token()
			return v, err
		case '{':
			v := value{kind: kindMap, line: line}
			for j.s.js.More() {
				kt, err := j.s.js.Token()
				if err != nil {
					return v, err
				}
				key, _ := kt.(string)
				kl := j.line()
				e, err := j.value()
				if err != nil {
					return v, err
				}
				e.line = kl
				v.set(key, e, true)
			}
			_, err := j.s.js.Token()
			return v, err
		}
	}
	return value{}, fmt.Errorf("unexpected JSON token %v", tok)
}

// errTooBig: the document is larger than the stream holds whole.
var errTooBig = errors.New("document too large to hold")

// nextFast scans the next JSON document. A document it cannot scan (not
// an object, a syntax error, a read error) is given to the token reader,
// which reports it (or decides the stream is YAML) as it always has.
func (s *stream) nextFast() (document, error) {
	t := s.t
	c, err := s.space()
	if err == io.EOF && t.err == io.EOF {
		return document{}, io.EOF
	}
	if err != nil || c != '{' {
		s.tokens(s.jsOff)
		return s.nextJSON()
	}
	off := s.jsOff
	end, err := s.extent(off, s.bigSize)
	if err == errTooBig {
		t.floor = off
		s.index++
		return document{index: s.index, line: t.lineAt(off), v: value{kind: kindMap}, big: true}, nil
	}
	if err != nil {
		s.tokens(off)
		return s.nextJSON()
	}
	s.index++
	line := t.lineAt(off)
	raw := t.buf[off-t.base : end-t.base]
	s.jsOff = end
	s.docRead(end)
	return document{index: s.index, line: line, v: value{kind: kindMap}, raw: raw}, nil
}

// docRead records that a JSON document ending at end has been read.
func (s *stream) docRead(end int64) {
	s.t.floor = keepNone
	s.jsonDocs++
	if s.jsonDocs >= 2 {
		s.t.keep = keepNone // an unambiguous JSON stream: no fallback any more
	} else if s.t.keep != keepNone {
		s.t.keep = end
	}
	s.t.hold = end
}

// space skips white space from jsOff and returns the byte there, or
// io.EOF (or the read error) at the end of the stream.
func (s *stream) space() (byte, error) {
	t := s.t
	for {
		t.hold = s.jsOff
		if s.jsOff >= t.end() {
			if t.err != nil {
				return 0, t.err
			}
			t.more(0)
			continue
		}
		b := t.buf[s.jsOff-t.base:]
		i := skipSpace(b, 0)
		s.jsOff += int64(i)
		if i < len(b) {
			return b[i], nil
		}
	}
}

// extent returns the end of the JSON value at off, holding its bytes;
// errTooBig when it is at least limit bytes long (limit > 0).
func (s *stream) extent(off, limit int64) (int64, error) {
	t := s.t
	t.hold = off
	want := off + 16<<10
	for {
		t.fill(want)
		b := t.buf[off-t.base:]
		n, err := skipValue(b, 0)
		if err == nil {
			return off + int64(n), nil
		}
		if err != errShort {
			return off + int64(n), err
		}
		if limit > 0 && int64(len(b)) >= limit {
			return 0, errTooBig
		}
		if t.err != nil {
			if t.err == io.EOF {
				return t.end(), io.ErrUnexpectedEOF
			}
			return t.end(), t.err
		}
		want = off + 2*int64(len(b)) + 1
	}
}

// value returns the bytes of the JSON value at jsOff (after white space)
// and its offset, and moves past it; the bytes are valid until the
// stream reads on.
func (s *stream) value() ([]byte, int64, error) {
	if _, err := s.space(); err != nil {
		return nil, s.jsOff, unexpected(err)
	}
	off := s.jsOff
	end, err := s.extent(off, 0)
	if err != nil {
		var se *syntaxError
		if errors.As(err, &se) {
			return nil, off + int64(se.off), err
		}
		return nil, end, err
	}
	t := s.t
	s.jsOff = end
	return t.buf[off-t.base : end-t.base], off, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// expect reads one of the bytes of want (after white space) and returns
// it; context words the error as encoding/json does.
func (s *stream) expect(want, context string) (byte, error) {
	c, err := s.space()
	if err != nil {
		return 0, unexpected(err)
	}
	if !strings.ContainsRune(want, rune(c)) {
		return 0, &syntaxError{msg: "invalid character " + quoteChar(c) + " " + context}
	}
	s.jsOff++
	return c, nil
}

// binaryYAMLError reports whether a yaml/v3 error says its input is not
// text: control characters or bytes that are not UTF-8.
func binaryYAMLError(msg string) bool {
	for _, m := range []string{"control characters are not allowed", "invalid leading UTF-8 octet", "invalid trailing UTF-8 octet", "incomplete UTF-8 octet sequence"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// constructLine is, for a yaml/v3 error about an unclosed flow mapping or
// sequence found at line, the line where that construct opens: yaml/v3
// names the line where it gave up, often the one before or after. It
// returns 0 when it cannot tell (another error, or the text is no
// longer held).
func (s *stream) constructLine(line int, msg string) int {
	var open, close byte
	switch {
	case strings.Contains(msg, "did not find expected ',' or '}'"):
		open, close = '{', '}'
	case strings.Contains(msg, "did not find expected ',' or ']'"):
		open, close = '[', ']'
	default:
		return 0
	}
	t := s.t
	start := s.yaStart
	if start < t.base {
		return 0
	}
	end := t.base + int64(len(t.buf))
	// The unclosed construct opens at the first opening bracket of the
	// document, up to the line after the one named, that no bracket
	// closes.
	type opened struct{ line int }
	var stack []opened
	var quote byte
	cur := s.yaStartLine
	for off := start; off < end && cur <= line+1; off++ {
		c := t.buf[off-t.base]
		if quote != 0 {
			if c == quote {
				quote = 0
			} else if c == '\n' {
				cur++
			}
			continue
		}
		switch c {
		case '\n':
			cur++
			if rest := t.buf[off+1-t.base:]; len(stack) > 0 && len(rest) >= 3 && string(rest[:3]) == "---" {
				stack = stack[:0] // a new document
			}
		case '"', '\'':
			quote = c
		case '#':
			for off+1 < end && t.buf[off+1-t.base] != '\n' {
				off++
			}
		case open:
			stack = append(stack, opened{cur})
		case close:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return 0
	}
	return stack[0].line
}
