package dra

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/api"
)

// constraint is a claim constraint during one Allocate.
type constraint struct {
	spec  *constraintSpec
	first *api.DeviceAttribute   // matchAttribute: the value all share
	n     int                    // matchAttribute: devices in the set
	seen  []*api.DeviceAttribute // distinctAttribute: the values taken
}

func (c *constraint) applies(base, sub string) bool {
	if len(c.spec.requests) == 0 {
		return true
	}
	if slices.Contains(c.spec.requests, base) {
		return true
	}
	return sub != "" && slices.Contains(c.spec.requests, base+"/"+sub)
}

// add checks the device against the constraint and, if it passes, counts
// it in. Constraints are monotonic: a device that fails now fails with
// more devices too.
func (c *constraint) add(base, sub string, cand candidate) bool {
	if !c.applies(base, sub) {
		return true
	}
	attr := lookupAttribute(cand.dev, cand.id.Driver, c.spec.attr)
	if attr == nil {
		return false
	}
	if c.spec.distinct {
		for _, v := range c.seen {
			if sameValue(attr, v, true) {
				return false
			}
		}
		c.seen = append(c.seen, attr)
		return true
	}
	if c.n == 0 {
		c.first, c.n = attr, 1
		return true
	}
	if !sameValue(attr, c.first, false) {
		return false
	}
	c.n++
	return true
}

func (c *constraint) remove(base, sub string) {
	if !c.applies(base, sub) {
		return
	}
	if c.spec.distinct {
		c.seen = c.seen[:len(c.seen)-1]
		return
	}
	c.n--
}

// sameValue compares by the new value's type: string, int, bool, version.
// An attribute of another type never matches; for distinctAttribute it
// counts as a duplicate (upstream's "unknown value type").
func sameValue(x, y *api.DeviceAttribute, distinct bool) bool {
	switch {
	case x.StringValue != nil:
		return y.StringValue != nil && *x.StringValue == *y.StringValue
	case x.IntValue != nil:
		return y.IntValue != nil && *x.IntValue == *y.IntValue
	case x.BoolValue != nil:
		return y.BoolValue != nil && *x.BoolValue == *y.BoolValue
	case x.VersionValue != nil:
		return y.VersionValue != nil && *x.VersionValue == *y.VersionValue
	}
	return distinct
}

// lookupAttribute finds a fully qualified attribute: under its full name,
// or under its bare identifier when the domain is the device's driver.
func lookupAttribute(d *api.Device, driver string, name api.FullyQualifiedName) *api.DeviceAttribute {
	if a, ok := d.Attributes[api.QualifiedName(name)]; ok {
		return &a
	}
	domain, id, ok := strings.Cut(string(name), "/")
	if !ok || domain != driver {
		return nil
	}
	if a, ok := d.Attributes[api.QualifiedName(id)]; ok {
		return &a
	}
	return nil
}

// build turns the search's solution into one AllocationResult per claim.
func (s *search) build() ([]api.AllocationResult, error) {
	out := make([]api.AllocationResult, len(s.a.claims))
	for ci, claim := range s.a.claims {
		res := &out[ci]
		devs := s.results[ci]
		res.Devices.Results = make([]api.DeviceRequestAllocationResult, len(devs))
		for i, d := range devs {
			r := api.DeviceRequestAllocationResult{
				Request: d.r.fullName(),
				Driver:  d.c.id.Driver,
				Pool:    d.c.id.Pool,
				Device:  d.c.id.Device,
				ShareID: d.shareID,
			}
			if d.r.admin {
				t := true
				r.AdminAccess = &t
			}
			r.Tolerations = d.r.tols
			if d.consumed != nil {
				r.ConsumedCapacity = d.consumed
			}
			r.BindingConditions = d.c.dev.BindingConditions
			r.BindingFailureConditions = d.c.dev.BindingFailureConditions
			res.Devices.Results[i] = r
		}
		s.configs(ci, claim, res)
		ns, err := s.nodeSelector(devs)
		if err != nil {
			return nil, fmt.Errorf("create NodeSelector for claim %s: %w", claim.Name, err)
		}
		res.NodeSelector = ns
	}
	return out, nil
}

// chosen is the request or subrequest a claim's request was allocated as.
func (s *search) chosen(ci, ri int) *request {
	subs := s.data[ci][ri]
	if len(subs) == 0 {
		return nil
	}
	if subs[0].r.parent != "" {
		return subs[subs[0].selected].r
	}
	return subs[0].r
}

