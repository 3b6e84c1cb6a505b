package cel

import (
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"reflect"
	"regexp"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// listsLib is Kubernetes' kubernetes.lists library. Version 1 adds includes.
type listsLib struct{ version int }

func (listsLib) LibraryName() string { return "kubernetes.lists" }

type namedType struct {
	name string
	t    *celgo.Type
}

var (
	summable = []namedType{
		{"int", celgo.IntType}, {"uint", celgo.UintType}, {"double", celgo.DoubleType}, {"duration", celgo.DurationType},
	}
	comparable = []namedType{
		{"int", celgo.IntType}, {"uint", celgo.UintType}, {"double", celgo.DoubleType}, {"bool", celgo.BoolType},
		{"duration", celgo.DurationType}, {"timestamp", celgo.TimestampType}, {"string", celgo.StringType}, {"bytes", celgo.BytesType},
	}
)

func sumZero(name string) ref.Val {
	switch name {
	case "int":
		return types.Int(0)
	case "uint":
		return types.Uint(0)
	case "double":
		return types.Double(0)
	}
	return types.Duration{}
}

func (l listsLib) CompileOptions() []celgo.EnvOption {
	var sorted, sums, maxes, mins []celgo.FunctionOpt
	for _, c := range comparable {
		lt := []*celgo.Type{celgo.ListType(c.t)}
		sorted = append(sorted, celgo.MemberOverload(fmt.Sprintf("list_%s_is_sorted_bool", c.name), lt, celgo.BoolType, celgo.UnaryBinding(listIsSorted)))
		maxes = append(maxes, celgo.MemberOverload(fmt.Sprintf("list_%s_max_%s", c.name, c.name), lt, c.t, celgo.UnaryBinding(listExtreme("max", types.IntNegOne))))
		mins = append(mins, celgo.MemberOverload(fmt.Sprintf("list_%s_min_%s", c.name, c.name), lt, c.t, celgo.UnaryBinding(listExtreme("min", types.IntOne))))
	}
	for _, c := range summable {
		name := c.name
		sums = append(sums, celgo.MemberOverload(fmt.Sprintf("list_%s_sum_%s", name, name), []*celgo.Type{celgo.ListType(c.t)}, c.t,
			celgo.UnaryBinding(func(v ref.Val) ref.Val { return listSum(sumZero(name), v) })))
	}
	a := celgo.TypeParamType("A")
	opts := []celgo.EnvOption{
		celgo.Function("isSorted", sorted...),
		celgo.Function("sum", sums...),
		celgo.Function("max", maxes...),
		celgo.Function("min", mins...),
		celgo.Function("indexOf", celgo.MemberOverload("list_a_index_of_int", []*celgo.Type{celgo.ListType(a), a}, celgo.IntType, celgo.BinaryBinding(listIndexOf(false)))),
		celgo.Function("lastIndexOf", celgo.MemberOverload("list_a_last_index_of_int", []*celgo.Type{celgo.ListType(a), a}, celgo.IntType, celgo.BinaryBinding(listIndexOf(true)))),
	}
	if l.version >= 1 {
		opts = append(opts, includesOption())
	}
	return opts
}

func (listsLib) ProgramOptions() []celgo.ProgramOption { return nil }

// includesOption declares list.includes(x) (and x.includes(y) on any value).
func includesOption() celgo.EnvOption {
	return celgo.Function("includes", celgo.MemberOverload("list_includes_dyn_dyn",
		[]*celgo.Type{celgo.DynType, celgo.DynType}, celgo.BoolType, celgo.BinaryBinding(listIncludes)))
}

func listIsSorted(v ref.Val) ref.Val {
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	var prev traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = c
	}
	return types.True
}

func listSum(zero, v ref.Val) ref.Val {
	acc, ok := zero.(traits.Adder)
	if !ok {
		return types.MaybeNoSuchOverloadErr(zero)
	}
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		if _, ok := next.(traits.Adder); !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		s := acc.Add(next)
		a, ok := s.(traits.Adder)
		if !ok {
			return types.MaybeNoSuchOverloadErr(s)
		}
		acc = a
	}
	return acc.(ref.Val)
}

