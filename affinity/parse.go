package affinity

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedkit/schedkit/field"
)

// token kinds of the selector syntax.
type token int

const (
	tokError token = iota
	tokEnd
	tokClosePar
	tokComma
	tokNot
	tokDoubleEquals
	tokEquals
	tokGreater
	tokIdent
	tokIn
	tokLess
	tokNotEquals
	tokNotIn
	tokOpenPar
)

type item struct {
	tok token
	lit string
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSpecial(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

// lex splits a selector string into items, ending with tokEnd. It
// follows the Kubernetes lexer exactly, including its treatment of a NUL
// byte: at the start of a token it ends the input, inside an identifier
// or operator it ends that token and is skipped.
func lex(s string) []item {
	var items []item
	pos := 0
	// next returns the next byte and advances, or 0 at the end.
	next := func() byte {
		if pos < len(s) {
			c := s[pos]
			pos++
			return c
		}
		return 0
	}
	for {
		c := next()
		for isSpace(c) {
			c = next()
		}
		switch {
		case c == 0:
			return append(items, item{tokEnd, ""})
		case isSpecial(c):
			// Longest operator: "==" and "!=" are the only two-byte ones.
			lit := string(c)
			if (c == '=' || c == '!') && pos < len(s) && s[pos] == '=' {
				lit += "="
				pos++
			}
			// A NUL right after an operator is swallowed with it.
			if pos < len(s) && s[pos] == 0 {
				pos++
			}
			items = append(items, item{specialToken(lit), lit})
		default:
			start := pos - 1
			end := len(s)
			for i := start; i < len(s); i++ {
				if s[i] == 0 || isSpecial(s[i]) || isSpace(s[i]) {
					end = i
					break
				}
			}
			lit := s[start:end]
			pos = end
			if pos < len(s) && s[pos] == 0 {
				pos++
			}
			switch lit {
			case "in":
				items = append(items, item{tokIn, lit})
			case "notin":
				items = append(items, item{tokNotIn, lit})
			default:
				items = append(items, item{tokIdent, lit})
			}
		}
	}
}

func specialToken(lit string) token {
	switch lit {
	case ")":
		return tokClosePar
	case ",":
		return tokComma
	case "!":
		return tokNot
	case "==":
		return tokDoubleEquals
	case "=":
		return tokEquals
	case ">":
		return tokGreater
	case "<":
		return tokLess
	case "!=":
		return tokNotEquals
	case "(":
		return tokOpenPar
	}
	return tokError
}

type parser struct {
	items []item
	pos   int
}

// peek returns the current item without consuming it. With values set,
// the keywords "in" and "notin" read as identifiers.
func (p *parser) peek(values bool) (token, string) {
	it := p.items[min(p.pos, len(p.items)-1)]
	if values && (it.tok == tokIn || it.tok == tokNotIn) {
		return tokIdent, it.lit
	}
	return it.tok, it.lit
}

func (p *parser) take(values bool) (token, string) {
	t, l := p.peek(values)
	p.pos++
	return t, l
}

// ParseSelector parses the string form of a label selector, as
// Kubernetes' labels.Parse does:
//
//	<selector>    ::= <requirement> | <requirement> "," <selector>
//	<requirement> ::= [!] KEY [ <set-op> "(" VALUES ")" | <exact-op> VALUE | ">" INT | "<" INT ]
//	<set-op>      ::= "in" | "notin"
//	<exact-op>    ::= "=" | "==" | "!="
//
// A bare KEY means the key exists, !KEY that it does not. Whitespace
// (space, tab, CR, LF) separates tokens. Value lists are de-duplicated
// and sorted; an empty value is allowed ("x in ()", "x="). Keys and
// values are validated as NewRequirement does, and the requirements are
// sorted by key. The empty string parses to Everything. Errors carry
// Kubernetes' messages, e.g. "unable to parse requirement: found 'y',
// expected: in, notin, =, ==, !=, gt, lt".
func ParseSelector(s string) (Selector, error) {
	p := &parser{items: lex(s)}
	reqs, err := p.parse()
	if err != nil {
		return Selector{}, err
	}
	sortByKey(reqs)
	return Selector{reqs: reqs}, nil
}

func (p *parser) parse() ([]Requirement, error) {
	var reqs []Requirement
	for {
		tok, lit := p.peek(true)
		switch tok {
		case tokIdent, tokNot:
			r, err := p.parseRequirement()
			if err != nil {
				return nil, fmt.Errorf("unable to parse requirement: %w", err)
			}
			reqs = append(reqs, r)
			t, l := p.take(true)
			switch t {
			case tokEnd:
				return reqs, nil
			case tokComma:
				t2, l2 := p.peek(true)
				if t2 != tokIdent && t2 != tokNot {
					return nil, fmt.Errorf("found '%s', expected: identifier after ','", l2)
				}
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", l)
			}
		case tokEnd:
			return reqs, nil
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", lit)
		}
	}
}

func (p *parser) parseRequirement() (Requirement, error) {
	var op Operator
	tok, key := p.take(true)
	if tok == tokNot {
		op = OpDoesNotExist
		tok, key = p.take(true)
	}
	if tok != tokIdent {
		return Requirement{}, fmt.Errorf("found '%s', expected: identifier", key)
	}
	if msgs := ValidateLabelKey(key); len(msgs) != 0 {
		// Upstream validates the key here against a nil field path,
		// which prints as "<nil>".
		return Requirement{}, field.Invalid(nil, key, strings.Join(msgs, "; "))
	}
	if t, _ := p.peek(true); t == tokEnd || t == tokComma {
		if op != OpDoesNotExist {
			op = OpExists
		}
	}
	if op == OpExists || op == OpDoesNotExist {
		return NewRequirement(key, op, []string{})
	}
	tok, lit := p.take(false)
	switch tok {
	case tokIn:
		op = OpIn
	case tokEquals:
		op = OpEquals
	case tokDoubleEquals:
		op = OpDoubleEquals
	case tokGreater:
		op = OpGreaterThan
	case tokLess:
		op = OpLessThan
	case tokNotIn:
		op = OpNotIn
	case tokNotEquals:
		op = OpNotEquals
	default:
		return Requirement{}, fmt.Errorf("found '%s', expected: in, notin, =, ==, !=, gt, lt", lit)
	}
	var values []string
	var err error
	if op == OpIn || op == OpNotIn {
		values, err = p.parseValues()
	} else {
		values, err = p.parseExactValue()
	}
	if err != nil {
		return Requirement{}, err
	}
	return NewRequirement(key, op, values)
}

// valueSet collects values, de-duplicated; list returns them sorted.
type valueSet map[string]struct{}

func (s valueSet) list() []string {
	out := make([]string, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func (p *parser) parseValues() ([]string, error) {
	tok, lit := p.take(true)
	if tok != tokOpenPar {
		return nil, fmt.Errorf("found '%s' expected: '('", lit)
	}
	tok, lit = p.peek(true)
	switch tok {
	case tokIdent, tokComma:
		s, err := p.parseIdentifiers()
		if err != nil {
			return nil, err
		}
		if tok, _ = p.take(true); tok != tokClosePar {
			return nil, fmt.Errorf("found '%s', expected: ')'", lit)
		}
		return s.list(), nil
	case tokClosePar:
		p.take(true)
		return []string{""}, nil
	default:
		return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", lit)
	}
}

func (p *parser) parseIdentifiers() (valueSet, error) {
	s := valueSet{}
	for {
		tok, lit := p.take(true)
		switch tok {
		case tokIdent:
			s[lit] = struct{}{}
			tok2, lit2 := p.peek(true)
			switch tok2 {
			case tokComma:
				continue
			case tokClosePar:
				return s, nil
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", lit2)
			}
		case tokComma:
			// "(," and ",," and ",)" each stand for an empty value.
			if len(s) == 0 {
				s[""] = struct{}{}
			}
			tok2, _ := p.peek(true)
			if tok2 == tokClosePar {
				s[""] = struct{}{}
				return s, nil
			}
			if tok2 == tokComma {
				s[""] = struct{}{}
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',', or identifier", lit)
		}
	}
}

func (p *parser) parseExactValue() ([]string, error) {
	if tok, _ := p.peek(true); tok == tokEnd || tok == tokComma {
		return []string{""}, nil
	}
	tok, lit := p.take(true)
	if tok == tokIdent {
		return []string{lit}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: identifier", lit)
}
