package dra

import (
	"regexp"
	"strings"

	"github.com/schedkit/schedkit/affinity"
	"github.com/schedkit/schedkit/api"
	"github.com/schedkit/schedkit/field"
)

// The name rules of apimachinery's validation package, with its messages.
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	cIdentifierFmt      = "[A-Za-z_][A-Za-z0-9_]*"
	cIdentifierMsg      = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'"
)

var (
	dns1123LabelRe     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRe = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	cIdentifierRe      = regexp.MustCompile("^" + cIdentifierFmt + "$")
)

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

func maxLenError(n int) string { return "must be no more than " + itoa(n) + " bytes" }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func isDNS1123Label(v string) []string {
	var out []string
	if len(v) > 63 {
		out = append(out, maxLenError(63))
	}
	if !dns1123LabelRe.MatchString(v) {
		if dns1123SubdomainRe.MatchString(v) {
			out = append(out, "must not contain dots")
		} else {
			out = append(out, regexError(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return out
}

func isDNS1123Subdomain(v string) []string {
	var out []string
	if len(v) > 253 {
		out = append(out, maxLenError(253))
	}
	if !dns1123SubdomainRe.MatchString(v) {
		out = append(out, regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return out
}

func validateDNS1123Label(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range isDNS1123Label(v) {
		errs = append(errs, field.Invalid(p, v, m))
	}
	return errs
}

func validateDNS1123Subdomain(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range isDNS1123Subdomain(v) {
		errs = append(errs, field.Invalid(p, v, m))
	}
	return errs
}

// validateDriverName is the CSI driver name rule DRA reuses: required, at
// most 63 bytes, a DNS subdomain once lowercased.
func validateDriverName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(name) > api.DriverNameMaxLength {
		errs = append(errs, field.TooLong(p, "", api.DriverNameMaxLength))
	}
	for _, m := range isDNS1123Subdomain(strings.ToLower(name)) {
		errs = append(errs, field.Invalid(p, name, m))
	}
	return errs
}

// validatePoolName: required, at most 253 bytes, DNS subdomains
// separated by slashes.
func validatePoolName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(name) > api.PoolNameMaxLength {
		errs = append(errs, field.TooLong(p, "", api.PoolNameMaxLength))
	}
	for _, part := range strings.Split(name, "/") {
		errs = append(errs, validateDNS1123Subdomain(part, p)...)
	}
	return errs
}

func validateCIdentifier(id string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(id) > api.DeviceMaxIDLength {
		errs = append(errs, field.TooLong(p, "", api.DeviceMaxIDLength))
	}
	if !cIdentifierRe.MatchString(id) {
		errs = append(errs, field.Invalid(p, id, regexError(cIdentifierMsg, cIdentifierFmt, "my_name", "MY_NAME", "MyName")))
	}
	return errs
}

// validateQualifiedName: "<id>" or "<domain>/<id>", the domain a driver
// name, the id a C identifier.
func validateQualifiedName(name api.QualifiedName, p *field.Path) field.ErrorList {
	parts := strings.Split(string(name), "/")
	var errs field.ErrorList
	switch len(parts) {
	case 1:
		errs = append(errs, validateCIdentifier(parts[0], p)...)
	case 2:
		if parts[0] == "" {
			errs = append(errs, field.Invalid(p, "", "the domain must not be empty"))
		} else {
			errs = append(errs, validateDriverName(parts[0], p)...)
		}
		if parts[1] == "" {
			errs = append(errs, field.Invalid(p, "", "the name must not be empty"))
		} else {
			errs = append(errs, validateCIdentifier(parts[1], p)...)
		}
	}
	return errs
}

func validateFullyQualifiedName(name api.FullyQualifiedName, p *field.Path) field.ErrorList {
	errs := validateQualifiedName(api.QualifiedName(name), p)
	if !strings.Contains(string(name), "/") {
		errs = append(errs, field.Invalid(p, name, "a fully qualified name must be a domain and a name separated by a slash"))
	}
	return errs
}

func validateLabelName(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range affinity.ValidateLabelKey(v) {
		errs = append(errs, field.Invalid(p, v, m))
	}
	return errs
}

func validateLabelValue(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range affinity.ValidateLabelValue(v) {
		errs = append(errs, field.Invalid(p, v, m))
	}
	return errs
}