func listExtreme(name string, prefer ref.Val) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		it, ok := v.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		var best traits.Comparer
		for i := it.Iterator(); i.HasNext() == types.True; {
			next := i.Next()
			c, ok := next.(traits.Comparer)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			if best == nil || best.Compare(next) == prefer {
				best = c
			}
		}
		if best == nil {
			return types.NewErr("%s called on empty list", name)
		}
		return best.(ref.Val)
	}
}

func listIndexOf(last bool) func(l, x ref.Val) ref.Val {
	return func(l, x ref.Val) ref.Val {
		lister, ok := l.(traits.Lister)
		if !ok {
			return types.MaybeNoSuchOverloadErr(l)
		}
		n := lister.Size().(types.Int)
		if last {
			for i := n - 1; i >= 0; i-- {
				if lister.Get(i).Equal(x) == types.True {
					return i
				}
			}
		} else {
			for i := types.Int(0); i < n; i++ {
				if lister.Get(i).Equal(x) == types.True {
					return i
				}
			}
		}
		return types.Int(-1)
	}
}

func listIncludes(target, x ref.Val) ref.Val {
	if l, ok := target.(traits.Lister); ok {
		for it := l.Iterator(); it.HasNext() == types.True; {
			if it.Next().Equal(x) == types.True {
				return types.True
			}
		}
		return types.False
	}
	return types.Bool(target.Equal(x) == types.True)
}

// regexLib is Kubernetes' kubernetes.regex library: find and findAll.
type regexLib struct{}

func (regexLib) LibraryName() string { return "kubernetes.regex" }

func (regexLib) CompileOptions() []celgo.EnvOption {
	s := celgo.StringType
	return []celgo.EnvOption{
		celgo.Function("find", celgo.MemberOverload("string_find_string", []*celgo.Type{s, s}, s, celgo.BinaryBinding(func(str, re ref.Val) ref.Val {
			return regexFind(nil, str, re)
		}))),
		celgo.Function("findAll",
			celgo.MemberOverload("string_find_all_string", []*celgo.Type{s, s}, celgo.ListType(s), celgo.BinaryBinding(func(str, re ref.Val) ref.Val {
				return regexFindAll(nil, str, re, types.Int(-1))
			})),
			celgo.MemberOverload("string_find_all_string_int", []*celgo.Type{s, s, celgo.IntType}, celgo.ListType(s), celgo.FunctionBinding(func(args ...ref.Val) ref.Val {
				if len(args) != 3 {
					return types.NoSuchOverloadErr()
				}
				return regexFindAll(nil, args[0], args[1], args[2])
			}))),
	}
}

func (regexLib) ProgramOptions() []celgo.ProgramOption {
	return []celgo.ProgramOption{celgo.OptimizeRegex(
		&interpreter.RegexOptimization{Function: "find", RegexIndex: 1, Factory: func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, err
			}
			return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(args ...ref.Val) ref.Val {
				if len(args) != 2 {
					return types.NoSuchOverloadErr()
				}
				return regexFind(re, args[0], nil)
			}), nil
		}},
		&interpreter.RegexOptimization{Function: "findAll", RegexIndex: 1, Factory: func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, err
			}
			return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(args ...ref.Val) ref.Val {
				switch len(args) {
				case 2:
					return regexFindAll(re, args[0], nil, types.Int(-1))
				case 3:
					return regexFindAll(re, args[0], nil, args[2])
				}
				return types.NoSuchOverloadErr()
			}), nil
		}},
	)}
}

// compileArg returns re, or the pattern in reVal compiled.
func compileArg(re *regexp.Regexp, reVal ref.Val) (*regexp.Regexp, ref.Val) {
	if re != nil {
		return re, nil
	}
	pattern, ok := reVal.Value().(string)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(reVal)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, types.NewErr("Illegal regex: %v", err.Error())
	}
	return re, nil
}

func regexFind(re *regexp.Regexp, strVal, reVal ref.Val) ref.Val {
	str, ok := strVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(strVal)
	}
	re, bad := compileArg(re, reVal)
	if bad != nil {
		return bad
	}
	return types.String(re.FindString(str))
}

func regexFindAll(re *regexp.Regexp, strVal, reVal, nVal ref.Val) ref.Val {
	str, ok := strVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(strVal)
	}
	if re == nil {
		if _, ok := reVal.Value().(string); !ok {
			return types.MaybeNoSuchOverloadErr(reVal)
		}
	}
	n, ok := nVal.Value().(int64)
	if !ok {
		return types.MaybeNoSuchOverloadErr(nVal)
	}
	re, bad := compileArg(re, reVal)
	if bad != nil {
		return bad
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(str, int(n)))
}

