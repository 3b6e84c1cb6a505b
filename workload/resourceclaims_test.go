package workload

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedkit/schedkit/api"
)

// The fixtures are those of upstream's pkg/controller/resourceclaim
// controller_test.go: a pod "clientPod" in "my-namespace" with uid
// "clientPodUID" and one entry "acme-resource" from template
// "my-template".
const (
	rcNamespace = "my-namespace"
	rcPod       = "clientPod"
	rcEntry     = "acme-resource"
	rcTemplate  = "my-template"
)

func rcTestPod(status ...api.PodResourceClaimStatus) *api.Pod {
	tn := rcTemplate
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: rcPod, Namespace: rcNamespace, UID: "clientPodUID"}}
	p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: rcEntry, ResourceClaimTemplateName: &tn}}
	p.Status.ResourceClaimStatuses = status
	return p
}

func rcOwner(p *api.Pod) []api.OwnerReference {
	yes := true
	return []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID, Controller: &yes}}
}

func rcClaim(name, ns string, owners []api.OwnerReference, annotated bool) *api.ResourceClaim {
	c := &api.ResourceClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, OwnerReferences: owners}}
	if annotated {
		c.GenerateName = rcPod + "-" + rcEntry + "-"
		c.Annotations = map[string]string{PodResourceClaimAnnotation: rcEntry}
	}
	return c
}

func named(entry, claim string) api.PodResourceClaimStatus {
	return api.PodResourceClaimStatus{Name: entry, ResourceClaimName: &claim}
}

