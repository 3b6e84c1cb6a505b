package preemption

import (
	"context"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/cluster"
	"github.com/schedkit/schedkit/framework"
)

// SelectVictimsOnNodeBy is SelectVictimsOnNode removing the victims by a
// search by UID (plain, the reference) or by their tracked positions
// (the dry run's way).
func SelectVictimsOnNodeBy(plain bool, ctx context.Context, prof *framework.Profile, state *framework.CycleState, pod *api.Pod, nodeInfo *cluster.NodeInfo, nominated []*cluster.PodInfo, pdbs []PDB) ([]*api.Pod, int, *framework.Status) {
	sc := &scratch{plain: plain}
	return sc.selectVictims(ctx, newFitter(prof, state), state, pod, nodeInfo, nominated, unwrap(pdbs))
}

// MemoHits is how many nodes' verdicts attempts in m read from its memo
// rather than dry-running the node again.
func MemoHits(m *Memory) int { return m.memo.hits }
