package convert

// A Batch converts many objects, such as every object of an informer
// cache, with few allocations: the values a conversion would allocate one
// by one (the objects, their slices, the pointers of optional fields)
// are carved out of slabs shared by the batch's results. Its methods are
// the package's functions of the same names.
//
//	var b convert.Batch
//	for _, obj := range podInformer.GetStore().List() {
//		pod, err := b.PodToAPI(obj.(*corev1.Pod))
//		...
//	}
//
// The results are independent values, as the package functions' are: a
// slice has no spare capacity, so appending to it copies it. With Share
// set they are not: see Share. A slab stays
// in memory while any of its values is reachable, so a Batch suits
// objects kept or dropped together (a snapshot of a cache). An object
// kept alone for long, such as one informer event's, is better converted
// by the package function. The zero Batch is ready to use; a Batch is
// not safe for concurrent use.
type Batch struct {
	a arena
}

// Share makes b's later results share their maps with each other when
// equal: labels, annotations, selectors and resource lists (requests,
// limits, capacity, allocatable), as the pods of one workload have.
// That saves most of a cache's allocations, and makes the results
// read-only, as client-go's informer cache objects are: a change to one
// result's map changes the others'. Copy a map (maps.Clone) before
// changing it, or run schedkit's admission, which changes pods, on a
// copy (Pod.DeepCopy).
func (b *Batch) Share() { b.a.on = true }

// ToAPI is the package's ToAPI, allocating from b's slabs.
func (b *Batch) ToAPI(obj any) (any, error) { return toAPI(obj, &b.a) }

// FromAPI is the package's FromAPI, allocating from b's slabs.
func (b *Batch) FromAPI(obj any) (any, error) { return fromAPI(obj, &b.a) }

// slabMax is the most values of one type a slab holds; a request for
// more than an eighth of it is allocated on its own.
const slabMax = 1024

// slab hands out values of T from arrays it allocates with growing
// lengths, 16 values first, then twice the previous up to slabMax.
type slab[T any] struct {
	free []T
	grow int
}

// take returns n zero values, with no spare capacity.
func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return []T{}
	}
	if n > len(s.free) {
		if n > slabMax/8 {
			return make([]T, n)
		}
		s.grow = min(max(2*s.grow, 16), slabMax)
		s.free = make([]T, s.grow)
	}
	v := s.free[:n:n]
	s.free = s.free[n:]
	return v
}

// one returns a pointer to one zero value.
func (s *slab[T]) one() *T {
	if len(s.free) == 0 {
		s.grow = min(max(2*s.grow, 16), slabMax)
		s.free = make([]T, s.grow)
	}
	v := &s.free[0]
	s.free = s.free[1:]
	return v
}
