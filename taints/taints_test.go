package taints

import (
	"testing"

	"github.com/schedkit/schedkit/api"
)

const sla = "node.kubernetes.io/sla"

// Pins k8s.io/api core/v1 TestTolerationToleratesTaint (feature gate as
// each upstream case sets it).
func TestToleratesUpstream(t *testing.T) {
	cases := []struct {
		desc string
		tol  api.Toleration
		tnt  api.Taint
		want bool
		gate bool
	}{
		{"same key and effect, Exists, taint without value", api.Toleration{Key: "foo", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "foo", Effect: api.TaintEffectNoSchedule}, true, false},
		{"same key and effect, Exists, taint with value", api.Toleration{Key: "foo", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "foo", Value: "bar", Effect: api.TaintEffectNoSchedule}, true, false},
		{"empty key and Exists matches all taints of the effect", api.Toleration{Key: "", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "foo", Value: "bar", Effect: api.TaintEffectNoSchedule}, true, false},
		{"same key, effect, value, Equal", api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "foo", Value: "bar", Effect: api.TaintEffectNoSchedule}, true, false},
		{"different values, Equal", api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "value1", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "foo", Value: "value2", Effect: api.TaintEffectNoSchedule}, false, false},
		{"different effects, Equal", api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "foo", Value: "bar", Effect: api.TaintEffectNoExecute}, false, false},
		{"Gt, taint below", api.Toleration{Key: sla, Operator: TolerationOpGt, Value: "950", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: sla, Value: "800", Effect: api.TaintEffectNoSchedule}, false, true},
		{"Gt, taint above", api.Toleration{Key: sla, Operator: TolerationOpGt, Value: "750", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: sla, Value: "950", Effect: api.TaintEffectNoSchedule}, true, true},
		{"Lt, taint above", api.Toleration{Key: sla, Operator: TolerationOpLt, Value: "800", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: sla, Value: "950", Effect: api.TaintEffectNoSchedule}, false, true},
		{"Lt, taint below", api.Toleration{Key: sla, Operator: TolerationOpLt, Value: "950", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: sla, Value: "800", Effect: api.TaintEffectNoSchedule}, true, true},
		{"Gt, equal", api.Toleration{Key: sla, Operator: TolerationOpGt, Value: "950", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: sla, Value: "950", Effect: api.TaintEffectNoSchedule}, false, true},
		{"Gt, non-numeric taint", api.Toleration{Key: sla, Operator: TolerationOpGt, Value: "950", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: sla, Value: "high", Effect: api.TaintEffectNoSchedule}, false, true},
		{"Gt, negatives", api.Toleration{Key: "test-key", Operator: TolerationOpGt, Value: "-100", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "test-key", Value: "-200", Effect: api.TaintEffectNoSchedule}, false, true},
		{"Gt, large int64", api.Toleration{Key: "test-key", Operator: TolerationOpGt, Value: "9223372036854775806", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: "test-key", Value: "100", Effect: api.TaintEffectNoSchedule}, false, true},
		// Gate off (the v1.37 default): Lt / Gt tolerate nothing.
		{"Gt with gate off", api.Toleration{Key: sla, Operator: TolerationOpGt, Value: "750", Effect: api.TaintEffectNoSchedule}, api.Taint{Key: sla, Value: "950", Effect: api.TaintEffectNoSchedule}, false, false},
		// Further upstream rules from the ToleratesTaint comment.
		{"empty operator is Equal", api.Toleration{Key: "foo", Value: "bar"}, api.Taint{Key: "foo", Value: "bar", Effect: api.TaintEffectNoExecute}, true, false},
		{"empty effect matches all effects", api.Toleration{Key: "foo", Operator: api.TolerationOpExists}, api.Taint{Key: "foo", Effect: api.TaintEffectPreferNoSchedule}, true, false},
		{"empty key with Equal matches taints with empty value", api.Toleration{Operator: api.TolerationOpEqual}, api.Taint{Key: "any"}, true, false},
		{"unknown operator", api.Toleration{Key: "foo", Operator: "Matches", Value: "bar"}, api.Taint{Key: "foo", Value: "bar"}, false, false},
	}
	for _, c := range cases {
		if got := (Options{ComparisonOperators: c.gate}).Tolerates(c.tol, c.tnt); got != c.want {
			t.Errorf("%s: got %v, want %v", c.desc, got, c.want)
		}
		if !c.gate && Tolerates(c.tol, c.tnt) != c.want {
			t.Errorf("%s: package-level Tolerates differs", c.desc)
		}
	}
}

