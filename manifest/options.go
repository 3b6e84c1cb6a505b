package manifest

import (
	"io"
	"time"
)

// Options control reading and loading.
type Options struct {
	// Recursive reads the subfolders of the folders given, as kubectl -R.
	Recursive bool
	// Stdin is read for the path "-"; nil means os.Stdin.
	Stdin io.Reader
	// ExpandWorkloads makes NewCluster add, as new pending pods, the pods
	// the controllers of the ReplicaSets, ReplicationControllers,
	// Deployments, StatefulSets, Jobs and DaemonSets read would create:
	// replicas minus the active pods they claim, named as the controllers
	// name them (see NewCluster).
	ExpandWorkloads bool
	// Seed makes the random name suffixes of expanded pods, and the names
	// ReadFiles and Load give new objects that have only generateName,
	// reproducible.
	Seed uint64
	// Now is the time ResourceQuota admission judges pods' deletion grace
	// periods by (a pod past its grace period is no longer charged), and
	// workload expansion Jobs' activeDeadlineSeconds; the zero time means
	// time.Now() (with a warning on each Job whose deadline it judges).
	Now time.Time
	// Progress, when set, is called as ReadFiles and Load read: after
	// each read from an input, with the bytes and objects so far.
	Progress func(ReadProgress)
}
