package framework_test

import (
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
)

// hinted filters and registers the claim events with a hint that queues
// only for a claim named "mine".
type hinted struct{ maxPods }

func (hinted) Name() string { return "Hinted" }
func (hinted) EventsToRegister() framework.ClusterEvent {
	return framework.NodeAdd | framework.ResourceClaimUpdate
}
func (hinted) QueueingHint(_ *api.Pod, ev framework.Event) framework.QueueingHint {
	if c, ok := ev.New.(*api.ResourceClaim); ok && c.Name == "mine" {
		return framework.Queue
	}
	return framework.QueueSkip
}

// TestQueueingHint: a plugin's hint decides on events with objects; an
// event without objects queues, as does a plugin without hints.
func TestQueueingHint(t *testing.T) {
	r := framework.Registry{"PrioritySort": factoryOf(prioritySort{}), "Hinted": factoryOf(hinted{})}
	p, err := framework.NewProfile(framework.ProfileConfig{Disabled: []string{"*"},
		Plugins: []framework.PluginRef{{Name: "PrioritySort"}, {Name: "Hinted"}}}, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	pod := &api.Pod{}
	claim := func(name string) *api.ResourceClaim {
		return &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name}}
	}
	for _, tc := range []struct {
		name   string
		plugin string
		ev     framework.Event
		want   framework.QueueingHint
	}{
		{"hint queues", "Hinted", framework.Event{Kind: framework.ResourceClaimUpdate, New: claim("mine")}, framework.Queue},
		{"hint skips", "Hinted", framework.Event{Kind: framework.ResourceClaimUpdate, New: claim("other")}, framework.QueueSkip},
		{"no objects", "Hinted", framework.Event{Kind: framework.ResourceClaimUpdate}, framework.Queue},
		{"no hints", "PrioritySort", framework.Event{Kind: framework.ResourceClaimUpdate, New: claim("other")}, framework.Queue},
	} {
		if got := p.QueueingHint(tc.plugin, pod, tc.ev); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if e, ok := p.EventsOf("Hinted"); !ok || e != framework.NodeAdd|framework.ResourceClaimUpdate {
		t.Errorf("EventsOf = %v, %v", e, ok)
	}
	if got := (framework.ResourceSliceAdd | framework.PodGeneratedResourceClaim).String(); got != "ResourceSliceAdd|PodGeneratedResourceClaim" {
		t.Errorf("String = %q", got)
	}
}
