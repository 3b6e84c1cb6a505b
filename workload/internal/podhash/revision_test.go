package podhash

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestStatefulSetPatchPinned pins the revision data and name upstream
// gives a stored StatefulSet "web" with the pinned template
// (conformance: TestStatefulSetRevisionPinned logs web-66d7d9f69d and,
// with collisionCount 5, web-66d7d9f6b7).
func TestStatefulSetPatchPinned(t *testing.T) {
	patch, err := StatefulSetPatch(decode(t, web))
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json of the Go value: creationTimestamp (omitzero) left
	// out, the fields without omitempty written as zero values
	// (containers' resources, the pod spec's containers), keys sorted.
	for _, want := range []string{`{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"web"}},"spec":{`, `"resources":{"requests":{"cpu":"100m","memory":"128Mi"}}`} {
		if !bytes.Contains(patch, []byte(want)) {
			t.Errorf("patch %s lacks %s", patch, want)
		}
	}
	zero, five := int32(0), int32(5)
	for _, c := range []struct {
		cc   *int32
		want string
	}{{&zero, "web-66d7d9f69d"}, {&five, "web-66d7d9f6b7"}} {
		if got := RevisionName("web", RevisionHash(patch, c.cc)); got != c.want {
			t.Errorf("collisionCount %d: %s, want %s", *c.cc, got, c.want)
		}
	}
	if got := RevisionName(strings.Repeat("x", 300), "h"); len(got) != 225 {
		t.Errorf("long name: %d bytes", len(got))
	}
}

// TestStatefulSetPatchForms: what the informer's Go value cannot tell
// apart gives one patch (empty and absent lists, quantity spellings of
// one canonical form, timestamps in other zones); numbers go through
// float64 as upstream's generic decoding takes them.
func TestStatefulSetPatchForms(t *testing.T) {
	same := func(a, b string) {
		t.Helper()
		pa, errA := StatefulSetPatch(decode(t, a))
		pb, errB := StatefulSetPatch(decode(t, b))
		if errA != nil || errB != nil || !bytes.Equal(pa, pb) {
			t.Errorf("%s\n%s\ngive %s, %v\n%s, %v", a, b, pa, errA, pb, errB)
		}
	}
	same(`{"spec":{"containers":[{"name":"c","args":[]}]}}`, `{"spec":{"containers":[{"name":"c"}]}}`)
	same(`{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1000m"}}}]}}`, `{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}}`)
	same(`{"metadata":{"deletionTimestamp":"2026-01-02T04:04:05+01:00"}}`, `{"metadata":{"deletionTimestamp":"2026-01-02T03:04:05Z"}}`)
	same(`{"metadata":{"creationTimestamp":null}}`, `{}`)
	p, err := StatefulSetPatch(decode(t, `{"spec":{"terminationGracePeriodSeconds":9007199254740993,"containers":[{"name":"<c>"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(p, &v); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(p, []byte(`"terminationGracePeriodSeconds":9007199254740992`)) || !bytes.Contains(p, []byte(`\u003cc\u003e`)) {
		t.Errorf("patch %s: want the number through float64 and HTML escaped strings", p)
	}
	if _, err := StatefulSetPatch(decode(t, `{"spec":{"containers":"c"}}`)); err == nil || !strings.HasPrefix(err.Error(), "spec.containers: want an array") {
		t.Errorf("bad template: %v", err)
	}
}

// TestEqualSemantic: Semantic.DeepEqual's rules on JSON values
// (conformance: TestEqualIgnoreHash compares with upstream).
func TestEqualSemantic(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"spec":{"overhead":{"cpu":"1Ki"}}}`, `{"spec":{"overhead":{"cpu":"1024"}}}`, true},
		{`{"spec":{"overhead":{"cpu":"1"}}}`, `{"spec":{"overhead":{"cpu":"1001m"}}}`, false},
		{`{"spec":{"volumes":[]}}`, `{"spec":{}}`, true},
		{`{"spec":{"securityContext":{}}}`, `{"spec":{}}`, false},
		{`{"spec":{"priority":0}}`, `{"spec":{}}`, false}, // *int32: nil and 0 differ
		{`{"spec":{"hostNetwork":false}}`, `{"spec":{}}`, true},
		{`{"metadata":{"deletionTimestamp":"2026-01-02T03:04:05Z"}}`, `{"metadata":{"deletionTimestamp":"2026-01-02T03:04:06Z"}}`, false},
	} {
		got, err := Equal(decode(t, c.a), decode(t, c.b))
		if err != nil || got != c.want {
			t.Errorf("%s vs %s: %v, %v; want %v", c.a, c.b, got, err, c.want)
		}
	}
}

func FuzzStatefulSetPatch(f *testing.F) {
	f.Add([]byte(web))
	f.Add([]byte(`{"metadata":{"creationTimestamp":"2026-01-02T03:04:05Z"},"spec":{"containers":[{"ports":[{"containerPort":80}]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			return
		}
		_, _ = StatefulSetPatch(v)
		_, _ = Equal(v, v)
	})
}
