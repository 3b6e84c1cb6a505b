// Package taintsgen provides rapid generators of taints and tolerations,
// for property tests of package taints and of code built on it. Keys and
// values come mostly from small pools so generated tolerations often
// tolerate generated taints.
package taintsgen

import (
	"github.com/schedkit/schedkit/api"
	"pgregory.net/rapid"
)

// Keys is the pool of taint keys.
var Keys = []string{"dedicated", "gpu", "node.kubernetes.io/not-ready", "node.kubernetes.io/sla"}

// Values is the pool of taint values, including "" and integers (for the
// Lt / Gt operators) with and without canonical form.
var Values = []string{"", "a", "b", "infra", "0", "1", "800", "950", "-5", "007"}

// Effects are the three taint effects.
var Effects = []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}

// Key generates taint keys from Keys.
func Key() *rapid.Generator[string] { return rapid.SampledFrom(Keys) }

// Value generates taint values from Values.
func Value() *rapid.Generator[string] { return rapid.SampledFrom(Values) }

// Effect generates one of the three effects.
func Effect() *rapid.Generator[api.TaintEffect] { return rapid.SampledFrom(Effects) }

// Taint generates taints with one of the three effects (no timeAdded).
func Taint() *rapid.Generator[api.Taint] {
	return rapid.Custom(func(t *rapid.T) api.Taint {
		return api.Taint{Key: Key().Draw(t, "key"), Value: Value().Draw(t, "value"), Effect: Effect().Draw(t, "effect")}
	})
}

// ValidTaint generates taints that kubectl would accept: valid label key
// and value, a known effect.
func ValidTaint() *rapid.Generator[api.Taint] {
	return rapid.Custom(func(t *rapid.T) api.Taint {
		return api.Taint{
			Key:    rapid.StringMatching(`([a-z0-9]{1,6}\.)?[a-z]{1,6}(/[A-Za-z0-9]([-A-Za-z0-9_.]{0,8}[A-Za-z0-9])?)?`).Draw(t, "key"),
			Value:  rapid.StringMatching(`([A-Za-z0-9]([-A-Za-z0-9_.]{0,8}[A-Za-z0-9])?)?`).Draw(t, "value"),
			Effect: Effect().Draw(t, "effect"),
		}
	})
}

// Taints generates up to five taints.
func Taints() *rapid.Generator[[]api.Taint] { return rapid.SliceOfN(Taint(), 0, 5) }

// Toleration generates tolerations with every operator (including "",
// the alpha Lt / Gt and an unknown one), empty or pooled keys, empty or
// set effects, and tolerationSeconds nil, negative, zero or positive.
func Toleration() *rapid.Generator[api.Toleration] {
	return rapid.Custom(func(t *rapid.T) api.Toleration {
		tol := api.Toleration{
			Key:      rapid.OneOf(rapid.Just(""), Key()).Draw(t, "key"),
			Operator: rapid.SampledFrom([]api.TolerationOperator{"", api.TolerationOpEqual, api.TolerationOpExists, "Lt", "Gt", "Bogus"}).Draw(t, "op"),
			Value:    Value().Draw(t, "value"),
			Effect:   rapid.OneOf(rapid.Just(api.TaintEffect("")), Effect()).Draw(t, "effect"),
		}
		if rapid.Bool().Draw(t, "hasSeconds") {
			s := rapid.Int64Range(-10, 3600).Draw(t, "seconds")
			tol.TolerationSeconds = &s
		}
		return tol
	})
}

// Tolerations generates up to four tolerations.
func Tolerations() *rapid.Generator[[]api.Toleration] { return rapid.SliceOfN(Toleration(), 0, 4) }
