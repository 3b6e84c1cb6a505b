package framework_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/framework"
)

// Upstream: TestNewFrameworkMultiPointExpansion (runtime/framework_test.go),
// with "test" a plugin of every point schedkit runs (testPlugin here),
// "score1" and "norm1" score plugins (scorePl) and a queue sort. Upstream
// passes its plugins to the framework without defaulting; here multiPoint
// disables the defaults with "*".
func TestExtensionPointsExpansion(t *testing.T) {
	r := framework.Registry{
		"QueueSort": factoryOf(queueSort{}),
		"test":      factoryOf(&testPlugin{name: "test"}),
		"score1":    factoryOf(&scorePl{name: "score1"}),
		"norm1":     factoryOf(&scorePl{name: "norm1"}),
	}
	multi := func(names ...string) []framework.PluginRef {
		out := []framework.PluginRef{{Name: "QueueSort"}}
		for _, n := range names {
			out = append(out, framework.PluginRef{Name: n})
		}
		return out
	}
	type want struct {
		filter, score []string
		weights       map[string]int64
	}
	tests := []struct {
		name    string
		plugins []framework.PluginRef
		points  framework.ExtensionPoints
		want    want
		wantErr string
	}{
		{
			name:    "plugin expansion",
			plugins: multi("test", "score1"),
			want:    want{filter: []string{"test"}, score: []string{"test", "score1"}, weights: map[string]int64{"test": 1, "score1": 1}},
		},
		{
			name:    "disable MultiPoint plugin at some extension points",
			plugins: multi("test", "score1"),
			points:  framework.ExtensionPoints{Score: framework.PluginSet{Disabled: []string{"test"}}, Filter: framework.PluginSet{Disabled: []string{"test"}}},
			want:    want{score: []string{"score1"}, weights: map[string]int64{"score1": 1}},
		},
		{
			name:    "disable MultiPoint extension",
			plugins: multi("test", "score1"),
			points:  framework.ExtensionPoints{Score: framework.PluginSet{Disabled: []string{"*"}}},
			want:    want{filter: []string{"test"}, weights: map[string]int64{}},
		},
		{
			name:    "Reorder MultiPoint plugins (specified extension takes precedence)",
			plugins: multi("norm1", "test", "score1"),
			points:  framework.ExtensionPoints{Score: framework.PluginSet{Enabled: []framework.PluginRef{{Name: "score1"}, {Name: "test"}}}},
			want:    want{filter: []string{"test"}, score: []string{"score1", "test", "norm1"}, weights: map[string]int64{"score1": 1, "test": 1, "norm1": 1}},
		},
		{
			name:    "Reorder MultiPoint plugins (specified extension only takes precedence when it exists in MultiPoint)",
			plugins: multi("test", "score1"),
			points:  framework.ExtensionPoints{Score: framework.PluginSet{Enabled: []framework.PluginRef{{Name: "norm1"}, {Name: "score1"}, {Name: "test"}}}},
			want:    want{filter: []string{"test"}, score: []string{"score1", "test", "norm1"}, weights: map[string]int64{"score1": 1, "test": 1, "norm1": 1}},
		},
		{
			name:    "Override MultiPoint plugins weights",
			plugins: multi("test", "score1"),
			points:  framework.ExtensionPoints{Score: framework.PluginSet{Enabled: []framework.PluginRef{{Name: "score1", Weight: 5}, {Name: "test", Weight: 3}}}},
			want:    want{filter: []string{"test"}, score: []string{"score1", "test"}, weights: map[string]int64{"score1": 5, "test": 3}},
		},
		{
			name:    "point-only plugin",
			plugins: multi(),
			points:  framework.ExtensionPoints{Filter: framework.PluginSet{Enabled: []framework.PluginRef{{Name: "test"}}}},
			want:    want{filter: []string{"test"}, weights: map[string]int64{}},
		},
		{
			name:    "a plugin that does not implement the point",
			plugins: multi(),
			points:  framework.ExtensionPoints{Filter: framework.PluginSet{Enabled: []framework.PluginRef{{Name: "score1"}}}},
			wantErr: `plugin "score1" does not extend FilterPlugin plugin`,
		},
		{
			name:    "twice at one point",
			plugins: multi(),
			points:  framework.ExtensionPoints{Score: framework.PluginSet{Enabled: []framework.PluginRef{{Name: "score1"}, {Name: "score1"}}}},
			wantErr: `plugin "score1" already registered as "ScorePlugin"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pts := tc.points
			p, err := framework.NewProfile(framework.ProfileConfig{Disabled: []string{"*"}, Plugins: tc.plugins, ExtensionPoints: &pts}, r, nil)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l := p.ListPlugins()
			if !reflect.DeepEqual(l["Filter"], tc.want.filter) && (len(l["Filter"]) != 0 || len(tc.want.filter) != 0) {
				t.Errorf("Filter = %v, want %v", l["Filter"], tc.want.filter)
			}
			if !reflect.DeepEqual(l["Score"], tc.want.score) && (len(l["Score"]) != 0 || len(tc.want.score) != 0) {
				t.Errorf("Score = %v, want %v", l["Score"], tc.want.score)
			}
			got := map[string]int64{}
			for _, n := range l["Score"] {
				got[n] = p.ScoreWeight(n)
			}
			if !reflect.DeepEqual(got, tc.want.weights) {
				t.Errorf("weights = %v, want %v", got, tc.want.weights)
			}
		})
	}
}
