package api_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
)

func decode(t *testing.T, file string, into any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatalf("decode %s: %v", file, err)
	}
}

func wantQuantity(t *testing.T, what string, l api.ResourceList, name api.ResourceName, want string) {
	t.Helper()
	got, ok := l[name]
	if !ok {
		t.Errorf("%s: no %s", what, name)
		return
	}
	if w := quantity.MustParse(want); got.Cmp(w) != 0 {
		t.Errorf("%s[%s] = %s, want %s", what, name, got.String(), want)
	}
}

func wantEq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestDecodePod decodes a `kubectl get pod -o json` document (with
// managedFields, fields schedkit does not model, and status) and checks
// that the modeled fields are filled.
func TestDecodePod(t *testing.T) {
	var p api.Pod
	decode(t, "pod.json", &p)
	wantEq(t, "kind", p.Kind, "Pod")
	wantEq(t, "name", p.Name, "web-7d9c6b5f4d-x2kqp")
	wantEq(t, "namespace", p.Namespace, "shop")
	wantEq(t, "generateName", p.GenerateName, "web-7d9c6b5f4d-")
	wantEq(t, "uid", p.UID, "5a1d3c9e-2b7f-4e0a-9c64-7f2d8e1b3a55")
	wantEq(t, "label tier", p.Labels["tier"], "frontend")
	wantEq(t, "annotations", len(p.Annotations), 2)
	wantEq(t, "creationTimestamp", p.CreationTimestamp.UTC(), time.Date(2026, 3, 2, 10, 15, 4, 0, time.UTC))
	if len(p.OwnerReferences) != 1 {
		t.Fatalf("ownerReferences = %v", p.OwnerReferences)
	}
	o := p.OwnerReferences[0]
	wantEq(t, "owner", o.Kind+"/"+o.Name, "ReplicaSet/web-7d9c6b5f4d")
	if o.Controller == nil || !*o.Controller || o.BlockOwnerDeletion == nil || !*o.BlockOwnerDeletion {
		t.Errorf("owner controller/blockOwnerDeletion not set: %+v", o)
	}

	s := p.Spec
	if len(s.Containers) != 1 || len(s.InitContainers) != 2 {
		t.Fatalf("containers %d, init %d", len(s.Containers), len(s.InitContainers))
	}
	web := s.Containers[0]
	wantEq(t, "image", web.Image, "registry.example.com/shop/web:2.14.1")
	wantQuantity(t, "web requests", web.Resources.Requests, "cpu", "250m")
	wantQuantity(t, "web requests", web.Resources.Requests, "memory", "256Mi")
	wantQuantity(t, "web requests", web.Resources.Requests, "ephemeral-storage", "1Gi")
	wantQuantity(t, "web limits", web.Resources.Limits, "cpu", "1")
	wantEq(t, "port", web.Ports[0].ContainerPort, int32(8080))
	wantEq(t, "protocol", web.Ports[0].Protocol, api.ProtocolTCP)
	wantEq(t, "wait-for-db is a sidecar", s.InitContainers[0].IsRestartableInit(), false)
	wantEq(t, "proxy is a sidecar", s.InitContainers[1].IsRestartableInit(), true)
	wantQuantity(t, "proxy limits", s.InitContainers[1].Resources.Limits, "memory", "128Mi")
	wantQuantity(t, "overhead", s.Overhead, "cpu", "250m")
	wantQuantity(t, "overhead", s.Overhead, "memory", "120Mi")
	if s.Priority == nil || *s.Priority != 1000 {
		t.Errorf("priority = %v", s.Priority)
	}
	wantEq(t, "priorityClassName", s.PriorityClassName, "shop-critical")
	if s.PreemptionPolicy == nil || *s.PreemptionPolicy != api.PreemptLowerPriority {
		t.Errorf("preemptionPolicy = %v", s.PreemptionPolicy)
	}
	wantEq(t, "nodeName", s.NodeName, "node-a-1")
	wantEq(t, "restartPolicy", s.RestartPolicy, api.RestartPolicyAlways)
	if s.TerminationGracePeriodSeconds == nil || *s.TerminationGracePeriodSeconds != 30 {
		t.Errorf("terminationGracePeriodSeconds = %v", s.TerminationGracePeriodSeconds)
	}

	if len(s.Tolerations) != 3 {
		t.Fatalf("tolerations = %v", s.Tolerations)
	}
	tol := s.Tolerations[0]
	wantEq(t, "toleration key", tol.Key, "node.kubernetes.io/not-ready")
	wantEq(t, "toleration operator", tol.Operator, api.TolerationOpExists)
	wantEq(t, "toleration effect", tol.Effect, api.TaintEffectNoExecute)
	if tol.TolerationSeconds == nil || *tol.TolerationSeconds != 300 {
		t.Errorf("tolerationSeconds = %v", tol.TolerationSeconds)
	}
	wantEq(t, "toleration value", s.Tolerations[2].Value, "shop")

	aff := s.Affinity
	if aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		t.Fatalf("node affinity missing: %+v", aff)
	}
	term := aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0]
	wantEq(t, "match expressions", len(term.MatchExpressions), 2)
	wantEq(t, "operator", term.MatchExpressions[0].Operator, api.NodeSelectorOpIn)
	wantEq(t, "values", len(term.MatchExpressions[0].Values), 2)
	wantEq(t, "operator 2", term.MatchExpressions[1].Operator, api.NodeSelectorOpDoesNotExist)
	wantEq(t, "preferred weight", aff.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Weight, int32(40))
	anti := aff.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0]
	wantEq(t, "anti weight", anti.Weight, int32(100))
	wantEq(t, "anti topologyKey", anti.PodAffinityTerm.TopologyKey, "kubernetes.io/hostname")
	wantEq(t, "anti matchLabelKeys", anti.PodAffinityTerm.MatchLabelKeys[0], "pod-template-hash")
	wantEq(t, "anti selector", anti.PodAffinityTerm.LabelSelector.MatchLabels["app.kubernetes.io/name"], "web")

	tsc := s.TopologySpreadConstraints[0]
	wantEq(t, "maxSkew", tsc.MaxSkew, int32(1))
	wantEq(t, "whenUnsatisfiable", tsc.WhenUnsatisfiable, api.ScheduleAnyway)
	if tsc.NodeTaintsPolicy == nil || *tsc.NodeTaintsPolicy != api.NodeInclusionPolicyHonor {
		t.Errorf("nodeTaintsPolicy = %v", tsc.NodeTaintsPolicy)
	}
	if len(s.Volumes) != 2 || s.Volumes[0].EmptyDir == nil || s.Volumes[0].EmptyDir.SizeLimit == nil {
		t.Fatalf("volumes = %+v", s.Volumes)
	}
	if got := *s.Volumes[0].EmptyDir.SizeLimit; got.Cmp(quantity.MustParse("2Gi")) != 0 {
		t.Errorf("sizeLimit = %s", got.String())
	}

	st := p.Status
	wantEq(t, "phase", st.Phase, api.PodRunning)
	wantEq(t, "qosClass", st.QOSClass, api.PodQOSBurstable)
	wantEq(t, "podIP", st.PodIP, "10.244.3.18")
	wantEq(t, "conditions", len(st.Conditions), 3)
	wantEq(t, "condition", st.Conditions[1].Type, api.PodReady)
	if !st.Conditions[0].LastProbeTime.IsZero() {
		t.Errorf("null lastProbeTime decoded as %v", st.Conditions[0].LastProbeTime)
	}
	if st.StartTime == nil || st.StartTime.IsZero() {
		t.Error("startTime missing")
	}
	cs := st.ContainerStatuses[0]
	wantEq(t, "restartCount", cs.RestartCount, int32(2))
	wantQuantity(t, "allocatedResources", cs.AllocatedResources, "cpu", "250m")
	if cs.Resources == nil {
		t.Fatal("status resources missing")
	}
	wantQuantity(t, "status limits", cs.Resources.Limits, "memory", "512Mi")
	wantEq(t, "init statuses", len(st.InitContainerStatuses), 2)
}

