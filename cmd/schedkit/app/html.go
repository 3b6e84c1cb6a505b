package app

import (
	"fmt"
	"html/template"
	"os"
	"sort"

	"github.com/schedkit/schedkit/cluster"
)

// htmlReport collects what explain's --html page shows: per-node bars of
// requested cpu and memory before and after the placements, a heat map of
// nodes × score plugins for each pod, and every rejected node's reasons.
// The page is one self-contained file: inline CSS and SVG, nothing
// fetched.
type htmlReport struct {
	before map[string]usage
	// devices are, per node, the DRA devices by DeviceClass before the
	// placements.
	devices map[string][]describedDevices
	pods    []htmlPod
}

type htmlPod struct {
	// htmlWhatIf is the why-not and leave-one-out tables (html_whatif.go).
	htmlWhatIf
	Pod, Node, Message string
	// Headline is the table's first line for the pod: the outcome in
	// the same words.
	Headline string
	// Outcome is the outcome's word, the heading's class.
	Outcome string
	// Preemption: the rejected nodes carry preemption verdicts.
	Preemption bool
	Unverified []string
	Plugins    []string
	Heat       []htmlHeatRow
	Rejected   []htmlRejected
	Hidden     int
	// Devices are the chosen node's devices for the pod's claims, as the
	// table's "devices on" line names them.
	Devices string
}

// htmlDevices is one node's devices of one DeviceClass, before and
// after the placements.
type htmlDevices struct {
	Node, DeviceClass                       string
	Total, AllocatedBefore, Allocated, Free int
}

type htmlHeatRow struct {
	Node   string
	Chosen bool
	Total  int64
	Cells  []htmlCell
}

type htmlCell struct {
	Score int64
	Fill  string
}

type htmlRejected struct {
	Node, Code, Plugin, Reasons string
	// Preemption is the node's preemption verdict, PreemptionDetail
	// the victims or why preemption cannot help.
	Preemption, PreemptionDetail string
}

type htmlBar struct {
	Node                            string
	CPUBefore, CPUAfter             float64 // percent of allocatable
	MemBefore, MemAfter             float64
	CPUText, MemText                string
	CPUBeforeW, CPUAfterW           float64 // bar widths in px
	MemBeforeW, MemAfterW, Y, TextY int
}

func newHTMLReport(snap *cluster.Snapshot) *htmlReport {
	r := &htmlReport{before: map[string]usage{}, devices: map[string][]describedDevices{}}
	dc := newDeviceCounter(snap.Objects())
	for _, ni := range snap.Nodes() {
		r.devices[ni.Node().Name] = dc.count(ni.Node())
		r.before[ni.Node().Name] = usage{CPU: ni.Requested.MilliCPU, Memory: ni.Requested.Memory, AllocCPU: ni.Allocatable.MilliCPU, AllocMemory: ni.Allocatable.Memory}
	}
	return r
}

// heat is the fill of a normalised score in [0, 100]: pale to deep blue.
func heat(score int64) string {
	s := max(0, min(score, 100))
	l := 95 - s*55/100
	return fmt.Sprintf("hsl(215,70%%,%d%%)", l)
}

func (h *htmlReport) add(r *podRow) {
	hp := htmlPod{htmlWhatIf: whatIfHTML(r), Pod: r.res.Pod, Node: r.res.Node, Message: r.res.Message, Unverified: r.res.Unverified, Hidden: r.hidden,
		Headline: podHeadline(&r.res), Outcome: r.res.Outcome.String()}
	for _, ps := range r.plugins {
		hp.Plugins = append(hp.Plugins, fmt.Sprintf("%s ×%d", ps.Plugin, ps.Weight))
	}
	if nr, ok := r.nodeNamed(r.res.Node); ok && nr.Devices != nil && len(nr.Devices.Claims) > 0 {
		hp.Devices = devicesText(nr.Devices)
	}
	for i, name := range r.order {
		nr := r.nodes[i]
		if nr.Total != nil {
			row := htmlHeatRow{Node: name, Chosen: name == r.res.Node, Total: *nr.Total}
			for _, ps := range r.plugins {
				v, _ := r.score(i, ps.Plugin)
				row.Cells = append(row.Cells, htmlCell{Score: v, Fill: heat(v)})
			}
			hp.Heat = append(hp.Heat, row)
		} else if nr.Code != "Success" {
			rj := htmlRejected{Node: name, Code: nr.Code, Plugin: nr.Plugin, Reasons: joinReasons(nr.Reasons)}
			if d := devicesRejection(&nr); d != "" {
				rj.Reasons += "; " + d
			}
			if nr.Preemption != nil {
				hp.Preemption = true
				rj.Preemption, rj.PreemptionDetail = preemptionText(nr.Preemption)
			}
			hp.Rejected = append(hp.Rejected, rj)
		}
	}
	h.pods = append(h.pods, hp)
}

