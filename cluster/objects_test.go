package cluster

import (
	"errors"
	"slices"
	"testing"

	"github.com/schedkit/schedkit/api"
)

func svc(ns, name string) *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}}
}

func pv(name string) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}}
}

func serviceNames(l []*api.Service) []string {
	var out []string
	for _, s := range l {
		out = append(out, s.Namespace+"/"+s.Name)
	}
	return out
}

// TestObjectsWriters checks the writers' validation: each row applies
// its objects to a snapshot holding svc default/a and pv p1, and expects
// an error wrapping want (nil for success) and, on failure, no change;
// NumObjects, read before a view is taken, counts what the view holds.
func TestObjectsWriters(t *testing.T) {
	var nilSvc *api.Service
	tests := []struct {
		name string
		op   func(s *Snapshot) error
		want error
	}{
		{"add new", func(s *Snapshot) error { return s.AddObject(svc("x", "b")) }, nil},
		{"add nil", func(s *Snapshot) error { return s.AddObject(nil) }, ErrInvalid},
		{"add typed nil", func(s *Snapshot) error { return s.AddObject(nilSvc) }, ErrInvalid},
		{"add unsupported", func(s *Snapshot) error { return s.AddObject(&api.Pod{}) }, ErrInvalid},
		{"add value not pointer", func(s *Snapshot) error { return s.AddObject(api.Service{}) }, ErrInvalid},
		{"add no name", func(s *Snapshot) error { return s.AddObject(svc("x", "")) }, ErrInvalid},
		{"add duplicate (empty namespace is default)", func(s *Snapshot) error { return s.AddObject(svc("", "a")) }, ErrInvalid},
		{"add duplicate cluster-scoped (namespace ignored)", func(s *Snapshot) error {
			p := pv("p1")
			p.Namespace = "ns"
			return s.AddObject(p)
		}, ErrInvalid},
		{"add batch with duplicate inside", func(s *Snapshot) error { return s.AddObjects(svc("x", "b"), svc("x", "c"), svc("x", "b")) }, ErrInvalid},
		{"add batch with invalid last", func(s *Snapshot) error { return s.AddObjects(svc("x", "b"), svc("x", "")) }, ErrInvalid},
		{"update existing", func(s *Snapshot) error { return s.UpdateObject(svc("default", "a")) }, nil},
		{"update missing", func(s *Snapshot) error { return s.UpdateObject(svc("x", "a")) }, ErrNotFound},
		{"update invalid", func(s *Snapshot) error { return s.UpdateObject(svc("x", "")) }, ErrInvalid},
		{"remove existing", func(s *Snapshot) error { return s.RemoveObject(pv("p1")) }, nil},
		{"remove missing", func(s *Snapshot) error { return s.RemoveObject(pv("p2")) }, ErrNotFound},
		{"remove by key", func(s *Snapshot) error {
			return s.RemoveObjectKey(ObjectKey{Kind: KindService, Name: "a"})
		}, nil},
		{"remove by key, unknown kind", func(s *Snapshot) error {
			return s.RemoveObjectKey(ObjectKey{Kind: "Pod", Name: "a"})
		}, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Snapshot{}
			if err := s.AddObjects(svc("", "a"), pv("p1")); err != nil {
				t.Fatal(err)
			}
			before := s.Objects()
			err := tt.op(s)
			for _, k := range []Kind{KindService, KindPersistentVolume, KindResourceClaim} {
				if n := s.NumObjects(k); n != s.Objects().Len(k) {
					t.Errorf("NumObjects(%s) = %d, the view has %d", k, n, s.Objects().Len(k))
				}
			}
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if s.Objects() == before || s.Objects().Generation() <= before.Generation() {
					t.Errorf("a change left the store's generation at %d", s.Objects().Generation())
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want one wrapping %v", err, tt.want)
			}
			if s.Objects() != before {
				t.Errorf("failed write changed the store")
			}
			if got := s.Objects().Len(KindService); got != 1 {
				t.Errorf("services = %d after a failed write", got)
			}
		})
	}
}

