package k8stest

import (
	"slices"
	"testing"
)

// TestPluginless: the plugin's own flags, with their values in either
// form, are dropped; schedkit's are kept in order.
func TestPluginless(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"-A", "-o", "json"}, []string{"-o", "json"}},
		{[]string{"-n", "shop", "--page-size", "2", "--all"}, []string{"--all"}},
		{[]string{"--page-size=3", "--namespace=shop", "--config", "a.yaml"}, []string{"--config", "a.yaml"}},
		{[]string{"--kubeconfig", "k", "--context", "c", "--save-dump", "d", "--pod", "x"}, []string{"--pod", "x"}},
	} {
		if got := pluginless(c.in); !slices.Equal(got, c.want) {
			t.Errorf("pluginless(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
