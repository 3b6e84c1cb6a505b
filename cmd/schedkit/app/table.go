package app

import (
	"bytes"
	"strconv"
	"text/tabwriter"
	"unicode/utf8"
)

// table lays out rows of cells exactly as the tables' text/tabwriter
// (minwidth 0, tabwidth 4, padding 2, padchar ' ', no flags) lays out
// the same rows written tab-separated, one a line: every cell but a
// row's last padded with spaces to its column's widest cell, in runes,
// plus two. It holds the cells' text in one buffer, so a table of
// thousands of rows costs a few allocations, not a few a cell. Every row
// has the table's number of cells (as the tables here have: one block
// per column); a cell holding one of tabwriter's control characters is
// laid out by tabwriter itself.
type table struct {
	ncol int
	// buf holds the cells' text; ends[i] is the end of cell i in buf.
	buf  []byte
	ends []int
}

// newTable makes a table of ncol cells a row, sized for rows rows.
func newTable(ncol, rows int) *table {
	return &table{ncol: ncol, buf: make([]byte, 0, rows*ncol*8), ends: make([]int, 0, rows*ncol)}
}

// reset empties t, keeping its memory, for rows of ncol cells.
func (t *table) reset(ncol int) *table {
	t.ncol, t.buf, t.ends = ncol, t.buf[:0], t.ends[:0]
	return t
}

// rowScratch is the memory one pod's tables reuse from the previous
// pod's: the cells and the laid out text.
type rowScratch struct {
	t         table
	laid, out []byte
}

// str appends s to the cell being written.
func (t *table) str(s string) { t.buf = append(t.buf, s...) }

// int appends v in decimal to the cell being written.
func (t *table) int(v int64) { t.buf = strconv.AppendInt(t.buf, v, 10) }

// end ends the cell being written.
func (t *table) end() {
	t.ends = append(t.ends, len(t.buf))
}

// cell appends a cell of the parts.
func (t *table) cell(parts ...string) {
	for _, p := range parts {
		t.str(p)
	}
	t.end()
}

// text is cell i's text.
func (t *table) text(i int) []byte {
	start := 0
	if i > 0 {
		start = t.ends[i-1]
	}
	return t.buf[start:t.ends[i]]
}

// appendTo appends the laid out rows to out.
func (t *table) appendTo(out []byte) []byte {
	n := len(t.ends)
	if t.ncol == 0 || n%t.ncol != 0 || bytes.ContainsAny(t.buf, "\t\n\v\f\xff") {
		return t.viaTabwriter(out)
	}
	widths := make([]int, t.ncol-1)
	for i := range n {
		if c := i % t.ncol; c < t.ncol-1 {
			widths[c] = max(widths[c], utf8.RuneCount(t.text(i))+2)
		}
	}
	for i := range n {
		cell := t.text(i)
		out = append(out, cell...)
		if c := i % t.ncol; c < t.ncol-1 {
			for pad := widths[c] - utf8.RuneCount(cell); pad > 0; pad-- {
				out = append(out, ' ')
			}
		} else {
			out = append(out, '\n')
		}
	}
	return out
}

// viaTabwriter is appendTo through text/tabwriter itself.
func (t *table) viaTabwriter(out []byte) []byte {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for i := range t.ends {
		tw.Write(t.text(i))
		if t.ncol > 0 && i%t.ncol == t.ncol-1 || i == len(t.ends)-1 {
			tw.Write([]byte{'\n'})
		} else {
			tw.Write([]byte{'\t'})
		}
	}
	tw.Flush()
	return append(out, b.Bytes()...)
}
