package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

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
		return rw.doc.item(&r.res)
	}
	if rw.n > 0 {
		rw.w.WriteString("\n")
	}
	rw.n++
	writeRowTable(rw.w, r, rw.wide)
	return rw.w.Flush()
}

func (rw *rowWriter) finish(sum explainSummary) error {
	if rw.doc != nil {
		return rw.doc.finish([]string{"summary"}, sum)
	}
	if rw.n > 0 {
		rw.w.WriteString("\n")
	}
	fmt.Fprintf(rw.w, "%d pod(s): %d placed, %d unschedulable, %d preempting, %d gated, %d unverified; %d node(s)\n",
		sum.Pods, sum.Placed, sum.Unschedulable, sum.Preempting, sum.Gated, sum.Unverified, sum.Nodes)
	return rw.w.Flush()
}

// writeRowTable prints one pod: a header line, then one line per node
// with its verdict, total and each plugin's normalised score.
func writeRowTable(w io.Writer, r *podRow, wide bool) {
	res := &r.res
	switch {
	case res.Node != "":
		fmt.Fprintf(w, "%s → %s (tied: %s)\n", res.Pod, res.Node, strings.Join(res.Tied, ", "))
	case r.gated:
		fmt.Fprintf(w, "%s → gated: %s\n", res.Pod, res.Message)
	case r.preempting:
		fmt.Fprintf(w, "%s → preempts on %s, evicting %s: %s\n", res.Pod, res.Preemption.Node, strings.Join(res.Preemption.Victims, ", "), res.Message)
	default:
		fmt.Fprintf(w, "%s → unschedulable: %s\n", res.Pod, res.Message)
	}
	for _, u := range res.Unverified {
		fmt.Fprintf(w, "  unverified: %s\n", u)
	}
	for _, wr := range res.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", wr)
	}
	var buf bytes.Buffer
	defer writeTrimmed(w, &buf)
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	head := []string{"  NODE", "VERDICT", "TOTAL"}
	for _, ps := range r.plugins {
		head = append(head, fmt.Sprintf("%s×%d", ps.Plugin, ps.Weight))
	}
	if wide {
		head = append(head, "CPU REQUESTED", "MEMORY REQUESTED")
	}
	// A pod that fits nowhere: each node's preemption verdict.
	preempt := false
	for _, name := range r.order {
		if res.Nodes[name].Preemption != nil {
			preempt = true
			break
		}
	}
	if preempt {
		head = append(head, "PREEMPTION")
	}
	head = append(head, "REASONS")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, name := range r.order {
		nr := res.Nodes[name]
		verdict, total := nr.Code, "-"
		if nr.Total != nil {
			verdict, total = "feasible", fmt.Sprint(*nr.Total)
			if name == res.Node {
				verdict = "chosen"
			}
		} else if nr.Code == "Success" {
			verdict = "feasible"
			if name == res.Node {
				verdict = "chosen"
			}
		}
		cells := []string{"  " + name, verdict, total}
		for _, ps := range r.plugins {
			if v, ok := nr.Scores[ps.Plugin]; ok {
				cells = append(cells, fmt.Sprint(v))
			} else {
				cells = append(cells, "-")
			}
		}
		if wide {
			b := r.before[name]
			a := b
			if name == res.Node {
				a.CPU += r.add.CPU
				a.Memory += r.add.Memory
			}
			cells = append(cells, fmt.Sprintf("%s→%s/%s", fmtCPU(b.CPU), fmtCPU(a.CPU), fmtCPU(b.AllocCPU)),
				fmt.Sprintf("%s→%s/%s", fmtMem(b.Memory), fmtMem(a.Memory), fmtMem(b.AllocMemory)))
		}
		reasons := strings.Join(nr.Reasons, "; ")
		if nr.Plugin != "" {
			reasons = nr.Plugin + ": " + reasons
		}
		if preempt {
			verdict, detail := preemptionText(nr.Preemption)
			cells = append(cells, verdict)
			if detail != "" {
				reasons += "; " + detail
			}
		}
		cells = append(cells, reasons)
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
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
// tabwriter leaves after an empty last column).
func writeTrimmed(w io.Writer, buf *bytes.Buffer) {
	for line := range strings.Lines(buf.String()) {
		io.WriteString(w, strings.TrimRight(line, " \n")+"\n")
	}
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
// terminal and the run has taken more than a second.
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

func (p *progress) tick(i int) {
	if !p.e.terminal {
		return
	}
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.e.stderr, "\r%s %d/%d pods", p.what, i, p.total)
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprintf(p.e.stderr, "\r%s %d/%d pods\n", p.what, p.total, p.total)
	}
}
