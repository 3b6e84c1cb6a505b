package manifest

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// twoPods are documents of their own (a small List is read through the
// tree, which shares nothing).
const twoPods = `{"kind":"Node","apiVersion":"v1","metadata":{"name":"n"},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"ua"},"spec":{"nodeName":"n","containers":[{"name":"c","resources":{"requests":{"cpu":"100m"},"limits":{}}}]}}
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"b","namespace":"ns","uid":"ub"},"spec":{"nodeName":"n","containers":[{"name":"c","resources":{"requests":{"cpu":"100m"},"limits":{}}}]}}
`

// TestShareResourceLists: with sharing on, equal non-empty resource lists
// are one map and empty ones are not shared; off, every list is its own;
// the objects are equal either way.
func TestShareResourceLists(t *testing.T) {
	for _, share := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "d.json")
		if err := os.WriteFile(path, []byte(twoPods), 0o644); err != nil {
			t.Fatal(err)
		}
		objs, _, err := ReadFiles(Options{ShareResourceLists: share}, path)
		if err != nil {
			t.Fatal(err)
		}
		a, b := objs.Pods[0].Spec.Containers[0].Resources, objs.Pods[1].Spec.Containers[0].Resources
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("share %v: %v != %v", share, a, b)
		}
		same := reflect.ValueOf(a.Requests).UnsafePointer() == reflect.ValueOf(b.Requests).UnsafePointer()
		if same != share {
			t.Errorf("share %v: requests one map %v", share, same)
		}
		if reflect.ValueOf(a.Limits).UnsafePointer() == reflect.ValueOf(b.Limits).UnsafePointer() {
			t.Errorf("share %v: empty limits shared", share)
		}
	}
}

// TestPriorityInPlace: a stored pod without spec.priority gets it on a
// copy, the pod read unchanged; with PriorityInPlace on the pod read,
// which the snapshot then holds; the snapshot's pods are equal either
// way.
func TestPriorityInPlace(t *testing.T) {
	var got [2]any
	for i, inPlace := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, "d.json")
		if err := os.WriteFile(path, []byte(twoPods), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(context.Background(), Options{PriorityInPlace: inPlace}, path)
		if err != nil {
			t.Fatal(err)
		}
		read := c.Objects.Pods[0]
		if (read.Spec.Priority != nil) != inPlace {
			t.Errorf("in place %v: pod read has priority %v", inPlace, read.Spec.Priority)
		}
		info, _, ok := c.Snapshot.Pod("ns", "a")
		if !ok {
			t.Fatal("pod ns/a not in the snapshot")
		}
		held := info.Pod
		if held.Spec.Priority == nil || *held.Spec.Priority != 0 || held.Spec.PreemptionPolicy == nil {
			t.Fatalf("in place %v: snapshot's pod %v", inPlace, held)
		}
		if (held == read) != inPlace {
			t.Errorf("in place %v: snapshot holds the pod read: %v", inPlace, held == read)
		}
		got[i] = *held
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("snapshot's pods differ:\n%v\n%v", got[0], got[1])
	}
}
