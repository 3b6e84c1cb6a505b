package cel

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"

	"github.com/schedkit/schedkit/api"
)

// Device is what a selector sees of one device.
type Device struct {
	// Driver is the domain of every attribute and capacity name without
	// one, and the value of device.driver.
	Driver string
	// AllowMultipleAllocations is device.allowMultipleAllocations; nil is
	// false.
	AllowMultipleAllocations *bool
	// Attributes by qualified name: "domain/id", or "id" in the driver's
	// domain.
	Attributes map[api.QualifiedName]api.DeviceAttribute
	// Capacity by qualified name, as Attributes.
	Capacity map[api.QualifiedName]api.DeviceCapacity
}

// splitName splits a qualified name at its first slash; a name without
// one is in the default domain.
func splitName(name api.QualifiedName, defaultDomain string) (domain, id string) {
	if i := strings.IndexByte(string(name), '/'); i >= 0 {
		return string(name[:i]), string(name[i+1:])
	}
	return defaultDomain, string(name)
}

// checkAttributes reports the first attribute Kubernetes would refuse to
// evaluate with: one with no value, or a version that does not parse.
// Kubernetes converts every attribute before evaluating, so such a
// device fails every selector, even one that never reads the attribute.
func checkAttributes(attrs map[api.QualifiedName]api.DeviceAttribute) error {
	for name, a := range attrs {
		if err := checkAttribute(&a); err != nil {
			return fmt.Errorf("attribute %s: %w", name, err)
		}
	}
	return nil
}

// checkAttribute is one attribute's conversion error, in the order
// Kubernetes tries the value fields: lists first.
func checkAttribute(a *api.DeviceAttribute) error {
	switch {
	case a.IntValues != nil, a.BoolValues != nil, a.StringValues != nil:
	case a.VersionValues != nil:
		for _, s := range a.VersionValues {
			if _, err := ParseVersion(s); err != nil {
				return fmt.Errorf("parse semantic version: %w", err)
			}
		}
	case a.IntValue != nil, a.BoolValue != nil, a.StringValue != nil:
	case a.VersionValue != nil:
		if _, err := ParseVersion(*a.VersionValue); err != nil {
			return fmt.Errorf("parse semantic version: %w", err)
		}
	default:
		return errors.New("unsupported attribute value")
	}
	return nil
}

// attributeValue converts a checked attribute to its CEL value.
func attributeValue(a adapterT, attr *api.DeviceAttribute) ref.Val {
	switch {
	case attr.IntValues != nil:
		return a.NativeToValue(attr.IntValues)
	case attr.BoolValues != nil:
		return a.NativeToValue(attr.BoolValues)
	case attr.StringValues != nil:
		return a.NativeToValue(attr.StringValues)
	case attr.VersionValues != nil:
		vs := make([]Semver, len(attr.VersionValues))
		for i, s := range attr.VersionValues {
			v, _ := ParseVersion(s)
			vs[i] = Semver{v}
		}
		return a.NativeToValue(vs)
	case attr.IntValue != nil:
		return types.Int(*attr.IntValue)
	case attr.BoolValue != nil:
		return types.Bool(*attr.BoolValue)
	case attr.StringValue != nil:
		return types.String(*attr.StringValue)
	}
	v, _ := ParseVersion(*attr.VersionValue)
	return Semver{v}
}

type adapterT = types.Adapter

// evalState is one evaluation: the activation that resolves "device", and
// the device value itself. The attribute and capacity maps are views on
// the caller's maps; nothing is copied.
type evalState struct {
	dev     Device
	adapter types.Adapter
	empty   ref.Val // the empty map a missing domain reads as

	// views holds the domain maps handed out so far, so that reading a
	// domain allocates nothing for the first few domains.
	attrViews [2]attrDomain
	capViews  [2]capDomain
	nAttr     int
	nCap      int
}

// attrView returns the view of device.attributes[domain].
func (s *evalState) attrView(domain string) *attrDomain {
	for i := 0; i < s.nAttr; i++ {
		if s.attrViews[i].domain == domain {
			return &s.attrViews[i]
		}
	}
	if s.nAttr < len(s.attrViews) {
		s.attrViews[s.nAttr] = attrDomain{s: s, domain: domain}
		s.nAttr++
		return &s.attrViews[s.nAttr-1]
	}
	return &attrDomain{s: s, domain: domain}
}