// Pins k8s.io/api core/v1 TestCompareNumericValues (through Tolerates
// with the gate on).
func TestNumericComparisonUpstream(t *testing.T) {
	cases := []struct {
		tol, tnt string
		op       api.TolerationOperator
		want     bool
	}{
		{"100", "200", TolerationOpGt, true}, {"200", "100", TolerationOpGt, false}, {"100", "100", TolerationOpGt, false},
		{"-100", "-50", TolerationOpGt, true}, {"-50", "-100", TolerationOpGt, false}, {"0", "1", TolerationOpGt, true},
		{"9223372036854775806", "9223372036854775807", TolerationOpGt, true},
		{"200", "100", TolerationOpLt, true}, {"100", "200", TolerationOpLt, false}, {"100", "100", TolerationOpLt, false},
		{"-50", "-100", TolerationOpLt, true}, {"-100", "-50", TolerationOpLt, false}, {"0", "-1", TolerationOpLt, true},
		{"abc", "100", TolerationOpGt, false}, {"", "100", TolerationOpGt, false}, {"0100", "200", TolerationOpGt, false},
		{"+100", "200", TolerationOpGt, false}, {"100.5", "200", TolerationOpGt, false}, {"-", "100", TolerationOpGt, false},
		{"100", "xyz", TolerationOpGt, false}, {"100", "", TolerationOpGt, false}, {"100", "0200", TolerationOpGt, false},
		{"100", "+200", TolerationOpLt, false}, {"100", " 200 ", TolerationOpLt, false},
		{"0", "0", TolerationOpGt, false}, {"0", "0", TolerationOpLt, false},
		{"0", "9223372036854775807", TolerationOpGt, true}, {"0", "-9223372036854775808", TolerationOpLt, true},
		// Beyond int64, and "-0", fail as upstream's strict parse does.
		{"0", "9223372036854775808", TolerationOpGt, false}, {"1", "-0", TolerationOpLt, false},
	}
	on := Options{ComparisonOperators: true}
	for _, c := range cases {
		got := on.Tolerates(api.Toleration{Key: "k", Operator: c.op, Value: c.tol}, api.Taint{Key: "k", Value: c.tnt})
		if got != c.want {
			t.Errorf("%s %q vs taint %q: got %v", c.op, c.tol, c.tnt, got)
		}
	}
}

// Pins component-helpers corev1 TestFindMatchingUntoleratedTaint; the
// upstream filter functions become effect lists (none = no filter).
func TestFindUntoleratedUpstream(t *testing.T) {
	fooExistsNS := api.Toleration{Key: "foo", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}
	cases := []struct {
		desc      string
		tols      []api.Toleration
		taints    []api.Taint
		effects   []api.TaintEffect
		filterAll bool // upstream filter returning false for every taint
		tolerated bool
		gate      bool
	}{
		{desc: "empty tolerations tolerate empty taints", tolerated: true},
		{desc: "non-empty tolerations tolerate empty taints", tols: []api.Toleration{fooExistsNS}, tolerated: true},
		{desc: "tolerations match all taints", tols: []api.Toleration{fooExistsNS}, taints: []api.Taint{{Key: "foo", Effect: api.TaintEffectNoSchedule}}, tolerated: true},
		{desc: "no taints apply to the filter", tols: []api.Toleration{fooExistsNS}, taints: []api.Taint{{Key: "bar", Effect: api.TaintEffectNoSchedule}}, filterAll: true, tolerated: true},
		{desc: "no filter: all taints apply", tols: []api.Toleration{fooExistsNS}, taints: []api.Taint{{Key: "bar", Effect: api.TaintEffectNoSchedule}}},
		{desc: "filter on NoExecute", tols: []api.Toleration{{Key: "foo", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute}}, taints: []api.Taint{{Key: "foo", Effect: api.TaintEffectNoExecute}, {Key: "bar", Effect: api.TaintEffectNoSchedule}}, effects: []api.TaintEffect{api.TaintEffectNoExecute}, tolerated: true},
		{desc: "Gt below threshold", tols: []api.Toleration{{Key: sla, Operator: TolerationOpGt, Value: "950", Effect: api.TaintEffectNoSchedule}}, taints: []api.Taint{{Key: sla, Value: "800", Effect: api.TaintEffectNoSchedule}}, gate: true},
		{desc: "Gt above threshold", tols: []api.Toleration{{Key: sla, Operator: TolerationOpGt, Value: "750", Effect: api.TaintEffectNoSchedule}}, taints: []api.Taint{{Key: sla, Value: "950", Effect: api.TaintEffectNoSchedule}}, tolerated: true, gate: true},
		{desc: "Lt above threshold", tols: []api.Toleration{{Key: sla, Operator: TolerationOpLt, Value: "800", Effect: api.TaintEffectNoSchedule}}, taints: []api.Taint{{Key: sla, Value: "950", Effect: api.TaintEffectNoSchedule}}, gate: true},
		{desc: "Gt non-numeric", tols: []api.Toleration{{Key: sla, Operator: TolerationOpGt, Value: "950", Effect: api.TaintEffectNoSchedule}}, taints: []api.Taint{{Key: sla, Value: "high", Effect: api.TaintEffectNoSchedule}}, gate: true},
	}
	for _, c := range cases {
		effects := c.effects
		if c.filterAll {
			effects = []api.TaintEffect{"NoSuchEffect"}
		}
		_, untolerated := Options{ComparisonOperators: c.gate}.FindUntolerated(c.taints, c.tols, effects...)
		if untolerated == c.tolerated {
			t.Errorf("%s: untolerated = %v", c.desc, untolerated)
		}
	}
	// The first untolerated taint in order is returned.
	taints := []api.Taint{{Key: "a", Effect: api.TaintEffectPreferNoSchedule}, {Key: "b", Effect: api.TaintEffectNoSchedule}, {Key: "c", Effect: api.TaintEffectNoExecute}}
	got, ok := FindUntolerated(taints, nil, api.TaintEffectNoSchedule, api.TaintEffectNoExecute)
	if !ok || got.Key != "b" {
		t.Errorf("first untolerated = %v, %v", got, ok)
	}
	if got, ok := FindUntolerated(taints, nil); !ok || got.Key != "a" {
		t.Errorf("no filter: %v, %v", got, ok)
	}
}