// TestDecodeNode decodes a `kubectl get node -o json` document.
func TestDecodeNode(t *testing.T) {
	var n api.Node
	decode(t, "node.json", &n)
	wantEq(t, "name", n.Name, "node-a-1")
	wantEq(t, "zone", n.Labels["topology.kubernetes.io/zone"], "eu-west-1a")
	wantEq(t, "podCIDR", n.Spec.PodCIDR, "10.244.3.0/24")
	if len(n.Spec.Taints) != 2 {
		t.Fatalf("taints = %v", n.Spec.Taints)
	}
	wantEq(t, "taint", n.Spec.Taints[0].Key+"="+n.Spec.Taints[0].Value+":"+string(n.Spec.Taints[0].Effect), "dedicated=shop:NoSchedule")
	if ta := n.Spec.Taints[1].TimeAdded; ta == nil || ta.UTC() != time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) {
		t.Errorf("timeAdded = %v", ta)
	}
	wantQuantity(t, "allocatable", n.Status.Allocatable, "cpu", "7910m")
	wantQuantity(t, "allocatable", n.Status.Allocatable, "memory", "31601440Ki")
	wantQuantity(t, "allocatable", n.Status.Allocatable, "pods", "58")
	wantQuantity(t, "capacity", n.Status.Capacity, "ephemeral-storage", "104845292Ki")
	wantQuantity(t, "capacity", n.Status.Capacity, "hugepages-2Mi", "0")
	if len(n.Status.Images) != 2 {
		t.Fatalf("images = %v", n.Status.Images)
	}
	wantEq(t, "image size", n.Status.Images[0].SizeBytes, int64(187342112))
	wantEq(t, "image name", n.Status.Images[1].Names[1], "registry.k8s.io/pause:3.10")
	wantEq(t, "ready", n.Status.Conditions[1].Type, api.NodeReady)
	wantEq(t, "ready status", n.Status.Conditions[1].Status, api.ConditionTrue)
	wantEq(t, "address", n.Status.Addresses[0].Address, "10.0.1.17")
	wantEq(t, "kubelet", n.Status.NodeInfo.KubeletVersion, "v1.37.2")
	wantEq(t, "arch", n.Status.NodeInfo.Architecture, "amd64")
}

