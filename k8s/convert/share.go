package convert

import (
	"encoding/binary"
	"maps"

	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/quantity"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// shareMax is the most entries a map may have to be shared; larger maps
// are rare and seldom equal.
const shareMax = 16

// shared is a Batch's table of the maps its results share once
// Batch.Share was called: string maps (labels, annotations, selectors)
// and resource lists, each by its content.
type shared struct {
	on    bool
	key   []byte
	pairs []pair
	qs    []resource.Quantity
	strs  map[string]map[string]string
	lists map[string]api.ResourceList
}

// pair is one entry of a map being shared.
type pair struct{ k, v string }

// sortPairs sorts by key; the maps shared are small, so insertion sort.
func sortPairs(p []pair, qs []resource.Quantity) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j].k < p[j-1].k; j-- {
			p[j], p[j-1] = p[j-1], p[j]
			if qs != nil {
				qs[j], qs[j-1] = qs[j-1], qs[j]
			}
		}
	}
}

func appendField(key []byte, s string) []byte {
	key = binary.AppendUvarint(key, uint64(len(s)))
	return append(key, s...)
}

// cloneStrings returns a copy of m, or with sharing on, the copy made of
// an equal map before.
func (a *arena) cloneStrings(m map[string]string) map[string]string {
	if a == nil || !a.on || len(m) > shareMax {
		return maps.Clone(m)
	}
	p := a.pairs[:0]
	for k, v := range m {
		p = append(p, pair{k, v})
	}
	sortPairs(p, nil)
	key := a.key[:0]
	for _, e := range p {
		key = appendField(appendField(key, e.k), e.v)
	}
	a.key = key
	c, ok := a.strs[string(key)]
	if !ok {
		c = make(map[string]string, len(p))
		for _, e := range p {
			c[e.k] = e.v
		}
		if a.strs == nil {
			a.strs = map[string]map[string]string{}
		}
		a.strs[string(key)] = c
	}
	clear(p)
	a.pairs = p[:0]
	return c
}

// resourceListToAPI converts in, or with sharing on, returns the
// conversion of an equal list made before: equal names, formats and
// values. Only quantities quantityToAPI converts from their whole or
// milli value are compared that way; a list with another is not shared.
func (a *arena) resourceListToAPI(in corev1.ResourceList) (api.ResourceList, error) {
	if a == nil || !a.on || len(in) > shareMax {
		return resourceListToAPI(in)
	}
	p, qs := a.pairs[:0], a.qs[:0]
	for k, v := range in {
		p = append(p, pair{k: string(k)})
		qs = append(qs, v)
	}
	sortPairs(p, qs)
	key := a.key[:0]
	share := true
	for i := range p {
		q := &qs[i]
		key = appendField(appendField(key, p[i].k), string(q.Format))
		if v, ok := q.AsInt64(); ok {
			key = binary.AppendVarint(append(key, 'i'), v)
		} else if m := q.MilliValue(); q.Cmp(*resource.NewMilliQuantity(m, q.Format)) == 0 {
			key = binary.AppendVarint(append(key, 'm'), m)
		} else {
			share = false
			break
		}
	}
	a.key = key
	l, ok := a.lists[string(key)]
	if !share || !ok {
		l = make(api.ResourceList, len(p))
		for i := range p {
			var q quantity.Quantity
			if err := quantityToAPI(&qs[i], &q); err != nil {
				return nil, atKey(p[i].k, err)
			}
			l[api.ResourceName(p[i].k)] = q
		}
		if share {
			if a.lists == nil {
				a.lists = map[string]api.ResourceList{}
			}
			a.lists[string(key)] = l
		}
	}
	clear(p)
	clear(qs)
	a.pairs, a.qs = p[:0], qs[:0]
	return l, nil
}

// resourceListToAPI converts in on its own.
func resourceListToAPI(in corev1.ResourceList) (api.ResourceList, error) {
	out := make(api.ResourceList, len(in))
	for k, v := range in {
		var q quantity.Quantity
		if err := quantityToAPI(&v, &q); err != nil {
			return nil, atKey(string(k), err)
		}
		out[api.ResourceName(k)] = q
	}
	return out, nil
}
