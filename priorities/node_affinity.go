package priorities

import (
	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
)

// NodeAffinity is the raw NodeAffinity score of pod on node: the sum of
// the weights of the pod's preferred node affinity terms the node matches
// (NormalizeScore scales the raw scores to [0, 100]). A pod whose
// preferred terms do not compile scores 0 and the error is returned.
func NodeAffinity(pod *api.Pod, node *api.Node) (int64, error) {
	terms, err := affinity.GetPreferredNodeAffinity(pod)
	if err != nil {
		return 0, err
	}
	return terms.Score(node), nil
}
