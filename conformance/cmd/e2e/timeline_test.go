package main

import (
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/conformance/internal/controlplane"
)

// TestTimeline pins the order the lockstep replays: Reserves in the
// scheduler's order whatever order the watch saw the bindings in, a
// nomination at the start of the cycle that made it (not the later one
// that placed the pod), its victims named, and removals where the
// scheduler's informer saw them.
func TestTimeline(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	cycle := func(step controlplane.CycleStep, name, node string, ms int) controlplane.Cycle {
		return controlplane.Cycle{Step: step, Namespace: "ns", Name: name, Node: node, At: at(ms)}
	}
	cycles := []controlplane.Cycle{
		cycle(controlplane.CycleStart, "a", "", 1),
		cycle(controlplane.CycleReserve, "a", "n1", 2),
		cycle(controlplane.CycleStart, "b", "", 3),
		cycle(controlplane.CycleReserve, "b", "n2", 4),
		// c preempts at 5 (no Reserve), d is placed meanwhile, c's
		// second cycle places it at 9.
		cycle(controlplane.CycleStart, "c", "", 5),
		cycle(controlplane.CycleStart, "d", "", 6),
		cycle(controlplane.CycleReserve, "d", "n2", 7),
		cycle(controlplane.CycleRemoved, "a", "n1", 7),
		cycle(controlplane.CycleStart, "c", "", 8),
		cycle(controlplane.CycleReserve, "c", "n1", 9),
		cycle(controlplane.CycleUnreserve, "c", "n1", 10),
	}
	watch := []podEvent{
		// b's binding reached the API server before a's.
		{kind: evBind, key: "ns/b", node: "n2", at: at(5)},
		{kind: evBind, key: "ns/a", node: "n1", at: at(6)},
		{kind: evDelete, key: "ns/a", node: "n1", at: at(7)},
		// Seen after c's second cycle started: still the first one's.
		{kind: evNominate, key: "ns/c", node: "n1", at: at(8)},
		// The runner's watch saw the removal after c's Reserve; the
		// scheduler's informer before.
		{kind: evGone, key: "ns/a", node: "n1", at: at(10)},
	}
	var got []string
	for _, ev := range timeline(watch, cycles, nil) {
		s := [...]string{evBind: "reserve", evNominate: "nominate", evDelete: "delete", evUnreserve: "unreserve", evGone: "gone"}[ev.kind] +
			" " + ev.key + " " + ev.node
		if len(ev.victims) > 0 {
			s += " victims " + strings.Join(ev.victims, ",")
		}
		got = append(got, s)
	}
	want := []string{
		"reserve ns/a n1",
		"reserve ns/b n2",
		"nominate ns/c n1 victims ns/a",
		"reserve ns/d n2",
		"gone ns/a n1",
		"reserve ns/c n1",
		"unreserve ns/c n1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUserDeletedIsNoVictim: a deletion the runner made is not given to
// a nomination on its node as a victim; another pod's still is.
func TestUserDeletedIsNoVictim(t *testing.T) {
	t0 := time.Now()
	watch := []podEvent{
		{kind: evNominate, key: "ns/p", node: "n1", at: t0},
		{kind: evDelete, key: "ns/user", node: "n1", at: t0.Add(time.Millisecond)},
		{kind: evDelete, key: "ns/victim", node: "n1", at: t0.Add(2 * time.Millisecond)},
	}
	got := victimsOf(watch, map[string]bool{"ns/user": true})
	if len(got) != 1 || len(got[0]) != 1 || watch[got[0][0]].key != "ns/victim" {
		t.Errorf("victims %v, want ns/victim alone", got)
	}
}
