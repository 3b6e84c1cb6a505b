package cel

import (
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"time"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// formatType is the CEL type of format.<name>() values.
var formatType = celgo.ObjectType("kubernetes.NamedFormat")

// Format is one named string format of Kubernetes' format library.
type Format struct {
	name         string
	validate     func(string) []string
	maxRegexSize int
}

// ConvertToNative implements ref.Val; a format converts to nothing.
func (Format) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from 'Format' to '%v'", t)
}

// ConvertToType implements ref.Val.
func (f Format) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case formatType:
		return f
	case types.TypeType:
		return formatType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", formatType, t)
}

// Equal implements ref.Val.
func (f Format) Equal(other ref.Val) ref.Val {
	o, ok := other.(Format)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(f.name == o.name)
}

// Type implements ref.Val.
func (Format) Type() ref.Type { return formatType }

// Value implements ref.Val.
func (f Format) Value() any { return f }

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + labelKeyFmt + ")?"

	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelMsg     = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	labelKeyMsg         = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

	uuidPattern     = `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`
	dateTimePattern = `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
	base64Pattern   = "^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$"
)

// formatRegexps holds the compiled patterns of the format library. It is
// built once per Compiler, never changed after.
type formatRegexps struct {
	dns1123Label, dns1123Subdomain, dns1035Label, labelKey, labelValue *regexp.Regexp
	uuid, dateTime, base64                                             *regexp.Regexp
}

func newFormatRegexps() *formatRegexps {
	anchored := func(s string) *regexp.Regexp { return regexp.MustCompile("^" + s + "$") }
	return &formatRegexps{
		dns1123Label:     anchored(dns1123LabelFmt),
		dns1123Subdomain: anchored(dns1123SubdomainFmt),
		dns1035Label:     anchored(dns1035LabelFmt),
		labelKey:         anchored(labelKeyFmt),
		labelValue:       anchored(labelValueFmt),
		uuid:             regexp.MustCompile(uuidPattern),
		dateTime:         regexp.MustCompile(dateTimePattern),
		base64:           regexp.MustCompile(base64Pattern),
	}
}

func regexError(msg, re string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + re + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + re + "')"
}

// maxLenError is apimachinery util/validation's length message, used by
// the DNS formats; maxBytesError is its validate/content package's, used
// by qualified names and label values.
func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

func maxBytesError(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

// contentSubdomainErrs is the content package's subdomain check.
func (r *formatRegexps) contentSubdomainErrs(s string) []string {
	var errs []string
	if len(s) > 253 {
		errs = append(errs, maxBytesError(253))
	}
	if !r.dns1123Subdomain.MatchString(s) {
		errs = append(errs, regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

func (r *formatRegexps) dns1123LabelErrs(s string) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !r.dns1123Label.MatchString(s) {
		if r.dns1123Subdomain.MatchString(s) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

func (r *formatRegexps) dns1123SubdomainErrs(s string) []string {
	var errs []string
	if len(s) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !r.dns1123Subdomain.MatchString(s) {
		errs = append(errs, regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

func (r *formatRegexps) dns1035LabelErrs(s string) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !r.dns1035Label.MatchString(s) {
		errs = append(errs, regexError(dns1035LabelMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

func (r *formatRegexps) qualifiedNameErrs(s string) []string {
	var errs []string
	parts := strings.Split(s, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range r.contentSubdomainErrs(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a valid label key "+regexError(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part "+maxBytesError(63))
	}
	if !r.labelKey.MatchString(name) {
		errs = append(errs, "name part "+regexError(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

func (r *formatRegexps) labelValueErrs(s string) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxBytesError(63))
	}
	if !r.labelValue.MatchString(s) {
		errs = append(errs, regexError(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// maskTrailingDash lets a name prefix end in a dash.
func maskTrailingDash(s string) string {
	if len(s) > 1 && strings.HasSuffix(s, "-") {
		return s[:len(s)-2] + "a"
	}
	return s
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func (r *formatRegexps) isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !isDate(parts[0]) {
		return false
	}
	m := r.dateTime.FindAllStringSubmatch(parts[1], -1)
	if len(m) == 0 || len(m[0]) == 0 {
		return false
	}
	return m[0][1] <= "23" && m[0][2] <= "59" && m[0][3] <= "59"
}

// formats returns the named formats of Kubernetes' format library.
func (r *formatRegexps) formats() map[string]Format {
	prefix := func(f func(string) []string) func(string) []string {
		return func(s string) []string { return f(maskTrailingDash(s)) }
	}
	check := func(ok func(string) bool, msg string) func(string) []string {
		return func(s string) []string {
			if ok(s) {
				return nil
			}
			return []string{msg}
		}
	}
	return map[string]Format{
		"dns1123Label":           {"DNS1123Label", r.dns1123LabelErrs, 30},
		"dns1123Subdomain":       {"DNS1123Subdomain", r.dns1123SubdomainErrs, 60},
		"dns1035Label":           {"DNS1035Label", r.dns1035LabelErrs, 30},
		"qualifiedName":          {"QualifiedName", r.qualifiedNameErrs, 60},
		"dns1123LabelPrefix":     {"DNS1123LabelPrefix", prefix(r.dns1123LabelErrs), 30},
		"dns1123SubdomainPrefix": {"DNS1123SubdomainPrefix", prefix(r.dns1123SubdomainErrs), 60},
		"dns1035LabelPrefix":     {"DNS1035LabelPrefix", prefix(r.dns1035LabelErrs), 30},
		"labelValue":             {"LabelValue", r.labelValueErrs, 40},
		"uri": {"URI", func(s string) []string {
			if _, err := url.ParseRequestURI(s); err != nil {
				return []string{err.Error()}
			}
			return nil
		}, 1103},
		"uuid":     {"uuid", check(r.uuid.MatchString, "does not match the UUID format"), len(uuidPattern)},
		"byte":     {"byte", check(r.base64.MatchString, "invalid base64"), 84},
		"date":     {"date", check(isDate, "invalid date"), len(dateTimePattern)},
		"datetime": {"datetime", check(r.isDateTime, "invalid datetime"), len(dateTimePattern)},
	}
}

// formatLib is Kubernetes' kubernetes.format library.
type formatLib struct{ formats map[string]Format }

func (formatLib) LibraryName() string { return "kubernetes.format" }

func (l formatLib) CompileOptions() []celgo.EnvOption {
	opts := []celgo.EnvOption{
		celgo.Function("validate", celgo.MemberOverload("format-validate", []*celgo.Type{formatType, celgo.StringType},
			celgo.OptionalType(celgo.ListType(celgo.StringType)), celgo.BinaryBinding(func(a, b ref.Val) ref.Val {
				f, ok := a.Value().(Format)
				if !ok {
					return types.MaybeNoSuchOverloadErr(a)
				}
				s, ok := b.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(b)
				}
				errs := f.validate(s)
				if len(errs) == 0 {
					return types.OptionalNone
				}
				return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, errs))
			}))),
		celgo.Function("format.named", celgo.Overload("format-named", []*celgo.Type{celgo.StringType},
			celgo.OptionalType(formatType), celgo.UnaryBinding(func(a ref.Val) ref.Val {
				s, ok := a.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(a)
				}
				f, ok := l.formats[s]
				if !ok {
					return types.OptionalNone
				}
				return types.OptionalOf(f)
			}))),
	}
	for name, f := range l.formats {
		fn := "format." + name
		opts = append(opts, celgo.Function(fn, celgo.Overload(fn, []*celgo.Type{}, formatType, zeroArgBinding(f))))
	}
	return opts
}

func (formatLib) ProgramOptions() []celgo.ProgramOption { return nil }

// zeroArgBinding binds a function of no arguments to a constant.
func zeroArgBinding(v ref.Val) decls.OverloadOpt {
	return func(o *decls.OverloadDecl) (*decls.OverloadDecl, error) {
		if _, err := decls.FunctionBinding(func(...ref.Val) ref.Val { return v })(o); err != nil {
			return nil, err
		}
		return o, nil
	}
}

// Authorization types. DRA's environment has no authorizer variable, so
// no value of these types ever exists; the declarations only make
// compile errors read as Kubernetes' do.
var (
	authorizerType    = celgo.ObjectType("kubernetes.authorization.Authorizer")
	pathCheckType     = celgo.ObjectType("kubernetes.authorization.PathCheck")
	groupCheckType    = celgo.ObjectType("kubernetes.authorization.GroupCheck")
	resourceCheckType = celgo.ObjectType("kubernetes.authorization.ResourceCheck")
	decisionType      = celgo.ObjectType("kubernetes.authorization.Decision")
)

// authzVal stands for a value of an authorization type, which DRA never
// produces.
type authzVal struct{}

func (authzVal) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error to '%v'", t)
}
func (authzVal) ConvertToType(ref.Type) ref.Val { return types.NoSuchOverloadErr() }
func (authzVal) Equal(ref.Val) ref.Val          { return types.NoSuchOverloadErr() }
func (authzVal) Type() ref.Type                 { return authorizerType }
func (authzVal) Value() any                     { return nil }

// authzLib declares Kubernetes' kubernetes.authz and
// kubernetes.authzSelectors functions.
type authzLib struct{ selectors bool }

func (l authzLib) LibraryName() string {
	if l.selectors {
		return "kubernetes.authzSelectors"
	}
	return "kubernetes.authz"
}

func (l authzLib) CompileOptions() []celgo.EnvOption {
	s := celgo.StringType
	none := func(...ref.Val) ref.Val { return types.NoSuchOverloadErr() }
	member := func(fn, id string, args []*celgo.Type, result *celgo.Type) celgo.EnvOption {
		return celgo.Function(fn, celgo.MemberOverload(id, args, result, celgo.FunctionBinding(none)))
	}
	if l.selectors {
		return []celgo.EnvOption{
			member("fieldSelector", "authorizer_fieldselector", []*celgo.Type{resourceCheckType, s}, resourceCheckType),
			member("labelSelector", "authorizer_labelselector", []*celgo.Type{resourceCheckType, s}, resourceCheckType),
		}
	}
	return []celgo.EnvOption{
		member("path", "authorizer_path", []*celgo.Type{authorizerType, s}, pathCheckType),
		member("group", "authorizer_group", []*celgo.Type{authorizerType, s}, groupCheckType),
		member("serviceAccount", "authorizer_serviceaccount", []*celgo.Type{authorizerType, s, s}, authorizerType),
		member("resource", "groupcheck_resource", []*celgo.Type{groupCheckType, s}, resourceCheckType),
		member("subresource", "resourcecheck_subresource", []*celgo.Type{resourceCheckType, s}, resourceCheckType),
		member("namespace", "resourcecheck_namespace", []*celgo.Type{resourceCheckType, s}, resourceCheckType),
		member("name", "resourcecheck_name", []*celgo.Type{resourceCheckType, s}, resourceCheckType),
		celgo.Function("check",
			celgo.MemberOverload("pathcheck_check", []*celgo.Type{pathCheckType, s}, decisionType, celgo.FunctionBinding(none)),
			celgo.MemberOverload("resourcecheck_check", []*celgo.Type{resourceCheckType, s}, decisionType, celgo.FunctionBinding(none))),
		member("errored", "decision_errored", []*celgo.Type{decisionType}, celgo.BoolType),
		member("error", "decision_error", []*celgo.Type{decisionType}, s),
		member("allowed", "decision_allowed", []*celgo.Type{decisionType}, celgo.BoolType),
		member("reason", "decision_reason", []*celgo.Type{decisionType}, s),
	}
}

func (authzLib) ProgramOptions() []celgo.ProgramOption { return nil }
