package workload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/workload/internal/podhash"
)

// revisionsIn are the ControllerRevisions read in namespace ns, in
// reading order.
func (e *expander) revisionsIn(ns string) []*api.ControllerRevision {
	if e.crByNS == nil {
		e.crByNS = map[string][]*api.ControllerRevision{}
		for _, cr := range e.objs.ControllerRevisions {
			e.crByNS[cr.Namespace] = append(e.crByNS[cr.Namespace], cr)
		}
	}
	return e.crByNS[ns]
}

// revisionNamed is the ControllerRevision ns/name read, or nil.
func (e *expander) revisionNamed(ns, name string) *api.ControllerRevision {
	for _, cr := range e.revisionsIn(ns) {
		if cr.Name == name {
			return cr
		}
	}
	return nil
}

// revisionData is a revision's data as the controllers hold it
// (ControllerRevision.Data.Raw): the bytes the controller wrote, which
// for the StatefulSet and DaemonSet controllers are encoding/json's of a
// generic map (keys sorted, HTML escaped; numbers as float64 for a
// StatefulSet, integers as int64 for a DaemonSet). A dump shows the data
// re-encoded (YAML, indented JSON); encoding it again with integers as
// int64 and other numbers as float64 gives either controller's bytes
// back (a float64 the StatefulSet controller wrote reads back as the
// same integer) for every revision a v1.37.2 controller wrote. Data
// that is not JSON is nil.
func (e *expander) revisionData(cr *api.ControllerRevision) []byte {
	if b, ok := e.crData[cr]; ok {
		return b
	}
	var b []byte
	if v, err := decodeJSONValue(cr.Data); err == nil {
		b, _ = json.Marshal(podhash.PlainInts(v))
	}
	if e.crData == nil {
		e.crData = map[*api.ControllerRevision][]byte{}
	}
	e.crData[cr] = b
	return b
}

// sortRevisions is history.SortControllerRevisions: by revision, then
// creation time, then name.
func sortRevisions(revs []*api.ControllerRevision) {
	sort.SliceStable(revs, func(i, j int) bool {
		a, b := revs[i], revs[j]
		if a.Revision != b.Revision {
			return a.Revision < b.Revision
		}
		if !a.CreationTimestamp.Equal(b.CreationTimestamp.Time) {
			return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
		}
		return a.Name < b.Name
	})
}

// statefulSetRevisions is history's ListControllerRevisions for a
// StatefulSet: the revisions of its namespace its selector matches whose
// controller is the set or none, sorted.
func (e *expander) statefulSetRevisions(ss *api.StatefulSet, sel *affinity.Selector) []*api.ControllerRevision {
	o := owner{"StatefulSet", &ss.ObjectMeta}
	var out []*api.ControllerRevision
	for _, cr := range e.revisionsIn(ss.Namespace) {
		if !sel.Matches(cr.Labels) {
			continue
		}
		if ref := controllerOf(&cr.ObjectMeta); ref == nil || refersTo(ref, o) {
			out = append(out, cr)
		}
	}
	sortRevisions(out)
	return out
}

// setRevisions are the StatefulSet controller's current and update
// revisions of a set (getStatefulSetRevisions).
type setRevisions struct {
	// update is the update revision's name.
	update string
	// current is the current revision's name and template, nil when the
	// current revision is the update revision.
	current     string
	currentTpl  *api.PodTemplateSpec
	missingName string // status.currentRevision, when it is not read
}

