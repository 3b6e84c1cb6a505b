package main

// Every call into schedkit is in this file, so that renames of its API
// (other branches are folding ScheduleExplained into Explain and moving
// the workload expansion out of manifest) touch one file here.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/manifest"
	"github.com/schedkit/schedkit/schedconfig"
	"github.com/schedkit/schedkit/scheduler"
)

// skCluster is schedkit's view of the input: the cluster manifest.Load
// builds (workloads expanded) and a scheduler over it.
type skCluster struct {
	c *manifest.Cluster
	s *scheduler.Scheduler
}

// skPod is one pod of schedkit's expansion: its JSON (decoded by the
// caller into client-go's type) and the pointer schedkit schedules.
type skPod struct {
	JSON []byte
	p    *api.Pod
	// nominated is p with status.nominatedNodeName set once upstream
	// nominated a node for it (see Nominate); nil before.
	nominated *api.Pod
	// stored is whether the input pod was a stored one
	// (manifest.IsStored), taken as it is rather than admitted.
	stored bool
}

// pod is the pod as schedkit knows it now: nominated or not.
func (p *skPod) pod() *api.Pod {
	if p.nominated != nil {
		return p.nominated
	}
	return p.p
}

// skRejection is an input object schedkit's reading refused as the API
// server would, with the message.
type skRejection struct {
	Kind, Namespace, Name, Message string
	// JSON is the pod as read or expanded.
	JSON []byte
}

// skVerdict is what schedkit decides for a pod now: the node it picks
// and the tied best nodes, or the fit error; for a pod that fits only
// by preempting, the nominated node and the victims (namespace/name).
type skVerdict struct {
	Node      string
	Tied      []string
	FitError  string
	Nominated string
	Victims   []string
}

// skLoad reads paths as `schedkit explain -f` does, workloads expanded,
// and builds a scheduler with the configuration file (none: the
// default profile). The error is bad input.
func skLoad(ctx context.Context, paths []string, configFile string) (*skCluster, error) {
	c, err := manifest.Load(ctx, manifest.Options{ExpandWorkloads: true}, paths...)
	if err != nil {
		return nil, err
	}
	var opts []scheduler.Option
	if configFile != "" {
		cfg, err := schedconfig.ReadFile(configFile)
		if err != nil {
			return nil, err
		}
		opts = cfg.Options()
	}
	s, err := scheduler.New(c.Snapshot, opts...)
	if err != nil {
		return nil, err
	}
	return &skCluster{c: c, s: s}, nil
}

// NumNodes is the number of nodes read.
func (k *skCluster) NumNodes() int { return k.c.Snapshot.NumNodes() }

// Close releases the scheduler.
func (k *skCluster) Close() { k.s.Close() }

// Warnings are the reader's warnings, with their sources.
func (k *skCluster) Warnings() []string {
	var out []string
	for _, w := range k.c.Report.Warnings {
		out = append(out, w.String())
	}
	return out
}

// Rejections are the pods schedkit's admission refused.
func (k *skCluster) Rejections() []skRejection {
	var out []skRejection
	for _, r := range k.c.Report.Rejected {
		if r.Pod == nil {
			// A claim read (Object "PersistentVolumeClaim ns/name").
			kind, nsname, _ := strings.Cut(r.Object, " ")
			ns, name, _ := strings.Cut(nsname, "/")
			out = append(out, skRejection{Kind: kind, Namespace: ns, Name: name, Message: r.Err.Error()})
			continue
		}
		ns := r.Pod.Namespace
		if ns == "" {
			ns = "default"
		}
		b, _ := json.Marshal(r.Pod)
		out = append(out, skRejection{Kind: "Pod", Namespace: ns, Name: r.Pod.Name, Message: r.Err.Error(), JSON: b})
	}
	return out
}

// Skipped are the kinds schedkit read and does not model, counted.
func (k *skCluster) Skipped() map[string]int { return k.c.Report.Skipped }

// Pending are the pending pods, in schedkit's queue order.
func (k *skCluster) Pending() ([]*skPod, error) {
	stored := map[string]bool{}
	for _, p := range k.c.Objects.Pods {
		if manifest.IsStored(p) {
			stored[nsName(p.Namespace, p.Name)] = true
		}
	}
	out := make([]*skPod, 0, len(k.c.Pending))
	for _, p := range k.c.Pending {
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
		}
		out = append(out, &skPod{JSON: b, p: p, stored: stored[nsName(p.Namespace, p.Name)]})
	}
	return out, nil
}

// Bound are the pods the input binds (spec.nodeName set), as schedkit's
// snapshot holds them: a new pod read with spec.nodeName is admitted
// (priority, tolerations) as the API server admits it on create, and
// one admission refused (Rejections) is not bound.
func (k *skCluster) Bound() ([]*skPod, error) {
	refused := map[*api.Pod]bool{}
	for _, r := range k.c.Report.Rejected {
		if r.Pod != nil {
			refused[r.Pod] = true
		}
	}
	var out []*skPod
	for _, p := range k.c.Objects.Pods {
		if p.Spec.NodeName == "" || refused[p] {
			continue
		}
		stored := manifest.IsStored(p)
		if pi, _, ok := k.c.Snapshot.Pod(p.Namespace, p.Name); ok {
			p = pi.Pod
		}
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		out = append(out, &skPod{JSON: b, p: p, stored: stored})
	}
	return out, nil
}

