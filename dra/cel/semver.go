//lint:file-ignore ST1005 the error texts are those Kubernetes prints, capitals included.

package cel

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Version is a semantic version 2.0.0 as the semver library of
// Kubernetes CEL holds it: three numbers, prerelease identifiers and build
// metadata. Build metadata never takes part in comparisons.
type Version struct {
	Major, Minor, Patch uint64
	Pre                 []prerelease
	Build               []string
}

// prerelease is one dot-separated prerelease identifier: a number when num
// is true, else a string of letters, digits and hyphens.
type prerelease struct {
	str string
	n   uint64
	num bool
}

const (
	semverDigits   = "0123456789"
	semverAlphanum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-" + semverDigits
)

func onlyOf(s, set string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune(set, r) }) == -1
}

func leadingZero(s string) bool { return len(s) > 1 && s[0] == '0' }

// ParseVersion reads a strict semantic version, "1.2.3-rc.1+build.5". Its
// error texts are those Kubernetes reports from CEL's semver function and
// from version attributes.
func ParseVersion(s string) (Version, error) {
	if s == "" {
		return Version{}, errors.New("Version string empty")
	}
	i := strings.IndexByte(s, '.')
	j := -1
	if i >= 0 {
		if k := strings.IndexByte(s[i+1:], '.'); k >= 0 {
			j = i + 1 + k
		}
	}
	if j < 0 {
		return Version{}, errors.New("No Major.Minor.Patch elements found")
	}
	number := func(p, what string) (uint64, error) {
		if !onlyOf(p, semverDigits) {
			return 0, fmt.Errorf("Invalid character(s) found in %s number %q", strings.ToLower(what), p)
		}
		if leadingZero(p) {
			return 0, fmt.Errorf("%s number must not contain leading zeroes %q", what, p)
		}
		return strconv.ParseUint(p, 10, 64)
	}
	var v Version
	var err error
	if v.Major, err = number(s[:i], "Major"); err != nil {
		return Version{}, err
	}
	if v.Minor, err = number(s[i+1:j], "Minor"); err != nil {
		return Version{}, err
	}
	rest := s[j+1:]
	var build, pre []string
	if i := strings.IndexByte(rest, '+'); i >= 0 {
		build = strings.Split(rest[i+1:], ".")
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		pre = strings.Split(rest[i+1:], ".")
		rest = rest[:i]
	}
	if v.Patch, err = number(rest, "Patch"); err != nil {
		return Version{}, err
	}
	for _, p := range pre {
		switch {
		case p == "":
			return Version{}, errors.New("Prerelease is empty")
		case onlyOf(p, semverDigits):
			if leadingZero(p) {
				return Version{}, fmt.Errorf("Numeric PreRelease version must not contain leading zeroes %q", p)
			}
			n, err := strconv.ParseUint(p, 10, 64)
			if err != nil {
				return Version{}, err
			}
			v.Pre = append(v.Pre, prerelease{n: n, num: true})
		case onlyOf(p, semverAlphanum):
			v.Pre = append(v.Pre, prerelease{str: p})
		default:
			return Version{}, fmt.Errorf("Invalid character(s) found in prerelease %q", p)
		}
	}
	for _, b := range build {
		if b == "" {
			return Version{}, errors.New("Build meta data is empty")
		}
		if !onlyOf(b, semverAlphanum) {
			return Version{}, fmt.Errorf("Invalid character(s) found in build meta data %q", b)
		}
		v.Build = append(v.Build, b)
	}
	return v, nil
}

// parseVersionNormalized is semver(s, true): a leading "v" dropped, leading
// zeroes of the parts dropped, and missing minor and patch filled with 0.
func parseVersionNormalized(s string) (Version, error) {
	s = strings.TrimPrefix(s, "v")
	parts := strings.SplitN(s, ".", 3)
	for i, p := range parts {
		if len(p) > 1 {
			p = strings.TrimLeft(p, "0")
			if p == "" || !strings.ContainsAny(p[:1], semverDigits) {
				p = "0" + p
			}
			parts[i] = p
		}
	}
	if len(parts) < 3 {
		if strings.ContainsAny(parts[len(parts)-1], "+-") {
			return Version{}, errors.New("short version cannot contain PreRelease/Build meta data")
		}
		for len(parts) < 3 {
			parts = append(parts, "0")
		}
	}
	return ParseVersion(strings.Join(parts, "."))
}

func cmpUint(a, b uint64) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

func (p prerelease) compare(o prerelease) int {
	switch {
	case p.num && !o.num:
		return -1
	case !p.num && o.num:
		return 1
	case p.num:
		return cmpUint(p.n, o.n)
	}
	return strings.Compare(p.str, o.str)
}

