package priorities

import (
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
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
	sum, n := sumImageScores(nodeInfo, PodImageKeys(pod), totalNumNodes)
	return imageLocalityPriority(sum, n)
}

// PodImageKeys returns the lookup keys of the normalized images of the pod's init
// containers then containers (duplicates kept, as upstream counts them).
func PodImageKeys(pod *api.Pod) []cluster.ImageKey {
	return AppendPodImageKeys(make([]cluster.ImageKey, 0, len(pod.Spec.InitContainers)+len(pod.Spec.Containers)), pod)
}

// AppendPodImageKeys appends PodImageKeys(pod) to keys.
func AppendPodImageKeys(keys []cluster.ImageKey, pod *api.Pod) []cluster.ImageKey {
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

// ImageLocalityOfKeys is ImageLocality given the pod's image keys
// (PodImageKeys), so that a plugin computes them once per cycle.
func ImageLocalityOfKeys(nodeInfo *cluster.NodeInfo, images []cluster.ImageKey, totalNumNodes int) int64 {
	sum, n := sumImageScores(nodeInfo, images, totalNumNodes)
	return imageLocalityPriority(sum, n)
}

// ImageLocalityNodes sets scores[i] to ImageLocalityOfKeys(nodes[i],
// images, totalNumNodes) for every node. scores has len(nodes) entries.
func ImageLocalityNodes(nodes []*cluster.NodeInfo, images []cluster.ImageKey, totalNumNodes int, scores []int64) {
	total := totalNumNodes
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
}