// TestObjectsLookups checks lookups by name and namespace, listing order
// and that a view taken earlier keeps its objects.
func TestObjectsLookups(t *testing.T) {
	s, err := NewSnapshot(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddObjects(svc("b", "z"), svc("b", "a"), svc("a", "m"), svc("", "d"), pv("p2"), pv("p1"),
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "b", Labels: map[string]string{"team": "x"}}}); err != nil {
		t.Fatal(err)
	}
	v1 := s.View()
	o := v1.Objects()
	if got := serviceNames(ListObjects[api.Service](o, "b")); !slices.Equal(got, []string{"b/a", "b/z"}) {
		t.Errorf("services in b = %v", got)
	}
	if got := serviceNames(ListObjects[api.Service](o, "")); !slices.Equal(got, []string{"/d"}) {
		t.Errorf("services in default = %v", got)
	}
	if got := serviceNames(slices.Collect(AllObjects[api.Service](o))); !slices.Equal(got, []string{"a/m", "b/a", "b/z", "/d"}) {
		t.Errorf("all services = %v", got)
	}
	if got := ObjectNamespaces[api.Service](o); !slices.Equal(got, []string{"a", "b", "default"}) {
		t.Errorf("namespaces = %v", got)
	}
	if ns, ok := GetObject[api.Namespace](o, "", "b"); !ok || ns.Labels["team"] != "x" {
		t.Errorf("namespace b = %v, %v", ns, ok)
	}
	if _, ok := GetObject[api.Service](o, "default", "d"); !ok {
		t.Error("service default/d not found")
	}
	if _, ok := GetObject[api.Service](o, "a", "d"); ok {
		t.Error("service a/d found")
	}
	if p, ok := GetObject[api.PersistentVolume](o, "ignored", "p1"); !ok || p.Name != "p1" {
		t.Error("pv p1 not found with a namespace given")
	}
	if got := ListObjects[api.PersistentVolume](o, ""); len(got) != 2 || got[0].Name != "p1" {
		t.Errorf("pvs = %v", got)
	}
	if s.View() != v1 {
		t.Error("a second view without changes differs")
	}
	g := o.Generation()
	kg := o.KindGeneration(KindPersistentVolume)

	if err := s.RemoveObject(svc("b", "a")); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateObject(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "b"}}); err != nil {
		t.Fatal(err)
	}
	o2 := s.Objects()
	if got := serviceNames(ListObjects[api.Service](o2, "b")); !slices.Equal(got, []string{"b/z"}) {
		t.Errorf("services in b after removal = %v", got)
	}
	if got := serviceNames(ListObjects[api.Service](o, "b")); !slices.Equal(got, []string{"b/a", "b/z"}) {
		t.Errorf("old view's services in b = %v", got)
	}
	if ns, _ := GetObject[api.Namespace](o, "", "b"); ns.Labels["team"] != "x" {
		t.Error("old view's namespace changed")
	}
	if o2.Generation() <= g || o2.KindGeneration(KindPersistentVolume) != kg {
		t.Errorf("generations %d (was %d), pv %d (was %d)", o2.Generation(), g, o2.KindGeneration(KindPersistentVolume), kg)
	}
	if v := s.View(); v.Generation() < o2.Generation() {
		t.Errorf("view generation %d below the objects' %d", v.Generation(), o2.Generation())
	}
	claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Namespace: "a", Name: "data"},
		Spec: api.PersistentVolumeClaimSpec{Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: mustQ("1Gi")}}}}
	if err := s.AddObject(claim); err != nil {
		t.Fatal(err)
	}
	if got, ok := GetObject[api.PersistentVolumeClaim](s.Objects(), "a", "data"); !ok || got != claim {
		t.Errorf("claim a/data = %v, %v", got, ok)
	}
	if _, ok := GetObject[api.PersistentVolumeClaim](o2, "a", "data"); ok {
		t.Error("claim visible in a view taken before it was added")
	}
	var nilObjects *Objects
	if _, ok := GetObject[api.Service](nilObjects, "a", "m"); ok || nilObjects.Len(KindService) != 0 || ListObjects[api.Service](nilObjects, "a") != nil {
		t.Error("nil Objects not empty")
	}
}

func TestKinds(t *testing.T) {
	for i, k := range Kinds() {
		if k.index() != i || k == "" {
			t.Errorf("kind %d %q has index %d", i, k, k.index())
		}
	}
	if k, ok := KindOf(&api.CSIStorageCapacity{}); !ok || k != KindCSIStorageCapacity || !k.Namespaced() {
		t.Errorf("KindOf CSIStorageCapacity = %q %v", k, ok)
	}
	if KindStorageClass.Namespaced() || !KindPersistentVolumeClaim.Namespaced() {
		t.Error("scopes wrong")
	}
	if k, err := KeyOf(svc("", "a")); err != nil || k.String() != "Service default/a" {
		t.Errorf("KeyOf = %v, %v", k, err)
	}
}

