package workload

import (
	"crypto/sha1"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/schedkit/schedkit/api"
)

// PodResourceClaimAnnotation is the annotation the resourceclaim
// controller puts on a claim it generates: the name of the pod's
// spec.resourceClaims entry the claim is for.
const PodResourceClaimAnnotation = "resource.kubernetes.io/pod-claim-name"

// FailedResourceClaimCreation is the reason of the warning event the
// resourceclaim controller records on a pod whose claim it cannot make.
const FailedResourceClaimCreation = "FailedResourceClaimCreation"

// maxClaimNameBase is how long the controller lets <pod>-<claim>- be:
// 63 bytes less a hyphen and the API server's 5 random characters.
const maxClaimNameBase = 57

// ClaimController is kube-controller-manager's resourceclaim controller
// of v1.37.2 (pkg/controller/resourceclaim) as it acts on a pod: for each
// spec.resourceClaims entry with a resourceClaimTemplateName and no claim
// yet, it creates a ResourceClaim from the template and records its name
// in the pod's status.resourceClaimStatuses. Entries naming a claim
// (resourceClaimName) share that claim and make nothing. A
// ClaimController is not safe for concurrent use.
type ClaimController struct {
	rng       *rand.Rand
	templates map[[2]string]*api.ResourceClaimTemplate
	// names are the claim names taken, by namespace and name.
	names map[[2]string]bool
	// owned are the claims with a Pod controller reference, by
	// namespace, in the order they were given or created.
	owned map[string][]*api.ResourceClaim
	// create is the API server's create of a claim (SetCreate).
	create func(*api.ResourceClaim) error
}

// SetCreate sets what the API server does with a claim the controller
// creates, such as ResourceQuota admission: when create fails, the claim
// is not made and the pod's sync stops with upstream's event text
// ("create ResourceClaim : <error>", the name empty as the controller
// has only the generateName then).
func (c *ClaimController) SetCreate(create func(*api.ResourceClaim) error) { c.create = create }

// NewClaimController returns the controller over the templates and the
// claims that exist. The random parts of generated names are drawn from
// rng, as GenerateName draws pod names.
func NewClaimController(rng *rand.Rand, templates []*api.ResourceClaimTemplate, claims []*api.ResourceClaim) *ClaimController {
	c := &ClaimController{rng: rng, templates: map[[2]string]*api.ResourceClaimTemplate{},
		names: map[[2]string]bool{}, owned: map[string][]*api.ResourceClaim{}}
	for _, t := range templates {
		c.templates[[2]string{nsOf(t.Namespace), t.Name}] = t
	}
	for _, cl := range claims {
		c.add(cl)
	}
	return c
}

