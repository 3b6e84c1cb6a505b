package priorities

import (
	"context"
	"errors"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
)

// ImageLocality thresholds, as upstream's.
const (
	mb int64 = 1024 * 1024
	// ImageLocalityMinThreshold is the summed image score (23Mi) below
	// which a node scores 0.
	ImageLocalityMinThreshold int64 = 23 * mb
	// ImageLocalityMaxContainerThreshold (1000Mi) times the number of
	// images is the summed score at which a node scores 100.
	ImageLocalityMaxContainerThreshold int64 = 1000 * mb
)

// ImageLocality is the ImageLocality score of pod on nodeInfo in a
// cluster of totalNumNodes nodes: the sizes of the pod's init container
// and container images present on the node, each scaled by the share of
// nodes that have it, mapped linearly from [23Mi, 1000Mi × images] to
// [0, 100].
//
// Image volumes are not modelled by schedkit's api, so unlike upstream
// they neither add to the sum nor to the image count.
func ImageLocality(pod *api.Pod, nodeInfo *cluster.NodeInfo, totalNumNodes int) int64 {
	sum, n := sumImageScores(nodeInfo, podImageKeys(pod), totalNumNodes)
	return imageLocalityPriority(sum, n)
}

// podImageKeys returns the normalized images of the pod's init
// containers then containers (duplicates kept, as upstream counts them).
func podImageKeys(pod *api.Pod) []cluster.ImageKey {
	return appendPodImageKeys(make([]cluster.ImageKey, 0, len(pod.Spec.InitContainers)+len(pod.Spec.Containers)), pod)
}

// appendPodImageKeys appends podImageKeys(pod) to keys.
func appendPodImageKeys(keys []cluster.ImageKey, pod *api.Pod) []cluster.ImageKey {
	for i := range pod.Spec.InitContainers {
		keys = append(keys, cluster.NewImageKey(cluster.NormalizedImageName(pod.Spec.InitContainers[i].Image)))
	}
	for i := range pod.Spec.Containers {
		keys = append(keys, cluster.NewImageKey(cluster.NormalizedImageName(pod.Spec.Containers[i].Image)))
	}
	return keys
}

func sumImageScores(nodeInfo *cluster.NodeInfo, images []cluster.ImageKey, totalNumNodes int) (int64, int) {
	var sum int64
	for _, k := range images {
		if state, ok := nodeInfo.LookupImage(k); ok {
			sum += scaledImageScore(state, totalNumNodes)
		}
	}
	return sum, len(images)
}

// scaledImageScore is the image's size times the share of nodes holding
// it, truncated, with upstream's float64 arithmetic.
func scaledImageScore(state *cluster.ImageStateSummary, totalNumNodes int) int64 {
	spread := float64(state.NumNodes) / float64(totalNumNodes)
	return int64(float64(state.Size) * spread)
}

// spreadMemo remembers, for each of the pod's first images, the last
// NumNodes seen and its spread: an image's NumNodes is the same on every
// node that has it, so the division is done once per image, not per node.
type spreadMemo struct {
	num    [4]int
	spread [4]float64
}

// scaled is scaledImageScore(state, total) for the pod's k-th image.
func (m *spreadMemo) scaled(k int, state *cluster.ImageStateSummary, total int) int64 {
	if k >= len(m.num) {
		return scaledImageScore(state, total)
	}
	if m.num[k] != state.NumNodes || m.num[k] == 0 {
		m.num[k], m.spread[k] = state.NumNodes, float64(state.NumNodes)/float64(total)
	}
	return int64(float64(state.Size) * m.spread[k])
}

func imageLocalityPriority(sumScores int64, imageCount int) int64 {
	maxThreshold := ImageLocalityMaxContainerThreshold * int64(imageCount)
	if sumScores < ImageLocalityMinThreshold {
		sumScores = ImageLocalityMinThreshold
	} else if sumScores > maxThreshold {
		sumScores = maxThreshold
	}
	return framework.MaxNodeScore * (sumScores - ImageLocalityMinThreshold) / (maxThreshold - ImageLocalityMinThreshold)
}

// imageBlock is how many nodes ScoreNodes looks an image up on at a
// time, into an array on its stack.
const imageBlock = 64

const imageStateKey framework.StateKey = "PreScore" + config.ImageLocalityName