// TestClaimControllerSync ports upstream's TestSyncHandler rows for pods
// (pkg/controller/resourceclaim controller_test.go); the PodGroup rows
// need DRAWorkloadResourceClaims, off by default, and the
// reservation rows are the scheduler's and kubelet's side.
func TestClaimControllerSync(t *testing.T) {
	pod := rcTestPod()
	tpl := &api.ResourceClaimTemplate{ObjectMeta: api.ObjectMeta{Name: rcTemplate, Namespace: rcNamespace}}
	// upstream's makeTemplatedClaim names it <generateName>-1; here the
	// name is drawn, so rows compare the generateName and the status
	// names the claim created.
	existing := rcClaim("clientPod-acme-resource-x", rcNamespace, rcOwner(pod), true)
	conflicting := rcClaim("clientPod-acme-resource", rcNamespace, nil, false)
	otherNS := rcClaim("clientPod-acme-resource", "not-my-namespace", nil, false)
	deleted := rcTestPod()
	deleted.DeletionTimestamp = &api.Time{}
	for _, row := range []struct {
		name      string
		pod       *api.Pod
		templates []*api.ResourceClaimTemplate
		claims    []*api.ResourceClaim
		create    bool   // a claim is created
		status    string // the claim the status names: "new" for the created one
		event     string
	}{
		// upstream: "create"
		{"create", pod, []*api.ResourceClaimTemplate{tpl}, nil, true, "new", ""},
		// upstream: "nop"
		{"nop", rcTestPod(named(rcEntry, existing.Name)), []*api.ResourceClaimTemplate{tpl}, []*api.ResourceClaim{existing}, false, "", ""},
		// upstream: "recreate" (the status names a claim that is gone)
		{"recreate", rcTestPod(named(rcEntry, existing.Name)), []*api.ResourceClaimTemplate{tpl}, nil, true, "new", ""},
		// upstream: "missing-template"
		{"missing-template", pod, nil, nil, false, "", `PodResourceClaim acme-resource: resource claim template "my-template": resourceclaimtemplate.resource.k8s.io "my-template" not found`},
		// upstream: "find-existing-claim-by-label"
		{"find-existing-claim", pod, nil, []*api.ResourceClaim{existing}, false, existing.Name, ""},
		// upstream: "recreate-wrong-owner"
		{"recreate-wrong-owner", rcTestPod(named(rcEntry, conflicting.Name)), []*api.ResourceClaimTemplate{tpl}, []*api.ResourceClaim{conflicting}, true, "new", ""},
		// upstream: "pod-deleted"
		{"pod-deleted", deleted, []*api.ResourceClaimTemplate{tpl}, nil, false, "", ""},
		// upstream: "no-volumes"
		{"no-claims", &api.Pod{ObjectMeta: api.ObjectMeta{Name: rcPod, Namespace: rcNamespace}}, nil, nil, false, "", ""},
		// upstream: "create-with-other-claim"
		{"create-with-other-claim", pod, []*api.ResourceClaimTemplate{tpl}, []*api.ResourceClaim{otherNS}, true, "new", ""},
		// upstream: "wrong-claim-owner"
		{"wrong-claim-owner", pod, nil, []*api.ResourceClaim{conflicting}, false, "", `resourceclaimtemplate.resource.k8s.io "my-template" not found`},
	} {
		t.Run(row.name, func(t *testing.T) {
			c := NewClaimController(rand.New(rand.NewPCG(1, 2)), row.templates, row.claims)
			before := row.pod.DeepCopy()
			got := c.Sync(row.pod)
			if diff := cmp.Diff(before, row.pod); diff != "" {
				t.Errorf("the pod given was changed:\n%s", diff)
			}
			if !strings.Contains(got.Event, row.event) || (row.event == "") != (got.Event == "") {
				t.Errorf("event %q, want %q", got.Event, row.event)
			}
			if (len(got.Created) == 1) != row.create || len(got.Created) > 1 {
				t.Fatalf("created %d claims, want create=%v", len(got.Created), row.create)
			}
			want := row.status
			if want == "new" {
				want = got.Created[0].Name
			}
			var sts []api.PodResourceClaimStatus
			if want != "" {
				sts = []api.PodResourceClaimStatus{named(rcEntry, want)}
			}
			if row.status == "" {
				sts = row.pod.Status.ResourceClaimStatuses
			}
			if diff := cmp.Diff(sts, got.Pod.Status.ResourceClaimStatuses); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
			if row.create {
				cl := got.Created[0]
				wantMeta := api.ObjectMeta{Name: cl.Name, GenerateName: "clientPod-acme-resource-", Namespace: rcNamespace, UID: ClaimUID(rcNamespace, cl.Name),
					OwnerReferences: rcOwner(row.pod), Annotations: map[string]string{PodResourceClaimAnnotation: rcEntry}}
				if diff := cmp.Diff(wantMeta, cl.ObjectMeta); diff != "" {
					t.Errorf("claim metadata (-want +got):\n%s", diff)
				}
				if !strings.HasPrefix(cl.Name, "clientPod-acme-resource-") || len(cl.Name) != len("clientPod-acme-resource-")+5 {
					t.Errorf("claim name %q", cl.Name)
				}
			}
		})
	}
}

// TestClaimFromTemplate: the claim has the template's labels,
// annotations and spec, and the controller's annotation beside them
// (upstream's TestCreateClaimDoesNotMutateTemplate: the template is not
// changed).
func TestClaimFromTemplate(t *testing.T) {
	tpl := &api.ResourceClaimTemplate{ObjectMeta: api.ObjectMeta{Name: rcTemplate, Namespace: rcNamespace}}
	tpl.Spec.ObjectMeta.Labels = map[string]string{"team": "ml"}
	tpl.Spec.ObjectMeta.Annotations = map[string]string{"example.com/color": "blue"}
	tpl.Spec.Spec.Devices.Requests = []api.DeviceRequest{{Name: "gpu", Exactly: &api.ExactDeviceRequest{DeviceClassName: "gpu.example.com", AllocationMode: api.DeviceAllocationModeExactCount, Count: 2}}}
	before := tpl.DeepCopy()
	c := NewClaimController(rand.New(rand.NewPCG(1, 2)), []*api.ResourceClaimTemplate{tpl}, nil)
	got := c.Sync(rcTestPod())
	if diff := cmp.Diff(before, tpl); diff != "" {
		t.Fatalf("template changed:\n%s", diff)
	}
	cl := got.Created[0]
	if diff := cmp.Diff(map[string]string{"example.com/color": "blue", PodResourceClaimAnnotation: rcEntry}, cl.Annotations); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(tpl.Spec.ObjectMeta.Labels, cl.Labels); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(tpl.Spec.Spec, cl.Spec); diff != "" {
		t.Error(diff)
	}
	cl.Spec.Devices.Requests[0].Exactly.Count = 7
	cl.Labels["x"] = "y"
	if diff := cmp.Diff(before, tpl); diff != "" {
		t.Fatalf("the claim shares the template's spec or labels:\n%s", diff)
	}
	// Names drawn for the same pod's entries never collide with claims
	// that exist.
	second := c.Sync(func() *api.Pod { p := rcTestPod(); p.Name, p.UID = "clientPod", "other"; return p }())
	if second.Created[0].Name == cl.Name {
		t.Errorf("name %q drawn twice", cl.Name)
	}
}