func nsOf(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

func (c *ClaimController) add(cl *api.ResourceClaim) {
	ns := nsOf(cl.Namespace)
	c.names[[2]string{ns, cl.Name}] = true
	if ref := controllerOf(&cl.ObjectMeta); ref != nil && ref.Kind == "Pod" && ref.APIVersion == "v1" {
		c.owned[ns] = append(c.owned[ns], cl)
	}
}

// ClaimSync is what the controller did for one pod.
type ClaimSync struct {
	// Pod is the pod with the status.resourceClaimStatuses the controller
	// writes: the pod given when that is unchanged, else a copy.
	Pod *api.Pod
	// Created are the claims created, in the order of the pod's
	// entries.
	Created []*api.ResourceClaim
	// Event is the message of the warning event (reason
	// FailedResourceClaimCreation) the controller records on the pod when
	// it cannot make a claim, worded as upstream's; empty when none.
	Event string
}

// controls reports whether claim's controller reference is pod. The
// controller matches by uid; new pods have none yet, so two of them are
// told apart by name.
func controls(pod *api.Pod, claim *api.ResourceClaim) bool {
	ref := controllerOf(&claim.ObjectMeta)
	if ref == nil || ref.Kind != "Pod" || ref.APIVersion != "v1" {
		return false
	}
	if pod.UID != "" || ref.UID != "" {
		return ref.UID == pod.UID
	}
	return ref.Name == pod.Name
}

// Sync runs the controller's syncPod on p: pods being deleted are left
// alone; each entry is handled in order, and the first that fails (a
// missing template) stops the pod's sync before its status is written,
// as upstream returns the error and retries. The claims created then stay
// (a retry finds them by their annotation and owner).
func (c *ClaimController) Sync(p *api.Pod) ClaimSync {
	out := ClaimSync{Pod: p}
	if p.DeletionTimestamp != nil {
		return out
	}
	ns := nsOf(p.Namespace)
	var made map[string]string
	for _, pc := range p.Spec.ResourceClaims {
		if pc.ResourceClaimTemplateName == nil {
			// A claim shared by name: nothing to create.
			continue
		}
		if name, recorded := statusName(p, pc.Name); recorded {
			if name == nil {
				continue // no claim needed
			}
			if c.exists(p, ns, *name) {
				continue
			}
		}
		claim := c.find(p, ns, pc.Name)
		if claim == nil {
			tpl := c.templates[[2]string{ns, *pc.ResourceClaimTemplateName}]
			if tpl == nil {
				tn := *pc.ResourceClaimTemplateName
				out.Event = fmt.Sprintf("PodResourceClaim %s: resource claim template %q: resourceclaimtemplate.resource.k8s.io %q not found", pc.Name, tn, tn)
				return out
			}
			claim = c.generate(p, ns, pc.Name, tpl)
			if c.create != nil {
				if err := c.create(claim); err != nil {
					out.Event = fmt.Sprintf("PodResourceClaim %s: create ResourceClaim : %v", pc.Name, err)
					return out
				}
			}
			c.add(claim)
			out.Created = append(out.Created, claim)
		}
		if made == nil {
			made = map[string]string{}
		}
		made[pc.Name] = claim.Name
	}
	if made == nil {
		return out
	}
	merged := map[string]string{}
	var unnamed []api.PodResourceClaimStatus
	for _, st := range p.Status.ResourceClaimStatuses {
		if st.ResourceClaimName != nil {
			merged[st.Name] = *st.ResourceClaimName
		} else if _, ok := made[st.Name]; !ok {
			unnamed = append(unnamed, st)
		}
	}
	maps.Copy(merged, made)
	q := p.DeepCopy()
	q.Status.ResourceClaimStatuses = q.Status.ResourceClaimStatuses[:0]
	for _, name := range slices.Sorted(maps.Keys(merged)) {
		claimName := merged[name]
		q.Status.ResourceClaimStatuses = append(q.Status.ResourceClaimStatuses, api.PodResourceClaimStatus{Name: name, ResourceClaimName: &claimName})
	}
	// Entries another manager wrote without a name stay (server-side
	// apply keeps what the controller's patch does not list).
	q.Status.ResourceClaimStatuses = append(q.Status.ResourceClaimStatuses, unnamed...)
	out.Pod = q
	return out
}

// statusName is the claim name p's status records for the entry, and
// whether it records the entry at all.
func statusName(p *api.Pod, entry string) (*string, bool) {
	for _, st := range p.Status.ResourceClaimStatuses {
		if st.Name == entry {
			return st.ResourceClaimName, true
		}
	}
	return nil, false
}

// exists reports whether the claim the pod's status names is there and
// still the pod's.
func (c *ClaimController) exists(p *api.Pod, ns, name string) bool {
	for _, cl := range c.owned[ns] {
		if cl.Name == name {
			return controls(p, cl)
		}
	}
	return false
}

// find is a claim made for the entry before the pod's status recorded
// it: owned by the pod and annotated with the entry's name.
func (c *ClaimController) find(p *api.Pod, ns, entry string) *api.ResourceClaim {
	for _, cl := range c.owned[ns] {
		if v, ok := cl.Annotations[PodResourceClaimAnnotation]; ok && v == entry && controls(p, cl) {
			return cl
		}
	}
	return nil
}

// ClaimGenerateName is the generateName the controller gives the claim
// of a pod's entry: <pod>-<entry>-, or, when that is longer than 57
// bytes, both names cut in proportion to their lengths and joined by a
// hyphen (without a trailing one, as upstream's).
func ClaimGenerateName(pod, entry string) string {
	g := pod + "-" + entry + "-"
	if len(g) <= maxClaimNameBase {
		return g
	}
	return pod[:len(pod)*maxClaimNameBase/len(g)] + "-" + entry[:len(entry)*maxClaimNameBase/len(g)]
}

// generate creates the claim of a pod's entry from tpl, named as the API
// server names an object with only generateName, with the UID ClaimUID
// gives it.
func (c *ClaimController) generate(p *api.Pod, ns, entry string, tpl *api.ResourceClaimTemplate) *api.ResourceClaim {
	yes := true
	annotations := maps.Clone(tpl.Spec.ObjectMeta.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[PodResourceClaimAnnotation] = entry
	spec := (&api.ResourceClaimTemplate{Spec: api.ResourceClaimTemplateSpec{Spec: tpl.Spec.Spec}}).DeepCopy().Spec.Spec
	gen := ClaimGenerateName(p.Name, entry)
	cl := &api.ResourceClaim{
		TypeMeta: api.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
		ObjectMeta: api.ObjectMeta{
			GenerateName:    gen,
			Namespace:       ns,
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID, Controller: &yes}},
			Annotations:     annotations,
			Labels:          maps.Clone(tpl.Spec.ObjectMeta.Labels),
		},
		Spec: spec,
	}
	cl.Name = GenerateName(c.rng, gen, func(n string) bool { return c.names[[2]string{ns, n}] })
	cl.UID = ClaimUID(ns, cl.Name)
	return cl
}

// ClaimUID is the UID a claim the controller generates gets: the API
// server gives every object it creates a random version 4 UUID; this one
// is a name-based version 5 UUID (SHA-1, RFC 9562) of
// "resourceclaims/<namespace>/<name>", so the same input loads to the
// same UIDs and the owner and reservedFor references that name the claim
// or its pod can be followed by UID as in a real cluster. Claim names
// are unique within a namespace, so these UIDs are unique too.
func ClaimUID(namespace, name string) string {
	sum := sha1.Sum([]byte("resourceclaims/" + nsOf(namespace) + "/" + name))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
