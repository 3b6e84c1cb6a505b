package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
)

func loadYAML(t *testing.T, in string, opts Options) *Cluster {
	t.Helper()
	r := NewReader()
	if err := r.Read("in.yaml", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster(r.Objects(), r.Report(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The Deployment's new ReplicaSet is an object of the snapshot, as the
// Deployment controller's getNewReplicaSet (pkg/controller/deployment
// sync.go) creates it before any pod: selector and labels with the
// pod-template-hash, owned by the Deployment, revision 1.
func TestLoadDeploymentReplicaSetInStore(t *testing.T) {
	c := loadYAML(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop, annotations: {team: a, kubectl.kubernetes.io/last-applied-configuration: "{}"}}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: nginx}]}
`, Options{ExpandWorkloads: true})
	if len(c.Pending) != 2 {
		t.Fatalf("pending %d", len(c.Pending))
	}
	ref := c.Pending[0].OwnerReferences[0]
	rs, ok := cluster.GetObject[api.ReplicaSet](c.Snapshot.Objects(), "shop", ref.Name)
	if !ok {
		t.Fatalf("ReplicaSet %s not in the store", ref.Name)
	}
	hash := c.Pending[0].Labels["pod-template-hash"]
	if hash == "" || rs.Name != "api-"+hash || rs.Spec.Selector.MatchLabels["pod-template-hash"] != hash || rs.Labels["pod-template-hash"] != hash {
		t.Errorf("ReplicaSet %s: selector %v labels %v, hash %q", rs.Name, rs.Spec.Selector.MatchLabels, rs.Labels, hash)
	}
	if *rs.Spec.Replicas != 2 || rs.Annotations["deployment.kubernetes.io/revision"] != "1" || rs.Annotations["team"] != "a" ||
		rs.Annotations["deployment.kubernetes.io/desired-replicas"] != "2" || rs.Annotations["deployment.kubernetes.io/max-replicas"] != "3" {
		t.Errorf("ReplicaSet replicas %d annotations %v", *rs.Spec.Replicas, rs.Annotations)
	}
	if _, has := rs.Annotations["kubectl.kubernetes.io/last-applied-configuration"]; has {
		t.Error("last-applied-configuration copied")
	}
	if len(rs.OwnerReferences) != 1 || rs.OwnerReferences[0].Kind != "Deployment" || rs.OwnerReferences[0].Name != "api" {
		t.Errorf("owner %v", rs.OwnerReferences)
	}
}

const statefulSetWithClaims = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: old-default, creationTimestamp: "2024-01-01T00:00:00Z", annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/disk
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: new-default, creationTimestamp: "2025-01-01T00:00:00Z", annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/disk
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: cassandra, namespace: db}
spec:
  serviceName: cassandra
  replicas: 3
  selector: {matchLabels: {app: cassandra}}
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
  template:
    metadata: {labels: {app: cassandra}}
    spec: {containers: [{name: c, image: cassandra}]}
  volumeClaimTemplates:
  - metadata: {name: data, labels: {tier: disk}}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`

// A StatefulSet's claims are created as the StatefulSet controller
// creates them (stateful_set_utils.go getPersistentVolumeClaims and the
// retention policy's owner reference) and admitted as the API server
// admits them (DefaultStorageClass: the newest default class), so they
// are in the store for VolumeBinding; OrderedReady says why only
// ordinal 0 is there.
func TestLoadStatefulSetClaims(t *testing.T) {
	c := loadYAML(t, statefulSetWithClaims, Options{ExpandWorkloads: true})
	if len(c.Pending) != 1 || c.Pending[0].Name != "cassandra-0" {
		t.Fatalf("pending %v", c.Pending)
	}
	pvc, ok := cluster.GetObject[api.PersistentVolumeClaim](c.Snapshot.Objects(), "db", "data-cassandra-0")
	if !ok {
		t.Fatal("claim data-cassandra-0 not in the store")
	}
	if pvc.Spec.StorageClassName == nil || *pvc.Spec.StorageClassName != "new-default" {
		t.Errorf("storageClassName %v, want new-default", pvc.Spec.StorageClassName)
	}
	if pvc.Labels["app"] != "cassandra" || pvc.Labels["tier"] != "disk" {
		t.Errorf("labels %v", pvc.Labels)
	}
	if len(pvc.OwnerReferences) != 1 || pvc.OwnerReferences[0].Kind != "StatefulSet" || pvc.OwnerReferences[0].Name != "cassandra" {
		t.Errorf("owner references %v", pvc.OwnerReferences)
	}
	if _, ok := cluster.GetObject[api.PersistentVolumeClaim](c.Snapshot.Objects(), "db", "data-cassandra-1"); ok {
		t.Error("claim of ordinal 1 created before its pod")
	}
	found := false
	for _, w := range c.Report.Warnings {
		if strings.Contains(w.String(), "StatefulSet db/cassandra") && strings.Contains(w.Message, "OrderedReady") {
			found = true
		}
	}
	if !found {
		t.Errorf("no OrderedReady warning naming the set: %v", c.Report.Warnings)
	}
}

// LimitRanger on a claim's create: a PersistentVolumeClaim item's max
// rejects the claim (plugin/pkg/admission/limitranger
// PersistentVolumeClaimValidateLimitFunc), and the controller creates no
// pod without its claims.
func TestLoadStatefulSetClaimLimitRange(t *testing.T) {
	in := statefulSetWithClaims + `---
apiVersion: v1
kind: LimitRange
metadata: {name: storage, namespace: db}
spec: {limits: [{type: PersistentVolumeClaim, max: {storage: 500Mi}}]}
`
	c := loadYAML(t, in, Options{ExpandWorkloads: true})
	if len(c.Pending) != 0 {
		t.Errorf("pending %v, want none", c.Pending)
	}
	want := `persistentvolumeclaims "data-cassandra-0" is forbidden: maximum storage usage per PersistentVolumeClaim is 500Mi, but request is 1Gi`
	found := false
	for _, w := range c.Report.Warnings {
		if strings.Contains(w.Message, want) {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning %q in %v", want, c.Report.Warnings)
	}
}

// A LimitRange is used as the API server stores it, defaulted
// (pkg/apis/core/v1 SetDefaults_LimitRangeItem: default from max): a
// Container max alone admits a pod that asks for it, and gives a pod
// without limits the max as its limit and request.
func TestLoadLimitRangeDefaulted(t *testing.T) {
	c := loadYAML(t, `apiVersion: v1
kind: LimitRange
metadata: {name: l, namespace: default}
spec: {limits: [{type: Container, max: {cpu: 500m}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {containers: [{name: c, image: x}]}
`, Options{})
	if len(c.Report.Rejected) != 0 {
		t.Fatalf("rejected %v", c.Report.Rejected)
	}
	if len(c.Pending) != 2 {
		t.Fatalf("pending %d", len(c.Pending))
	}
	for _, p := range c.Pending {
		r := p.Spec.Containers[0].Resources
		if lim := r.Limits["cpu"]; lim.String() != "500m" {
			t.Errorf("%s: cpu limit %v", p.Name, r.Limits)
		}
		if req := r.Requests["cpu"]; req.String() != "500m" {
			t.Errorf("%s: cpu request %v", p.Name, r.Requests)
		}
	}
}

// The API server's create for new pods (pkg/registry/core/pod
// strategy.go PrepareForCreate): the status is reset, so a manifest
// saying Succeeded is a new Pending pod charged in full to quota; and
// pod-level limits default pod-level requests (pkg/api/pod
// DefaultPodLevelResources, PodLevelResources and its FixDefaulting on in
// v1.37).
func TestLoadCreateResetsStatusAndDefaultsPodLevel(t *testing.T) {
	c := loadYAML(t, `apiVersion: v1
kind: ResourceQuota
metadata: {name: q, namespace: default}
spec: {hard: {requests.cpu: "1"}}
---
apiVersion: v1
kind: Pod
metadata: {name: done}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 600m}}}]}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: second}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 600m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: podlevel, namespace: other}
spec:
  resources: {limits: {cpu: "2", memory: 1Gi}}
  containers: [{name: c, image: x}]
`, Options{})
	var pending []string
	for _, p := range c.Pending {
		pending = append(pending, p.Name)
		if p.Status.Phase != api.PodPending {
			t.Errorf("%s: phase %q", p.Name, p.Status.Phase)
		}
	}
	if got := strings.Join(pending, ","); got != "done,podlevel" {
		t.Errorf("pending %s, want done,podlevel (second over quota)", got)
	}
	if c.Report.TerminalPods != 0 || len(c.Report.Rejected) != 1 || c.Report.Rejected[0].Pod.Name != "second" {
		t.Errorf("terminal %d, rejected %v", c.Report.TerminalPods, c.Report.Rejected)
	}
	for _, p := range c.Pending {
		if p.Name != "podlevel" {
			continue
		}
		r := p.Spec.Resources.Requests
		if cpu, mem := r["cpu"], r["memory"]; cpu.String() != "2" || mem.String() != "1Gi" {
			t.Errorf("pod-level requests %v, want cpu 2, memory 1Gi", r)
		}
	}
}

// Names are validated as the API server validates them, by kind
// (apimachinery NameIsDNSSubdomain, NameIsDNSLabel for Namespaces and
// StatefulSets, NameIsDNS1035Label for Services).
func TestReadNames(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"apiVersion: v1\nkind: Pod\nmetadata: {name: Web}\nspec: {containers: [{name: c, image: x}]}\n",
			`f:1: document 1 (Pod default/Web): metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: 1web}\nspec: {ports: [{port: 80}]}\n",
			`f:1: document 1 (Service default/1web): metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`},
		{"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db.main}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}}\n",
			`f:1: document 1 (StatefulSet default/db.main): metadata.name: Invalid value: "db.main": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{"apiVersion: v1\nkind: Node\nmetadata: {name: ip-10-0-0-1.ec2.internal}\n", ""},
		// A Service the API server rejects is not read, so not charged
		// to quota nor read by the default spreading (validateService).
		{"apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {selector: {app: web}}\n", `f:1: document 1 (Service default/web): spec.ports: Required value`},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec: {ports: [{port: 80}, {port: 70000, name: b, protocol: HTTP}]}\n",
			"f:1: document 1 (Service default/web): spec.ports[0].name: Required value\n" +
				"f:1: document 1 (Service default/web): spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive\n" +
				`f:1: document 1 (Service default/web): spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: db}\nspec: {clusterIP: None, selector: {app: db}}\n", ""},
	} {
		r := NewReader()
		err := r.Read("f", strings.NewReader(c.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// The ResourceQuota plugin's configuration is read from the API server's
// AdmissionConfiguration (inline or by path) and applied to new pods: a
// pod consuming a limited resource without a covering quota is rejected.
func TestAdmissionConfig(t *testing.T) {
	dir := t.TempDir()
	inline := `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration: {apiVersion: pod-security.admission.config.k8s.io/v1, kind: PodSecurityConfiguration}
- name: ResourceQuota
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - {resource: pods, matchContains: [cpu]}
`
	byPath := "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: ResourceQuota, path: rq.yaml}\n"
	rq := "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- {resource: pods, matchContains: [cpu]}\n"
	bad := "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: ResourceQuota, configuration: {apiVersion: apiserver.config.k8s.io/v1, kind: ResourceQuotaConfiguration, limitedResource: []}}\n"
	for name, s := range map[string]string{"inline.yaml": inline, "path.yaml": byPath, "rq.yaml": rq, "bad.yaml": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"inline.yaml", "path.yaml"} {
		ac, err := ReadAdmissionConfig(filepath.Join(dir, f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c := loadYAML(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]}\n---\n"+
			"apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec: {containers: [{name: c, image: x}]}\n", Options{Admission: ac})
		if len(c.Pending) != 1 || c.Pending[0].Name != "q" || len(c.Report.Rejected) != 1 ||
			c.Report.Rejected[0].Err.Error() != `pods "p" is forbidden: insufficient quota to consume: cpu,requests.cpu` {
			t.Errorf("%s: pending %v, rejected %v", f, c.Pending, c.Report.Rejected)
		}
	}
	if _, err := ReadAdmissionConfig(filepath.Join(dir, "bad.yaml")); err == nil || !strings.Contains(err.Error(), "limitedResource") {
		t.Errorf("unknown field: %v", err)
	}
}

// Pods already stored enter the queue as the informer lists them, by
// namespace and name; new ones as they are created, in reading order,
// after them; priority first.
func TestLoadQueueOrder(t *testing.T) {
	pod := func(name, extra string) string {
		return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name + extra + "}\nspec: {containers: [{name: c, image: x}]}\n"
	}
	c := loadYAML(t, pod("new-z", "")+pod("stored-b", ", uid: b")+pod("new-a", "")+pod("stored-a", ", uid: a"), Options{})
	var got []string
	for _, p := range c.Pending {
		got = append(got, p.Name)
	}
	if strings.Join(got, ",") != "stored-a,stored-b,new-z,new-a" {
		t.Errorf("queue %v", got)
	}
}

// New claims read are created as the API server creates them: the
// DefaultStorageClass plugin gives one without a class the default
// class, LimitRanger's PersistentVolumeClaim items bound it (rejected:
// reported, not stored), and quota charges it.
func TestLoadNewClaimsAdmitted(t *testing.T) {
	in := `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: standard, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/disk
---
apiVersion: v1
kind: LimitRange
metadata: {name: storage, namespace: default}
spec: {limits: [{type: PersistentVolumeClaim, max: {storage: 5Gi}}]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: small}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: big}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: none}
spec: {storageClassName: "", accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`
	c := loadYAML(t, in, Options{})
	small, ok := cluster.GetObject[api.PersistentVolumeClaim](c.Snapshot.Objects(), "default", "small")
	if !ok || small.Spec.StorageClassName == nil || *small.Spec.StorageClassName != "standard" {
		t.Errorf("small: %v", small)
	}
	none, ok := cluster.GetObject[api.PersistentVolumeClaim](c.Snapshot.Objects(), "default", "none")
	if !ok || none.Spec.StorageClassName == nil || *none.Spec.StorageClassName != "" {
		t.Errorf("none: %v (an empty class is a class)", none)
	}
	if _, ok := cluster.GetObject[api.PersistentVolumeClaim](c.Snapshot.Objects(), "default", "big"); ok {
		t.Error("big stored")
	}
	want := `in.yaml:16: document 4 (PersistentVolumeClaim default/big): persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi`
	if len(c.Report.Rejected) != 1 || c.Report.Rejected[0].String() != want {
		t.Errorf("rejected %v, want %s", c.Report.Rejected, want)
	}
}
