package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// valueKind is the JSON type of a value.
type valueKind uint8

const (
	kindNull valueKind = iota
	kindBool
	kindNumber
	kindString
	kindMap
	kindList
)

func (k valueKind) String() string {
	return [...]string{"null", "bool", "number", "string", "object", "array"}[k]
}

// value is a document as JSON sees it, with the line each part starts on:
// the generic tree a document is read into before it is decoded into its
// typed object, so that errors can name lines and field paths. It costs a
// small constant per scalar, list item or map entry.
type value struct {
	kind valueKind
	line int32
	// text is a string's content, a number's JSON literal, or "true" /
	// "false".
	text string
	// keys are a map's keys in document order; elems are its values
	// (parallel to keys) or a list's items.
	keys  []string
	elems []value
	// dups are keys that appeared more than once in a map (the last
	// occurrence wins, as in kubectl).
	dups []string
}

// get returns the map entry named key.
func (v *value) get(key string) (*value, bool) {
	for i, k := range v.keys {
		if k == key {
			return &v.elems[i], true
		}
	}
	return nil, false
}

// str returns the map entry key when it is a string.
func (v *value) str(key string) string {
	if e, ok := v.get(key); ok && e.kind == kindString {
		return e.text
	}
	return ""
}

// set adds or replaces a map entry.
func (v *value) set(key string, e value, dup bool) {
	for i, k := range v.keys {
		if k == key {
			if dup {
				v.dups = append(v.dups, key)
			}
			v.elems[i] = e
			return
		}
	}
	v.keys = append(v.keys, key)
	v.elems = append(v.elems, e)
}

// appendJSON appends v as JSON text.
func (v *value) appendJSON(b []byte) []byte {
	switch v.kind {
	case kindNull:
		return append(b, "null"...)
	case kindBool, kindNumber:
		return append(b, v.text...)
	case kindString:
		q, _ := json.Marshal(v.text)
		return append(b, q...)
	case kindList:
		b = append(b, '[')
		for i := range v.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.elems[i].appendJSON(b)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			q, _ := json.Marshal(k)
			b = append(b, q...)
			b = append(b, ':')
			b = v.elems[i].appendJSON(b)
		}
		return append(b, '}')
	}
}

// errAliasBudget stops documents whose aliases expand without bound.
var errAliasBudget = errors.New("YAML aliases expand to too many values")

// fromYAML converts a YAML node into a value with yaml/v2's scalar
// resolution (see resolve.go), expanding aliases and merge keys.
type yamlConverter struct {
	// budget is how many more values alias expansion may create.
	budget int
	// depth guards against alias cycles.
	depth int
}

// lineError is an error at a line of the stream.
type lineError struct {
	line int
	err  error
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %v", e.line, e.err) }
func (e *lineError) Unwrap() error { return e.err }

func (c *yamlConverter) convert(n *yaml.Node, viaAlias bool) (value, error) {
	if viaAlias {
		if c.budget--; c.budget < 0 {
			return value{}, &lineError{n.Line, errAliasBudget}
		}
	}
	line := int32(n.Line)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return value{kind: kindNull, line: line}, nil
		}
		return c.convert(n.Content[0], viaAlias)
	case yaml.AliasNode:
		if c.depth > 64 {
			return value{}, &lineError{n.Line, errors.New("YAML aliases nest too deeply")}
		}
		c.depth++
		v, err := c.convert(n.Alias, true)
		c.depth--
		v.line = line
		return v, err
	case yaml.ScalarNode:
		v, err := c.scalar(n)
		if err != nil {
			return value{}, &lineError{n.Line, err}
		}
		v.line = line
		return v, nil
	case yaml.SequenceNode:
		v := value{kind: kindList, line: line, elems: make([]value, 0, len(n.Content))}
		for _, it := range n.Content {
			e, err := c.convert(it, viaAlias)
			if err != nil {
				return value{}, err
			}
			v.elems = append(v.elems, e)
		}
		return v, nil
	case yaml.MappingNode:
		v := value{kind: kindMap, line: line, keys: make([]string, 0, len(n.Content)/2), elems: make([]value, 0, len(n.Content)/2)}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			if kn.Kind == yaml.ScalarNode && kn.Tag == "!!merge" {
				if err := c.merge(&v, vn, viaAlias); err != nil {
					return value{}, err
				}
				continue
			}
			key, err := c.key(kn)
			if err != nil {
				return value{}, &lineError{kn.Line, err}
			}
			e, err := c.convert(vn, viaAlias)
			if err != nil {
				return value{}, err
			}
			e.line = int32(kn.Line)
			v.set(key, e, true)
		}
		return v, nil
	}
	return value{}, &lineError{n.Line, fmt.Errorf("unexpected YAML node kind %v", n.Kind)}
}

