package main

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/restmapper"

	"github.com/schedkit/schedkit/conformance/internal/controlplane"
)

// verdict is the API server's answer to one input object.
type verdict struct {
	obj *object
	// err is "" when the object was created.
	err string
}

// applier creates input objects as kubectl apply creates new ones:
// strict field validation, the namespace "default" for namespaced
// objects without one.
type applier struct {
	cp     *controlplane.ControlPlane
	cs     kubernetes.Interface
	dyn    dynamic.Interface
	mapper meta.RESTMapper
	logf   func(string, ...any)
	// uids maps the uid an input object was read with to the one the
	// API server gave it on create (see remapUIDs).
	uids map[types.UID]types.UID
}

func newApplier(cp *controlplane.ControlPlane, logf func(string, ...any)) (*applier, error) {
	cfg := cp.RESTConfig()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(cp.Client().Discovery()))
	return &applier{cp: cp, cs: cp.Client(), dyn: dyn, mapper: mapper, logf: logf, uids: map[types.UID]types.UID{}}, nil
}

// applyAll creates objs phase by phase (see rank) and returns the
// verdicts in apply order. Between phases it waits for what the next
// phase's admission needs: each namespace's default service account,
// each quota's status, and the scheduler's informers to see the nodes.
func (a *applier) applyAll(ctx context.Context, objs []*object) []verdict {
	var out []verdict
	phase := -1
	var namespaces []string
	var quotas []*object
	for _, ns := range impliedNamespaces(objs) {
		if err := a.createNamespace(ctx, ns); err != nil {
			a.logf("namespace %s: %v", ns, err)
			continue
		}
		namespaces = append(namespaces, ns)
	}
	for _, o := range ordered(objs) {
		if r := rank(o); r != phase {
			a.between(ctx, phase, r, namespaces, quotas)
			phase = r
		}
		err := a.create(ctx, o)
		v := verdict{obj: o}
		if err != nil {
			v.err = err.Error()
		} else {
			switch o.kind() {
			case "Namespace":
				namespaces = append(namespaces, o.u.GetName())
			case "ResourceQuota":
				quotas = append(quotas, o)
			}
		}
		out = append(out, v)
	}
	return out
}

// impliedNamespaces are the namespaces that hold a stored object (see
// storedObject) and are neither read as a Namespace nor built in. A dump
// often leaves the Namespace objects out, but what it holds was stored
// there, so the namespace existed; schedkit's reader takes it as
// existing, and the runner creates it before anything else, outside the
// compared verdicts.
func impliedNamespaces(objs []*object) []string {
	have := map[string]bool{"default": true, "kube-system": true, "kube-public": true, "kube-node-lease": true}
	for _, o := range objs {
		if o.kind() == "Namespace" {
			have[o.u.GetName()] = true
		}
	}
	var out []string
	for _, o := range objs {
		ns := o.u.GetNamespace()
		if ns == "" || have[ns] || !storedObject(o) {
			continue
		}
		have[ns] = true
		out = append(out, ns)
	}
	return out
}

func (a *applier) createNamespace(ctx context.Context, name string) error {
	_, err := a.cs.CoreV1().Namespaces().Create(ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}},
		metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"})
	return err
}

// between waits, when the apply moves from phase from to phase to, for
// what admission in the later phases reads.
func (a *applier) between(ctx context.Context, from, to int, namespaces []string, quotas []*object) {
	if from <= phaseNamespaces && to > phaseNamespaces {
		for _, ns := range namespaces {
			if err := a.cp.WaitForServiceAccount(ctx, ns); err != nil {
				a.logf("%v", err)
			}
		}
	}
	if from <= phasePolicies && to > phasePolicies {
		for _, q := range quotas {
			a.waitQuota(ctx, q.u.GetNamespace(), q.u.GetName())
		}
	}
	if from < phaseWorkloads && to >= phaseWorkloads {
		// The scheduler's informers see the nodes and the objects its
		// plugins read before the first new pod arrives.
		time.Sleep(time.Second)
	}
}

