package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/scheduler"
	"sigs.k8s.io/yaml"
)

// docWriter streams one JSON or YAML document of the shape
// {"<list>": [item, ...], "<tail key>": value}: each item is written as it
// comes, so memory does not grow with the number of items.
type docWriter struct {
	w    *bufio.Writer
	yaml bool
	list string
	n    int
}

func newDocWriter(w io.Writer, format, list string) *docWriter {
	return &docWriter{w: bufio.NewWriterSize(w, 64<<10), yaml: format == "yaml", list: list}
}

// item writes one element of the list.
func (d *docWriter) item(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if d.yaml {
		if d.n == 0 {
			fmt.Fprintf(d.w, "%s:\n", d.list)
		}
		y, err := yaml.JSONToYAML(b)
		if err != nil {
			return err
		}
		writeIndented(d.w, "- ", "  ", y)
	} else {
		if d.n == 0 {
			fmt.Fprintf(d.w, "{%q: [\n", d.list)
		} else {
			d.w.WriteString(",\n")
		}
		d.w.Write(b)
	}
	d.n++
	return nil
}

// finish writes the other keys (in order) and closes the document.
func (d *docWriter) finish(keys []string, values ...any) error {
	if d.yaml {
		if d.n == 0 {
			fmt.Fprintf(d.w, "%s: []\n", d.list)
		}
		for i, k := range keys {
			b, err := json.Marshal(values[i])
			if err != nil {
				return err
			}
			y, err := yaml.JSONToYAML(b)
			if err != nil {
				return err
			}
			fmt.Fprintf(d.w, "%s:\n", k)
			writeIndented(d.w, "  ", "  ", y)
		}
		return d.w.Flush()
	}
	if d.n == 0 {
		fmt.Fprintf(d.w, "{%q: [", d.list)
	} else {
		d.w.WriteString("\n")
	}
	d.w.WriteString("]")
	for i, k := range keys {
		b, err := json.Marshal(values[i])
		if err != nil {
			return err
		}
		fmt.Fprintf(d.w, ",\n%q: %s", k, b)
	}
	d.w.WriteString("}\n")
	return d.w.Flush()
}

// writeIndented writes the lines of y, the first prefixed with first and
// the others with rest.
func writeIndented(w *bufio.Writer, first, rest string, y []byte) {
	lines := strings.Split(strings.TrimSuffix(string(y), "\n"), "\n")
	for i, l := range lines {
		if i == 0 {
			w.WriteString(first)
		} else {
			w.WriteString(rest)
		}
		w.WriteString(l)
		w.WriteByte('\n')
	}
}

// rowWriter prints explain's rows in the -o format.
type rowWriter struct {
	e    *env
	o    *options
	doc  *docWriter
	w    *bufio.Writer
	wide bool
	n    int
	// legend are the score plugins the tables headed, first use first.
	legend []string
	// scratch is the tables' memory, reused pod after pod.
	scratch rowScratch
}

func newRowWriter(e *env, o *options) *rowWriter {
	rw := &rowWriter{e: e, o: o, wide: o.output == "wide"}
	if o.output == "json" || o.output == "yaml" {
		rw.doc = newDocWriter(e.stdout, o.output, "pods")
	} else {
		rw.w = bufio.NewWriter(e.stdout)
	}
	return rw
}

func (rw *rowWriter) row(r *podRow) error {
	if rw.doc != nil {
		r.nodeMap()
		return rw.doc.item(&r.res)
	}
	if rw.n > 0 {
		rw.w.WriteString("\n")
	}
	rw.n++
	for _, ps := range r.plugins {
		if !slices.Contains(rw.legend, ps.Plugin) {
			rw.legend = append(rw.legend, ps.Plugin)
		}
	}
	writeRowTable(rw.w, r, rw.wide, &rw.scratch)
	return rw.w.Flush()
}

