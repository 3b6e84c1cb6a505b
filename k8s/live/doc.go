// Package live keeps a schedkit cluster.Snapshot in sync with a running
// Kubernetes cluster through client-go informers, for programs that
// decide with schedkit next to the cluster: autoscalers, batch and custom
// schedulers, admission controllers, descheduler-like controllers.
//
//	c, err := live.NewFromClient(clientset)   // or live.New(informerFactory)
//	c.Start(ctx)                              // informers stop with ctx
//	err = c.WaitForSync(ctx)                  // the initial lists applied
//	s, err := scheduler.New(c.Snapshot())     // decides on the live cluster
//	res, err := s.Schedule(ctx, pod)          // one consistent view per cycle
//	pending := c.Pending()                    // pods not yet assigned
//	cancel(); c.Shutdown()                    // stop, wait for goroutines
//
// The snapshot holds the nodes, the pods kube-scheduler sees as assigned
// (bound to a node and not Succeeded or Failed, see Assigned) and the
// objects of cluster.Kinds (or those WithKinds names): Workloads and
// PodGroups only when the server serves scheduling.k8s.io/v1beta1's
// (v1.37.2 serves them with GenericWorkload on; NewFromClient asks its
// discovery, New with WithDiscovery), since an informer of a resource
// not served never syncs. Pods not assigned
// and not finished nor being deleted are the pending pods, returned by
// Pending for the caller to queue; finished pods are dropped.
//
// # Consistency and lag
//
// Events are applied as the informers deliver them, one at a time: every
// event handler takes the Cluster's lock and is the snapshot's single
// writer while it holds it. Readers take no lock: Snapshot.View returns
// an immutable view with every event applied so far, and a scheduler
// built on Snapshot takes one view per scheduling cycle, so a decision
// sees the cluster as of one moment between two events, never half an
// event. What it sees lags the API server by the watch latency plus the
// events queued before it in the informers (usually milliseconds); events
// of different kinds are not ordered with each other (a pod may arrive
// before its node: it is kept aside and counted once the node arrives, as
// kube-scheduler's cache does). After WaitForSync the snapshot holds at
// least the objects of the initial lists.
//
// An object that cannot be converted or that the snapshot rejects (a
// pod whose requests would overflow its node's sums, a duplicate UID) is
// left out, its previous state removed; Stats counts such events and
// keeps the last error. Deletes whose watch event was missed arrive as
// tombstones (cache.DeletedFinalStateUnknown) and are applied as deletes
// of the last known state.
//
// Do not change the snapshot (Assume included): it is the handlers'. To
// try what-ifs, copy what you need into a snapshot of your own.
package live
