package manifest

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/workload"
)

// Workloads returns what the workload controllers read among objs, for
// workload.Expand: the nodes, pods, workloads and ControllerRevisions,
// the JSON the workloads were read from, and opts.Now and opts.Seed. Load
// with Options.ExpandWorkloads expands them and then admits the pods
// created; call workload.Expand on it for the pods as the controllers
// create them, before admission.
func Workloads(objs *Set, opts Options) *workload.Input {
	return &workload.Input{
		Nodes:                  objs.Nodes,
		Pods:                   objs.Pods,
		ReplicationControllers: objs.ReplicationControllers,
		ReplicaSets:            objs.ReplicaSets,
		StatefulSets:           objs.StatefulSets,
		Deployments:            objs.Deployments,
		DaemonSets:             objs.DaemonSets,
		Jobs:                   objs.Jobs,
		ControllerRevisions:    objs.ControllerRevisions,
		Raw:                    objs.raw,
		Now:                    opts.Now,
		Seed:                   opts.Seed,
	}
}

// expandWorkloads is the pods the controllers would create from objs,
// with their warnings placed where the workload warned about was read.
func expandWorkloads(objs *Set, opts Options) ([]*api.Pod, []Warning) {
	pods, ws := workload.Expand(Workloads(objs, opts))
	var out []Warning
	for _, w := range ws {
		src, _ := objs.Source(w.Workload)
		out = append(out, Warning{Source: src, Object: w.Object, Message: w.Message})
	}
	return pods, out
}