func (rw *rowWriter) finish(sum explainSummary) error {
	if rw.doc != nil {
		return rw.doc.finish([]string{"summary"}, sum)
	}
	if rw.n > 0 {
		rw.w.WriteString("\n")
	}
	if rw.legend != nil {
		limit := maxWidth
		if rw.wide {
			limit = 0
		}
		rw.w.WriteString(wrapText("legend: "+legendText(rw.legend, rw.wide), "  ", limit))
	}
	fmt.Fprintln(rw.w, sum.Summary.String())
	return rw.w.Flush()
}

// shortPlugins are the table's headers for the default profile's score
// plugins; the legend line names them in full.
var shortPlugins = map[string]string{
	"NodeResourcesFit":                "Fit",
	"NodeResourcesBalancedAllocation": "Bal",
	"ImageLocality":                   "Img",
	"TaintToleration":                 "Taint",
	"NodeAffinity":                    "NodeAff",
	"PodTopologySpread":               "Spread",
	"InterPodAffinity":                "PodAff",
	"VolumeBinding":                   "Vol",
}

// shortPlugin is a score plugin's column header word.
func shortPlugin(name string) string {
	if s, ok := shortPlugins[name]; ok {
		return s
	}
	return name
}

// shortCode is a filter code as the table shows it: the long
// UnschedulableAndUnresolvable is Unresolvable.
func shortCode(code string) string {
	if code == "UnschedulableAndUnresolvable" {
		return "Unresolvable"
	}
	return code
}

// legendText names the short headers the tables used, in the order of
// their first use.
func legendText(plugins []string, wide bool) string {
	var parts []string
	if wide {
		// -o wide spells plugins and codes out.
		return "×N the plugin's weight, IF PLACED HERE: requested now→with the pod on that node/allocatable"
	}
	for _, p := range plugins {
		if s := shortPlugin(p); s != p {
			parts = append(parts, s+" "+p)
		}
	}
	parts = append(parts, "×N the plugin's weight", "Unresolvable UnschedulableAndUnresolvable")
	return strings.Join(parts, ", ")
}