// capView returns the view of device.capacity[domain].
func (s *evalState) capView(domain string) *capDomain {
	for i := 0; i < s.nCap; i++ {
		if s.capViews[i].domain == domain {
			return &s.capViews[i]
		}
	}
	if s.nCap < len(s.capViews) {
		s.capViews[s.nCap] = capDomain{s: s, domain: domain}
		s.nCap++
		return &s.capViews[s.nCap-1]
	}
	return &capDomain{s: s, domain: domain}
}

// ResolveName implements interpreter.Activation.
func (s *evalState) ResolveName(name string) (any, bool) {
	if name == "device" {
		return (*deviceVal)(s), true
	}
	return nil, false
}

// Parent implements interpreter.Activation.
func (s *evalState) Parent() interpreter.Activation { return nil }

// deviceVal is the device variable: a map of four fields.
type deviceVal evalState

var deviceKeys = []string{"driver", "allowMultipleAllocations", "attributes", "capacity"}

func (d *deviceVal) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	switch k {
	case "driver":
		return types.String(d.dev.Driver), true
	case "allowMultipleAllocations":
		return types.Bool(d.dev.AllowMultipleAllocations != nil && *d.dev.AllowMultipleAllocations), true
	case "attributes":
		return (*attributesVal)(d), true
	case "capacity":
		return (*capacityVal)(d), true
	}
	return nil, false
}

func (d *deviceVal) Iterator() traits.Iterator { return newKeyIterator(deviceKeys) }
func (d *deviceVal) Size() ref.Val             { return types.Int(len(deviceKeys)) }
func (d *deviceVal) Contains(k ref.Val) ref.Val {
	_, ok := d.Find(k)
	return types.Bool(ok)
}
func (d *deviceVal) Get(k ref.Val) ref.Val                           { return mapGet(d, k) }
func (d *deviceVal) Equal(o ref.Val) ref.Val                         { return mapEqual(d, o) }
func (d *deviceVal) ConvertToNative(t reflect.Type) (any, error)     { return nil, convertErr(t) }
func (d *deviceVal) ConvertToType(t ref.Type) ref.Val                { return mapConvert(d, t) }
func (d *deviceVal) Type() ref.Type                                  { return types.MapType }
func (d *deviceVal) Value() any                                      { return &d.dev }
func (d *deviceVal) IsZeroValue() bool                               { return false }
func (d *deviceVal) String() string                                  { return "device" }
func (d *attributesVal) ConvertToNative(t reflect.Type) (any, error) { return nil, convertErr(t) }
func (d *capacityVal) ConvertToNative(t reflect.Type) (any, error)   { return nil, convertErr(t) }

func convertErr(t reflect.Type) error {
	return fmt.Errorf("type conversion error from map to '%v'", t)
}

// attributesVal is device.attributes: domains to maps of ids. A domain
// without attributes reads as an empty map, so that a missing attribute
// is "no such key: <id>" rather than a missing domain.
type attributesVal evalState

// capacityVal is device.capacity, as attributesVal.
type capacityVal evalState

// domains returns the distinct domains of names, sorted.
func domains[V any](m map[api.QualifiedName]V, driver string) []string {
	var out []string
	for name := range m {
		d, _ := splitName(name, driver)
		out = append(out, d)
	}
	sort.Strings(out)
	return compactStrings(out)
}

func compactStrings(s []string) []string {
	if len(s) < 2 {
		return s
	}
	j := 1
	for i := 1; i < len(s); i++ {
		if s[i] != s[j-1] {
			s[j] = s[i]
			j++
		}
	}
	return s[:j]
}

// hasDomain reports whether some name of m is in domain.
func hasDomain[V any](m map[api.QualifiedName]V, driver, domain string) bool {
	for name := range m {
		if d, _ := splitName(name, driver); d == domain {
			return true
		}
	}
	return false
}

