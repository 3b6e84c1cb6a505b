package config

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeKubeSchedulerConfiguration: the decoder never panics; a
// configuration it accepts is accepted again, equal, once re-encoded as
// JSON (defaulting and validation are idempotent).
func FuzzDecodeKubeSchedulerConfiguration(f *testing.F) {
	const head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
	for _, s := range []string{
		head,
		head + "parallelism: 4\npercentageOfNodesToScore: 30\n",
		head + "profiles:\n- schedulerName: a\n  plugins:\n    multiPoint:\n      enabled:\n      - name: X\n        weight: 2\n    score:\n      disabled:\n      - name: '*'\n",
		head + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        type: RequestedToCapacityRatio\n        requestedToCapacityRatio:\n          shape:\n          - utilization: 0\n            score: 10\n",
		head + "profiles:\n- pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms:\n          - matchExpressions:\n            - key: a\n              operator: In\n              values: [b]\n",
		head + "leaderElection:\n  leaderElect: true\n  leaseDuration: 1s\nextenders:\n- urlPrefix: x\n",
		`{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration","profiles":[{"schedulerName":"a"},{"schedulerName":"a"}]}`,
		head + "parallelism: 2\nparallelism: 3\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _, err := DecodeKubeSchedulerConfiguration(data)
		if err != nil {
			return
		}
		for i := range cfg.Profiles {
			for j := range cfg.Profiles[i].PluginConfig {
				pc := &cfg.Profiles[i].PluginConfig[j]
				if pc.Object != nil {
					raw, err := json.Marshal(pc.Object)
					if err != nil {
						t.Fatal(err)
					}
					pc.Args = raw
				}
			}
		}
		js, err := json.Marshal(cfg)
		if err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		again, _, err := DecodeKubeSchedulerConfiguration(js)
		if err != nil {
			t.Fatalf("re-encoded configuration refused: %v\n%s", err, js)
		}
		js2, _ := json.Marshal(again)
		var a, b any
		_ = json.Unmarshal(js, &a)
		_ = json.Unmarshal(js2, &b)
		if ja, _ := json.Marshal(a); string(ja) != func() string { jb, _ := json.Marshal(b); return string(jb) }() {
			t.Fatalf("decoding is not stable:\n%s\n%s", js, js2)
		}
	})
}