// StoreObjects are the names (namespace/name) of the objects of kind
// that schedkit's object store holds, the store the plugins read:
// ReplicaSet, PersistentVolumeClaim. Kinds the store does not hold
// (ControllerRevision, ResourceClaim) answer ok false.
func (k *skCluster) StoreObjects(kind string) (names []string, ok bool) {
	o := k.c.Snapshot.Objects()
	switch kind {
	case "ReplicaSet":
		for rs := range cluster.AllObjects[api.ReplicaSet](o) {
			names = append(names, nsName(rs.Namespace, rs.Name))
		}
	case "PersistentVolumeClaim":
		for c := range cluster.AllObjects[api.PersistentVolumeClaim](o) {
			names = append(names, nsName(c.Namespace, c.Name))
		}
	case "ResourceClaim":
		for c := range cluster.AllObjects[api.ResourceClaim](o) {
			names = append(names, nsName(c.Namespace, c.Name))
		}
	default:
		return nil, false
	}
	return names, true
}

// PodClaims maps each ResourceClaim of the store that a pod owns, as
// "namespace/pod\x00pod-claim-name" (the claim's name in the pod's
// spec.resourceClaims, from the resourceclaim controller's annotation),
// to the claim's namespace/name: the controller names a claim after its
// pod with a random suffix, so the claims of the two sides are matched
// by owner and pod claim name.
func (k *skCluster) PodClaims() map[string]string {
	out := map[string]string{}
	for c := range cluster.AllObjects[api.ResourceClaim](k.c.Snapshot.Objects()) {
		for _, ref := range c.OwnerReferences {
			if ref.Kind == "Pod" && ref.Controller != nil && *ref.Controller {
				out[nsName(c.Namespace, ref.Name)+"\x00"+c.Annotations[api.PodResourceClaimAnnotation]] = nsName(c.Namespace, c.Name)
			}
		}
	}
	return out
}

// InputControllerRevisions are the ControllerRevisions read and those
// the expansion creates (manifest.Cluster.ControllerRevisions), which
// the snapshot's store does not hold.
func (k *skCluster) InputControllerRevisions() []string {
	var out []string
	for _, r := range k.c.Objects.ControllerRevisions {
		out = append(out, nsName(r.Namespace, r.Name))
	}
	for _, r := range k.c.ControllerRevisions {
		out = append(out, nsName(r.Namespace, r.Name))
	}
	return out
}

// Explain is schedkit's decision for p on the cluster as it is now; it
// changes nothing.
func (k *skCluster) Explain(ctx context.Context, p *skPod) (*skVerdict, error) {
	ex, err := k.s.Explain(ctx, p.pod())
	if err != nil {
		return nil, err
	}
	v := &skVerdict{Node: ex.Node, Tied: ex.Tied}
	if ex.PreEnqueue != nil {
		v.FitError = ex.PreEnqueue.Message()
		return v, nil
	}
	if ex.Err != nil {
		v.FitError = ex.Err.Error()
		var fit *scheduler.FitError
		if !errors.As(ex.Err, &fit) {
			v.FitError = "error: " + v.FitError
		}
	}
	if pe := ex.Preemption; pe != nil && pe.Result != nil {
		v.Nominated = pe.NominatedNode
		for _, vp := range pe.Victims {
			v.Victims = append(v.Victims, nsName(vp.Namespace, vp.Name))
		}
	}
	return v, nil
}

// Assume places p on node in schedkit's cluster; a nomination it had
// ends.
func (k *skCluster) Assume(p *skPod, node string) error {
	if err := k.s.Assume(p.pod(), node); err != nil {
		return err
	}
	p.nominated = nil
	return nil
}

// Nominate records that upstream's preemption nominated node for p: p
// waits in schedkit's queue with status.nominatedNodeName set, so that
// the filters of other pods count it on that node as kube-scheduler's
// do, and its own next cycle tries that node first.
func (k *skCluster) Nominate(ctx context.Context, p *skPod, node string) error {
	np := *p.p
	np.Status.NominatedNodeName = node
	if err := k.s.Enqueue(ctx, &np); err != nil {
		return err
	}
	p.nominated = &np
	return nil
}

// RemovePod removes the bound pod namespace/name from schedkit's
// cluster (a preemption victim upstream deleted); false when schedkit
// has no such bound pod.
func (k *skCluster) RemovePod(namespace, name string) (bool, error) {
	pi, _, ok := k.c.Snapshot.Pod(namespace, name)
	if !ok {
		return false, nil
	}
	return true, k.s.RemovePod(pi.Pod)
}

func nsName(ns, name string) string {
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + name
}