// TestObjectsReadersDoNotAllocate: lookups and lists cost no allocation.
func TestObjectsReadersDoNotAllocate(t *testing.T) {
	s := &Snapshot{}
	if err := s.AddObjects(svc("a", "x"), svc("a", "y"), pv("p")); err != nil {
		t.Fatal(err)
	}
	o := s.Objects()
	n := testing.AllocsPerRun(100, func() {
		if _, ok := GetObject[api.Service](o, "a", "x"); !ok {
			t.Fatal("missing")
		}
		if _, ok := GetObject[api.PersistentVolume](o, "", "p"); !ok {
			t.Fatal("missing")
		}
		if len(ListObjects[api.Service](o, "a")) != 2 {
			t.Fatal("list")
		}
		_ = o.Len(KindService) + int(o.KindGeneration(KindService))
	})
	if n != 0 {
		t.Errorf("%v allocations per lookup round", n)
	}
}

// TestObjectsConcurrentReaders: readers of views race with the writer
// without data races (run with -race) and see each view unchanged.
func TestObjectsConcurrentReaders(t *testing.T) {
	s := &Snapshot{}
	done := make(chan struct{})
	errs := make(chan string, 1)
	go func() {
		defer close(done)
		for range 200 {
			o := s.Objects()
			n := len(ListObjects[api.Service](o, "a"))
			for range 5 {
				if len(ListObjects[api.Service](o, "a")) != n || o.Len(KindService) != n {
					select {
					case errs <- "a view changed under a reader":
					default:
					}
					return
				}
			}
		}
	}()
	for i := range 200 {
		name := string(rune('a' + i%26))
		if i%3 == 2 {
			_ = s.RemoveObject(svc("a", name))
		} else {
			_ = s.AddObject(svc("a", name))
		}
	}
	<-done
	select {
	case e := <-errs:
		t.Fatal(e)
	default:
	}
}

func va(name, node string) *api.VolumeAttachment {
	return &api.VolumeAttachment{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.VolumeAttachmentSpec{Attacher: "d", NodeName: node}}
}

func vaNames(vas []*api.VolumeAttachment) []string {
	var out []string
	for _, v := range vas {
		out = append(out, v.Name)
	}
	return out
}

// TestVolumeAttachmentsOnNode: the attachments are grouped by
// spec.nodeName, a view keeps the grouping of its time, and concurrent
// readers of one view agree.
func TestVolumeAttachmentsOnNode(t *testing.T) {
	s := &Snapshot{}
	if err := s.AddObjects(va("b", "n1"), va("a", "n1"), va("c", "n2")); err != nil {
		t.Fatal(err)
	}
	if k, ok := KindOf(&api.VolumeAttachment{}); !ok || k != KindVolumeAttachment || k.Namespaced() {
		t.Errorf("KindOf VolumeAttachment = %q %v", k, ok)
	}
	before := s.View().Objects()
	done := make(chan []string)
	for range 4 {
		go func() { done <- vaNames(VolumeAttachmentsOnNode(before, "n1")) }()
	}
	for range 4 {
		if got := <-done; !slices.Equal(got, []string{"a", "b"}) {
			t.Errorf("n1 = %v", got)
		}
	}
	if err := s.UpdateObject(va("a", "n2")); err != nil {
		t.Fatal(err)
	}
	after := s.View().Objects()
	if got := vaNames(VolumeAttachmentsOnNode(after, "n2")); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("n2 after the move = %v", got)
	}
	if got := vaNames(VolumeAttachmentsOnNode(after, "n1")); !slices.Equal(got, []string{"b"}) {
		t.Errorf("n1 after the move = %v", got)
	}
	if got := vaNames(VolumeAttachmentsOnNode(before, "n2")); !slices.Equal(got, []string{"c"}) {
		t.Errorf("n2 in the earlier view = %v", got)
	}
	if err := s.RemoveObject(va("c", "")); err != nil {
		t.Fatal(err)
	}
	if got := vaNames(VolumeAttachmentsOnNode(s.View().Objects(), "n2")); !slices.Equal(got, []string{"a"}) {
		t.Errorf("n2 after the removal = %v", got)
	}
	if VolumeAttachmentsOnNode(nil, "n1") != nil || VolumeAttachmentsOnNode(s.View().Objects(), "none") != nil {
		t.Error("attachments where there are none")
	}
}
