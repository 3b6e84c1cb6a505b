package imagelocality

import (
	"context"
	"errors"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/priorities"
)

const imageStateKey framework.StateKey = "PreScore" + config.ImageLocalityName

// imageState holds the pod's normalized image names, as lookup keys.
type imageState struct {
	images []cluster.ImageKey
	total  int // nodes in the cluster
	// absent is whether no node of the snapshot reports any of images:
	// every node's score is then 0.
	absent bool
	// buf holds images for pods with few containers.
	buf [4]cluster.ImageKey
}

// Clone returns s: the state is never modified after PreScore.
func (s *imageState) Clone() framework.StateData { return s }

// PreScore normalizes the pod's image names and reads the cluster's node
// count once per cycle, and whether any node reports one of the images.
// (Upstream has no PreScore and does the first two in every Score; the
// scores are the same.)
func (pl *ImageLocality) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	if pl.handle == nil || pl.handle.Snapshot() == nil {
		return framework.AsStatus(errNoSnapshot)
	}
	snap := pl.handle.Snapshot()
	s := &imageState{total: snap.NumNodes(), absent: true}
	s.images = priorities.AppendPodImageKeys(s.buf[:0], pod)
	for _, k := range s.images {
		if snap.ImageNodes(k.Name()) > 0 {
			s.absent = false
			break
		}
	}
	state.Write(imageStateKey, s)
	return nil
}

var errNoSnapshot = errors.New("ImageLocality: the framework handle has no snapshot")

// Score scores the node; the total node count comes from
// Handle.Snapshot().NumNodes().
func (pl *ImageLocality) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
	var images []cluster.ImageKey
	total := -1
	if d, ok := state.Read(imageStateKey); ok {
		if s, ok := d.(*imageState); ok {
			images, total = s.images, s.total
		}
	}
	if total < 0 {
		if pl.handle == nil || pl.handle.Snapshot() == nil {
			return 0, framework.AsStatus(errNoSnapshot)
		}
		images, total = priorities.PodImageKeys(pod), pl.handle.Snapshot().NumNodes()
	}
	return priorities.ImageLocalityOfKeys(nodeInfo, images, total), nil
}

// ScoreExtensions returns nil.
func (pl *ImageLocality) ScoreExtensions() framework.ScoreExtensions { return nil }

// FastPath offers ScoreNodes and ScoresAnyNodes
// (framework.FastPathPlugin).
// ScoresAnyNodes holds: its PreScore reads the
// pod and the snapshot's node count, not the nodes it is given, so the
// scheduler may score a node as soon as it passes Filter.
func (pl *ImageLocality) FastPath() framework.FastPath {
	return framework.FastPath{ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true}
}

// ScoreNodes is Score for each node, reading the state once. When no
// node of the snapshot reports any of the pod's images (as on clusters
// whose nodes list none), every score is 0 and no node is read.
func (pl *ImageLocality) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
	var images []cluster.ImageKey
	total := -1
	if d, ok := state.Read(imageStateKey); ok {
		if s, ok := d.(*imageState); ok {
			if s.absent {
				clear(scores[:len(nodes)])
				return -1, nil
			}
			images, total = s.images, s.total
		}
	}
	if total < 0 {
		if pl.handle == nil || pl.handle.Snapshot() == nil {
			return 0, framework.AsStatus(errNoSnapshot)
		}
		images, total = priorities.PodImageKeys(pod), pl.handle.Snapshot().NumNodes()
	}
	priorities.ImageLocalityNodes(nodes, images, total, scores)
	return -1, nil
}