// urlType is the CEL type of url() values.
var (
	urlType      = celgo.ObjectType("kubernetes.URL")
	urlTypeValue = types.NewObjectType("kubernetes.URL")
)

// URL is a parsed URL as a CEL value, of CEL type kubernetes.URL.
type URL struct{ u *url.URL }

// ConvertToNative implements ref.Val.
func (v URL) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(v.u).AssignableTo(t) {
		return v.u, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return v.u.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'URL' to '%v'", t)
}

// ConvertToType implements ref.Val.
func (v URL) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case urlTypeValue:
		return v
	case types.TypeType:
		return urlTypeValue
	}
	return types.NewErr("type conversion error from '%s' to '%s'", urlTypeValue, t)
}

// Equal implements ref.Val.
func (v URL) Equal(other ref.Val) ref.Val {
	o, ok := other.(URL)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.u.String() == o.u.String())
}

// Type implements ref.Val.
func (v URL) Type() ref.Type { return urlTypeValue }

// Value implements ref.Val.
func (v URL) Value() any { return v.u }

// urlsLib is Kubernetes' kubernetes.urls library.
type urlsLib struct{}

func (urlsLib) LibraryName() string { return "kubernetes.urls" }

func (urlsLib) CompileOptions() []celgo.EnvOption {
	s := celgo.StringType
	get := func(f func(*url.URL) ref.Val) celgo.OverloadOpt {
		return celgo.UnaryBinding(func(a ref.Val) ref.Val {
			u, ok := a.Value().(*url.URL)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(u)
		})
	}
	str := func(f func(*url.URL) string) celgo.OverloadOpt {
		return get(func(u *url.URL) ref.Val { return types.String(f(u)) })
	}
	return []celgo.EnvOption{
		celgo.Function("url", celgo.Overload("string_to_url", []*celgo.Type{s}, urlType, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			raw, ok := a.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			if _, err := url.ParseRequestURI(raw); err != nil {
				return types.NewErr("URL parse error during conversion from string: %v", err)
			}
			u, err := url.Parse(raw)
			if err != nil {
				return types.NewErr("URL parse error during conversion from string: %v", err)
			}
			return URL{u}
		}))),
		celgo.Function("getScheme", celgo.MemberOverload("url_get_scheme", []*celgo.Type{urlType}, s, str(func(u *url.URL) string { return u.Scheme }))),
		celgo.Function("getHost", celgo.MemberOverload("url_get_host", []*celgo.Type{urlType}, s, str(func(u *url.URL) string { return u.Host }))),
		celgo.Function("getHostname", celgo.MemberOverload("url_get_hostname", []*celgo.Type{urlType}, s, str((*url.URL).Hostname))),
		celgo.Function("getPort", celgo.MemberOverload("url_get_port", []*celgo.Type{urlType}, s, str((*url.URL).Port))),
		celgo.Function("getEscapedPath", celgo.MemberOverload("url_get_escaped_path", []*celgo.Type{urlType}, s, str((*url.URL).EscapedPath))),
		celgo.Function("getQuery", celgo.MemberOverload("url_get_query", []*celgo.Type{urlType}, celgo.MapType(s, celgo.ListType(s)), get(func(u *url.URL) ref.Val {
			m := map[ref.Val]ref.Val{}
			for k, v := range u.Query() {
				m[types.String(k)] = types.NewStringList(types.DefaultTypeAdapter, v)
			}
			return types.NewRefValMap(types.DefaultTypeAdapter, m)
		}))),
		celgo.Function("isURL", celgo.Overload("is_url_string", []*celgo.Type{s}, celgo.BoolType, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			raw, ok := a.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			_, err := url.ParseRequestURI(raw)
			return types.Bool(err == nil)
		}))),
	}
}

func (urlsLib) ProgramOptions() []celgo.ProgramOption { return nil }

// ipType and cidrType are the opaque CEL types net.IP and net.CIDR.
var (
	ipType   = celgo.OpaqueType("net.IP")
	cidrType = celgo.OpaqueType("net.CIDR")
)

// IP is an address as a CEL value, of CEL type net.IP.
type IP struct{ netip.Addr }

