package app

import "fmt"

// htmlWhatIf is what the report shows of a pod's what-ifs: --why-not's
// summary line and per-node changes, and what each score plugin did to
// the winner.
type htmlWhatIf struct {
	WhyNot      string
	WhyNotRows  []htmlWhyNot
	LeaveOneOut []htmlInfluence
}

type htmlWhyNot struct {
	Node, Kind, Text string
	Cheapest         bool
}

type htmlInfluence struct {
	Plugin  string
	Weight  int64
	Without string
	Decided bool
	Flip    string
}

// whatIfHTML formats the row's why-not and leave-one-out for the report.
func whatIfHTML(r *podRow) htmlWhatIf {
	var h htmlWhatIf
	if wn := r.res.WhyNot; wn != nil {
		h.WhyNot = wn.Summary
		for _, sg := range wn.Nodes {
			h.WhyNotRows = append(h.WhyNotRows, htmlWhyNot{Node: sg.Node, Kind: string(sg.Kind), Text: sg.Text,
				Cheapest: wn.Best != nil && wn.Best.Node == sg.Node})
		}
	}
	for _, inf := range r.res.LeaveOneOut {
		hi := htmlInfluence{Plugin: inf.Plugin, Weight: inf.Weight, Without: inf.Without, Decided: inf.Without != r.res.Node, Flip: "no weight"}
		if inf.FlipWeight > 0 {
			hi.Flip = fmt.Sprintf("weight %d → %s", inf.FlipWeight, inf.FlipNode)
		}
		h.LeaveOneOut = append(h.LeaveOneOut, hi)
	}
	return h
}