// TestDecodeLimitRange decodes a `kubectl get limitrange -o json`
// document.
func TestDecodeLimitRange(t *testing.T) {
	var lr api.LimitRange
	decode(t, "limitrange.json", &lr)
	wantEq(t, "name", lr.Namespace+"/"+lr.Name, "shop/shop-limits")
	if len(lr.Spec.Limits) != 3 {
		t.Fatalf("limits = %v", lr.Spec.Limits)
	}
	c := lr.Spec.Limits[0]
	wantEq(t, "type", c.Type, api.LimitTypeContainer)
	wantQuantity(t, "default", c.Default, "memory", "512Mi")
	wantQuantity(t, "defaultRequest", c.DefaultRequest, "cpu", "100m")
	wantQuantity(t, "max", c.Max, "memory", "4Gi")
	wantQuantity(t, "min", c.Min, "cpu", "10m")
	wantQuantity(t, "maxLimitRequestRatio", c.MaxLimitRequestRatio, "cpu", "10")
	wantEq(t, "pod type", lr.Spec.Limits[1].Type, api.LimitTypePod)
	wantEq(t, "pvc type", lr.Spec.Limits[2].Type, api.LimitTypePersistentVolumeClaim)
	wantQuantity(t, "pvc min", lr.Spec.Limits[2].Min, "storage", "1Gi")
}

