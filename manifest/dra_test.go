package manifest

import (
	"slices"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/workload"
)

const draObjects = `apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu-1}
spec:
  driver: gpu.example.com
  nodeName: gpu-1
  pool: {name: gpu-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: A100}
    capacity:
      memory: {value: 40Gi}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: ml}
spec:
  metadata: {labels: {team: ml}}
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared, namespace: ml, uid: u1}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com, allocationMode: ExactCount, count: 1}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: gpu-1, device: gpu-0}
  reservedFor:
  - {resource: pods, name: a, uid: pa}
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: maintenance}
spec:
  deviceSelector: {driver: gpu.example.com}
  taint: {key: maintenance, effect: NoSchedule}
`

func TestReadDRAObjects(t *testing.T) {
	r := NewReader()
	if err := r.Read("dra.yaml", strings.NewReader(draObjects)); err != nil {
		t.Fatal(err)
	}
	o := r.Objects()
	if len(o.DeviceClasses) != 1 || len(o.ResourceSlices) != 1 || len(o.ResourceClaimTemplates) != 1 || len(o.ResourceClaims) != 1 || len(o.DeviceTaintRules) != 1 {
		t.Fatalf("read %d classes, %d slices, %d templates, %d claims, %d rules", len(o.DeviceClasses), len(o.ResourceSlices), len(o.ResourceClaimTemplates), len(o.ResourceClaims), len(o.DeviceTaintRules))
	}
	if w := r.Report().Warnings; len(w) != 0 {
		t.Errorf("warnings: %v", w)
	}
	if ns := o.DeviceClasses[0].Namespace; ns != "" {
		t.Errorf("a DeviceClass is cluster-scoped; namespace %q", ns)
	}
	// A new template gets the API server's defaults.
	x := o.ResourceClaimTemplates[0].Spec.Spec.Devices.Requests[0].Exactly
	if x.AllocationMode != api.DeviceAllocationModeExactCount || x.Count != 1 {
		t.Errorf("template request not defaulted: %+v", x)
	}
	// The dump's reservation is kept.
	c := o.ResourceClaims[0]
	if len(c.Status.ReservedFor) != 1 || c.Status.ReservedFor[0].UID != "pa" || c.Status.Allocation == nil {
		t.Errorf("claim status not kept: %+v", c.Status)
	}
	if got := o.ResourceSlices[0].Spec.Devices[0].Attributes["model"].StringValue; got == nil || *got != "A100" {
		t.Errorf("attribute model = %v", got)
	}
}

func TestReadDRAErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []string // substrings of the error, or of the warning when warn
		warn     bool
	}{
		{"v1beta1 is not served", "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: a}\nspec: {}\n",
			[]string{`in.yaml:1: document 1: no matches for kind "DeviceClass" in version "resource.k8s.io/v1beta1": Kubernetes v1.37.2 serves DeviceClass in resource.k8s.io/v1 only`}, false},
		{"v1beta2 is not served", "apiVersion: resource.k8s.io/v1beta2\nkind: ResourceClaim\nmetadata: {name: a}\nspec: {devices: {}}\n",
			[]string{`no matches for kind "ResourceClaim" in version "resource.k8s.io/v1beta2": Kubernetes v1.37.2 serves ResourceClaim in resource.k8s.io/v1 only`}, false},
		{"v1alpha3 rule", "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata: {name: a}\nspec: {taint: {key: k, effect: NoSchedule}}\n",
			[]string{`in version "resource.k8s.io/v1alpha3"`}, false},
		{"CEL that does not compile", "kind: List\napiVersion: v1\nitems:\n- apiVersion: resource.k8s.io/v1\n  kind: DeviceClass\n  metadata: {name: bad}\n  spec:\n    selectors:\n    - cel: {expression: 'device.driver =='}\n",
			[]string{`in.yaml:4: document 1, items[0] (DeviceClass bad): spec.selectors[0].cel.expression: Invalid value: "device.driver ==": compilation failed: ERROR: <input>:1:17: Syntax error`}, false},
		{"CEL of a template request", "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: ml}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly:\n          deviceClassName: c\n          selectors: [{cel: {expression: 'device.nope'}}]\n",
			[]string{`(ResourceClaimTemplate ml/t): spec.spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "device.nope"`}, false},
		{"validation", "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: c, allocationMode: Some}\n",
			[]string{`(ResourceClaim default/c): spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Some"`}, false},
		{"unknown field", "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n  allNodes: true\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devicez: []\n",
			[]string{`in.yaml:8: document 1 (ResourceSlice s): strict decoding error: unknown field "spec.devicez"`}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader()
			err := r.Read("in.yaml", strings.NewReader(c.in))
			got := ""
			if c.warn {
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range r.Report().Warnings {
					got += w.String() + "\n"
				}
			} else if err == nil {
				t.Fatal("no error")
			} else {
				got = err.Error()
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q\ndoes not contain %q", got, w)
				}
			}
		})
	}
}

