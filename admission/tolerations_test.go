package admission

import (
	"reflect"
	"testing"

	"github.com/schedkit/schedkit/api"
)

// TestAddDefaultTolerations ports upstream's TestForgivenessAdmission
// (plugin/pkg/admission/defaulttolerationseconds), one row per case, plus
// the matching quirks (operator and value are not looked at).
func TestAddDefaultTolerations(t *testing.T) {
	secs := func(s int64) *int64 { return &s }
	exists := func(key string, effect api.TaintEffect, s int64) api.Toleration {
		return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: effect, TolerationSeconds: secs(s)}
	}
	nr := exists(TaintNodeNotReady, api.TaintEffectNoExecute, 300)
	un := exists(TaintNodeUnreachable, api.TaintEffectNoExecute, 300)
	foo := api.Toleration{Key: "foo", Operator: api.TolerationOpEqual, Value: "bar", Effect: api.TaintEffectNoSchedule, TolerationSeconds: secs(700)}
	cases := []struct {
		name string
		in   []api.Toleration
		want []api.Toleration
	}{
		// upstream: TestForgivenessAdmission "pod has no tolerations, expect add tolerations for `not-ready:NoExecute` and `unreachable:NoExecute`"
		{"no tolerations", nil, []api.Toleration{nr, un}},
		// upstream: TestForgivenessAdmission "pod has tolerations, but none is for taint `not-ready:NoExecute` or `unreachable:NoExecute`, ..."
		{"unrelated toleration", []api.Toleration{foo}, []api.Toleration{foo, nr, un}},
		// upstream: TestForgivenessAdmission "pod specified a toleration for taint `not-ready:NoExecute`, expect add toleration for `unreachable:NoExecute`"
		{"not-ready given", []api.Toleration{exists(TaintNodeNotReady, api.TaintEffectNoExecute, 700)},
			[]api.Toleration{exists(TaintNodeNotReady, api.TaintEffectNoExecute, 700), un}},
		// upstream: TestForgivenessAdmission "pod specified a toleration for taint `unreachable:NoExecute`, expect add toleration for `not-ready:NoExecute`"
		{"unreachable given", []api.Toleration{exists(TaintNodeUnreachable, api.TaintEffectNoExecute, 700)},
			[]api.Toleration{exists(TaintNodeUnreachable, api.TaintEffectNoExecute, 700), nr}},
		// upstream: TestForgivenessAdmission "pod specified tolerations for both `not-ready:NoExecute` and `unreachable:NoExecute`, expect no change"
		{"both given", []api.Toleration{exists(TaintNodeNotReady, api.TaintEffectNoExecute, 700), exists(TaintNodeUnreachable, api.TaintEffectNoExecute, 700)},
			[]api.Toleration{exists(TaintNodeNotReady, api.TaintEffectNoExecute, 700), exists(TaintNodeUnreachable, api.TaintEffectNoExecute, 700)}},
		// upstream: TestForgivenessAdmission "pod specified toleration for taint `unreachable`, expect add toleration for `not-ready:NoExecute`"
		{"unreachable, any effect", []api.Toleration{exists(TaintNodeUnreachable, "", 700)},
			[]api.Toleration{exists(TaintNodeUnreachable, "", 700), nr}},
		// upstream: TestForgivenessAdmission "pod has wildcard toleration for all kind of taints, expect no change"
		{"wildcard", []api.Toleration{{Operator: api.TolerationOpExists, TolerationSeconds: secs(700)}},
			[]api.Toleration{{Operator: api.TolerationOpExists, TolerationSeconds: secs(700)}}},
		// upstream's loop: the operator and value are not looked at.
		{"equal with a value still counts", []api.Toleration{{Key: TaintNodeNotReady, Operator: api.TolerationOpEqual, Value: "x", Effect: api.TaintEffectNoExecute}},
			[]api.Toleration{{Key: TaintNodeNotReady, Operator: api.TolerationOpEqual, Value: "x", Effect: api.TaintEffectNoExecute}, un}},
		// upstream's loop: a NoSchedule toleration of the key does not count.
		{"other effect does not count", []api.Toleration{exists(TaintNodeNotReady, api.TaintEffectNoSchedule, 5)},
			[]api.Toleration{exists(TaintNodeNotReady, api.TaintEffectNoSchedule, 5), nr, un}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &api.Pod{Spec: api.PodSpec{Tolerations: tc.in}}
			AddDefaultTolerations(p)
			if !reflect.DeepEqual(p.Spec.Tolerations, tc.want) {
				t.Errorf("tolerations:\n got  %+v\n want %+v", p.Spec.Tolerations, tc.want)
			}
		})
	}
}
