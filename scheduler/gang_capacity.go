package scheduler

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/framework"
	"github.com/schedkit/schedkit/framework/config"
	"github.com/schedkit/schedkit/podgroup"
)

// GangCapacity is how many more gangs of one shape fit, one after the
// other, each placed all or nothing by the PodGroup cycle.
type GangCapacity struct {
	// Gangs are the gangs placed, in order.
	Gangs []GangFit
	// Next is why the next gang does not fit: the fit error of its first
	// member that fits nowhere, a member's *GatedError, or the group's
	// *GangError. It is nil only when the limit stopped the count.
	Next error
	// NextPod is the member Next is about; nil for a group error.
	NextPod *api.Pod
}

// GangFit is one gang placed: its PodGroup and its members' nodes.
type GangFit struct {
	// PodGroup is the copy's PodGroup, NAME-copy-N.
	PodGroup string `json:"podGroup"`
	// Pods are its members, in the cycle's order; Nodes where each went.
	Pods  []string `json:"pods"`
	Nodes []string `json:"nodes"`
}

// GangShape is the gang GangCapacity copies.
type GangShape struct {
	// PodGroup is the group each copy repeats (its policy, priority and
	// workloadRef); each copy is named NAME-copy-N in its namespace, N
	// the next number no PodGroup of the snapshot has.
	PodGroup *api.PodGroup
	// Member is the members' pod shape, in the group's namespace; its
	// schedulingGroup is set to the copy's group.
	Member *api.Pod
	// Prepare, when set, is called on each member before its cycle: it
	// may add the member's own objects to the snapshot (the claims its
	// resourceClaimTemplateName entries make) and return the member
	// changed.
	Prepare func(*api.Pod) (*api.Pod, error)
}

// ErrNoPodGroup is GangCapacity's error for a shape without a PodGroup,
// or when GenericWorkload is off.
var ErrNoPodGroup = errors.New("gang capacity needs a PodGroup and GenericWorkload on")

// GangCapacity places copies of the gang shape, each a new PodGroup with
// minCount members, by the PodGroup cycle as Simulate runs it, until a
// copy does not fit or limit copies are placed. A placed gang stays
// assumed, so the next copy sees it; the copy that does not fit leaves
// nothing behind but its PodGroup and what Prepare added. Preemption
// (PodGroupPostFilter) is not run: the count is of gangs that fit in
// the room there is.
func (s *Scheduler) GangCapacity(ctx context.Context, shape GangShape, limit int) (*GangCapacity, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if shape.PodGroup == nil || shape.Member == nil || !s.gates.GenericWorkload() {
		return nil, ErrNoPodGroup
	}
	s.version++
	out := &GangCapacity{}
	n := 0
	for len(out.Gangs) < limit {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		// The first copy name not taken by an earlier count.
		name := ""
		for {
			n++
			name = fmt.Sprintf("%s-copy-%d", shape.PodGroup.Name, n)
			if _, taken := (handle{s}).PodGroup(podgroup.Key{Namespace: shape.PodGroup.Namespace, Name: name}); !taken {
				break
			}
		}
		c, err := s.placeGangCopy(ctx, shape, name)
		if err != nil {
			return out, err
		}
		if c.why != nil {
			out.Next, out.NextPod = c.why, c.failed
			return out, nil
		}
		out.Gangs = append(out.Gangs, c.fit)
	}
	return out, nil
}

// gangCopy is one copy's outcome: the gang placed, or the member that
// failed and why (failed is nil for a group error).
type gangCopy struct {
	fit    GangFit
	failed *api.Pod
	why    error
}

// placeGangCopy adds the copy name of the shape's PodGroup and runs its cycle
// over minCount new members. A copy that does not fit has its PodGroup
// removed again.
func (s *Scheduler) placeGangCopy(ctx context.Context, shape GangShape, name string) (out gangCopy, err error) {
	pg := shape.PodGroup.DeepCopy()
	pg.Name = name
	pg.UID, pg.ResourceVersion = "capacity/"+pg.Namespace+"/"+pg.Name, ""
	pg.Status = api.PodGroupStatus{}
	if err := s.snapshot.AddObject(pg); err != nil {
		return out, err
	}
	defer func() {
		if err != nil || out.why != nil {
			_ = s.snapshot.RemoveObject(pg)
		}
	}()
	k := podgroup.Key{Namespace: pg.Namespace, Name: pg.Name}
	q := newQueue()
	s.nominated, s.current = q.nominated, q
	defer func() { s.nominated, s.current = s.q.nominated, nil }()
	var members []*entry
	for j := range pg.MinCount() {
		p := shape.Member.DeepCopy()
		p.Namespace, p.Name = pg.Namespace, fmt.Sprintf("%s-%d", pg.Name, j)
		p.UID = "capacity/" + p.Namespace + "/" + p.Name
		p.Spec.NodeName = ""
		p.Spec.SchedulingGroup = &api.PodSchedulingGroup{PodGroupName: &name}
		if shape.Prepare != nil {
			if p, err = shape.Prepare(p); err != nil {
				return out, err
			}
		}
		if p, err = s.admit(p); err != nil {
			return out, err
		}
		members = append(members, q.add(ctx, s, p))
	}
	for _, e := range members {
		if e.where != inActive {
			// Gated (a scheduling gate, or GangScheduling's quorum), or
			// no profile.
			return gangCopy{failed: e.qpi.Pod, why: e.err}, nil
		}
	}
	for _, e := range members {
		q.take(e)
		e.qpi.Attempts++
	}
	slices.SortStableFunc(members, podGroupMemberLess)
	if err := s.validatePodGroup(pg, k, members); err != nil {
		return gangCopy{why: err}, nil
	}
	prof, _ := s.profileFor(members[0].qpi.Pod)
	_, gang := prof.Plugin(config.GangSchedulingName)
	res := podGroupAlgorithm(ctx, schedOps{s: s, q: q, pg: pg, gang: gang, queued: true}, members, s.scheduledCount(k))
	if res.status.IsError() {
		return out, res.status.AsError()
	}
	if !res.status.IsSuccess() {
		for _, r := range res.pods {
			if !r.status.IsSuccess() {
				return gangCopy{failed: r.e.qpi.Pod, why: r.err}, nil
			}
		}
		return gangCopy{why: &GangError{Group: k, Message: res.message()}}, nil
	}
	fit := GangFit{PodGroup: k.Namespace + "/" + k.Name}
	for _, r := range res.pods {
		if err := s.assumeVolumes(r.e.qpi.Pod, r.res.Node); err != nil {
			return out, err
		}
		fit.Pods = append(fit.Pods, r.e.qpi.Pod.Name)
		fit.Nodes = append(fit.Nodes, r.res.Node)
		s.q.moveOnEvent(framework.AssignedPodAdd)
	}
	return gangCopy{fit: fit}, nil
}
