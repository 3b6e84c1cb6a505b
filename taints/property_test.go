package taints_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/taints"
	"github.com/schedkit/schedkit/taints/taintsgen"
	"pgregory.net/rapid"
)

// An Exists toleration with no key and no effect tolerates every taint;
// with a key, every taint of that key.
func TestPropExistsToleratesEverything(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		taint := rapid.OneOf(taintsgen.Taint(), taintsgen.ValidTaint()).Draw(t, "taint")
		if !taints.Tolerates(api.Toleration{Operator: api.TolerationOpExists}, taint) {
			t.Fatalf("{Exists} does not tolerate %v", taint)
		}
		if !taints.Tolerates(api.Toleration{Key: taint.Key, Operator: api.TolerationOpExists}, taint) {
			t.Fatalf("{key Exists} does not tolerate %v", taint)
		}
	})
}

// A naive reading of ToleratesTaint agrees with Tolerates, gate on and
// off.
func TestPropToleratesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tol := taintsgen.Toleration().Draw(t, "tol")
		taint := taintsgen.Taint().Draw(t, "taint")
		gate := rapid.Bool().Draw(t, "gate")
		want := (tol.Effect == "" || tol.Effect == taint.Effect) && (tol.Key == "" || tol.Key == taint.Key)
		if want {
			switch tol.Operator {
			case "", api.TolerationOpEqual:
				want = tol.Value == taint.Value
			case api.TolerationOpExists:
			case taints.TolerationOpLt, taints.TolerationOpGt:
				a, err1 := strconv.ParseInt(tol.Value, 10, 64)
				b, err2 := strconv.ParseInt(taint.Value, 10, 64)
				canon := err1 == nil && err2 == nil && strconv.FormatInt(a, 10) == tol.Value && strconv.FormatInt(b, 10) == taint.Value
				want = gate && canon && ((tol.Operator == taints.TolerationOpLt && b < a) || (tol.Operator == taints.TolerationOpGt && b > a))
			default:
				want = false
			}
		}
		if got := (taints.Options{ComparisonOperators: gate}).Tolerates(tol, taint); got != want {
			t.Fatalf("Tolerates(%+v, %+v, gate=%v) = %v", tol, taint, gate, got)
		}
	})
}

// FindUntolerated and CountIntolerablePreferNoSchedule agree with
// TolerationsTolerate applied taint by taint.
func TestPropFindAndCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ts := taintsgen.Taints().Draw(t, "taints")
		tols := taintsgen.Tolerations().Draw(t, "tols")
		effects := rapid.SliceOfN(taintsgen.Effect(), 0, 2).Draw(t, "effects")
		var first *api.Taint
		count := 0
		for i, tn := range ts {
			in := len(effects) == 0
			for _, e := range effects {
				in = in || e == tn.Effect
			}
			if in && first == nil && !taints.TolerationsTolerate(tols, tn) {
				first = &ts[i]
			}
			if tn.Effect == api.TaintEffectPreferNoSchedule && !taints.TolerationsTolerate(tols, tn) {
				count++
			}
		}
		got, ok := taints.FindUntolerated(ts, tols, effects...)
		if ok != (first != nil) || (ok && got != *first) {
			t.Fatalf("FindUntolerated = %v, %v; want %v", got, ok, first)
		}
		if c := taints.CountIntolerablePreferNoSchedule(ts, tols); c != count {
			t.Fatalf("Count = %d, want %d", c, count)
		}
	})
}

// Eviction never happens before now, and Now exactly when some
// NoExecute taint is untolerated.
func TestPropEvictionTime(t *testing.T) {
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		ts := taintsgen.Taints().Draw(t, "taints")
		p := &api.Pod{}
		p.Spec.Tolerations = taintsgen.Tolerations().Draw(t, "tols")
		d := taints.EvictionTime(p, ts, now)
		_, untolerated := taints.FindUntolerated(ts, p.Spec.Tolerations, api.TaintEffectNoExecute)
		if untolerated != (d.Kind == taints.EvictNow) {
			t.Fatalf("decision %v, untolerated %v", d, untolerated)
		}
		if d.Kind == taints.EvictAt && (d.Time.Before(now) || d.Time.After(now.Add(time.Hour))) {
			t.Fatalf("decision %v out of range", d)
		}
	})
}

// Formatting a valid taint and parsing it back gives the same taint.
func TestPropFormatParseRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tn := taintsgen.ValidTaint().Draw(t, "taint")
		got, err := taints.ParseTaint(taints.FormatTaint(tn))
		if err != nil || got != tn {
			t.Fatalf("%q -> %+v, %v", taints.FormatTaint(tn), got, err)
		}
	})
}
