package plugins

import (
	"context"
	"testing"

	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/nodedeclaredfeatures"
	"github.com/schedkit/schedkit/plugins/nodevolumelimits"
	"github.com/schedkit/schedkit/plugins/volumerestrictions"
	"github.com/schedkit/schedkit/plugins/volumezone"
)

// A plain pod skips all four plugins in PreFilter.
func TestStoragePluginsSkipPlainPods(t *testing.T) {
	for _, f := range []framework.PluginFactory{volumerestrictions.New, nodevolumelimits.New, volumezone.New, nodedeclaredfeatures.New} {
		p, _ := f(nil, nil)
		_, st := p.(framework.PreFilterPlugin).PreFilter(context.Background(), framework.NewCycleState(), volPod("p", ""), nil)
		if !st.IsSkip() {
			t.Errorf("%s: PreFilter = %v, want Skip", p.Name(), st)
		}
	}
}
