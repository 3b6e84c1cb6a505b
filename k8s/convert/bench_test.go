package convert

import (
	"fmt"
	"testing"
	"time"

	"github.com/schedkit/schedkit/api"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// informerNode is a node as a kubelet reports it: labels, capacity and
// allocatable, conditions, addresses and a few images.
func informerNode(i int) *corev1.Node {
	rl := corev1.ResourceList{
		corev1.ResourceCPU:              resource.MustParse("16"),
		corev1.ResourceMemory:           resource.MustParse("64Gi"),
		corev1.ResourcePods:             resource.MustParse("110"),
		corev1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
	}
	now := metav1.NewTime(time.Unix(1_800_000_000, 0))
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("node-%d", i), UID: types.UID(fmt.Sprintf("uid-node-%d", i)), ResourceVersion: "1",
			CreationTimestamp: now,
			Labels: map[string]string{
				"kubernetes.io/hostname": fmt.Sprintf("node-%d", i), "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
				"topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%3), "topology.kubernetes.io/region": "r1",
				"node.kubernetes.io/instance-type": "m5.4xlarge",
			},
		},
		Spec: corev1.NodeSpec{ProviderID: fmt.Sprintf("aws:///node-%d", i), PodCIDR: "10.0.0.0/24"},
		Status: corev1.NodeStatus{
			Capacity: rl, Allocatable: rl.DeepCopy(),
			Conditions: []corev1.NodeCondition{
				{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: now, LastTransitionTime: now, Reason: "KubeletReady", Message: "kubelet is posting ready status"},
				{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse, LastHeartbeatTime: now, LastTransitionTime: now},
				{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse, LastHeartbeatTime: now, LastTransitionTime: now},
			},
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}, {Type: corev1.NodeHostName, Address: fmt.Sprintf("node-%d", i)}},
			Images: []corev1.ContainerImage{
				{Names: []string{"registry.k8s.io/pause:3.10"}, SizeBytes: 300_000},
				{Names: []string{"nginx:1.27", "nginx@sha256:abc"}, SizeBytes: 70_000_000},
			},
			NodeInfo: corev1.NodeSystemInfo{OperatingSystem: "linux", Architecture: "amd64", KubeletVersion: "v1.37.2"},
		},
	}
	return n
}

// informerPod is a Deployment's running pod: labels, an owner, one
// container with requests and limits, default tolerations and status.
func informerPod(i, nodes int) *corev1.Pod {
	ctl := true
	grace := int64(30)
	secs := int64(300)
	now := metav1.NewTime(time.Unix(1_800_000_000, 0))
	app := fmt.Sprintf("app-%d", i%500)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("%s-5d8f7c9b4-%05d", app, i), Namespace: fmt.Sprintf("ns-%d", i%50),
			UID: types.UID(fmt.Sprintf("uid-pod-%d", i)), ResourceVersion: "2", CreationTimestamp: now,
			Labels:          map[string]string{"app": app, "pod-template-hash": "5d8f7c9b4"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app + "-5d8f7c9b4", UID: "uid-rs", Controller: &ctl, BlockOwnerDeletion: &ctl}},
		},
		Spec: corev1.PodSpec{
			NodeName: fmt.Sprintf("node-%d", i%nodes), SchedulerName: "default-scheduler", RestartPolicy: corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: &grace, ServiceAccountName: "default",
			Containers: []corev1.Container{{
				Name: "app", Image: "nginx:1.27",
				Ports: []corev1.ContainerPort{{ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
				},
				VolumeMounts: []corev1.VolumeMount{{Name: "kube-api-access", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}},
			}},
			Volumes: []corev1.Volume{{Name: "kube-api-access", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{}}}},
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &secs},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &secs},
			},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning, QOSClass: corev1.PodQOSBurstable, HostIP: "10.0.0.1", PodIP: "10.1.0.1", StartTime: &now,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: now},
			},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "app", Ready: true, Image: "nginx:1.27", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}}},
		},
	}
}

// BenchmarkInformerCache converts a 5,000-node, 150,000-pod informer
// cache, the objects as client-go holds them, into schedkit's api with a
// Batch, as a snapshot of the whole cache is built.
func BenchmarkInformerCache(b *testing.B) {
	nodes, pods := informerCache()
	benchCache(b, func() converter { return new(Batch) }, nodes, pods)
}

// BenchmarkInformerCacheShared converts it with a Batch that shares
// equal maps, for a read-only snapshot.
func BenchmarkInformerCacheShared(b *testing.B) {
	nodes, pods := informerCache()
	benchCache(b, func() converter { b := new(Batch); b.Share(); return b }, nodes, pods)
}

// BenchmarkInformerCacheEach converts the same cache one object at a
// time with the package functions, as informer events are.
func BenchmarkInformerCacheEach(b *testing.B) {
	nodes, pods := informerCache()
	benchCache(b, func() converter { return each{} }, nodes, pods)
}

type converter interface {
	NodeToAPI(*corev1.Node) (*api.Node, error)
	PodToAPI(*corev1.Pod) (*api.Pod, error)
}

// each is the package functions as a converter.
type each struct{}

func (each) NodeToAPI(n *corev1.Node) (*api.Node, error) { return NodeToAPI(n) }
func (each) PodToAPI(p *corev1.Pod) (*api.Pod, error)    { return PodToAPI(p) }

func informerCache() ([]*corev1.Node, []*corev1.Pod) {
	const numNodes, numPods = 5000, 150000
	nodes := make([]*corev1.Node, numNodes)
	for i := range nodes {
		nodes[i] = informerNode(i)
	}
	pods := make([]*corev1.Pod, numPods)
	for i := range pods {
		pods[i] = informerPod(i, numNodes)
	}
	return nodes, pods
}

func benchCache(b *testing.B, newConverter func() converter, nodes []*corev1.Node, pods []*corev1.Pod) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		c := newConverter()
		for _, n := range nodes {
			if _, err := c.NodeToAPI(n); err != nil {
				b.Fatal(err)
			}
		}
		for _, p := range pods {
			if _, err := c.PodToAPI(p); err != nil {
				b.Fatal(err)
			}
		}
	}
	// CPU time (garbage collection on the other core included) is the
	// number to read on a shared machine, where wall time waits for it.
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkPodToAPI converts one pod of the cache above.
func BenchmarkPodToAPI(b *testing.B) {
	p := informerPod(1, 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PodToAPI(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPodFromAPI converts one pod back.
func BenchmarkPodFromAPI(b *testing.B) {
	p, _ := PodToAPI(informerPod(1, 10))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PodFromAPI(p); err != nil {
			b.Fatal(err)
		}
	}
}
