package interpodaffinity

// Cold counts hold one count per domain id of a topology: on a hostname
// key, one per node. A placement changes one of them, while a cycle's
// state may still read the counts the placement started from; copying
// all of them for one change would cost the cluster's size. So they are
// kept in pages, which copies share until one of them writes a page: a
// copy costs its page table, a write one page.

// countPage is the number of domain ids of one page (2 KiB of counts).
const countPage = 256

// domainCounts are counts by domain id, in pages of countPage ids.
// Pages another domainCounts may read are not own: a write copies such
// a page first. Only the state that holds the counts unshared writes
// them (filter_shapes.go), so a shared page is never written in place.
type domainCounts struct {
	pages [][]int64
	own   []bool
	// flat is the pages' one backing array while the counts were never
	// copied (a first sync fills it in one pass), else nil.
	flat []int64
}

// newDomainCounts returns zero counts for n domain ids.
func newDomainCounts(n int) domainCounts {
	return pagedCounts(make([]int64, n))
}

// pagedCounts returns the counts flat holds, by domain id, as pages of
// flat itself (which the counts then own).
func pagedCounts(flat []int64) domainCounts {
	np := (len(flat) + countPage - 1) / countPage
	d := domainCounts{pages: make([][]int64, np), own: make([]bool, np), flat: flat}
	for p := range np {
		d.pages[p] = flat[p*countPage : min((p+1)*countPage, len(flat)) : min((p+1)*countPage, len(flat))]
		d.own[p] = true
	}
	return d
}

// get returns the count of id.
func (d *domainCounts) get(id int32) int64 {
	return d.pages[id/countPage][id%countPage]
}

// add adds x to the count of id, copying its page first when another
// domainCounts shares it, and returns the count before.
func (d *domainCounts) add(id int32, x int64) int64 {
	p := id / countPage
	if !d.own[p] {
		d.pages[p] = append([]int64(nil), d.pages[p]...)
		d.own[p] = true
		d.flat = nil
	}
	old := d.pages[p][id%countPage]
	d.pages[p][id%countPage] = old + x
	return old
}

// each calls fn with each domain id whose count is not zero, in order.
func (d *domainCounts) each(fn func(id int32, n int64)) {
	for p, pg := range d.pages {
		for j, n := range pg {
			if n != 0 {
				fn(int32(p*countPage+j), n)
			}
		}
	}
}

// share returns a copy of d that shares its pages: neither owns them
// after, so that the next write of either copies the page it writes.
func (d *domainCounts) share() domainCounts {
	clear(d.own)
	return domainCounts{pages: append([][]int64(nil), d.pages...), own: make([]bool, len(d.pages))}
}
