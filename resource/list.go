package resource

import (
	"slices"

	"github.com/schedkit/schedkit/api"
)

// Clone returns a copy of l whose quantities share no storage with l's.
// It returns nil for a nil list.
func Clone(l api.ResourceList) api.ResourceList {
	if l == nil {
		return nil
	}
	out := make(api.ResourceList, len(l))
	for k, v := range l {
		out[k] = clone(v)
	}
	return out
}

// AddTo adds every quantity of src to the same name in dst, inserting the
// names dst lacks. It is component-helpers' addResourceList.
func AddTo(dst, src api.ResourceList) {
	for k, v := range src {
		if cur, ok := dst[k]; ok {
			sum := clone(cur)
			sum.Add(v)
			dst[k] = sum
		} else {
			dst[k] = clone(v)
		}
	}
}

// MaxInto sets every name of src in dst to the greater of the two
// quantities, inserting the names dst lacks. On a tie dst keeps its own
// quantity (and so its format). It is component-helpers' maxResourceList.
func MaxInto(dst, src api.ResourceList) {
	for k, v := range src {
		if cur, ok := dst[k]; !ok || v.Cmp(cur) > 0 {
			dst[k] = clone(v)
		}
	}
}

// Add returns a new list holding a+b for every name in a or b, like the
// quota helper of the same name.
func Add(a, b api.ResourceList) api.ResourceList {
	out := make(api.ResourceList, max(len(a), len(b)))
	AddTo(out, a)
	AddTo(out, b)
	return out
}

// Subtract returns a new list holding a-b for every name in a or b; a name
// only in b comes out negated. It is the quota helper of the same name.
func Subtract(a, b api.ResourceList) api.ResourceList {
	out := make(api.ResourceList, max(len(a), len(b)))
	for k, v := range a {
		d := clone(v)
		if w, ok := b[k]; ok {
			d.Sub(w)
		}
		out[k] = d
	}
	for k, v := range b {
		if _, ok := out[k]; !ok {
			d := clone(v)
			d.Neg()
			out[k] = d
		}
	}
	return out
}

// Max returns a new list holding, for every name in a or b, the greater of
// the two quantities (a's on a tie). It is the quota helper of the same
// name.
func Max(a, b api.ResourceList) api.ResourceList {
	out := make(api.ResourceList, max(len(a), len(b)))
	for k, v := range a {
		out[k] = clone(v)
	}
	MaxInto(out, b)
	return out
}

// Equals reports whether a and b hold the same names with equal
// quantities; formats do not matter. A nil list equals an empty one. It is
// the quota helper of the same name.
func Equals(a, b api.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

// LessThanOrEqual reports whether a ≤ b for every name the two lists
// share, and lists (sorted) the names where a is greater. Names in only
// one list are not compared, as in the quota helper of the same name.
func LessThanOrEqual(a, b api.ResourceList) (bool, []api.ResourceName) {
	var over []api.ResourceName
	for k, w := range b {
		if v, ok := a[k]; ok && v.Cmp(w) > 0 {
			over = append(over, k)
		}
	}
	slices.Sort(over)
	return len(over) == 0, over
}

// IsZero reports whether every quantity in l is zero (an empty list is
// zero).
func IsZero(l api.ResourceList) bool {
	for _, v := range l {
		if !v.IsZero() {
			return false
		}
	}
	return true
}

// IsNegative returns, sorted, the names whose quantity is below zero.
func IsNegative(l api.ResourceList) []api.ResourceName {
	var neg []api.ResourceName
	for k, v := range l {
		if v.Sign() < 0 {
			neg = append(neg, k)
		}
	}
	slices.Sort(neg)
	return neg
}

// ResourceNames returns the names in l, sorted.
func ResourceNames(l api.ResourceList) []api.ResourceName {
	names := make([]api.ResourceName, 0, len(l))
	for k := range l {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Mask returns a new list with only the entries of l named in names.
func Mask(l api.ResourceList, names []api.ResourceName) api.ResourceList {
	out := make(api.ResourceList, len(names))
	for _, k := range names {
		if v, ok := l[k]; ok {
			out[k] = clone(v)
		}
	}
	return out
}

// Contains reports whether names holds name.
func Contains(names []api.ResourceName, name api.ResourceName) bool {
	return slices.Contains(names, name)
}
