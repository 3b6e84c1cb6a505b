package affinity

import "strconv"

// The messages below are Kubernetes' own (k8s.io/apimachinery
// pkg/api/validate/content), so errors read the same as kubectl's.
const (
	labelKeyFmt      = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelKeyErrMsg   = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt    = "(" + labelKeyFmt + ")?"
	labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	dns1123LabelFmt  = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubFmt    = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"

	// LabelKeyNameMaxLength is the longest name part of a label key.
	LabelKeyNameMaxLength = 63
	// LabelValueMaxLength is the longest label value.
	LabelValueMaxLength = 63
	// DNS1123SubdomainMaxLength is the longest label key prefix.
	DNS1123SubdomainMaxLength = 253
)

func regexError(msg, re string, examples ...string) string {
	msg += " (e.g. "
	for i, ex := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + ex + "', "
	}
	return msg + "regex used for validation is '" + re + "')"
}

func maxLenError(n int) string { return "must be no more than " + strconv.Itoa(n) + " bytes" }

const emptyError = "must be non-empty"

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isLabelToken reports whether s matches ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
func isLabelToken(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// isDNS1123Subdomain reports whether s matches the RFC 1123 subdomain
// pattern (length aside).
func isDNS1123Subdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			continue
		}
		lbl := s[start:i]
		if lbl == "" || !isLowerAlnum(lbl[0]) || !isLowerAlnum(lbl[len(lbl)-1]) {
			return false
		}
		for j := 1; j < len(lbl)-1; j++ {
			if !isLowerAlnum(lbl[j]) && lbl[j] != '-' {
				return false
			}
		}
		start = i + 1
	}
	return true
}

// ValidateLabelKey returns what is wrong with a label key (a "qualified
// name": an optional DNS subdomain prefix of at most 253 bytes and '/',
// then a name of at most 63 alphanumerics, '-', '_' or '.', starting and
// ending with an alphanumeric), or nil if it is valid. The messages are
// Kubernetes'.
func ValidateLabelKey(key string) []string {
	var errs []string
	var name string
	slash := -1
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			if slash >= 0 {
				return []string{"a valid label key " + regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc") +
					" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
			}
			slash = i
		}
	}
	if slash < 0 {
		name = key
	} else {
		prefix := key[:slash]
		name = key[slash+1:]
		switch {
		case prefix == "":
			errs = append(errs, "prefix part "+emptyError)
		default:
			if len(prefix) > DNS1123SubdomainMaxLength {
				errs = append(errs, "prefix part "+maxLenError(DNS1123SubdomainMaxLength))
			}
			if !isDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+regexError(dns1123SubErrMsg, dns1123SubFmt, "example.com"))
			}
		}
	}
	if name == "" {
		errs = append(errs, "name part "+emptyError)
	} else if len(name) > LabelKeyNameMaxLength {
		errs = append(errs, "name part "+maxLenError(LabelKeyNameMaxLength))
	}
	if !isLabelToken(name) {
		errs = append(errs, "name part "+regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// ValidateLabelValue returns what is wrong with a label value (empty, or
// at most 63 alphanumerics, '-', '_' or '.', starting and ending with an
// alphanumeric), or nil if it is valid. The messages are Kubernetes'.
func ValidateLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, maxLenError(LabelValueMaxLength))
	}
	if value != "" && !isLabelToken(value) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// parseInt64 parses s as strconv.ParseInt(s, 10, 64) does (optional sign,
// decimal digits, leading zeros allowed, no underscores), without
// allocating an error.
func parseInt64(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	switch s[0] {
	case '+':
		s = s[1:]
	case '-':
		neg = true
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	const cutoff = uint64(1) << 63
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > cutoff/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
		if n > cutoff {
			return 0, false
		}
	}
	if !neg && n >= cutoff {
		return 0, false
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}
