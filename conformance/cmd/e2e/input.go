package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// object is one input object as kubectl sends it, with where it was
// read.
type object struct {
	u      *unstructured.Unstructured
	source string
	// seq is the reading order.
	seq int
}

func (o *object) kind() string { return o.u.GetKind() }

// key is "Kind ns/name" (cluster-scoped: "Kind name").
func (o *object) key() string {
	if ns := o.u.GetNamespace(); ns != "" {
		return o.kind() + " " + ns + "/" + o.u.GetName()
	}
	return o.kind() + " " + o.u.GetName()
}

// readObjects reads the paths as kubectl apply -f does: a folder's files
// ending in .json, .yaml or .yml in name order (not its subfolders), each
// a YAML or JSON stream; a List's items are objects. A document kubectl
// could not decode is an error.
func readObjects(paths []string) ([]*object, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range ents {
			ext := filepath.Ext(e.Name())
			if !e.IsDir() && (ext == ".json" || ext == ".yaml" || ext == ".yml") {
				names = append(names, filepath.Join(p, e.Name()))
			}
		}
		sort.Strings(names)
		files = append(files, names...)
	}
	var out []*object
	var errs []error
	for _, f := range files {
		objs, err := readFile(f, len(out))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, objs...)
	}
	return out, errors.Join(errs...)
}

func readFile(path string, seq int) ([]*object, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var out []*object
	for doc := 1; ; doc++ {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			if err == io.EOF {
				return out, nil
			}
			return out, fmt.Errorf("%s: document %d: %w", path, doc, err)
		}
		if len(m) == 0 {
			continue
		}
		u := &unstructured.Unstructured{Object: m}
		src := fmt.Sprintf("%s: document %d", path, doc)
		if u.IsList() {
			l, err := u.ToList()
			if err != nil {
				return out, fmt.Errorf("%s: %w", src, err)
			}
			for i := range l.Items {
				seq++
				out = append(out, &object{u: &l.Items[i], source: fmt.Sprintf("%s, items[%d]", src, i), seq: seq})
			}
			continue
		}
		seq++
		out = append(out, &object{u: u, source: src, seq: seq})
	}
}

// The apply phases, in order.
const (
	phaseNamespaces = iota
	phaseClasses
	phaseStoredPods
	phasePolicies
	phaseOthers
	phaseBoundPods
	phaseNodes
	phaseWorkloads
	phasePendingPods
)

// rank is the apply phase of an object: namespaces, then classes, then
// stored pods, then quotas and limit ranges, then everything else the
// pods depend on, then new bound pods, then nodes, then workloads and new
// pending pods.
//
// A stored pod (see storedPod) is one a dump read from a cluster: it went
// through admission when it was created there, and what LimitRanger
// added then is in it. It is created before the LimitRanges and the
// ResourceQuotas, so that they neither change nor refuse it, and the
// quotas count it as the cluster's quota controller did.
//
// Nodes come after every bound pod: until a node exists no pod is
// placed, so the first cycle that places one sees all the bound pods in
// the scheduler's cache, as schedkit's snapshot holds them from the
// start (a stored pending pod created earlier fails on no nodes and is
// retried when they come).
func rank(o *object) int {
	switch o.kind() {
	case "Namespace":
		return phaseNamespaces
	case "PriorityClass", "StorageClass", "DeviceClass", "RuntimeClass", "CSIDriver", "IngressClass":
		return phaseClasses
	case "ResourceQuota", "LimitRange":
		return phasePolicies
	case "Node":
		return phaseNodes
	case "Pod":
		switch {
		case storedPod(o):
			return phaseStoredPods
		case nodeName(o) != "":
			return phaseBoundPods
		}
		return phasePendingPods
	case "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicationController":
		return phaseWorkloads
	}
	return phaseOthers
}

// storedPod reports whether a pod has been through an API server, as
// schedkit's reader decides (manifest.IsStored): a uid, a
// resourceVersion, a creationTimestamp or spec.priority is set.
func storedPod(o *object) bool {
	if o.kind() != "Pod" {
		return false
	}
	for _, f := range [][]string{{"metadata", "uid"}, {"metadata", "resourceVersion"}, {"metadata", "creationTimestamp"}, {"spec", "priority"}} {
		if v, ok, _ := unstructured.NestedFieldNoCopy(o.u.Object, f...); ok && v != nil && v != "" {
			return true
		}
	}
	return false
}

// storedObject reports whether an object has been through an API
// server, as schedkit's reader decides: a pod as storedPod, any other
// object by a uid, a resourceVersion or a creationTimestamp.
func storedObject(o *object) bool {
	if o.kind() == "Pod" {
		return storedPod(o)
	}
	ts := o.u.GetCreationTimestamp()
	return o.u.GetUID() != "" || o.u.GetResourceVersion() != "" || !ts.IsZero()
}

func nodeName(o *object) string {
	n, _, _ := unstructured.NestedString(o.u.Object, "spec", "nodeName")
	return n
}

// ordered sorts objects by phase, then reading order.
func ordered(objs []*object) []*object {
	out := slices.Clone(objs)
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// isList reports whether kind names a list kind.
