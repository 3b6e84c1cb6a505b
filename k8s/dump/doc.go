// Package dump writes what a cluster holds as one v1 List, the input the
// schedkit command reads with -f:
//
//	err := dump.Write(ctx, clientset, w, dump.Options{Kinds: dump.ForCommand("simulate")})
//
// It lists each kind with paginated list calls (limit and continue), so a
// 100,000-pod cluster is read in pages the API server serves without
// timing out, and streams the items, each with its apiVersion and kind.
// It only lists. kubectl-schedkit writes its --save-dump with it, and
// tests compare the live answer with the answer on the dump.
//
// With Options.Namespace set, workloads and pending pods of other
// namespaces are left out; nodes, bound pods and every other kind are
// read in every namespace, as kube-scheduler sees them.
package dump
