package framework_test

import (
	"context"
	"fmt"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/plugins/queuesort"
)

// sameZone is a Filter plugin: pods labelled with a zone only fit nodes
// of that zone. The rejection is a shared Status, so rejecting a node
// allocates nothing.
type sameZone struct{}

var errOtherZone = framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) in another zone")

func (sameZone) Name() string { return "SameZone" }

func (sameZone) Filter(_ context.Context, _ *framework.CycleState, pod *api.Pod, ni *cluster.NodeInfo) *framework.Status {
	zone, ok := pod.Labels["zone"]
	if ok && ni.Node().Labels["zone"] != zone {
		return errOtherZone
	}
	return nil
}

// A custom plugin in a few lines: register its factory, enable it in a
// profile, and run the profile's filters over three nodes.
func Example_customPlugin() {
	registry := framework.Registry{
		"PrioritySort": func(any, framework.Handle) (framework.Plugin, error) { return queuesort.PrioritySort{}, nil },
		"SameZone":     func(any, framework.Handle) (framework.Plugin, error) { return sameZone{}, nil },
	}
	profile, err := framework.NewProfile(framework.ProfileConfig{
		Disabled: []string{"*"}, // start from scratch rather than from the defaults
		Plugins:  []framework.PluginRef{{Name: "PrioritySort"}, {Name: "SameZone"}},
	}, registry, nil)
	if err != nil {
		panic(err)
	}

	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web", Labels: map[string]string{"zone": "b"}}}
	for _, zone := range []string{"a", "b", "c"} {
		node := cluster.NewNodeInfo(&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-" + zone, Labels: map[string]string{"zone": zone}}})
		st := profile.RunFilterPlugins(context.Background(), framework.NewCycleState(), pod, node)
		if st.IsSuccess() {
			fmt.Printf("%s: fits\n", node.Name())
		} else {
			fmt.Printf("%s: %s (%s, %s)\n", node.Name(), st.Message(), st.Code(), st.Plugin())
		}
	}
	// Output:
	// node-a: node(s) in another zone (UnschedulableAndUnresolvable, SameZone)
	// node-b: fits
	// node-c: node(s) in another zone (UnschedulableAndUnresolvable, SameZone)
}