// revisionsOfSet finds a StatefulSet's update revision as
// getStatefulSetRevisions does, among the revisions read: the newest of
// those whose data is the set's patch; else the latest one when
// restoring it gives the set's template again (the
// StatefulSetSemanticRevisionComparison check); else the revision the
// controller creates, <set>-<hash> with status.collisionCount, bumped
// while the name is another revision's with other data. The current
// revision is the one status.currentRevision names, its template the
// one its data restores (ApplyRevision); the update one when the status
// names none or none read.
func (e *expander) revisionsOfSet(ss *api.StatefulSet, sel *affinity.Selector, object string) setRevisions {
	tpl := e.templateJSON(ss, &ss.ObjectMeta, &ss.Spec.Template)
	var cc int32
	stored := IsStoredMeta(&ss.ObjectMeta)
	if stored && ss.Status.CollisionCount != nil {
		cc = *ss.Status.CollisionCount
	}
	var out setRevisions
	revs := e.statefulSetRevisions(ss, sel)
	patch, err := podhash.StatefulSetPatch(tpl)
	if err != nil {
		h := fallbackHash(&ss.Spec.Template, &cc)
		e.warn(ss, object, "controller-revision-hash %s is not the StatefulSet controller's: %v", h, err)
		out.update = podhash.RevisionName(ss.Name, h)
	} else {
		out.update = e.updateRevision(ss, revs, patch, cc)
	}
	if !stored || ss.Status.CurrentRevision == "" || ss.Status.CurrentRevision == out.update {
		return out
	}
	var cur *api.ControllerRevision
	for _, cr := range revs {
		if cr.Name == ss.Status.CurrentRevision {
			cur = cr
			break
		}
	}
	if cur == nil {
		out.missingName = ss.Status.CurrentRevision
		return out
	}
	t, err := restoredTemplate(cur, &ss.Spec.Template)
	if err != nil {
		e.warn(ss, object, "ControllerRevision %s: %v: its pods get the update revision %s", cur.Name, err, out.update)
		return out
	}
	out.current, out.currentTpl = cur.Name, t
	return out
}

// updateRevision is the name of a set's update revision (see
// revisionsOfSet); patch is the set's revision data.
func (e *expander) updateRevision(ss *api.StatefulSet, revs []*api.ControllerRevision, patch []byte, cc int32) string {
	var equal *api.ControllerRevision
	for _, cr := range revs {
		if bytes.Equal(e.revisionData(cr), patch) {
			equal = cr
		}
	}
	if equal != nil {
		return equal.Name
	}
	if n := len(revs); n > 0 && e.restoresTo(revs[n-1], patch) {
		return revs[n-1].Name
	}
	for range maxCollisions {
		hash := podhash.RevisionHash(patch, &cc)
		name := podhash.RevisionName(ss.Name, hash)
		cr := e.revisionNamed(ss.Namespace, name)
		if cr == nil {
			e.createRevision("StatefulSet", &ss.ObjectMeta, ss.Spec.Template.Labels, name, hash, patch, revs)
			return name
		}
		if bytes.Equal(e.revisionData(cr), patch) {
			return name
		}
		cc++ // CreateControllerRevision: the name is taken by other data
	}
	return podhash.RevisionName(ss.Name, podhash.RevisionHash(patch, &cc))
}

// restoresTo is setMatchesLatestExistingRevision: restoring cr's template
// to the set, defaulted, gives the revision data patch.
func (e *expander) restoresTo(cr *api.ControllerRevision, patch []byte) bool {
	v, err := decodeJSONValue(cr.Data)
	if err != nil {
		return false
	}
	tpl, ok := patchTemplate(v)
	if !ok {
		return false
	}
	podhash.Default(tpl)
	p, err := podhash.StatefulSetPatch(tpl)
	return err == nil && bytes.Equal(p, patch)
}

// patchTemplate is the template a revision's data replaces the set's
// with: data.spec.template without its "$patch": "replace" directive; ok
// false when the data is not such a patch.
func patchTemplate(data any) (any, bool) {
	m, _ := data.(map[string]any)
	spec, _ := m["spec"].(map[string]any)
	tpl, _ := spec["template"].(map[string]any)
	if tpl == nil || tpl["$patch"] != "replace" {
		return nil, false
	}
	out := make(map[string]any, len(tpl))
	for k, x := range tpl {
		if k != "$patch" {
			out[k] = x
		}
	}
	return out, true
}