func TestLoadStoresDRAObjects(t *testing.T) {
	r := NewReader()
	if err := r.Read("dra.yaml", strings.NewReader(draObjects)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), r.Report(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot.Objects()
	if n := len(cluster.ListObjects[api.ResourceSlice](s, "")); n != 1 {
		t.Errorf("%d ResourceSlices in the store", n)
	}
	claims := cluster.ListObjects[api.ResourceClaim](s, "ml")
	if len(claims) != 1 || len(claims[0].Status.ReservedFor) != 1 {
		t.Errorf("stored claims %+v: the dump's reservation must be kept", claims)
	}
	for _, n := range []int{len(cluster.ListObjects[api.DeviceClass](s, "")), len(cluster.ListObjects[api.ResourceClaimTemplate](s, "ml")), len(cluster.ListObjects[api.DeviceTaintRule](s, ""))} {
		if n != 1 {
			t.Errorf("store holds %d of a kind, want 1", n)
		}
	}
}

const draPods = `apiVersion: v1
kind: Pod
metadata: {name: train, namespace: ml}
spec:
  containers: [{name: c, image: i, resources: {claims: [{name: gpu}]}}]
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: one-gpu}
  - {name: data, resourceClaimName: shared}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: serve, namespace: ml}
spec:
  replicas: 2
  selector: {matchLabels: {app: serve}}
  template:
    metadata: {labels: {app: serve}}
    spec:
      containers: [{name: c, image: i}]
      resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: lost, namespace: ml}
spec:
  containers: [{name: c, image: i}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: nope}]
`

// TestLoadMakesTemplateClaims: new pods, bare or created by a workload
// controller, get the claims the resourceclaim controller makes, in the
// store, named in their status; a pod whose template is missing gets the
// controller's event as a warning and no status.
func TestLoadMakesTemplateClaims(t *testing.T) {
	r := NewReader()
	if err := r.Read("dra.yaml", strings.NewReader(draObjects+"---\n"+draPods)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), r.Report(), Options{ExpandWorkloads: true})
	if err != nil {
		t.Fatal(err)
	}
	claims := map[string]*api.ResourceClaim{}
	for _, cl := range cluster.ListObjects[api.ResourceClaim](c.Snapshot.Objects(), "ml") {
		claims[cl.Name] = cl
	}
	if len(claims) != 4 {
		t.Fatalf("%d claims in the store, want the shared one and 3 generated", len(claims))
	}
	if len(c.Pending) != 4 {
		t.Fatalf("%d pending pods", len(c.Pending))
	}
	for _, p := range c.Pending {
		if p.Name == "lost" {
			if len(p.Status.ResourceClaimStatuses) != 0 {
				t.Errorf("lost has statuses %v", p.Status.ResourceClaimStatuses)
			}
			continue
		}
		sts := p.Status.ResourceClaimStatuses
		if len(sts) != 1 || sts[0].Name != "gpu" || sts[0].ResourceClaimName == nil {
			t.Fatalf("pod %s statuses %+v", p.Name, sts)
		}
		cl := claims[*sts[0].ResourceClaimName]
		if cl == nil {
			t.Fatalf("pod %s names claim %s, not in the store", p.Name, *sts[0].ResourceClaimName)
		}
		if cl.UID != workload.ClaimUID("ml", cl.Name) {
			t.Errorf("claim %s uid %q", cl.Name, cl.UID)
		}
		if cl.GenerateName != p.Name+"-gpu-" || !strings.HasPrefix(cl.Name, cl.GenerateName) {
			t.Errorf("claim %s generateName %q for pod %s", cl.Name, cl.GenerateName, p.Name)
		}
		if ref := cl.OwnerReferences; len(ref) != 1 || ref[0].Kind != "Pod" || ref[0].Name != p.Name || ref[0].Controller == nil || !*ref[0].Controller {
			t.Errorf("claim %s owners %+v", cl.Name, ref)
		}
		if cl.Labels["team"] != "ml" || cl.Annotations["resource.kubernetes.io/pod-claim-name"] != "gpu" {
			t.Errorf("claim %s labels %v annotations %v", cl.Name, cl.Labels, cl.Annotations)
		}
		if x := cl.Spec.Devices.Requests[0].Exactly; x == nil || x.DeviceClassName != "gpu.example.com" || x.Count != 1 {
			t.Errorf("claim %s spec %+v", cl.Name, cl.Spec)
		}
	}
	found := false
	for _, w := range c.Report.Warnings {
		if strings.Contains(w.String(), `(Pod ml/lost): FailedResourceClaimCreation: PodResourceClaim gpu: resource claim template "nope": resourceclaimtemplate.resource.k8s.io "nope" not found`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning for the missing template: %v", c.Report.Warnings)
	}
}

// TestClaimQuota: count/resourceclaims.resource.k8s.io limits the claims
// the controller creates; the refused one is the controller's event.
func TestClaimQuota(t *testing.T) {
	quota := "---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: ml}\nspec: {hard: {count/resourceclaims.resource.k8s.io: \"2\"}}\n"
	r := NewReader()
	if err := r.Read("dra.yaml", strings.NewReader(draObjects+"---\n"+draPods+quota)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), r.Report(), Options{ExpandWorkloads: true})
	if err != nil {
		t.Fatal(err)
	}
	n := len(cluster.ListObjects[api.ResourceClaim](c.Snapshot.Objects(), "ml"))
	var refused []string
	for _, w := range c.Report.Warnings {
		if strings.Contains(w.Message, "create ResourceClaim : ") {
			refused = append(refused, w.String())
		}
	}
	// The shared claim read counts: train's claim is the second, the
	// Deployment's two pods' claims are refused.
	if n != 2 || len(refused) != 2 {
		t.Errorf("%d claims stored, refused %v", n, refused)
	}
	for _, w := range refused {
		if !strings.Contains(w, `is forbidden: exceeded quota: q, requested: count/resourceclaims.resource.k8s.io=1, used: count/resourceclaims.resource.k8s.io=2, limited: count/resourceclaims.resource.k8s.io=2`) {
			t.Errorf("refusal %q", w)
		}
	}
}

