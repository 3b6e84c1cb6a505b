//go:build !deepcopygen

package api

import (
	"testing"
	"time"

	"github.com/schedkit/schedkit/quantity"
)

// benchPod is a realistic pod: labels, annotations, an owner, two
// containers with requests, limits, ports and mounts, affinity,
// tolerations and volumes.
func benchPod() *Pod {
	grace := int64(30)
	prio := int32(1000)
	ctrl := true
	secs := int64(300)
	created := NewTime(time.Unix(1_700_000_000, 0))
	res := func(cpu, mem string) ResourceRequirements {
		return ResourceRequirements{
			Requests: ResourceList{"cpu": quantity.MustParse(cpu), "memory": quantity.MustParse(mem)},
			Limits:   ResourceList{"cpu": quantity.MustParse(cpu), "memory": quantity.MustParse(mem)},
		}
	}
	mounts := []VolumeMount{{Name: "data", MountPath: "/data"}, {Name: "config", MountPath: "/etc/app", ReadOnly: true}}
	term := PodAffinityTerm{
		LabelSelector: &LabelSelector{MatchLabels: map[string]string{"app": "web"}},
		TopologyKey:   "kubernetes.io/hostname",
	}
	return &Pod{
		TypeMeta: TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: ObjectMeta{
			Name: "web-5d8f7c9b4-x2x7k", Namespace: "shop", UID: "2c5f0b1e-8f7a-4d1e-9a3b-6c2d1e0f9a8b",
			Labels:            map[string]string{"app": "web", "tier": "frontend", "pod-template-hash": "5d8f7c9b4"},
			Annotations:       map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
			OwnerReferences:   []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d8f7c9b4", Controller: &ctrl}},
			CreationTimestamp: created,
		},
		Spec: PodSpec{
			Volumes: []Volume{
				{Name: "data", EmptyDir: &EmptyDirVolumeSource{}},
				{Name: "config", ConfigMap: &ConfigMapVolumeSource{LocalObjectReference: LocalObjectReference{Name: "web-config"}}},
			},
			Containers: []Container{
				{Name: "web", Image: "shop/web:1.4.2", Ports: []ContainerPort{{Name: "http", ContainerPort: 8080}},
					Resources: res("500m", "512Mi"), VolumeMounts: mounts},
				{Name: "sidecar", Image: "shop/proxy:2.0", Ports: []ContainerPort{{Name: "metrics", ContainerPort: 9090}},
					Resources: res("100m", "64Mi"), VolumeMounts: mounts[1:]},
			},
			RestartPolicy:                 RestartPolicyAlways,
			TerminationGracePeriodSeconds: &grace,
			NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
			Affinity: &Affinity{
				NodeAffinity: &NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &NodeSelector{
					NodeSelectorTerms: []NodeSelectorTerm{{MatchExpressions: []NodeSelectorRequirement{
						{Key: "node-pool", Operator: NodeSelectorOpIn, Values: []string{"general", "burst"}}}}}}},
				PodAntiAffinity: &PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []WeightedPodAffinityTerm{
					{Weight: 100, PodAffinityTerm: term}}},
			},
			Tolerations: []Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: &secs},
				{Key: "node.kubernetes.io/unreachable", Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: &secs},
			},
			Priority:      &prio,
			SchedulerName: "default-scheduler",
		},
		Status: PodStatus{Phase: PodPending},
	}
}

// BenchmarkPodDeepCopy copies a realistic pod, as PodShape.Set does for
// each new shape.
func BenchmarkPodDeepCopy(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.DeepCopy()
	}
}

// BenchmarkPodDeepCopyReflect copies the same pod with the reference
// walker, which DeepCopy used before it was generated.
func BenchmarkPodDeepCopyReflect(b *testing.B) {
	p := benchPod()
	b.ReportAllocs()
	for b.Loop() {
		_ = deepCopyReflect(p)
	}
}