// restoredTemplate is the pod template ApplyRevision restores from cr:
// its data's spec.template, which replaces the set's; the set's own
// template when the data has none.
func restoredTemplate(cr *api.ControllerRevision, own *api.PodTemplateSpec) (*api.PodTemplateSpec, error) {
	var data struct {
		Spec *struct {
			Template json.RawMessage `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(cr.Data, &data); err != nil {
		return nil, fmt.Errorf("data: %v", err)
	}
	if data.Spec == nil || data.Spec.Template == nil {
		return own, nil
	}
	v, err := decodeJSONValue(cr.Data)
	if err != nil {
		return nil, fmt.Errorf("data: %v", err)
	}
	if _, ok := patchTemplate(v); !ok {
		return nil, fmt.Errorf("data.spec.template: not a \"$patch\": \"replace\" of the template, as the StatefulSet controller writes it")
	}
	var t api.PodTemplateSpec
	if err := json.Unmarshal(data.Spec.Template, &t); err != nil {
		return nil, fmt.Errorf("data.spec.template: %v", err)
	}
	return &t, nil
}

// usesCurrentRevision is newVersionedStatefulSetPod's test: a new pod at
// ordinal is made from the current revision when a RollingUpdate without
// rollingUpdate parameters has not reached it (ordinal below the start
// plus status.currentReplicas), or when it is below the partition. As
// upstream's test reads, an OnDelete set (whose rollingUpdate the API
// server refuses) creates every pod from the update revision. The
// strategy is taken as the API server defaults it.
func usesCurrentRevision(ss *api.StatefulSet, start, ordinal int) bool {
	typ, ru := ss.Spec.UpdateStrategy.Type, ss.Spec.UpdateStrategy.RollingUpdate
	if typ == "" {
		typ = "RollingUpdate"
		if ru == nil {
			ru = &api.RollingUpdateStatefulSetStrategy{}
		}
	}
	if typ == "RollingUpdate" && ru == nil && ordinal < start+int(ss.Status.CurrentReplicas) {
		return true
	}
	if ru != nil {
		partition := 0
		if ru.Partition != nil {
			partition = int(*ru.Partition)
		}
		return ordinal < start+partition
	}
	return false
}

// daemonSetRevisionHash is the hash the DaemonSet controller labels new
// pods with (constructHistory): the controller-revision-hash label (or
// the name) of the newest revision it owns or adopts whose data is the
// DaemonSet's patch (Match); with none, the hash of the revision it
// creates (hash, ComputeHash with collisionCount cc), bumping the
// collision count while that name is another revision's with other
// data. hash computes the created revision's hash for a collision count.
func (e *expander) daemonSetRevisionHash(ds *api.DaemonSet, sel *affinity.Selector, tpl any, cc *int32, hash func(cc *int32) string) string {
	o := owner{"DaemonSet", &ds.ObjectMeta}
	patch, err := podhash.DaemonSetPatch(tpl)
	if err != nil {
		return hash(cc)
	}
	var cur *api.ControllerRevision
	for _, cr := range e.revisionsIn(ds.Namespace) {
		if !claims(o, sel, &cr.ObjectMeta) || !bytes.Equal(e.revisionData(cr), patch) {
			continue
		}
		if cur == nil || cr.Revision >= cur.Revision {
			cur = cr
		}
	}
	if cur != nil {
		if h, ok := cur.Labels[controllerRevisionHashLabel]; ok {
			return h
		}
		return cur.Name
	}
	for range maxCollisions {
		h := hash(cc)
		cr := e.revisionNamed(ds.Namespace, ds.Name+"-"+h)
		if cr == nil {
			var own []*api.ControllerRevision
			for _, cr := range e.revisionsIn(ds.Namespace) {
				if claims(o, sel, &cr.ObjectMeta) {
					own = append(own, cr)
				}
			}
			e.createRevision("DaemonSet", &ds.ObjectMeta, ds.Spec.Template.Labels, ds.Name+"-"+h, h, patch, own)
			return h
		}
		if bytes.Equal(e.revisionData(cr), patch) {
			return cr.Labels[controllerRevisionHashLabel]
		}
		next := int32(1)
		if cc != nil {
			next = *cc + 1
		}
		cc = &next
	}
	return hash(cc)
}

// createRevision records the ControllerRevision a StatefulSet or
// DaemonSet controller creates for a template none of its revisions
// holds (history.NewControllerRevision): named name, labelled with the
// template's labels and controller-revision-hash hash, owned by the
// controller, data the patch, revision one more than the highest of
// its revisions own.
func (e *expander) createRevision(kind string, meta *api.ObjectMeta, labels map[string]string, name, hash string, patch []byte, own []*api.ControllerRevision) {
	var rev int64
	for _, cr := range own {
		rev = max(rev, cr.Revision)
	}
	e.revisions = append(e.revisions, &api.ControllerRevision{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: meta.Namespace, Labels: withLabel(labels, controllerRevisionHashLabel, hash),
			OwnerReferences: []api.OwnerReference{controllerRef(kind, "apps/v1", meta)}},
		Data:     append([]byte(nil), patch...),
		Revision: rev + 1,
	})
}