// lookup finds domain/id in m, as either spelling when domain is the
// driver's. The qualified spelling wins when a device has both.
func lookup[V any](m map[api.QualifiedName]V, driver, domain, id string) (V, bool) {
	var buf [128]byte
	b := append(append(append(buf[:0], domain...), '/'), id...)
	if v, ok := m[api.QualifiedName(b)]; ok {
		return v, true
	}
	if domain == driver && strings.IndexByte(id, '/') < 0 {
		if v, ok := m[api.QualifiedName(id)]; ok {
			return v, true
		}
	}
	var zero V
	return zero, false
}

func (a *attributesVal) findDomain(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok || !hasDomain(a.dev.Attributes, a.dev.Driver, string(k)) {
		return nil, false
	}
	return (*evalState)(a).attrView(string(k)), true
}

// Find returns the domain's map, or the empty map for any other key.
func (a *attributesVal) Find(key ref.Val) (ref.Val, bool) {
	if v, ok := a.findDomain(key); ok {
		return v, true
	}
	return a.empty, true
}

func (a *attributesVal) Contains(k ref.Val) ref.Val {
	_, ok := a.findDomain(k)
	return types.Bool(ok)
}

func (a *attributesVal) Get(k ref.Val) ref.Val {
	if v, ok := a.findDomain(k); ok {
		return v
	}
	return types.NewErr("no such key: %v", k)
}

func (a *attributesVal) Iterator() traits.Iterator {
	return newKeyIterator(domains(a.dev.Attributes, a.dev.Driver))
}
func (a *attributesVal) Size() ref.Val {
	return types.Int(len(domains(a.dev.Attributes, a.dev.Driver)))
}
func (a *attributesVal) Equal(o ref.Val) ref.Val {
	return mapEqualWith(a, func(k ref.Val) (ref.Val, bool) { return a.findDomain(k) }, o)
}
func (a *attributesVal) ConvertToType(t ref.Type) ref.Val { return mapConvert(a, t) }
func (a *attributesVal) Type() ref.Type                   { return types.MapType }
func (a *attributesVal) Value() any                       { return a.dev.Attributes }
func (a *attributesVal) IsZeroValue() bool                { return len(a.dev.Attributes) == 0 }

func (c *capacityVal) findDomain(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok || !hasDomain(c.dev.Capacity, c.dev.Driver, string(k)) {
		return nil, false
	}
	return (*evalState)(c).capView(string(k)), true
}

// Find returns the domain's map, or the empty map for any other key.
func (c *capacityVal) Find(key ref.Val) (ref.Val, bool) {
	if v, ok := c.findDomain(key); ok {
		return v, true
	}
	return c.empty, true
}

func (c *capacityVal) Contains(k ref.Val) ref.Val {
	_, ok := c.findDomain(k)
	return types.Bool(ok)
}

func (c *capacityVal) Get(k ref.Val) ref.Val {
	if v, ok := c.findDomain(k); ok {
		return v
	}
	return types.NewErr("no such key: %v", k)
}

func (c *capacityVal) Iterator() traits.Iterator {
	return newKeyIterator(domains(c.dev.Capacity, c.dev.Driver))
}
func (c *capacityVal) Size() ref.Val {
	return types.Int(len(domains(c.dev.Capacity, c.dev.Driver)))
}
func (c *capacityVal) Equal(o ref.Val) ref.Val {
	return mapEqualWith(c, func(k ref.Val) (ref.Val, bool) { return c.findDomain(k) }, o)
}
func (c *capacityVal) ConvertToType(t ref.Type) ref.Val { return mapConvert(c, t) }
func (c *capacityVal) Type() ref.Type                   { return types.MapType }
func (c *capacityVal) Value() any                       { return c.dev.Capacity }
func (c *capacityVal) IsZeroValue() bool                { return len(c.dev.Capacity) == 0 }

