package taints

import (
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// ParseTaint parses one taint in kubectl's form: "key=value:Effect",
// "key:Effect" or a bare "key" (no effect), as kubectl's parseTaint. The
// effect must be NoSchedule, PreferNoSchedule or NoExecute ("invalid
// taint effect: X, unsupported taint effect"), the key a valid label key
// and the value a valid label value ("invalid taint spec: <spec>,
// <reason>"); more than one ':' or '=' is "invalid taint spec: <spec>".
func ParseTaint(spec string) (api.Taint, error) {
	var key, value string
	var effect api.TaintEffect
	parts := strings.Split(spec, ":")
	switch len(parts) {
	case 1:
		key = parts[0]
	case 2:
		effect = api.TaintEffect(parts[1])
		if err := ValidateEffect(effect); err != nil {
			return api.Taint{}, err
		}
		kv := strings.Split(parts[0], "=")
		if len(kv) > 2 {
			return api.Taint{}, fmt.Errorf("invalid taint spec: %v", spec)
		}
		key = kv[0]
		if len(kv) == 2 {
			value = kv[1]
			if errs := affinity.ValidateLabelValue(value); len(errs) > 0 {
				return api.Taint{}, fmt.Errorf("invalid taint spec: %v, %s", spec, strings.Join(errs, "; "))
			}
		}
	default:
		return api.Taint{}, fmt.Errorf("invalid taint spec: %v", spec)
	}
	if errs := affinity.ValidateLabelKey(key); len(errs) > 0 {
		return api.Taint{}, fmt.Errorf("invalid taint spec: %v, %s", spec, strings.Join(errs, "; "))
	}
	return api.Taint{Key: key, Value: value, Effect: effect}, nil
}

// ValidateEffect accepts NoSchedule, PreferNoSchedule and NoExecute, and
// rejects anything else (the empty effect too) with kubectl's message.
func ValidateEffect(e api.TaintEffect) error {
	switch e {
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		return nil
	}
	return fmt.Errorf("invalid taint effect: %v, unsupported taint effect", e)
}

// ValidateTaint checks a taint as kubectl's CheckTaintValidation: a valid
// label key, a valid label value if any, and a known effect if any.
func ValidateTaint(t api.Taint) error {
	if errs := affinity.ValidateLabelKey(t.Key); len(errs) > 0 {
		return fmt.Errorf("invalid taint key: %s", strings.Join(errs, "; "))
	}
	if t.Value != "" {
		if errs := affinity.ValidateLabelValue(t.Value); len(errs) > 0 {
			return fmt.Errorf("invalid taint value: %s", strings.Join(errs, "; "))
		}
	}
	if t.Effect != "" {
		return ValidateEffect(t.Effect)
	}
	return nil
}

// ParseTaints parses kubectl taint arguments into taints to add and
// taints to remove, as kubectl's ParseTaints. A spec ending in '-'
// removes: "key-" (every effect), "key:Effect-", "key=value:Effect-" (the
// value is ignored; removal is by key and effect). Any other spec adds
// and needs an effect: "key=value:Effect" or "key:Effect" ("key" alone is
// "invalid taint spec: key"). Adding the same key and effect twice is an
// error ("duplicated taints with the same key and effect: {...}"). The
// first error aborts the whole parse with nil results.
func ParseTaints(specs []string) (add []api.Taint, remove []api.Taint, err error) {
	type keyEffect struct {
		key    string
		effect api.TaintEffect
	}
	seen := map[keyEffect]bool{}
	for _, spec := range specs {
		if strings.HasSuffix(spec, "-") {
			t, err := ParseTaint(strings.TrimSuffix(spec, "-"))
			if err != nil {
				return nil, nil, err
			}
			remove = append(remove, api.Taint{Key: t.Key, Effect: t.Effect})
			continue
		}
		t, err := ParseTaint(spec)
		if err != nil {
			return nil, nil, err
		}
		if t.Effect == "" {
			return nil, nil, fmt.Errorf("invalid taint spec: %v", spec)
		}
		ke := keyEffect{t.Key, t.Effect}
		if seen[ke] {
			return nil, nil, fmt.Errorf("duplicated taints with the same key and effect: %v", t)
		}
		seen[ke] = true
		add = append(add, t)
	}
	return add, remove, nil
}

// FormatTaint renders a taint as Taint.ToString: "key=value:Effect",
// "key:Effect", "key=value:" (value, no effect) or "key".
func FormatTaint(t api.Taint) string {
	if t.Effect == "" {
		if t.Value == "" {
			return t.Key
		}
		return t.Key + "=" + t.Value + ":"
	}
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return t.Key + "=" + t.Value + ":" + string(t.Effect)
}