// TestClaimDeviceQuota: <class>.deviceclass.resource.k8s.io/devices
// limits the devices the claims made and read request; the shared claim
// stored counts, a new claim read is refused as kubectl's create is.
func TestClaimDeviceQuota(t *testing.T) {
	const name = "gpu.example.com.deviceclass.resource.k8s.io/devices"
	quota := func(n string) string {
		return "---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: ml}\nspec: {hard: {" + name + ": \"" + n + "\"}}\n"
	}
	extra := "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: extra, namespace: ml}\nspec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 2}}]}}\n"
	for _, c := range []struct {
		name, input    string
		stored         int
		refused        []string
		rejectedClaims []string
	}{
		// shared (1 device) and train's claim (1): the Deployment's two
		// claims are refused.
		{"template claims", draObjects + "---\n" + draPods + quota("2"), 2, []string{
			`is forbidden: exceeded quota: q, requested: ` + name + `=1, used: ` + name + `=2, limited: ` + name + `=2`,
			`is forbidden: exceeded quota: q, requested: ` + name + `=1, used: ` + name + `=2, limited: ` + name + `=2`,
		}, nil},
		// A new claim read asks for 2 with 1 of 2 used: refused before
		// the pods are created; then as above.
		{"claim read", draObjects + "---\n" + draPods + extra + quota("2"), 2, []string{
			`is forbidden: exceeded quota: q, requested: ` + name + `=1, used: ` + name + `=2, limited: ` + name + `=2`,
			`is forbidden: exceeded quota: q, requested: ` + name + `=1, used: ` + name + `=2, limited: ` + name + `=2`,
		}, []string{
			`resourceclaims.resource.k8s.io "extra" is forbidden: exceeded quota: q, requested: ` + name + `=2, used: ` + name + `=1, limited: ` + name + `=2`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader()
			if err := r.Read("dra.yaml", strings.NewReader(c.input)); err != nil {
				t.Fatal(err)
			}
			cl, err := NewCluster(r.Objects(), r.Report(), Options{ExpandWorkloads: true})
			if err != nil {
				t.Fatal(err)
			}
			n := len(cluster.ListObjects[api.ResourceClaim](cl.Snapshot.Objects(), "ml"))
			var refused, rejected []string
			for _, w := range cl.Report.Warnings {
				if strings.Contains(w.Message, "create ResourceClaim : ") {
					refused = append(refused, w.String())
				}
			}
			for _, rj := range cl.Report.Rejected {
				rejected = append(rejected, rj.Err.Error())
			}
			if n != c.stored {
				t.Errorf("%d claims stored, want %d", n, c.stored)
			}
			if len(refused) != len(c.refused) {
				t.Errorf("refused %v, want %v", refused, c.refused)
			}
			for i := range min(len(refused), len(c.refused)) {
				if !strings.Contains(refused[i], c.refused[i]) {
					t.Errorf("refusal %q lacks %q", refused[i], c.refused[i])
				}
			}
			if strings.Join(rejected, "\n") != strings.Join(c.rejectedClaims, "\n") {
				t.Errorf("rejected %q, want %q", rejected, c.rejectedClaims)
			}
		})
	}
}