// Compare orders versions by semantic version precedence: -1, 0 or 1.
func (v Version) Compare(o Version) int {
	if c := cmpUint(v.Major, o.Major); c != 0 {
		return c
	}
	if c := cmpUint(v.Minor, o.Minor); c != 0 {
		return c
	}
	if c := cmpUint(v.Patch, o.Patch); c != 0 {
		return c
	}
	switch {
	case len(v.Pre) == 0 && len(o.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(o.Pre) == 0:
		return -1
	}
	for i := 0; i < len(v.Pre) && i < len(o.Pre); i++ {
		if c := v.Pre[i].compare(o.Pre[i]); c != 0 {
			return c
		}
	}
	return cmpInt(len(v.Pre), len(o.Pre))
}

func cmpInt(a, b int) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// String formats the version back to its canonical text.
func (v Version) String() string {
	b := strconv.AppendUint(nil, v.Major, 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Minor, 10)
	b = append(b, '.')
	b = strconv.AppendUint(b, v.Patch, 10)
	for i, p := range v.Pre {
		if i == 0 {
			b = append(b, '-')
		} else {
			b = append(b, '.')
		}
		if p.num {
			b = strconv.AppendUint(b, p.n, 10)
		} else {
			b = append(b, p.str...)
		}
	}
	for i, s := range v.Build {
		if i == 0 {
			b = append(b, '+')
		} else {
			b = append(b, '.')
		}
		b = append(b, s...)
	}
	return string(b)
}

// semverType is the CEL type of semver values, kubernetes.Semver.
var semverType = celgo.ObjectType("kubernetes.Semver")

// Semver is a Version as a CEL value, of CEL type kubernetes.Semver: what
// semver() returns and what a version attribute holds.
type Semver struct{ v Version }

// ConvertToNative implements ref.Val.
func (s Semver) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(s.v).AssignableTo(t) {
		return s.v, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return s.v.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Semver' to '%v'", t)
}

// ConvertToType implements ref.Val.
func (s Semver) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case semverType:
		return s
	case types.TypeType:
		return semverType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", semverType, t)
}

// Equal implements ref.Val.
func (s Semver) Equal(other ref.Val) ref.Val {
	o, ok := other.(Semver)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(s.v.Compare(o.v) == 0)
}

// Type implements ref.Val.
func (s Semver) Type() ref.Type { return semverType }

// Value implements ref.Val.
func (s Semver) Value() any { return s.v }

// semverLib is Kubernetes' kubernetes.Semver library at version 1.
type semverLib struct{}

func (semverLib) LibraryName() string { return "kubernetes.Semver" }

func (semverLib) CompileOptions() []celgo.EnvOption {
	s, b, i := celgo.StringType, celgo.BoolType, celgo.IntType
	t := semverType
	return []celgo.EnvOption{
		celgo.Function("semver",
			celgo.Overload("string_to_semver", []*celgo.Type{s}, t, celgo.UnaryBinding(func(a ref.Val) ref.Val { return toSemver(a, types.False) })),
			celgo.Overload("string_bool_to_semver", []*celgo.Type{s, b}, t, celgo.BinaryBinding(toSemver))),
		celgo.Function("isSemver",
			celgo.Overload("is_semver_string", []*celgo.Type{s}, b, celgo.UnaryBinding(func(a ref.Val) ref.Val { return isSemver(a, types.False) })),
			celgo.Overload("is_semver_string_bool", []*celgo.Type{s, b}, b, celgo.BinaryBinding(isSemver))),
		celgo.Function("isGreaterThan",
			celgo.MemberOverload("semver_is_greater_than", []*celgo.Type{t, t}, b, celgo.BinaryBinding(semverCmp(func(c int) ref.Val { return types.Bool(c == 1) })))),
		celgo.Function("isLessThan",
			celgo.MemberOverload("semver_is_less_than", []*celgo.Type{t, t}, b, celgo.BinaryBinding(semverCmp(func(c int) ref.Val { return types.Bool(c == -1) })))),
		celgo.Function("compareTo",
			celgo.MemberOverload("semver_compare_to", []*celgo.Type{t, t}, i, celgo.BinaryBinding(semverCmp(func(c int) ref.Val { return types.Int(c) })))),
		celgo.Function("major",
			celgo.MemberOverload("semver_major", []*celgo.Type{t}, i, celgo.UnaryBinding(semverPart(func(v Version) uint64 { return v.Major })))),
		celgo.Function("minor",
			celgo.MemberOverload("semver_minor", []*celgo.Type{t}, i, celgo.UnaryBinding(semverPart(func(v Version) uint64 { return v.Minor })))),
		celgo.Function("patch",
			celgo.MemberOverload("semver_patch", []*celgo.Type{t}, i, celgo.UnaryBinding(semverPart(func(v Version) uint64 { return v.Patch })))),
	}
}

func (semverLib) ProgramOptions() []celgo.ProgramOption { return nil }

func parseSemverArgs(arg, normalize ref.Val) (Version, ref.Val) {
	s, ok := arg.Value().(string)
	if !ok {
		return Version{}, types.MaybeNoSuchOverloadErr(arg)
	}
	n, ok := normalize.Value().(bool)
	if !ok {
		return Version{}, types.MaybeNoSuchOverloadErr(arg)
	}
	var v Version
	var err error
	if n {
		v, err = parseVersionNormalized(s)
	} else {
		v, err = ParseVersion(s)
	}
	if err != nil {
		return Version{}, types.WrapErr(err)
	}
	return v, nil
}

func toSemver(arg, normalize ref.Val) ref.Val {
	v, bad := parseSemverArgs(arg, normalize)
	if bad != nil {
		return bad
	}
	return Semver{v}
}

func isSemver(arg, normalize ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	n, ok := normalize.Value().(bool)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	var err error
	if n {
		_, err = parseVersionNormalized(s)
	} else {
		_, err = ParseVersion(s)
	}
	return types.Bool(err == nil)
}

func semverCmp(result func(int) ref.Val) func(a, b ref.Val) ref.Val {
	return func(a, b ref.Val) ref.Val {
		v, ok := a.Value().(Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		w, ok := b.Value().(Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		return result(v.Compare(w))
	}
}

func semverPart(part func(Version) uint64) func(ref.Val) ref.Val {
	return func(a ref.Val) ref.Val {
		v, ok := a.Value().(Version)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		return types.Int(part(v))
	}
}