// merge applies a merge key (<<: *base or <<: [*a, *b]) as yaml/v2 does:
// the merged entries are set in turn, the earlier maps of a list winning.
func (c *yamlConverter) merge(into *value, n *yaml.Node, viaAlias bool) error {
	switch n.Kind {
	case yaml.MappingNode, yaml.AliasNode:
		m, err := c.convert(n, viaAlias)
		if err != nil {
			return err
		}
		if m.kind != kindMap {
			return &lineError{n.Line, errors.New("map merge requires map or sequence of maps as the value")}
		}
		for i, k := range m.keys {
			into.set(k, m.elems[i], false)
		}
		return nil
	case yaml.SequenceNode:
		for i := len(n.Content) - 1; i >= 0; i-- {
			it := n.Content[i]
			if it.Kind != yaml.MappingNode && it.Kind != yaml.AliasNode {
				return &lineError{it.Line, errors.New("map merge requires map or sequence of maps as the value")}
			}
			if err := c.merge(into, it, viaAlias); err != nil {
				return err
			}
		}
		return nil
	}
	return &lineError{n.Line, errors.New("map merge requires map or sequence of maps as the value")}
}

func (c *yamlConverter) key(n *yaml.Node) (string, error) {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("unsupported map key: a YAML %s", map[yaml.Kind]string{yaml.MappingNode: "map", yaml.SequenceNode: "sequence"}[n.Kind])
	}
	v, err := c.scalar(n)
	if err != nil {
		return "", err
	}
	return keyText(v, n.Value)
}

func (c *yamlConverter) scalar(n *yaml.Node) (value, error) {
	switch {
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 && n.Style&yaml.TaggedStyle == 0:
		return value{kind: kindString, text: n.Value}, nil
	case n.Style&yaml.TaggedStyle != 0:
		return resolveTagged(n.Tag, n.Value)
	}
	return resolvePlain(n.Value)
}

// jsonPath is a field path being built, such as spec.containers[0].name.
type jsonPath struct{ b []byte }

func (p *jsonPath) field(name string) int {
	n := len(p.b)
	if n > 0 {
		p.b = append(p.b, '.')
	}
	p.b = append(p.b, name...)
	return n
}

// fieldBytes is field for a name given as bytes.
func (p *jsonPath) fieldBytes(name []byte) int {
	n := len(p.b)
	if n > 0 {
		p.b = append(p.b, '.')
	}
	p.b = append(p.b, name...)
	return n
}

func (p *jsonPath) index(i int) int {
	n := len(p.b)
	p.b = append(p.b, '[')
	p.b = strconv.AppendInt(p.b, int64(i), 10)
	p.b = append(p.b, ']')
	return n
}

func (p *jsonPath) reset(n int) { p.b = p.b[:n] }

func (p *jsonPath) String() string { return string(p.b) }

// child returns the path of a field below p without changing p.
func (p *jsonPath) child(name string) string {
	if len(p.b) == 0 {
		return name
	}
	var sb strings.Builder
	sb.Write(p.b)
	sb.WriteByte('.')
	sb.WriteString(name)
	return sb.String()
}