// wrapText is text in lines of at most limit characters (0: one line),
// broken at spaces, the continuation lines prefixed with indent.
func wrapText(text, indent string, limit int) string {
	if limit == 0 || utf8.RuneCountInString(text) <= limit {
		return text + "\n"
	}
	var b strings.Builder
	line := ""
	for word := range strings.FieldsSeq(text) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > limit:
			b.WriteString(line + "\n")
			line = indent + word
		default:
			line += " " + word
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// maxWidth is the widest line of a default table; -o wide does not cut.
const maxWidth = 120

// podHeadline is a pod's first line in the outcome vocabulary:
// "POD → NODE", "POD → preempting on NODE, evicting …: MESSAGE",
// "POD → unschedulable: MESSAGE", "POD → gated: MESSAGE". The tied
// nodes are named only when more than one node is tied.
func podHeadline(res *podResult) string {
	switch res.Outcome {
	case scheduler.OutcomePlaced:
		if len(res.Tied) > 1 {
			return fmt.Sprintf("%s → %s (tied: %s)", res.Pod, res.Node, strings.Join(res.Tied, ", "))
		}
		return fmt.Sprintf("%s → %s", res.Pod, res.Node)
	case scheduler.OutcomePreempting:
		return fmt.Sprintf("%s → preempting on %s, evicting %s: %s", res.Pod, res.Preemption.Node, strings.Join(res.Preemption.Victims, ", "), res.Message)
	}
	return fmt.Sprintf("%s → %s: %s", res.Pod, res.Outcome, res.Message)
}

// writeRowTable prints one pod: a headline, its unverified marks and
// notes, then the feasible nodes with their totals and each plugin's
// normalised score, then the rejected nodes with their reasons. A gated
// pod is its headline alone: no cycle ran.
func writeRowTable(w io.Writer, r *podRow, wide bool, sc *rowScratch) {
	res := &r.res
	limit := maxWidth
	if wide {
		limit = 0
	}
	if res.BoundTo != "" {
		fmt.Fprintf(w, "%s is bound to %s; if it were pending now, on the cluster without it:\n", res.Pod, res.BoundTo)
	}
	io.WriteString(w, wrapText(podHeadline(res), "  ", limit))
	for _, u := range res.Unverified {
		fmt.Fprintf(w, "  unverified: %s\n", u)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if res.Outcome == scheduler.OutcomeGated {
		return
	}
	var feasible, rejected []int
	for i := range r.order {
		if nr := &r.nodes[i]; nr.Total != nil || nr.Code == "Success" {
			feasible = append(feasible, i)
		} else {
			rejected = append(rejected, i)
		}
	}
	out := sc.out[:0]
	if len(feasible) > 0 {
		head := []string{"  NODE", "VERDICT", "TOTAL"}
		for _, ps := range r.plugins {
			name := ps.Plugin
			if !wide {
				name = shortPlugin(name)
			}
			head = append(head, name+"×"+strconv.FormatInt(ps.Weight, 10))
		}
		devices := false
		for _, i := range feasible {
			if r.nodes[i].Devices != nil {
				devices = true
			}
		}
		if wide {
			head = append(head, "CPU IF PLACED HERE", "MEMORY IF PLACED HERE")
			if devices {
				head = append(head, "DEVICES")
			}
		}
		t := sc.t.reset(len(head))
		for _, h := range head {
			t.cell(h)
		}
		for _, i := range feasible {
			name, nr := r.order[i], &r.nodes[i]
			verdict := "feasible"
			if name == res.Node {
				verdict = "chosen"
			}
			t.cell("  ", name)
			t.cell(verdict)
			if nr.Total != nil {
				t.int(*nr.Total)
				t.end()
			} else {
				t.cell("-")
			}
			for _, ps := range r.plugins {
				if v, ok := r.score(i, ps.Plugin); ok {
					t.int(v)
					t.end()
				} else {
					t.cell("-")
				}
			}
			if wide {
				b := r.before[i]
				a := b
				a.CPU += r.add.CPU
				a.Memory += r.add.Memory
				t.cell(fmtCPU(b.CPU), "→", fmtCPU(a.CPU), "/", fmtCPU(b.AllocCPU))
				t.cell(fmtMem(b.Memory), "→", fmtMem(a.Memory), "/", fmtMem(b.AllocMemory))
				if devices {
					t.cell(devicesText(nr.Devices))
				}
			}
		}
		sc.laid = t.appendTo(sc.laid[:0])
		out = writeTrimmedBytes(out, sc.laid, limit)
		// The default table names the chosen node's devices on a line.
		if nr, ok := r.nodeNamed(res.Node); ok && !wide && nr.Devices != nil && len(nr.Devices.Claims) > 0 {
			out = append(out, wrapText("  devices on "+res.Node+": "+devicesText(nr.Devices), "    ", limit)...)
		}
	}
	if len(rejected) > 0 {
		// A pod that fits nowhere: each node's preemption verdict.
		preempt := false
		for _, i := range rejected {
			if r.nodes[i].Preemption != nil {
				preempt = true
				break
			}
		}
		head := []string{"  REJECTED NODE", "VERDICT"}
		if preempt {
			head = append(head, "PREEMPTION")
		}
		head = append(head, "REASONS")
		t := sc.t.reset(len(head))
		for _, h := range head {
			t.cell(h)
		}
		for _, i := range rejected {
			name, nr := r.order[i], &r.nodes[i]
			code := nr.Code
			if !wide {
				code = shortCode(code)
			}
			t.cell("  ", name)
			t.cell(code)
			var verdict, detail string
			if preempt {
				verdict, detail = preemptionText(nr.Preemption)
				t.cell(verdict)
			}
			if nr.Plugin != "" {
				t.str(nr.Plugin)
				t.str(": ")
			}
			for j, reason := range nr.Reasons {
				if j > 0 {
					t.str("; ")
				}
				t.str(reason)
			}
			if d := devicesRejection(nr); d != "" {
				t.str("; ")
				t.str(d)
			}
			if detail != "" {
				t.str("; ")
				t.str(detail)
			}
			t.end()
		}
		sc.laid = t.appendTo(sc.laid[:0])
		out = writeTrimmedBytes(out, sc.laid, limit)
	}
	w.Write(out)
	sc.out = out
	writeWhyNot(w, res.WhyNot, limit)
}

// writeWhyNot prints --why-not's answer: the summary line, then per node
// the smallest verified change, the cheapest marked.
func writeWhyNot(w io.Writer, wn *whyNotResult, limit int) {
	if wn == nil {
		return
	}
	lim := limit
	if lim > 0 {
		lim -= 2 // the line is indented
	}
	io.WriteString(w, "  "+wrapText("why not: "+wn.Summary, "    ", lim))
	if wn.NotVerified > 0 {
		fmt.Fprintf(w, "  note: %d change(s) not verified (each re-runs PreFilter on a changed cluster; the first %d were)\n", wn.NotVerified, scheduler.MaxSandboxChecks)
	}
	if len(wn.Nodes) == 0 {
		io.WriteString(w, "  no single change makes a node feasible\n")
		return
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  WHY-NOT NODE\tCHANGE\tSMALLEST CHANGE THAT MAKES IT FEASIBLE (VERIFIED)")
	for _, sg := range wn.Nodes {
		text := sg.Text
		if wn.Best != nil && sg.Node == wn.Best.Node {
			text += " (cheapest)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", sg.Node, sg.Kind, text)
	}
	tw.Flush()
	writeTrimmed(w, &buf, limit)
}

// preemptionText is a node's preemption verdict as the table and the
// HTML report show it: the verdict ("Candidate (chosen)" for the node
// nominated, "-" for none) and what to add to the node's reasons: the
// victims preemption would evict there, or why it cannot help.
func preemptionText(np *nodePreemption) (verdict, detail string) {
	if np == nil {
		return "-", ""
	}
	verdict = np.Verdict
	if np.Chosen {
		verdict += " (chosen)"
	}
	if len(np.Victims) > 0 {
		detail = "preemption would evict " + strings.Join(np.Victims, ", ")
		if np.PDBViolations > 0 {
			detail += fmt.Sprintf(" (%d violating a PodDisruptionBudget)", np.PDBViolations)
		}
		if np.Verdict == "CandidateDropped" {
			detail += " (not compared: enough candidates were found)"
		}
		return verdict, detail
	}
	if len(np.Reasons) > 0 {
		switch np.Verdict {
		case "CannotHelp":
			detail = "preemption cannot help: "
		case "Failed":
			detail = "preemption failed: "
		default:
			detail = "preemption: "
		}
		if np.Plugin != "" {
			detail += np.Plugin + ": "
		}
		detail += strings.Join(np.Reasons, "; ")
	}
	return verdict, detail
}

// writeTrimmed writes buf's lines without their trailing spaces (which
// tabwriter leaves after an empty last column). When limit is not 0, a
// line longer than limit is wrapped at spaces, its continuation lines
// indented to the last column (whose header is the first line's last
// word), so that nothing is cut.
func writeTrimmed(w io.Writer, buf *bytes.Buffer, limit int) {
	w.Write(writeTrimmedBytes(nil, buf.Bytes(), limit))
}

// writeTrimmedBytes is writeTrimmed appending to out: a line that fits
// is copied as it is, without a string of its own.
func writeTrimmedBytes(out, b []byte, limit int) []byte {
	col := -1
	for i := 0; len(b) > 0; i++ {
		var line []byte
		if k := bytes.IndexByte(b, '\n'); k >= 0 {
			line, b = b[:k+1], b[k+1:]
		} else {
			line, b = b, nil
		}
		line = bytes.TrimRight(line, " \n")
		if i == 0 {
			col = utf8.RuneCount(line[:bytes.LastIndexByte(line, ' ')+1])
		}
		if limit == 0 || col <= 0 || col >= limit-20 || utf8.RuneCount(line) <= limit {
			out = append(out, line...)
			out = append(out, '\n')
			continue
		}
		out = wrapLine(out, string(line), col, limit)
	}
	return out
}

// wrapLine appends a line longer than limit, wrapped at spaces past col
// onto lines indented to col.
func wrapLine(out []byte, line string, col, limit int) []byte {
	indent := strings.Repeat(" ", col)
	for utf8.RuneCountInString(line) > limit {
		r := []rune(line)
		cut := strings.LastIndex(string(r[:limit]), " ")
		if cut <= len(string(r[:col])) {
			break
		}
		out = append(out, strings.TrimRight(line[:cut], " ")...)
		out = append(out, '\n')
		line = indent + strings.TrimLeft(line[cut:], " ")
	}
	out = append(out, line...)
	return append(out, '\n')
}

// fmtCPU prints millicores as Kubernetes would ("2", "1500m").
func fmtCPU(m int64) string {
	if m%1000 == 0 {
		return fmt.Sprint(m / 1000)
	}
	return fmt.Sprintf("%dm", m)
}

// fmtMem prints bytes in the largest binary unit that keeps one decimal.
func fmtMem(b int64) string {
	const ki = 1024
	switch {
	case b >= ki*ki*ki:
		return trimFloat(float64(b)/(ki*ki*ki)) + "Gi"
	case b >= ki*ki:
		return trimFloat(float64(b)/(ki*ki)) + "Mi"
	case b >= ki:
		return trimFloat(float64(b)/ki) + "Ki"
	}
	return fmt.Sprint(b)
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	return strings.TrimSuffix(s, ".0")
}

// progress prints "explained 120/4000 pods" on stderr when it is a
// terminal and the run has taken more than env.progressDelay.
type progress struct {
	e     *env
	what  string
	total int
	start time.Time
	last  time.Time
	shown bool
}

func newProgress(e *env, what string, total int) *progress {
	now := time.Now()
	return &progress{e: e, what: what, total: total, start: now, last: now}
}

// due reports whether a progress line is due now: on a terminal, after
// the delay, at most every 200 ms (every time with no delay, as tests
// run it).
func (e *env) due(start, last time.Time, shown bool) bool {
	if !e.terminal {
		return false
	}
	if e.progressDelay == 0 {
		return true
	}
	now := time.Now()
	return now.Sub(start) >= e.progressDelay && (!shown || now.Sub(last) >= 200*time.Millisecond)
}

func (p *progress) tick(i int) {
	if !p.e.due(p.start, p.last, p.shown) {
		return
	}
	p.last, p.shown = time.Now(), true
	fmt.Fprintf(p.e.stderr, "\r%s %d/%d pods", p.what, i, p.total)
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprintf(p.e.stderr, "\r%s %d/%d pods\n", p.what, p.total, p.total)
	}
}

// readProgress prints "read 12.3 MiB, 4021 objects" on stderr while the
// manifests are read, when it is a terminal.
type readProgress struct {
	e           *env
	start, last time.Time
	shown       bool
	now         manifest.ReadProgress
}

func newReadProgress(e *env) *readProgress {
	now := time.Now()
	return &readProgress{e: e, start: now, last: now}
}

func (p *readProgress) tick(rp manifest.ReadProgress) {
	p.now = rp
	if !p.e.due(p.start, p.last, p.shown) {
		return
	}
	p.last, p.shown = time.Now(), true
	fmt.Fprintf(p.e.stderr, "\rread %s, %d objects", fmtMem(rp.Bytes)+"B", rp.Objects)
}

func (p *readProgress) done() {
	if p.shown {
		fmt.Fprintf(p.e.stderr, "\rread %s, %d objects\n", fmtMem(p.now.Bytes)+"B", p.now.Objects)
	}
}
