package app

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/manifest"
)

// workloadKinds are the kinds --pod KIND/NS/NAME takes, by the names
// kubectl takes (singular, short name), and the kind of the controller
// reference their pods carry.
var workloadKinds = map[string]string{
	"deployment": "Deployment", "deploy": "Deployment",
	"replicaset": "ReplicaSet", "rs": "ReplicaSet",
	"statefulset": "StatefulSet", "sts": "StatefulSet",
	"daemonset": "DaemonSet", "ds": "DaemonSet",
	"job":                   "Job",
	"replicationcontroller": "ReplicationController", "rc": "ReplicationController",
}

// podSelection is what --pod and -n select.
type podSelection struct {
	// want selects the pending pods explained; nil selects all.
	want func(*api.Pod) bool
	// bound is the bound pod --pod names, explained as if it were
	// pending now on the cluster without it; nil otherwise.
	bound *api.Pod
}

// ownedBy reports whether p's controller is the workload kind/ns/name. A
// Deployment's pods are its ReplicaSets', which the Deployment controller
// names NAME-HASH, HASH the pods' pod-template-hash label.
func ownedBy(p *api.Pod, kind, ns, name string) bool {
	if p.Namespace != ns {
		return false
	}
	c := api.GetControllerOf(&p.ObjectMeta)
	if c == nil {
		return false
	}
	if kind == "Deployment" {
		h := p.Labels["pod-template-hash"]
		return c.Kind == "ReplicaSet" && h != "" && c.Name == name+"-"+h
	}
	return c.Kind == kind && c.Name == name
}

// selectPods resolves --pod and -n against the pending pods and, for a
// bound pod, the cluster's pods:
//
//   - NAMESPACE/NAME of a pending pod explains it;
//   - NAMESPACE/NAME of a bound pod says where it is bound and explains
//     it as if it were pending now, on the cluster without it;
//   - KIND/NAMESPACE/NAME (deployment/shop/web), or NAMESPACE/NAME that
//     names no pod but a workload, explains the workload's pending pods;
//   - NAME alone takes its namespace from -n.
//
// Without --pod, -n explains the pending pods of that namespace.
func selectPods(o *options, c *manifest.Cluster) (podSelection, error) {
	if o.namespace != "" && o.allNamespaces {
		return podSelection{}, &usageError{msg: "-n and -A (--all-namespaces) exclude each other"}
	}
	if o.pod == "" {
		if o.namespace == "" {
			return podSelection{}, nil
		}
		ns := o.namespace
		return podSelection{want: func(p *api.Pod) bool { return p.Namespace == ns }}, nil
	}
	parts := strings.Split(o.pod, "/")
	kind := ""
	if len(parts) == 3 {
		k, ok := workloadKinds[strings.ToLower(parts[0])]
		if !ok {
			return podSelection{}, &usageError{msg: fmt.Sprintf("--pod %s: %q is not a workload kind (deployment, replicaset, statefulset, daemonset, job, replicationcontroller)", o.pod, parts[0])}
		}
		kind, parts = k, parts[1:]
	}
	switch {
	case len(parts) == 1 && o.namespace != "":
		parts = []string{o.namespace, parts[0]}
	case len(parts) == 1:
		return podSelection{}, &usageError{msg: fmt.Sprintf("--pod %s: want NAMESPACE/NAME (or -n NAMESPACE)", o.pod)}
	case len(parts) != 2 || parts[0] == "" || parts[1] == "":
		return podSelection{}, &usageError{msg: fmt.Sprintf("--pod %s: want NAMESPACE/NAME or KIND/NAMESPACE/NAME", o.pod)}
	}
	ns, name := parts[0], parts[1]
	full := ns + "/" + name
	if kind == "" {
		if slices.ContainsFunc(c.Pending, func(p *api.Pod) bool { return podName(p) == full }) {
			return podSelection{want: func(p *api.Pod) bool { return podName(p) == full }}, nil
		}
		for _, ni := range c.Snapshot.Nodes() {
			for _, pi := range ni.Pods {
				if podName(pi.Pod) == full {
					return podSelection{want: func(*api.Pod) bool { return false }, bound: pi.Pod}, nil
				}
			}
		}
		// No pod of that name: a workload's pods.
		for _, k := range []string{"Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicaSet", "ReplicationController"} {
			if slices.ContainsFunc(c.Pending, func(p *api.Pod) bool { return ownedBy(p, k, ns, name) }) {
				kind = k
				break
			}
		}
		if kind == "" {
			return podSelection{}, &usageError{msg: fmt.Sprintf("--pod %s: no pod or workload of that name among the manifests; pending pods: %s", o.pod, pendingNames(c.Pending))}
		}
	}
	if !slices.ContainsFunc(c.Pending, func(p *api.Pod) bool { return ownedBy(p, kind, ns, name) }) {
		return podSelection{}, &usageError{msg: fmt.Sprintf("--pod %s: no pending pod of %s %s; pending pods: %s", o.pod, kind, full, pendingNames(c.Pending))}
	}
	return podSelection{want: func(p *api.Pod) bool { return ownedBy(p, kind, ns, name) }}, nil
}

// pendingNames lists the pending pods' names, the first 20.
func pendingNames(pending []*api.Pod) string {
	if len(pending) == 0 {
		return "none"
	}
	var names []string
	for i, p := range pending {
		if i == 20 {
			names = append(names, fmt.Sprintf("and %d more", len(pending)-20))
			break
		}
		names = append(names, podName(p))
	}
	return strings.Join(names, ", ")
}