// imageState holds the pod's normalized image names, as lookup keys.
type imageState struct {
	images []cluster.ImageKey
	total  int // nodes in the cluster
	// buf holds images for pods with few containers.
	buf [4]cluster.ImageKey
}

// Clone returns s: the state is never modified after PreScore.
func (s *imageState) Clone() framework.StateData { return s }

// ImageLocalityPlugin is the ImageLocality plugin. It reads the number of
// nodes from the framework handle's snapshot.
type ImageLocalityPlugin struct {
	handle framework.Handle
}

var (
	_ framework.PreScorePlugin = (*ImageLocalityPlugin)(nil)
	_ framework.ScorePlugin    = (*ImageLocalityPlugin)(nil)
)

// NewImageLocality is the ImageLocality factory. ImageLocality takes no
// arguments; args is ignored. h supplies the snapshot whose node count
// scales image scores.
func NewImageLocality(_ any, h framework.Handle) (framework.Plugin, error) {
	return &ImageLocalityPlugin{handle: h}, nil
}

// Name returns config.ImageLocalityName.
func (*ImageLocalityPlugin) Name() string { return config.ImageLocalityName }

// PreScore normalizes the pod's image names and reads the cluster's node
// count once per cycle. (Upstream has no PreScore and does both in every
// Score; the scores are the same.)
func (pl *ImageLocalityPlugin) PreScore(_ context.Context, state *framework.CycleState, pod *api.Pod, _ []*cluster.NodeInfo) *framework.Status {
	if pl.handle == nil || pl.handle.Snapshot() == nil {
		return framework.AsStatus(errNoSnapshot)
	}
	s := &imageState{total: pl.handle.Snapshot().NumNodes()}
	s.images = appendPodImageKeys(s.buf[:0], pod)
	state.Write(imageStateKey, s)
	return nil
}

var errNoSnapshot = errors.New("ImageLocality: the framework handle has no snapshot")

// Score scores the node; the total node count comes from
// Handle.Snapshot().NumNodes().
func (pl *ImageLocalityPlugin) Score(_ context.Context, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo) (int64, *framework.Status) {
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
		images, total = podImageKeys(pod), pl.handle.Snapshot().NumNodes()
	}
	sum, n := sumImageScores(nodeInfo, images, total)
	return imageLocalityPriority(sum, n), nil
}

// ScoreExtensions returns nil.
func (*ImageLocalityPlugin) ScoreExtensions() framework.ScoreExtensions { return nil }

var _ framework.FastPathPlugin = (*ImageLocalityPlugin)(nil)

// FastPath offers ScoreNodes and ScoresAnyNodes
// (framework.FastPathPlugin).
// ScoresAnyNodes holds: its PreScore reads the
// pod and the snapshot's node count, not the nodes it is given, so the
// scheduler may score a node as soon as it passes Filter.
func (pl *ImageLocalityPlugin) FastPath() framework.FastPath {
	return framework.FastPath{ScoreNodes: pl.ScoreNodes, ScoresAnyNodes: true}
}

// ScoreNodes is Score for each node, reading the state once.
func (pl *ImageLocalityPlugin) ScoreNodes(_ context.Context, state *framework.CycleState, pod *api.Pod, nodes []*cluster.NodeInfo, scores []int64) (int, *framework.Status) {
	if len(nodes) == 0 {
		return -1, nil
	}
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
		images, total = podImageKeys(pod), pl.handle.Snapshot().NumNodes()
	}
	// Each image is looked up on a block of nodes at a time (nodes that
	// share an image index are searched once), the scaled sizes summed
	// into scores, which then become the scores: the same sums, in the
	// same order, as Score makes node by node.
	var spreads spreadMemo
	var states [imageBlock]*cluster.ImageStateSummary
	for lo := 0; lo < len(nodes); lo += imageBlock {
		hi := min(lo+imageBlock, len(nodes))
		sums := scores[lo:hi]
		clear(sums)
		for k := range images {
			cluster.LookupImageNodes(nodes[lo:hi], images[k], states[:])
			for i, st := range states[:hi-lo] {
				if st != nil {
					sums[i] += spreads.scaled(k, st, total)
				}
			}
		}
		for i, sum := range sums {
			if sum < ImageLocalityMinThreshold {
				sums[i] = 0 // what imageLocalityPriority gives, without its division
			} else {
				sums[i] = imageLocalityPriority(sum, len(images))
			}
		}
	}
	return -1, nil
}