// waitQuota waits until the resourcequota controller has written the
// quota's status: until then the ResourceQuota admission plugin refuses
// every pod of the namespace ("status unknown for quota").
func (a *applier) waitQuota(ctx context.Context, ns, name string) {
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		q, err := a.cs.CoreV1().ResourceQuotas(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		return q.Status.Hard != nil, nil
	})
	if err != nil {
		a.logf("quota %s/%s has no status: %v", ns, name, err)
	}
}

// hasStatus are the kinds whose status the scheduler or a controller
// reads, written through their status subresource.
var hasStatus = map[string]bool{"Pod": true, "ResourceClaim": true, "PersistentVolumeClaim": true, "PersistentVolume": true}

// create creates one object; a Node's status and a stored object's are
// written through the status subresource too.
func (a *applier) create(ctx context.Context, o *object) error {
	gvk := o.u.GroupVersionKind()
	if gvk.Kind == "" || o.u.GetAPIVersion() == "" {
		return fmt.Errorf("kind or apiVersion is missing in %s", o.source)
	}
	m, err := a.mapper.RESTMapping(schema.GroupKind{Group: gvk.Group, Kind: gvk.Kind}, gvk.Version)
	if err != nil {
		return err
	}
	var ri dynamic.ResourceInterface = a.dyn.Resource(m.Resource)
	u := o.u.DeepCopy()
	a.remapUIDs(u)
	// A stored object's server-set fields: the API server refuses a
	// resourceVersion on create and sets the others itself.
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "managedFields", "generation"} {
		unstructured.RemoveNestedField(u.Object, "metadata", f)
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		if u.GetNamespace() == "" {
			u.SetNamespace(metav1.NamespaceDefault)
			o.u.SetNamespace(metav1.NamespaceDefault)
		}
		ri = a.dyn.Resource(m.Resource).Namespace(u.GetNamespace())
	}
	created, err := ri.Create(ctx, u, metav1.CreateOptions{FieldValidation: "Strict", FieldManager: "kubectl-client-side-apply"})
	if err != nil {
		return err
	}
	if old := o.u.GetUID(); old != "" {
		a.uids[old] = created.GetUID()
	}
	// A Node's status as a kubelet reports it; a stored object's as the
	// cluster it was read from holds it: create resets the status, and a
	// stored pod in phase Succeeded holds no room, a stored claim's
	// allocation holds its devices.
	if gvk.Kind == "Node" || storedObject(o) && hasStatus[gvk.Kind] {
		if status, ok := u.Object["status"]; ok {
			created.Object["status"] = status
			if _, err := ri.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
				return fmt.Errorf("status: %w", err)
			}
		}
	}
	return nil
}

// remapUIDs rewrites, in u, the uids that name objects the runner created
// earlier to the uids the API server gave them: the owner references,
// and a ResourceClaim's status.reservedFor entries. The stored pods are
// created before the claims (see rank), so a claim reserved for or owned
// by a pod of the input still names it; without this, the resourceclaim
// controller would take the pod as replaced (another uid), drop its
// reservation and deallocate the claim, and the garbage collector would
// delete a claim whose owner it cannot find, where schedkit keeps both.
// A uid of an object not created yet (a pod's ReplicaSet) is left.
func (a *applier) remapUIDs(u *unstructured.Unstructured) {
	if refs := u.GetOwnerReferences(); len(refs) > 0 {
		changed := false
		for i, r := range refs {
			if n, ok := a.uids[r.UID]; ok {
				refs[i].UID, changed = n, true
			}
		}
		if changed {
			u.SetOwnerReferences(refs)
		}
	}
	if u.GetKind() != "ResourceClaim" {
		return
	}
	rf, ok, _ := unstructured.NestedSlice(u.Object, "status", "reservedFor")
	if !ok {
		return
	}
	for _, e := range rf {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		if uid, ok := m["uid"].(string); ok {
			if n, ok := a.uids[types.UID(uid)]; ok {
				m["uid"] = string(n)
			}
		}
	}
	_ = unstructured.SetNestedSlice(u.Object, rf, "status", "reservedFor")
}