// ConvertToNative implements ref.Val.
func (d IP) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(d.Addr).AssignableTo(t) {
		return d.Addr, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return d.Addr.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'IP' to '%v'", t)
}

// ConvertToType implements ref.Val.
func (d IP) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case ipType:
		return d
	case types.TypeType:
		return ipType
	case types.StringType:
		return types.String(d.Addr.String())
	}
	return types.NewErr("type conversion error from '%s' to '%s'", ipType, t)
}

// Equal implements ref.Val.
func (d IP) Equal(other ref.Val) ref.Val {
	o, ok := other.(IP)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(d.Addr == o.Addr)
}

// Type implements ref.Val.
func (d IP) Type() ref.Type { return ipType }

// Value implements ref.Val.
func (d IP) Value() any { return d.Addr }

// Size is the address length in bytes, for cost tracking.
func (d IP) Size() ref.Val { return types.Int(int(math.Ceil(float64(d.Addr.BitLen()) / 8))) }

// CIDR is a prefix as a CEL value, of CEL type net.CIDR.
type CIDR struct{ netip.Prefix }

// ConvertToNative implements ref.Val.
func (d CIDR) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(d.Prefix).AssignableTo(t) {
		return d.Prefix, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return d.Prefix.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'CIDR' to '%v'", t)
}

// ConvertToType implements ref.Val.
func (d CIDR) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case cidrType:
		return d
	case types.TypeType:
		return cidrType
	case types.StringType:
		return types.String(d.Prefix.String())
	}
	return types.NewErr("type conversion error from '%s' to '%s'", cidrType, t)
}

// Equal implements ref.Val.
func (d CIDR) Equal(other ref.Val) ref.Val {
	o, ok := other.(CIDR)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(d.Prefix == o.Prefix)
}

// Type implements ref.Val.
func (d CIDR) Type() ref.Type { return cidrType }

// Value implements ref.Val.
func (d CIDR) Value() any { return d.Prefix }

// Size is the prefix length in bytes, for cost tracking.
func (d CIDR) Size() ref.Val { return types.Int(int(math.Ceil(float64(d.Prefix.Bits()) / 8))) }

func parseIPAddr(raw string) (netip.Addr, error) {
	addr, err := netip.ParseAddr(raw)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", raw, err)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", raw)
	}
	if addr.Is4In6() {
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return addr, nil
}

func parseCIDR(raw string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(raw)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", raw)
	}
	return p, nil
}

func stringToIP(a ref.Val) ref.Val {
	s, ok := a.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	addr, err := parseIPAddr(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return IP{addr}
}

func stringToCIDR(a ref.Val) ref.Val {
	s, ok := a.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	p, err := parseCIDR(s)
	if err != nil {
		return types.NewErr("network address parse error during conversion from string: %v", err)
	}
	return CIDR{p}
}

// ipLib is Kubernetes' kubernetes.net.ip library.
type ipLib struct{}

func (ipLib) LibraryName() string { return "kubernetes.net.ip" }

func (ipLib) CompileOptions() []celgo.EnvOption {
	b := celgo.BoolType
	pred := func(id string, f func(netip.Addr) bool) celgo.FunctionOpt {
		return celgo.MemberOverload(id, []*celgo.Type{ipType}, b, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			ip, ok := a.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return types.Bool(f(ip.Addr))
		}))
	}
	return []celgo.EnvOption{
		celgo.Types(ipType),
		celgo.Function("ip", celgo.Overload("string_to_ip", []*celgo.Type{celgo.StringType}, ipType, celgo.UnaryBinding(stringToIP))),
		celgo.Function("family", celgo.MemberOverload("ip_family", []*celgo.Type{ipType}, celgo.IntType, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			ip, ok := a.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			switch {
			case ip.Is4():
				return types.Int(4)
			case ip.Is6():
				return types.Int(6)
			}
			return types.NewErr("IP address %q is not an IPv4 or IPv6 address", ip.Addr.String())
		}))),
		celgo.Function("ip.isCanonical", celgo.Overload("ip_is_canonical", []*celgo.Type{celgo.StringType}, b, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			s, ok := a.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			addr, err := parseIPAddr(s)
			if err != nil {
				return types.NewErr("%v", err)
			}
			return types.Bool(addr.String() == s)
		}))),
		celgo.Function("isUnspecified", pred("ip_is_unspecified", netip.Addr.IsUnspecified)),
		celgo.Function("isLoopback", pred("ip_is_loopback", netip.Addr.IsLoopback)),
		celgo.Function("isLinkLocalMulticast", pred("ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast)),
		celgo.Function("isLinkLocalUnicast", pred("ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast)),
		celgo.Function("isGlobalUnicast", pred("ip_is_global_unicast", netip.Addr.IsGlobalUnicast)),
		celgo.Function("isIP", celgo.Overload("is_ip", []*celgo.Type{celgo.StringType}, b, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			s, ok := a.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			_, err := parseIPAddr(s)
			return types.Bool(err == nil)
		}))),
		celgo.Function("string", celgo.Overload("ip_to_string", []*celgo.Type{ipType}, celgo.StringType, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			ip, ok := a.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return types.String(ip.Addr.String())
		}))),
	}
}