func joinReasons(rs []string) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += "; "
		}
		out += r
	}
	return out
}

func pct(v, of int64) float64 {
	if of <= 0 {
		return 0
	}
	return 100 * float64(v) / float64(of)
}

// write writes the page, with the snapshot's final usage as "after".
func (h *htmlReport) write(path string, snap *cluster.Snapshot, sum explainSummary) error {
	const barW = 240.0
	var bars []htmlBar
	names := make([]string, 0, len(h.before))
	for n := range h.before {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		b := h.before[n]
		a := b
		if ni, ok := snap.Get(n); ok {
			a.CPU, a.Memory = ni.Requested.MilliCPU, ni.Requested.Memory
		}
		hb := htmlBar{Node: n,
			CPUBefore: pct(b.CPU, b.AllocCPU), CPUAfter: pct(a.CPU, b.AllocCPU),
			MemBefore: pct(b.Memory, b.AllocMemory), MemAfter: pct(a.Memory, b.AllocMemory),
			CPUText: fmt.Sprintf("%s → %s of %s", fmtCPU(b.CPU), fmtCPU(a.CPU), fmtCPU(b.AllocCPU)),
			MemText: fmt.Sprintf("%s → %s of %s", fmtMem(b.Memory), fmtMem(a.Memory), fmtMem(b.AllocMemory)),
			Y:       i * 34, TextY: i*34 + 14}
		hb.CPUBeforeW, hb.CPUAfterW = min(hb.CPUBefore, 100)*barW/100, min(hb.CPUAfter, 100)*barW/100
		hb.MemBeforeW, hb.MemAfterW = int(min(hb.MemBefore, 100)*barW/100), int(min(hb.MemAfter, 100)*barW/100)
		bars = append(bars, hb)
	}
	var devices []htmlDevices
	after := newDeviceCounter(snap.Objects())
	for _, n := range names {
		ni, ok := snap.Get(n)
		if !ok {
			continue
		}
		before := map[string]int{}
		for _, d := range h.devices[n] {
			before[d.DeviceClass] = d.Allocated
		}
		for _, d := range after.count(ni.Node()) {
			devices = append(devices, htmlDevices{Node: n, DeviceClass: d.DeviceClass, Total: d.Total,
				AllocatedBefore: before[d.DeviceClass], Allocated: d.Allocated, Free: d.Free})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	data := struct {
		Summary explainSummary
		Bars    []htmlBar
		Height  int
		Devices []htmlDevices
		Pods    []htmlPod
		Version string
	}{sum, bars, len(bars)*34 + 10, devices, h.pods, KubernetesVersion}
	if err := reportTemplate().Execute(f, data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func reportTemplate() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"mul": func(a, b int) int { return a * b },
		"add": func(a, b int) int { return a + b },
	}).Parse(reportHTML))
}

const reportHTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>schedkit explain</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:20px} h2{font-size:16px;margin-top:28px;border-top:1px solid #ddd;padding-top:12px}
.ok,.placed{color:#116329} .bad,.unschedulable{color:#a40e26} .warn,.preempting,.gated{color:#7d4e00}
table{border-collapse:collapse;margin:6px 0} td,th{border:1px solid #ddd;padding:2px 8px;text-align:left;vertical-align:top}
svg text{font:12px system-ui,sans-serif}
.legend span{display:inline-block;width:14px;height:10px;margin:0 4px 0 12px}
</style></head><body>
<h1>schedkit explain — kube-scheduler {{.Version}}</h1>
<p>{{.Summary.Summary.String}}; {{.Summary.Nodes}} node(s).</p>
<h2>Requested cpu and memory per node, before and after placement</h2>
<p class="legend"><span style="background:#9ab7d8"></span>before<span style="background:#1f5fa8"></span>after (percent of allocatable)</p>
<svg id="bars" xmlns="http://www.w3.org/2000/svg" width="820" height="{{.Height}}" role="img" aria-label="requested resources per node">
{{range .Bars}}<g>
<text x="0" y="{{.TextY}}">{{.Node}}</text>
<rect x="160" y="{{.Y}}" width="240" height="12" fill="#eee"/><rect x="160" y="{{.Y}}" width="{{printf "%.1f" .CPUAfterW}}" height="12" fill="#1f5fa8"/><rect x="160" y="{{.Y}}" width="{{printf "%.1f" .CPUBeforeW}}" height="12" fill="#9ab7d8"/>
<text x="160" y="{{add .Y 26}}">cpu {{.CPUText}}</text>
<rect x="520" y="{{.Y}}" width="240" height="12" fill="#eee"/><rect x="520" y="{{.Y}}" width="{{.MemAfterW}}" height="12" fill="#1f5fa8"/><rect x="520" y="{{.Y}}" width="{{.MemBeforeW}}" height="12" fill="#9ab7d8"/>
<text x="520" y="{{add .Y 26}}">memory {{.MemText}}</text>
</g>
{{end}}</svg>
{{if .Devices}}<h2>DRA devices per node, by DeviceClass</h2>
<table id="devices"><tr><th>node</th><th>device class</th><th>devices</th><th>allocated before → after</th><th>free after</th></tr>
{{range .Devices}}<tr><td>{{.Node}}</td><td>{{.DeviceClass}}</td><td>{{.Total}}</td><td>{{.AllocatedBefore}} → {{.Allocated}}</td><td>{{.Free}}</td></tr>{{end}}</table>{{end}}
{{range .Pods}}<h2 class="{{.Outcome}}">{{.Headline}}</h2>
{{range .Unverified}}<p class="warn">unverified: {{.}}</p>{{end}}
{{if .Devices}}<p class="devices">devices on {{.Node}}: {{.Devices}}</p>{{end}}
{{if .Heat}}{{$p := .}}<svg class="heat" xmlns="http://www.w3.org/2000/svg" width="{{add 220 (mul (len .Plugins) 250)}}" height="{{add 70 (mul (len .Heat) 20)}}" role="img" aria-label="scores of {{.Pod}}">
<text x="0" y="14">node (total)</text>
{{range $i, $pl := .Plugins}}<text x="{{add 220 (mul $i 250)}}" y="14" transform="rotate(0)">{{$pl}}</text>{{end}}
{{range $r, $row := .Heat}}<text x="0" y="{{add 44 (mul $r 20)}}"{{if $row.Chosen}} font-weight="bold"{{end}}>{{$row.Node}} ({{$row.Total}}){{if $row.Chosen}} ✔{{end}}</text>
{{range $i, $c := $row.Cells}}<rect x="{{add 220 (mul $i 250)}}" y="{{add 30 (mul $r 20)}}" width="246" height="18" fill="{{$c.Fill}}"/><text x="{{add 226 (mul $i 250)}}" y="{{add 44 (mul $r 20)}}">{{$c.Score}}</text>{{end}}
{{end}}</svg>{{end}}
{{if .Rejected}}{{$pre := .Preemption}}<table><tr><th>rejected node</th><th>code</th><th>plugin</th><th>reasons</th>{{if $pre}}<th>preemption</th>{{end}}</tr>
{{range .Rejected}}<tr><td>{{.Node}}</td><td>{{.Code}}</td><td>{{.Plugin}}</td><td>{{.Reasons}}</td>{{if $pre}}<td>{{.Preemption}}{{if .PreemptionDetail}}: {{.PreemptionDetail}}{{end}}</td>{{end}}</tr>{{end}}</table>{{end}}
{{if .LeaveOneOut}}<table class="loo"><caption>What decided the winner: each score plugin left out in turn</caption><tr><th>plugin</th><th>weight</th><th>winner without it</th><th>nearest weight that changes the winner</th></tr>
{{range .LeaveOneOut}}<tr><td>{{.Plugin}}</td><td>{{.Weight}}</td><td{{if .Decided}} class="warn"{{end}}>{{.Without}}{{if .Decided}} (decided by {{.Plugin}}){{end}}</td><td>{{.Flip}}</td></tr>{{end}}</table>{{end}}
{{if .WhyNot}}<p class="whynot">why not: {{.WhyNot}}</p>{{if .WhyNotRows}}<table class="whynot"><tr><th>node</th><th>change</th><th>smallest change that makes it feasible (verified)</th></tr>
{{range .WhyNotRows}}<tr><td>{{.Node}}</td><td>{{.Kind}}</td><td>{{.Text}}{{if .Cheapest}} <b>(cheapest)</b>{{end}}</td></tr>{{end}}</table>{{else}}<p>no single change makes a node feasible</p>{{end}}{{end}}
{{if .Hidden}}<p>{{.Hidden}} more node(s) not shown (--top).</p>{{end}}
{{end}}
</body></html>
`
