package manifest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The YAML scalars are resolved as kubectl resolves them: kubectl turns
// YAML into JSON with sigs.k8s.io/yaml, which reads YAML 1.1 with
// go.yaml.in/yaml/v2. That is why `yes`, `on` and `off` are booleans, `0777`
// is an octal integer and `1_000` is 1000, where a YAML 1.2 reader would see
// strings. The functions below give each plain scalar the JSON value
// kubectl would send; TestResolveMatchesYAMLv2 compares them with yaml/v2.

// resolvePlain resolves an untagged plain scalar.
func resolvePlain(s string) (value, error) {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return value{kind: kindNull}, nil
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return value{kind: kindBool, text: "true"}, nil
	case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
		return value{kind: kindBool, text: "false"}, nil
	case ".nan", ".NaN", ".NAN":
		return value{}, fmt.Errorf("unsupported value: NaN (%s)", s)
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return value{}, fmt.Errorf("unsupported value: +Inf (%s)", s)
	case "-.inf", "-.Inf", "-.INF":
		return value{}, fmt.Errorf("unsupported value: -Inf (%s)", s)
	}
	switch c := s[0]; {
	case c == '.':
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return floatValue(f)
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if isTimestamp(s) {
			return value{kind: kindString, text: s}, nil
		}
		plain := strings.ReplaceAll(s, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return value{kind: kindNumber, text: strconv.FormatInt(i, 10)}, nil
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return value{kind: kindNumber, text: strconv.FormatUint(u, 10)}, nil
		}
		if isYAMLFloat(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return floatValue(f)
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0b"); ok {
			if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
				return value{kind: kindNumber, text: strconv.FormatInt(i, 10)}, nil
			}
			if u, err := strconv.ParseUint(rest, 2, 64); err == nil {
				return value{kind: kindNumber, text: strconv.FormatUint(u, 10)}, nil
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
			if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return value{kind: kindNumber, text: strconv.FormatInt(i, 10)}, nil
			}
		}
	}
	return value{kind: kindString, text: s}, nil
}

// resolveTagged resolves a scalar written with an explicit tag such as
// !!str or !!int, as yaml/v2 does; unknown tags leave the text a string.
func resolveTagged(tag, s string) (value, error) {
	switch tag {
	case "!!str", "!!timestamp":
		return value{kind: kindString, text: s}, nil
	case "!!binary":
		b, err := base64.StdEncoding.DecodeString(strings.Map(dropSpace, s))
		if err != nil {
			return value{}, fmt.Errorf("!!binary value contains invalid base64 data")
		}
		return value{kind: kindString, text: string(b)}, nil
	case "!!bool", "!!int", "!!float", "!!null":
	default:
		return value{kind: kindString, text: s}, nil
	}
	v, err := resolvePlain(s)
	if err != nil && tag != "!!float" {
		return value{}, err
	}
	want := map[string]valueKind{"!!bool": kindBool, "!!int": kindNumber, "!!float": kindNumber, "!!null": kindNull}[tag]
	if err != nil || v.kind != want || tag == "!!int" && !isIntText(v.text) {
		return value{}, fmt.Errorf("cannot decode `%s` as a %s", s, tag)
	}
	return v, nil
}

func dropSpace(r rune) rune {
	if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
		return -1
	}
	return r
}

func isIntText(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		_, err = strconv.ParseUint(s, 10, 64)
	}
	return err == nil
}

// floatValue is f as encoding/json writes a float64 (what sigs.k8s.io/yaml
// sends for a YAML float).
func floatValue(f float64) (value, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return value{}, fmt.Errorf("unsupported value: %v", f)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return value{}, err
	}
	return value{kind: kindNumber, text: string(b)}, nil
}

// isYAMLFloat reports whether s matches yaml/v2's float pattern
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func isYAMLFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isTimestamp reports whether yaml/v2 would read s as a timestamp (which
// kubectl then sends as the original string).
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, layout := range []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// keyText is a resolved scalar map key as sigs.k8s.io/yaml turns it into a
// JSON object key.
func keyText(v value, plain string) (string, error) {
	switch v.kind {
	case kindString, kindBool:
		return v.text, nil
	case kindNumber:
		if isIntText(v.text) {
			return v.text, nil
		}
		f, err := strconv.ParseFloat(v.text, 64)
		if err != nil {
			return "", err
		}
		return strconv.FormatFloat(f, 'g', -1, 32), nil
	}
	return "", fmt.Errorf("unsupported map key %q", plain)
}