// ids returns the ids of names in domain, sorted.
func ids[V any](m map[api.QualifiedName]V, driver, domain string) []string {
	var out []string
	for name := range m {
		if d, id := splitName(name, driver); d == domain {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return compactStrings(out)
}

// attrDomain is device.attributes[domain]: ids to values.
type attrDomain struct {
	s      *evalState
	domain string
}

func (m *attrDomain) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	a, ok := lookup(m.s.dev.Attributes, m.s.dev.Driver, m.domain, string(k))
	if !ok {
		return nil, false
	}
	return attributeValue(m.s.adapter, &a), true
}

func (m *attrDomain) Iterator() traits.Iterator {
	return newKeyIterator(ids(m.s.dev.Attributes, m.s.dev.Driver, m.domain))
}
func (m *attrDomain) Size() ref.Val {
	return types.Int(len(ids(m.s.dev.Attributes, m.s.dev.Driver, m.domain)))
}
func (m *attrDomain) Contains(k ref.Val) ref.Val {
	_, ok := m.Find(k)
	return types.Bool(ok)
}
func (m *attrDomain) Get(k ref.Val) ref.Val                       { return mapGet(m, k) }
func (m *attrDomain) Equal(o ref.Val) ref.Val                     { return mapEqual(m, o) }
func (m *attrDomain) ConvertToNative(t reflect.Type) (any, error) { return nil, convertErr(t) }
func (m *attrDomain) ConvertToType(t ref.Type) ref.Val            { return mapConvert(m, t) }
func (m *attrDomain) Type() ref.Type                              { return types.MapType }
func (m *attrDomain) Value() any                                  { return m.domain }
func (m *attrDomain) IsZeroValue() bool                           { return false }

// capDomain is device.capacity[domain]: ids to quantities.
type capDomain struct {
	s      *evalState
	domain string
}

func (m *capDomain) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	c, ok := lookup(m.s.dev.Capacity, m.s.dev.Driver, m.domain, string(k))
	if !ok {
		return nil, false
	}
	return Quantity{c.Value}, true
}

func (m *capDomain) Iterator() traits.Iterator {
	return newKeyIterator(ids(m.s.dev.Capacity, m.s.dev.Driver, m.domain))
}
func (m *capDomain) Size() ref.Val {
	return types.Int(len(ids(m.s.dev.Capacity, m.s.dev.Driver, m.domain)))
}
func (m *capDomain) Contains(k ref.Val) ref.Val {
	_, ok := m.Find(k)
	return types.Bool(ok)
}
func (m *capDomain) Get(k ref.Val) ref.Val                       { return mapGet(m, k) }
func (m *capDomain) Equal(o ref.Val) ref.Val                     { return mapEqual(m, o) }
func (m *capDomain) ConvertToNative(t reflect.Type) (any, error) { return nil, convertErr(t) }
func (m *capDomain) ConvertToType(t ref.Type) ref.Val            { return mapConvert(m, t) }
func (m *capDomain) Type() ref.Type                              { return types.MapType }
func (m *capDomain) Value() any                                  { return m.domain }
func (m *capDomain) IsZeroValue() bool                           { return false }

// mapGet is a map's index: the value, or cel-go's missing-key error.
func mapGet(m traits.Mapper, k ref.Val) ref.Val {
	v, ok := m.Find(k)
	if !ok {
		return types.ValOrErr(v, "no such key: %v", k)
	}
	return v
}

func mapEqual(m traits.Mapper, o ref.Val) ref.Val { return mapEqualWith(m, m.Find, o) }

// mapEqualWith is cel-go's map equality, finding this map's values with
// find.
func mapEqualWith(m traits.Mapper, find func(ref.Val) (ref.Val, bool), o ref.Val) ref.Val {
	other, ok := o.(traits.Mapper)
	if !ok {
		return types.False
	}
	if m.Size() != other.Size() {
		return types.False
	}
	for it := m.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		v, _ := find(k)
		w, found := other.Find(k)
		if !found {
			return types.False
		}
		if types.Equal(v, w) == types.False {
			return types.False
		}
	}
	return types.True
}

func mapConvert(m ref.Val, t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return m
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", types.MapType, t)
}

// keyIterator iterates over string keys.
type keyIterator struct {
	keys []string
	i    int
}

func newKeyIterator(keys []string) *keyIterator { return &keyIterator{keys: keys} }

func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.keys)) }

func (it *keyIterator) Next() ref.Val {
	if it.i >= len(it.keys) {
		return nil
	}
	it.i++
	return types.String(it.keys[it.i-1])
}

func (it *keyIterator) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}
func (it *keyIterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }
func (it *keyIterator) Equal(ref.Val) ref.Val          { return types.NewErr("no such overload") }
func (it *keyIterator) Type() ref.Type                 { return types.IteratorType }
func (it *keyIterator) Value() any                     { return nil }
