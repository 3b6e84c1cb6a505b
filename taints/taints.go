package taints

import (
	"github.com/schedkit/schedkit/api"
)

// Numeric toleration operators, valid only with the alpha feature gate
// TaintTolerationComparisonOperators (Kubernetes v1.35+, off by default
// in v1.37). The api package defines only Exists and Equal.
const (
	// TolerationOpLt tolerates a taint whose value, as an integer, is
	// less than the toleration's.
	TolerationOpLt api.TolerationOperator = "Lt"
	// TolerationOpGt tolerates a taint whose value, as an integer, is
	// greater than the toleration's.
	TolerationOpGt api.TolerationOperator = "Gt"
)

// Options selects optional upstream behaviour. The zero value is
// Kubernetes v1.37's default configuration.
type Options struct {
	// ComparisonOperators enables the Lt and Gt toleration operators
	// (feature gate TaintTolerationComparisonOperators). When false, a
	// toleration with Lt or Gt tolerates nothing.
	ComparisonOperators bool
}

// Tolerates reports whether toleration t tolerates taint, with the
// default Options. See Options.Tolerates.
func Tolerates(t api.Toleration, taint api.Taint) bool {
	return Options{}.Tolerates(t, taint)
}

// Tolerates reports whether toleration t tolerates taint, as Kubernetes'
// Toleration.ToleratesTaint:
//   - a non-empty toleration effect must equal the taint's; empty matches
//     every effect;
//   - a non-empty toleration key must equal the taint's; empty matches
//     every key (meaningful with Exists);
//   - operator "" or Equal: the values must be equal;
//   - Exists: any value;
//   - Lt / Gt (only with ComparisonOperators): both values must be
//     canonical decimal integers (no sign '+', no leading zeros) and the
//     taint's less / greater than the toleration's;
//   - any other operator tolerates nothing.
//
// It does not allocate.
func (o Options) Tolerates(t api.Toleration, taint api.Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", api.TolerationOpEqual:
		return t.Value == taint.Value
	case api.TolerationOpExists:
		return true
	case TolerationOpLt, TolerationOpGt:
		if !o.ComparisonOperators {
			return false
		}
		tv, ok := parseDecimal(t.Value)
		if !ok {
			return false
		}
		nv, ok := parseDecimal(taint.Value)
		if !ok {
			return false
		}
		if t.Operator == TolerationOpLt {
			return nv < tv
		}
		return nv > tv
	}
	return false
}

// parseDecimal parses a canonical decimal integer ("0", or an optional
// '-' and a non-zero digit followed by digits) that fits in an int64,
// the strict form Kubernetes requires for numeric toleration values.
func parseDecimal(s string) (int64, bool) {
	i := 0
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg = true
		i = 1
	}
	if i >= len(s) {
		return 0, false
	}
	if s[i] == '0' {
		return 0, len(s) == 1
	}
	const limit = uint64(1) << 63
	var n uint64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > limit/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
		if n > limit {
			return 0, false
		}
	}
	if !neg && n == limit {
		return 0, false
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

// TolerationsTolerate reports whether any of tols tolerates taint, with
// the default Options.
func TolerationsTolerate(tols []api.Toleration, taint api.Taint) bool {
	return Options{}.TolerationsTolerate(tols, taint)
}

// TolerationsTolerate reports whether any of tols tolerates taint, as
// Kubernetes' TolerationsTolerateTaint. It does not allocate.
func (o Options) TolerationsTolerate(tols []api.Toleration, taint api.Taint) bool {
	for i := range tols {
		if o.Tolerates(tols[i], taint) {
			return true
		}
	}
	return false
}

// FindUntolerated returns the first taint, in order, that has one of
// effects and that no toleration tolerates, with the default Options.
// See Options.FindUntolerated.
func FindUntolerated(taints []api.Taint, tols []api.Toleration, effects ...api.TaintEffect) (api.Taint, bool) {
	return Options{}.FindUntolerated(taints, tols, effects...)
}

// FindUntolerated returns the first taint, in order, that has one of
// effects and that no toleration tolerates, and true; or a zero taint and
// false if every such taint is tolerated. With no effects every taint is
// considered (upstream's nil filter). All tolerations are considered,
// whatever their effect. This is Kubernetes' FindMatchingUntoleratedTaint;
// the TaintToleration filter plugin calls it with NoSchedule and
// NoExecute, the kubelet's admission with NoExecute. It does not
// allocate.
func (o Options) FindUntolerated(taints []api.Taint, tols []api.Toleration, effects ...api.TaintEffect) (api.Taint, bool) {
	for i := range taints {
		if len(effects) != 0 && !hasEffect(effects, taints[i].Effect) {
			continue
		}
		if !o.TolerationsTolerate(tols, taints[i]) {
			return taints[i], true
		}
	}
	return api.Taint{}, false
}

func hasEffect(effects []api.TaintEffect, e api.TaintEffect) bool {
	for _, x := range effects {
		if x == e {
			return true
		}
	}
	return false
}

// CountIntolerablePreferNoSchedule counts the PreferNoSchedule taints no
// toleration tolerates, with the default Options.
func CountIntolerablePreferNoSchedule(taints []api.Taint, tols []api.Toleration) int {
	return Options{}.CountIntolerablePreferNoSchedule(taints, tols)
}

// CountIntolerablePreferNoSchedule counts the PreferNoSchedule taints
// that no toleration with an empty or PreferNoSchedule effect tolerates:
// the TaintToleration score plugin's raw score (fewer is better; the
// plugin then normalizes it in reverse). It does not allocate.
func (o Options) CountIntolerablePreferNoSchedule(taints []api.Taint, tols []api.Toleration) int {
	n := 0
	for i := range taints {
		if taints[i].Effect != api.TaintEffectPreferNoSchedule {
			continue
		}
		tolerated := false
		for j := range tols {
			if e := tols[j].Effect; e != "" && e != api.TaintEffectPreferNoSchedule {
				continue
			}
			if o.Tolerates(tols[j], taints[i]) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			n++
		}
	}
	return n
}

// MatchTaint reports whether two taints are the same taint for
// uniqueness: same key and effect (values may differ), as
// Taint.MatchTaint.
func MatchTaint(a, b api.Taint) bool { return a.Key == b.Key && a.Effect == b.Effect }