// TestClaimUID: generated claims' UIDs are version 5 UUIDs of their
// namespace and name, the same on every load, distinct across names and
// namespaces, and the default namespace is "default".
func TestClaimUID(t *testing.T) {
	u := ClaimUID("ns", "pod-gpu-abcde")
	if len(u) != 36 || u[14] != '5' || !strings.ContainsRune("89ab", rune(u[19])) {
		t.Fatalf("ClaimUID = %q, not a version 5 UUID", u)
	}
	if u != ClaimUID("ns", "pod-gpu-abcde") {
		t.Fatal("ClaimUID is not deterministic")
	}
	if u == ClaimUID("ns2", "pod-gpu-abcde") || u == ClaimUID("ns", "pod-gpu-abcdf") {
		t.Fatal("ClaimUID collides")
	}
	if ClaimUID("", "c") != ClaimUID("default", "c") {
		t.Fatal("empty namespace is not default")
	}
}

// TestClaimGenerateName pins the controller's cut of long names: both
// parts in proportion to their lengths, no trailing hyphen.
func TestClaimGenerateName(t *testing.T) {
	for _, c := range []struct{ pod, entry, want string }{
		{"web-0", "gpu", "web-0-gpu-"},
		{strings.Repeat("p", 40), strings.Repeat("c", 20), strings.Repeat("p", 40*57/62) + "-" + strings.Repeat("c", 20*57/62)},
		{strings.Repeat("p", 63), "c", strings.Repeat("p", 63*57/66) + "-"},
	} {
		if got := ClaimGenerateName(c.pod, c.entry); got != c.want {
			t.Errorf("ClaimGenerateName(%q, %q) = %q, want %q", c.pod, c.entry, got, c.want)
		}
	}
}

// TestClaimControllerStopsAtFailure: a missing template stops the pod's
// sync before the status is written; claims made for earlier entries
// stay, and a second entry shared by name makes nothing.
func TestClaimControllerStopsAtFailure(t *testing.T) {
	a, b, shared := "a", "missing", "shared"
	tpl := &api.ResourceClaimTemplate{ObjectMeta: api.ObjectMeta{Name: a, Namespace: "ns"}}
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns"}}
	p.Spec.ResourceClaims = []api.PodResourceClaim{{Name: "s", ResourceClaimName: &shared}, {Name: "one", ResourceClaimTemplateName: &a}, {Name: "two", ResourceClaimTemplateName: &b}}
	got := NewClaimController(rand.New(rand.NewPCG(3, 4)), []*api.ResourceClaimTemplate{tpl}, nil).Sync(p)
	if len(got.Created) != 1 || got.Pod != p || len(p.Status.ResourceClaimStatuses) != 0 {
		t.Fatalf("created %d, pod changed %v, statuses %v", len(got.Created), got.Pod != p, got.Pod.Status.ResourceClaimStatuses)
	}
	if !strings.HasPrefix(got.Event, "PodResourceClaim two: ") {
		t.Errorf("event %q", got.Event)
	}
}