// configs copies the classes' config (once per class, naming every
// request that used it) and then the claim's config that applies to the
// allocated requests; a config naming all requests names none.
func (s *search) configs(ci int, claim *api.ResourceClaim, res *api.AllocationResult) {
	type span struct{ start, end int }
	byClass := map[string]span{}
	cfg := &res.Devices.Config
	for ri := range claim.Spec.Devices.Requests {
		r := s.chosen(ci, ri)
		if r == nil || r.class == nil {
			continue
		}
		if sp, ok := byClass[r.class.Name]; ok {
			for i := sp.start; i < sp.end; i++ {
				(*cfg)[i].Requests = append((*cfg)[i].Requests, r.fullName())
			}
			continue
		}
		start := len(*cfg)
		for _, c := range r.class.Spec.Config {
			*cfg = append(*cfg, api.DeviceAllocationConfiguration{
				Source:              api.AllocationConfigSourceClass,
				Requests:            []string{r.fullName()},
				DeviceConfiguration: c.DeviceConfiguration,
			})
		}
		byClass[r.class.Name] = span{start, len(*cfg)}
	}
	for _, c := range claim.Spec.Devices.Config {
		entry := api.DeviceAllocationConfiguration{Source: api.AllocationConfigSourceClaim, Requests: c.Requests, DeviceConfiguration: c.DeviceConfiguration}
		if len(c.Requests) == 0 {
			*cfg = append(*cfg, entry)
			continue
		}
		for ri, dr := range claim.Spec.Devices.Requests {
			if slices.Contains(c.Requests, dr.Name) {
				*cfg = append(*cfg, entry)
				break
			}
			r := s.chosen(ci, ri)
			if r == nil || r.parent == "" {
				continue
			}
			if slices.Contains(c.Requests, r.fullName()) {
				*cfg = append(*cfg, entry)
				break
			}
		}
	}
	for i := range *cfg {
		reqs := (*cfg)[i].Requests
		if len(reqs) == 0 {
			continue
		}
		all := true
		for ri, dr := range claim.Spec.Devices.Requests {
			if slices.Contains(reqs, dr.Name) {
				continue
			}
			if r := s.chosen(ci, ri); r != nil && r.parent != "" && slices.Contains(reqs, r.fullName()) {
				continue
			}
			all = false
			break
		}
		if all {
			(*cfg)[i].Requests = nil
		}
	}
}

// nodeSelector is where the allocation can be used: the node itself if a
// device is local to it or binds to it, else the AND of the devices'
// single-term node selectors, else everywhere (nil).
func (s *search) nodeSelector(devs []devResult) (*api.NodeSelector, error) {
	var term api.NodeSelectorTerm
	for _, d := range devs {
		sl := d.c.slice.s
		nodeName, ns := sl.Spec.NodeName, sl.Spec.NodeSelector
		if deref(sl.Spec.PerDeviceNodeSelection) {
			nodeName, ns = d.c.dev.NodeName, d.c.dev.NodeSelector
		}
		if nodeName != nil || deref(d.c.dev.BindsToNode) {
			return &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
				MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{s.node.Name}}},
			}}}, nil
		}
		if ns == nil {
			continue
		}
		switch len(ns.NodeSelectorTerms) {
		case 0:
		case 1:
			addRequirements(ns.NodeSelectorTerms[0].MatchFields, &term.MatchFields)
			addRequirements(ns.NodeSelectorTerms[0].MatchExpressions, &term.MatchExpressions)
		default:
			return nil, fmt.Errorf("unsupported ResourceSlice.NodeSelector with %d terms", len(ns.NodeSelectorTerms))
		}
	}
	if len(term.MatchFields) > 0 || len(term.MatchExpressions) > 0 {
		return &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{term}}, nil
	}
	return nil, nil
}

// nodeSelectorErr is nodeSelector's error, without building the
// selector.
func (s *search) nodeSelectorErr(devs []devResult) error {
	for _, d := range devs {
		sl := d.c.slice.s
		nodeName, ns := sl.Spec.NodeName, sl.Spec.NodeSelector
		if deref(sl.Spec.PerDeviceNodeSelection) {
			nodeName, ns = d.c.dev.NodeName, d.c.dev.NodeSelector
		}
		if nodeName != nil || deref(d.c.dev.BindsToNode) {
			return nil
		}
		if ns != nil && len(ns.NodeSelectorTerms) > 1 {
			return fmt.Errorf("unsupported ResourceSlice.NodeSelector with %d terms", len(ns.NodeSelectorTerms))
		}
	}
	return nil
}

func addRequirements(from []api.NodeSelectorRequirement, to *[]api.NodeSelectorRequirement) {
	for _, r := range from {
		if !slices.ContainsFunc(*to, func(x api.NodeSelectorRequirement) bool { return sameRequirement(x, r) }) {
			r.Values = slices.Clone(r.Values)
			*to = append(*to, r)
		}
	}
}

// sameRequirement compares key, operator and the values as sets.
func sameRequirement(a, b api.NodeSelectorRequirement) bool {
	if a.Key != b.Key || a.Operator != b.Operator {
		return false
	}
	for _, v := range a.Values {
		if !slices.Contains(b.Values, v) {
			return false
		}
	}
	for _, v := range b.Values {
		if !slices.Contains(a.Values, v) {
			return false
		}
	}
	return true
}