// Pins tainttoleration countIntolerableTaintsPreferNoSchedule with
// getAllTolerationPreferNoSchedule (TestTaintTolerationScore shapes).
func TestCountIntolerablePreferNoSchedule(t *testing.T) {
	taints := []api.Taint{
		{Key: "cpu-type", Value: "arm64", Effect: api.TaintEffectPreferNoSchedule},
		{Key: "disk-type", Value: "ssd", Effect: api.TaintEffectPreferNoSchedule},
		{Key: "foo", Value: "bar", Effect: api.TaintEffectNoSchedule},
	}
	cases := []struct {
		desc string
		tols []api.Toleration
		want int
	}{
		{"no tolerations", nil, 2},
		{"one tolerated", []api.Toleration{{Key: "cpu-type", Operator: api.TolerationOpEqual, Value: "arm64", Effect: api.TaintEffectPreferNoSchedule}}, 1},
		{"both tolerated, empty effect counts", []api.Toleration{{Key: "cpu-type", Operator: api.TolerationOpEqual, Value: "arm64"}, {Key: "disk-type", Operator: api.TolerationOpExists}}, 0},
		{"NoSchedule tolerations do not count", []api.Toleration{{Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}, 2},
		{"tolerate-everything", []api.Toleration{{Operator: api.TolerationOpExists}}, 0},
		{"NoSchedule taints are not counted", []api.Toleration{{Key: "cpu-type", Operator: api.TolerationOpExists}, {Key: "disk-type", Operator: api.TolerationOpExists}}, 0},
	}
	for _, c := range cases {
		if got := CountIntolerablePreferNoSchedule(taints, c.tols); got != c.want {
			t.Errorf("%s: %d, want %d", c.desc, got, c.want)
		}
	}
}

func TestTolerationsTolerateAndMatchTaint(t *testing.T) {
	tnt := api.Taint{Key: "k", Value: "v", Effect: api.TaintEffectNoSchedule}
	if TolerationsTolerate(nil, tnt) {
		t.Error("no tolerations tolerate nothing")
	}
	if !TolerationsTolerate([]api.Toleration{{Key: "x", Operator: api.TolerationOpExists}, {Key: "k", Value: "v"}}, tnt) {
		t.Error("second toleration should tolerate")
	}
	// Pins k8s.io/api core/v1 TestMatchTaint: key and effect decide.
	if !MatchTaint(tnt, api.Taint{Key: "k", Value: "other", Effect: api.TaintEffectNoSchedule}) || MatchTaint(tnt, api.Taint{Key: "k", Value: "v", Effect: api.TaintEffectNoExecute}) {
		t.Error("MatchTaint")
	}
}