const finishedDump = `
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: ml, uid: u-done}
spec:
  nodeName: n1
  containers: [{name: c, image: i}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
status:
  phase: Succeeded
  resourceClaimStatuses: [{name: gpu, resourceClaimName: done-gpu-abcde}]
---
apiVersion: v1
kind: Pod
metadata: {name: runs, namespace: ml, uid: u-runs}
spec:
  nodeName: n1
  containers: [{name: c, image: i}]
  resourceClaims: [{name: gpu, resourceClaimName: team-gpu}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: failed, namespace: ml, uid: u-failed}
spec:
  nodeName: n1
  containers: [{name: c, image: i}]
  resourceClaims: [{name: gpu, resourceClaimName: team-gpu}]
status: {phase: Failed}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: done-gpu-abcde
  namespace: ml
  uid: c1
  resourceVersion: "1"
  finalizers: [resource.kubernetes.io/delete-protection]
  ownerReferences: [{apiVersion: v1, kind: Pod, name: done, uid: u-done, controller: true}]
spec:
  devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}
status:
  allocation: {devices: {results: [{request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}]}}
  reservedFor: [{resource: pods, name: done, uid: u-done}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: team-gpu
  namespace: ml
  uid: c2
  resourceVersion: "1"
  finalizers: [resource.kubernetes.io/delete-protection]
spec:
  devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}
status:
  allocation: {devices: {results: [{request: gpu, driver: gpu.example.com, pool: n1, device: gpu-1}]}}
  reservedFor: [{resource: pods, name: runs, uid: u-runs}, {resource: pods, name: failed, uid: u-failed}]
`

// TestLoadReleasesFinishedPodsClaims: at load the resourceclaim
// controller deletes the generated claim of a Succeeded pod (its device
// is free) and drops a Failed pod's reservation of a shared claim that a
// running pod keeps; both are in the report.
func TestLoadReleasesFinishedPodsClaims(t *testing.T) {
	r := NewReader()
	if err := r.Read("dump.yaml", strings.NewReader(draObjects+"---\n"+finishedDump)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), r.Report(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cluster.GetObject[api.ResourceClaim](c.Snapshot.Objects(), "ml", "done-gpu-abcde"); ok {
		t.Error("the finished pod's generated claim is still stored")
	}
	shared, ok := cluster.GetObject[api.ResourceClaim](c.Snapshot.Objects(), "ml", "team-gpu")
	if !ok {
		t.Fatal("team-gpu claim missing")
	}
	if rf := shared.Status.ReservedFor; len(rf) != 1 || rf[0].Name != "runs" || shared.Status.Allocation == nil {
		t.Errorf("shared claim reservedFor %+v allocation %v", rf, shared.Status.Allocation)
	}
	// draObjects' claim, reserved for a pod the input does not hold,
	// is not among them.
	rels := c.Report.ReleasedClaims
	if len(rels) != 2 {
		t.Fatalf("released %+v, want 2", rels)
	}
	if got, want := rels[0].String(), "ResourceClaim ml/done-gpu-abcde: reservation of pod(s) done dropped (done or replaced); deallocated; deleted (its pod is done or replaced)"; got != want {
		t.Errorf("release message %q, want %q", got, want)
	}
	if rels[0].Claim.Name != "done-gpu-abcde" || !rels[0].Deleted || !rels[0].Deallocated || !slices.Equal(rels[0].Unreserved, []string{"done"}) {
		t.Errorf("first release %+v", rels[0])
	}
	if rels[1].Claim.Name != "team-gpu" || rels[1].Deleted || rels[1].Deallocated || !slices.Equal(rels[1].Unreserved, []string{"failed"}) {
		t.Errorf("second release %+v", rels[1])
	}
	// The objects read are not changed.
	for _, cl := range r.Objects().ResourceClaims {
		if len(cl.Status.ReservedFor) == 0 {
			t.Errorf("claim %s read changed", cl.Name)
		}
	}
}
