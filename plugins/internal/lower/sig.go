package lower

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/probe-dev/probe/sdk/framework"
)

// param is one parameter of a Python signature.
type param struct {
	name     string
	def      *framework.Arg // nil: required
	kwOnly   bool
	variadic bool // *name: collects the remaining positional arguments
}

// signature is a Python signature written the way PyTorch documents it,
// e.g. "input, other, *, alpha=1, out=None".
type signature struct {
	text   string
	params []param
}

// mustSig parses a signature; it panics on a malformed one, so that a typo
// in a rule table fails at start-up (and in every test).
func mustSig(text string) *signature {
	s, err := parseSig(text)
	if err != nil {
		panic(fmt.Sprintf("lower: signature %q: %v", text, err))
	}
	return s
}

func parseSig(text string) (*signature, error) {
	s := &signature{text: text}
	kwOnly := false
	seen := map[string]bool{}
	for _, tok := range splitTop(text) {
		tok = strings.TrimSpace(tok)
		switch {
		case tok == "":
			continue
		case tok == "*":
			kwOnly = true
			continue
		case strings.HasPrefix(tok, "*"):
			name := tok[1:]
			s.params = append(s.params, param{name: name, variadic: true})
			seen[name] = true
			kwOnly = true
			continue
		}
		name, lit, hasDef := strings.Cut(tok, "=")
		name = strings.TrimSpace(name)
		if name == "" || seen[name] {
			return nil, fmt.Errorf("bad or repeated parameter %q", tok)
		}
		seen[name] = true
		p := param{name: name, kwOnly: kwOnly}
		if hasDef {
			a, err := parseLiteral(strings.TrimSpace(lit))
			if err != nil {
				return nil, fmt.Errorf("default of %s: %v", name, err)
			}
			p.def = &a
		}
		s.params = append(s.params, p)
	}
	return s, nil
}

// splitTop splits on commas that are not inside brackets or quotes.
func splitTop(text string) []string {
	var out []string
	depth, start := 0, 0
	quoted := false
	for i, r := range text {
		switch {
		case r == '\'':
			quoted = !quoted
		case quoted:
		case r == '[' || r == '(':
			depth++
		case r == ']' || r == ')':
			depth--
		case r == ',' && depth == 0:
			out = append(out, text[start:i])
			start = i + 1
		}
	}
	return append(out, text[start:])
}

// parseLiteral reads a Python literal of a default value.
func parseLiteral(lit string) (framework.Arg, error) {
	switch lit {
	case "None":
		return framework.Arg{Kind: framework.ArgNone}, nil
	case "True", "False":
		return framework.Arg{Kind: framework.ArgBool, Bool: lit == "True"}, nil
	}
	if len(lit) >= 2 && lit[0] == '\'' && lit[len(lit)-1] == '\'' {
		return framework.Arg{Kind: framework.ArgString, Str: lit[1 : len(lit)-1]}, nil
	}
	if len(lit) >= 2 && (lit[0] == '[' || lit[0] == '(') {
		inner := strings.TrimSpace(lit[1 : len(lit)-1])
		list := framework.Arg{Kind: framework.ArgList, Elems: []framework.Arg{}}
		if inner == "" {
			return list, nil
		}
		for _, e := range splitTop(inner) {
			if strings.TrimSpace(e) == "" {
				continue // trailing comma of a 1-tuple
			}
			a, err := parseLiteral(strings.TrimSpace(e))
			if err != nil {
				return framework.Arg{}, err
			}
			list.Elems = append(list.Elems, a)
		}
		return list, nil
	}
	if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return framework.Arg{Kind: framework.ArgInt, Int: i}, nil
	}
	if f, err := strconv.ParseFloat(lit, 64); err == nil {
		return framework.Arg{Kind: framework.ArgFloat, Float: f}, nil
	}
	return framework.Arg{}, fmt.Errorf("unknown literal %q", lit)
}

// withoutParam returns a copy of s without the named parameter (the Tensor
// method form of a torch function has no out=).
func (s *signature) withoutParam(name string) *signature {
	c := &signature{text: s.text}
	for _, p := range s.params {
		if p.name != name {
			c.params = append(c.params, p)
		}
	}
	return c
}

func (s *signature) has(name string) bool {
	for _, p := range s.params {
		if p.name == name {
			return true
		}
	}
	return false
}

// bind resolves positional and keyword arguments against the signature,
// the way Python does, and fills in the defaults.
func (s *signature) bind(b *bound, args []framework.Arg, kwargs []framework.NamedArg, aliases map[string]string) error {
	b.vals = map[string]framework.Arg{}
	b.given = map[string]bool{}
	b.positional = map[string]bool{}
	npos := 0
	var variadic *param
	for i := range s.params {
		p := &s.params[i]
		if p.variadic {
			variadic = p
			break
		}
		if !p.kwOnly {
			npos++
		}
	}
	for i, a := range args {
		if i < npos {
			b.vals[s.params[i].name] = a
			b.given[s.params[i].name] = true
			b.positional[s.params[i].name] = true
			continue
		}
		if variadic == nil {
			return b.errf("takes at most %d positional arguments but %d were given", npos, len(args))
		}
		b.variadic = append(b.variadic, a)
	}
	for _, kw := range kwargs {
		name := kw.Name
		if !s.has(name) {
			if to, ok := aliases[name]; ok && s.has(to) {
				name = to
			}
		}
		if !s.has(name) || (variadic != nil && name == variadic.name) {
			return b.errf("unexpected keyword argument %q", kw.Name)
		}
		if b.given[name] {
			return b.errf("got multiple values for argument %q", name)
		}
		b.vals[name] = kw.Arg
		b.given[name] = true
	}
	for _, p := range s.params {
		if p.variadic || b.given[p.name] {
			continue
		}
		if p.def == nil {
			return b.errf("missing required argument %q", p.name)
		}
		b.vals[p.name] = *p.def
	}
	return nil
}