func (ipLib) ProgramOptions() []celgo.ProgramOption { return nil }

// cidrLib is Kubernetes' kubernetes.net.cidr library.
type cidrLib struct{}

func (cidrLib) LibraryName() string { return "kubernetes.net.cidr" }

func cidrContainsIP(a, o ref.Val) ref.Val {
	c, ok := a.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(o)
	}
	ip, ok := o.(IP)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	return types.Bool(c.Contains(ip.Addr))
}

func cidrContainsCIDR(a, o ref.Val) ref.Val {
	c, ok := a.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	d, ok := o.(CIDR)
	if !ok {
		return types.MaybeNoSuchOverloadErr(o)
	}
	return types.Bool(c.Overlaps(d.Prefix) && c.Bits() <= d.Bits())
}

func (cidrLib) CompileOptions() []celgo.EnvOption {
	s, b := celgo.StringType, celgo.BoolType
	onCIDR := func(f func(CIDR) ref.Val) celgo.OverloadOpt {
		return celgo.UnaryBinding(func(a ref.Val) ref.Val {
			c, ok := a.(CIDR)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(c)
		})
	}
	return []celgo.EnvOption{
		celgo.Types(cidrType),
		celgo.Function("cidr", celgo.Overload("string_to_cidr", []*celgo.Type{s}, cidrType, celgo.UnaryBinding(stringToCIDR))),
		celgo.Function("containsIP",
			celgo.MemberOverload("cidr_contains_ip_string", []*celgo.Type{cidrType, s}, b, celgo.BinaryBinding(func(a, o ref.Val) ref.Val { return cidrContainsIP(a, stringToIP(o)) })),
			celgo.MemberOverload("cidr_contains_ip_ip", []*celgo.Type{cidrType, ipType}, b, celgo.BinaryBinding(cidrContainsIP))),
		celgo.Function("containsCIDR",
			celgo.MemberOverload("cidr_contains_cidr_string", []*celgo.Type{cidrType, s}, b, celgo.BinaryBinding(func(a, o ref.Val) ref.Val { return cidrContainsCIDR(a, stringToCIDR(o)) })),
			celgo.MemberOverload("cidr_contains_cidr", []*celgo.Type{cidrType, cidrType}, b, celgo.BinaryBinding(cidrContainsCIDR))),
		celgo.Function("ip", celgo.MemberOverload("cidr_ip", []*celgo.Type{cidrType}, ipType, onCIDR(func(c CIDR) ref.Val { return IP{c.Addr()} }))),
		celgo.Function("prefixLength", celgo.MemberOverload("cidr_prefix_length", []*celgo.Type{cidrType}, celgo.IntType, onCIDR(func(c CIDR) ref.Val { return types.Int(c.Bits()) }))),
		celgo.Function("masked", celgo.MemberOverload("cidr_masked", []*celgo.Type{cidrType}, cidrType, onCIDR(func(c CIDR) ref.Val { return CIDR{c.Masked()} }))),
		celgo.Function("isCIDR", celgo.Overload("is_cidr", []*celgo.Type{s}, b, celgo.UnaryBinding(func(a ref.Val) ref.Val {
			str, ok := a.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			_, err := parseCIDR(str)
			return types.Bool(err == nil)
		}))),
		celgo.Function("string", celgo.Overload("cidr_to_string", []*celgo.Type{cidrType}, s, onCIDR(func(c CIDR) ref.Val { return types.String(c.Prefix.String()) }))),
	}
}

func (cidrLib) ProgramOptions() []celgo.ProgramOption { return nil }