// TestDecodePodDisruptionBudget decodes a `kubectl get pdb -o json`
// document, with a percentage minAvailable.
func TestDecodePodDisruptionBudget(t *testing.T) {
	var pdb api.PodDisruptionBudget
	decode(t, "pdb.json", &pdb)
	wantEq(t, "name", pdb.Name, "web")
	if pdb.Spec.MinAvailable == nil || !pdb.Spec.MinAvailable.IsString || pdb.Spec.MinAvailable.StrVal != "50%" {
		t.Errorf("minAvailable = %+v", pdb.Spec.MinAvailable)
	}
	if pdb.Spec.MaxUnavailable != nil {
		t.Errorf("maxUnavailable = %+v", pdb.Spec.MaxUnavailable)
	}
	sel := pdb.Spec.Selector
	wantEq(t, "selector label", sel.MatchLabels["app.kubernetes.io/name"], "web")
	wantEq(t, "selector op", sel.MatchExpressions[0].Operator, api.LabelSelectorOpIn)
	if pdb.Spec.UnhealthyPodEvictionPolicy == nil || *pdb.Spec.UnhealthyPodEvictionPolicy != "AlwaysAllow" {
		t.Errorf("unhealthyPodEvictionPolicy = %v", pdb.Spec.UnhealthyPodEvictionPolicy)
	}
	wantEq(t, "disruptionsAllowed", pdb.Status.DisruptionsAllowed, int32(2))
	wantEq(t, "expectedPods", pdb.Status.ExpectedPods, int32(4))
	if at, ok := pdb.Status.DisruptedPods["web-7d9c6b5f4d-abcde"]; !ok || at.UTC() != time.Date(2026, 3, 2, 10, 16, 0, 0, time.UTC) {
		t.Errorf("disruptedPods = %v", pdb.Status.DisruptedPods)
	}

	var n api.IntOrString
	if err := json.Unmarshal([]byte("2"), &n); err != nil || n.IsString || n.IntVal != 2 {
		t.Errorf("int minAvailable = %+v, %v", n, err)
	}
}

// TestDecodePriorityClass decodes a `kubectl get priorityclass -o json`
// document.
func TestDecodePriorityClass(t *testing.T) {
	var pc api.PriorityClass
	decode(t, "priorityclass.json", &pc)
	wantEq(t, "name", pc.Name, "shop-critical")
	wantEq(t, "value", pc.Value, int32(1000))
	wantEq(t, "globalDefault", pc.GlobalDefault, false)
	wantEq(t, "description", pc.Description, "Customer-facing shop services.")
	if pc.PreemptionPolicy == nil || *pc.PreemptionPolicy != api.PreemptLowerPriority {
		t.Errorf("preemptionPolicy = %v", pc.PreemptionPolicy)
	}
}

// TestPodJSONRoundTrip: encoding a decoded pod and decoding it again
// keeps the modeled fields.
func TestPodJSONRoundTrip(t *testing.T) {
	var p, q api.Pod
	decode(t, "pod.json", &p)
	b, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &q); err != nil {
		t.Fatal(err)
	}
	b2, err := json.Marshal(&q)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Errorf("round trip differs:\n%s\n%s", b, b2)
	}
}

// FuzzDecodePod: decoding arbitrary bytes into a Pod never panics, and a
// pod that decodes encodes again.
func FuzzDecodePod(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"1e3m"}}}]}}`))
	f.Add([]byte(`{"metadata":{"creationTimestamp":null},"spec":{"priority":null,"overhead":{"cpu":""}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var p api.Pod
		if json.Unmarshal(b, &p) != nil {
			return
		}
		if _, err := json.Marshal(&p); err != nil {
			// Encoding may legitimately fail (a time outside RFC 3339's
			// years); it must not panic.
			return
		}
	})
}
