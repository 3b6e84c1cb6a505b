package app

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// tabwriterTable is what the tables printed before table: the rows
// tab-separated, one a line, through text/tabwriter.
func tabwriterTable(rows [][]string) []byte {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		tw.Write([]byte(strings.Join(r, "\t") + "\n"))
	}
	tw.Flush()
	return b.Bytes()
}

// TestTableIsTabwriter: a table lays out any cells byte for byte as
// text/tabwriter lays out the same rows (the property the explain
// goldens rely on), also cells of several runes a character, empty
// cells and cells holding tabwriter's control characters.
func TestTableIsTabwriter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ncol := rapid.IntRange(1, 6).Draw(t, "ncol")
		nrow := rapid.IntRange(0, 8).Draw(t, "nrow")
		cell := rapid.StringMatching(`[a-z ×→é0-9-]{0,12}`)
		if rapid.Bool().Draw(t, "control") {
			cell = rapid.StringMatching(`[a-z\t\n\v\f]{0,4}`)
		}
		rows := make([][]string, nrow)
		tb := newTable(ncol, nrow)
		for i := range rows {
			for range ncol {
				c := cell.Draw(t, "cell")
				rows[i] = append(rows[i], c)
				tb.cell(c)
			}
		}
		want := tabwriterTable(rows)
		if got := tb.appendTo(nil); !bytes.Equal(got, want) {
			t.Fatalf("table:\n%q\ntabwriter:\n%q", got, want)
		}
	})
}

// lineByLineTrimmed is writeTrimmed as it was written before
// writeTrimmedBytes: a string a line.
func lineByLineTrimmed(buf string, limit int) string {
	var w strings.Builder
	col := -1
	for i, line := range slices.Collect(strings.Lines(buf)) {
		line = strings.TrimRight(line, " \n")
		if i == 0 {
			col = utf8.RuneCountInString(line[:strings.LastIndex(line, " ")+1])
		}
		if limit == 0 || utf8.RuneCountInString(line) <= limit || col <= 0 || col >= limit-20 {
			w.WriteString(line + "\n")
			continue
		}
		indent := strings.Repeat(" ", col)
		for utf8.RuneCountInString(line) > limit {
			r := []rune(line)
			cut := strings.LastIndex(string(r[:limit]), " ")
			if cut <= len(string(r[:col])) {
				break
			}
			w.WriteString(strings.TrimRight(line[:cut], " ") + "\n")
			line = indent + strings.TrimLeft(line[cut:], " ")
		}
		w.WriteString(line + "\n")
	}
	return w.String()
}

// TestWriteTrimmedBytes: the byte path trims and wraps lines as the
// line by line one did, for tables of long reasons, multi-byte runes,
// trailing spaces and a last line without a newline.
func TestWriteTrimmedBytes(t *testing.T) {
	long := "  node-1  Unresolvable  " + strings.Repeat("reason wörd ", 14)
	for _, in := range []string{"", "  A    B  \n  aa   b  \n", long + "\n", "x  \ny",
		"  NODE    VERDICT       REASONS\n" + long + "\n" + long} {
		for _, limit := range []int{0, 30, 60, 120} {
			if got, want := string(writeTrimmedBytes(nil, []byte(in), limit)), lineByLineTrimmed(in, limit); got != want {
				t.Errorf("%q, limit %d:\ngot  %q\nwant %q", in, limit, got, want)
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		in := rapid.StringMatching(`(  [a-zé]{1,6}( {1,3}[a-zé×]{0,9}){0,12} {0,3}\n){0,5}[a-z ]{0,5}`).Draw(t, "in")
		limit := rapid.SampledFrom([]int{0, 20, 30, 45, 120}).Draw(t, "limit")
		if got, want := string(writeTrimmedBytes(nil, []byte(in), limit)), lineByLineTrimmed(in, limit); got != want {
			t.Fatalf("limit %d:\ngot  %q\nwant %q", limit, got, want)
		}
	})
}
