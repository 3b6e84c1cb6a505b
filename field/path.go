package field

import (
	"strconv"
	"strings"
)

// Path is the path from a root to one field, such as
// "spec.containers[0].resources.requests[cpu]". Paths are immutable: Child,
// Index and Key return a new Path that shares its parent. The nil *Path is
// a valid empty root: its children print without a leading dot, and it
// prints itself as "<nil>", as upstream's nil path does.
type Path struct {
	name   string // the field's name, or "" for a subscript
	index  string // the subscript (an index or a map key) when name is ""
	parent *Path  // nil at the root
}

// NewPath returns the root path name, followed by moreNames as children:
// NewPath("spec", "containers") is "spec.containers".
func NewPath(name string, moreNames ...string) *Path {
	return (*Path)(nil).Child(name, moreNames...)
}

// Root returns the first element of p.
func (p *Path) Root() *Path {
	for p.parent != nil {
		p = p.parent
	}
	return p
}

// Child returns p followed by the field name, then by moreNames.
func (p *Path) Child(name string, moreNames ...string) *Path {
	p = &Path{name: name, parent: p}
	for _, n := range moreNames {
		p = &Path{name: n, parent: p}
	}
	return p
}

// Index returns p subscripted by a list index: "containers[0]".
func (p *Path) Index(index int) *Path {
	return &Path{index: strconv.Itoa(index), parent: p}
}

// Key returns p subscripted by a map key: "requests[cpu]".
func (p *Path) Key(key string) *Path {
	return &Path{index: key, parent: p}
}

// String returns the path as Kubernetes prints it: names joined by dots,
// subscripts in brackets; "<nil>" for the nil path.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var elems []*Path
	for ; p != nil; p = p.parent {
		elems = append(elems, p)
	}
	var b strings.Builder
	for i := len(elems) - 1; i >= 0; i-- {
		e := elems[i]
		if e.name == "" {
			b.WriteByte('[')
			b.WriteString(e.index)
			b.WriteByte(']')
			continue
		}
		if e.parent != nil {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}
