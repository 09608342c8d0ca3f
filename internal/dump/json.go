package dump

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds a small JSON reader written for msprobe's dump.json. It
// differs from encoding/json in the three ways the dumps need:
//
//   - Python's json module writes the bare tokens NaN, Infinity and
//     -Infinity for non-finite statistics; they are accepted as numbers
//     (only outside strings, where they are tokens, never inside one).
//   - Objects keep their key order (the order of "data" is the processing
//     order of the pre-check).
//   - Numbers keep their source text, so integers are exact and floats are
//     parsed once, exactly, by strconv.
//
// Errors carry the byte offset; positionOf turns it into line:column.

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

func (k jkind) String() string {
	switch k {
	case jNull:
		return "null"
	case jBool:
		return "bool"
	case jNumber:
		return "number"
	case jString:
		return "string"
	case jArray:
		return "array"
	}
	return "object"
}

// jvalue is one parsed JSON value.
type jvalue struct {
	kind jkind
	off  int // byte offset of the value's first character
	b    bool
	num  string  // number: source text ("1.5e3", "NaN", "-Infinity")
	f    float64 // number: value
	s    string
	arr  []*jvalue
	obj  []jmember
}

// jmember is one key/value pair of an object, in source order.
type jmember struct {
	key string
	off int
	val *jvalue
}

// get returns the value of the last member named key (Python's json keeps
// the last duplicate), or nil.
func (v *jvalue) get(key string) *jvalue {
	if v == nil || v.kind != jObject {
		return nil
	}
	for i := len(v.obj) - 1; i >= 0; i-- {
		if v.obj[i].key == key {
			return v.obj[i].val
		}
	}
	return nil
}

// isInt reports whether a number was written as an integer literal.
func (v *jvalue) isInt() bool {
	if v.kind != jNumber {
		return false
	}
	for i := 0; i < len(v.num); i++ {
		switch v.num[i] {
		case '.', 'e', 'E', 'N', 'I':
			return false
		}
	}
	return true
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 1000

// syntaxError is a malformed-JSON error at a byte offset.
type syntaxError struct {
	off int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

type parser struct {
	data  []byte
	pos   int
	depth int
	// badUTF8 holds the offsets of strings that were not valid UTF-8;
	// they are kept with U+FFFD in place of the bad bytes.
	badUTF8 []int
}

// text makes a parsed string: invalid UTF-8 (JSON requires UTF-8) is
// replaced by U+FFFD, as encoding/json does, and its offset recorded, so
// that neither the plugins' protocol nor the CSVs ever see the raw bytes.
func (p *parser) text(b []byte, start int) string {
	if utf8.Valid(b) {
		return string(b)
	}
	p.badUTF8 = append(p.badUTF8, start)
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func (p *parser) fail(off int, format string, args ...any) *syntaxError {
	return &syntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	data, i := p.data, p.pos
	for i < len(data) {
		c := data[i]
		if c > ' ' || (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
			break
		}
		i++
	}
	p.pos = i
}

// describe renders the byte at the current position for an error message.
func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of file"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", p.data[p.pos])
	}
	return strconv.QuoteRune(r)
}

// value parses one value starting at the current position.
func (p *parser) value() (*jvalue, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.fail(p.pos, "unexpected end of file, expected a value")
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jvalue{kind: jString, off: start, s: s}, nil
	case c == 't':
		if err := p.literal("true"); err != nil {
			return nil, err
		}
		return &jvalue{kind: jBool, off: start, b: true}, nil
	case c == 'f':
		if err := p.literal("false"); err != nil {
			return nil, err
		}
		return &jvalue{kind: jBool, off: start}, nil
	case c == 'n':
		if err := p.literal("null"); err != nil {
			return nil, err
		}
		return &jvalue{kind: jNull, off: start}, nil
	case c == 'N':
		if err := p.literal("NaN"); err != nil {
			return nil, err
		}
		return &jvalue{kind: jNumber, off: start, num: "NaN", f: math.NaN()}, nil
	case c == 'I':
		if err := p.literal("Infinity"); err != nil {
			return nil, err
		}
		return &jvalue{kind: jNumber, off: start, num: "Infinity", f: math.Inf(1)}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.fail(p.pos, "unexpected %s, expected a value", p.describe())
}

func (p *parser) literal(word string) error {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return nil
	}
	return p.fail(p.pos, "invalid literal, expected %q", word)
}

func (p *parser) number() (*jvalue, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
		if p.pos < len(p.data) && p.data[p.pos] == 'I' {
			if err := p.literal("Infinity"); err != nil {
				return nil, err
			}
			return &jvalue{kind: jNumber, off: start, num: "-Infinity", f: math.Inf(-1)}, nil
		}
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if digits() == 0 {
		return nil, p.fail(p.pos, "invalid number: expected a digit, found %s", p.describe())
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		return nil, p.fail(intStart, "invalid number: leading zero")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.fail(p.pos, "invalid number: expected a digit after '.', found %s", p.describe())
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail(p.pos, "invalid number: expected a digit in the exponent, found %s", p.describe())
		}
	}
	text := string(p.data[start:p.pos])
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// Only a range error is possible for valid syntax: Python writes
		// such values as Infinity, but accept the overflow as ±Inf.
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return nil, p.fail(start, "invalid number %q", text)
		}
	}
	return &jvalue{kind: jNumber, off: start, num: text, f: f}, nil
}

func (p *parser) str() (string, error) {
	start := p.pos
	p.pos++ // opening quote
	// Fast path: no escapes.
	i := p.pos
	for i < len(p.data) {
		c := p.data[i]
		if c == '"' {
			s := p.text(p.data[p.pos:i], start)
			p.pos = i + 1
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		i++
	}
	buf := make([]byte, 0, i-p.pos+16)
	buf = append(buf, p.data[p.pos:i]...)
	p.pos = i
	for {
		if p.pos >= len(p.data) {
			return "", p.fail(start, "unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return p.text(buf, start), nil
		case c < 0x20:
			return "", p.fail(p.pos, "invalid control character 0x%02x in string", c)
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		// Escape sequence.
		if p.pos+1 >= len(p.data) {
			return "", p.fail(start, "unterminated string")
		}
		e := p.data[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail(p.pos-2, "invalid \\u escape in string")
			}
			if utf16.IsSurrogate(r) {
				// A surrogate pair is two escapes; a lone half becomes U+FFFD.
				save := p.pos
				if p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					p.pos += 2
					if r2, ok := p.hex4(); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							buf = utf8.AppendRune(buf, d)
							continue
						}
					}
				}
				p.pos = save
				r = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.fail(p.pos-2, "invalid escape '\\%c' in string", e)
		}
	}
}

func (p *parser) hex4() (rune, bool) {
	if len(p.data)-p.pos < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.pos += 4
	return r, true
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.fail(p.pos, "nesting deeper than %d levels", maxDepth)
	}
	return nil
}

func (p *parser) array() (*jvalue, error) {
	v := &jvalue{kind: jArray, off: p.pos}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '['
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.arr = append(v.arr, e)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail(p.pos, "unexpected end of file in array, expected ',' or ']'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return nil, p.fail(p.pos, "unexpected %s in array, expected ',' or ']'", p.describe())
		}
	}
}

// objectHead consumes '{' and reports whether the object is empty.
func (p *parser) objectHead() (empty bool, err error) {
	if err := p.enter(); err != nil {
		return false, err
	}
	p.pos++ // '{'
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return true, nil
	}
	return false, nil
}

// memberKey reads `"key" :` and returns the key and its offset.
func (p *parser) memberKey() (string, int, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return "", p.pos, p.fail(p.pos, "unexpected end of file in object, expected a key")
	}
	if p.data[p.pos] != '"' {
		return "", p.pos, p.fail(p.pos, "unexpected %s in object, expected a string key", p.describe())
	}
	off := p.pos
	k, err := p.str()
	if err != nil {
		return "", off, err
	}
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return "", off, p.fail(p.pos, "unexpected %s after object key %q, expected ':'", p.describe(), k)
	}
	p.pos++
	return k, off, nil
}

// memberEnd consumes ',' (more members follow) or '}' (done).
func (p *parser) memberEnd() (done bool, err error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return false, p.fail(p.pos, "unexpected end of file in object, expected ',' or '}'")
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case '}':
		p.pos++
		p.depth--
		return true, nil
	}
	return false, p.fail(p.pos, "unexpected %s in object, expected ',' or '}'", p.describe())
}

func (p *parser) object() (*jvalue, error) {
	v := &jvalue{kind: jObject, off: p.pos}
	empty, err := p.objectHead()
	if err != nil || empty {
		return v, err
	}
	for {
		k, off, err := p.memberKey()
		if err != nil {
			return nil, err
		}
		e, err := p.value()
		if err != nil {
			return nil, err
		}
		v.obj = append(v.obj, jmember{key: k, off: off, val: e})
		done, err := p.memberEnd()
		if err != nil {
			return nil, err
		}
		if done {
			return v, nil
		}
	}
}

// expectEnd checks that only white space follows the document.
func (p *parser) expectEnd() error {
	p.skipSpace()
	if p.pos < len(p.data) {
		return p.fail(p.pos, "unexpected %s after the end of the JSON document", p.describe())
	}
	return nil
}

// positionOf converts a byte offset to 1-based line and column (columns
// count characters, not bytes).
func positionOf(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		if data[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return line, utf8.RuneCount(data[lineStart:off]) + 1
}

// skip reads one value like value does, with the same checks and the same
// errors, but builds nothing: the index of a dump (Open) finds the bounds of
// every entry body this way without allocating. It returns the value's kind.
func (p *parser) skip() (jkind, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return 0, p.fail(p.pos, "unexpected end of file, expected a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return jObject, p.skipObject()
	case c == '[':
		return jArray, p.skipArray()
	case c == '"':
		return jString, p.skipStr()
	case c == 't':
		return jBool, p.literal("true")
	case c == 'f':
		return jBool, p.literal("false")
	case c == 'n':
		return jNull, p.literal("null")
	case c == 'N':
		return jNumber, p.literal("NaN")
	case c == 'I':
		return jNumber, p.literal("Infinity")
	case c == '-' || (c >= '0' && c <= '9'):
		return jNumber, p.skipNumber()
	}
	return 0, p.fail(p.pos, "unexpected %s, expected a value", p.describe())
}

// skipNumber checks a number's syntax (number's checks; its strconv parse
// cannot fail on valid syntax).
func (p *parser) skipNumber() error {
	if p.data[p.pos] == '-' {
		p.pos++
		if p.pos < len(p.data) && p.data[p.pos] == 'I' {
			return p.literal("Infinity")
		}
	}
	digits := func() int {
		data, i := p.data, p.pos
		for i < len(data) && data[i]-'0' <= 9 {
			i++
		}
		n := i - p.pos
		p.pos = i
		return n
	}
	intStart := p.pos
	if digits() == 0 {
		return p.fail(p.pos, "invalid number: expected a digit, found %s", p.describe())
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		return p.fail(intStart, "invalid number: leading zero")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.fail(p.pos, "invalid number: expected a digit after '.', found %s", p.describe())
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.fail(p.pos, "invalid number: expected a digit in the exponent, found %s", p.describe())
		}
	}
	return nil
}

// skipStr checks a string like str and records invalid UTF-8 the same way
// (escapes only ever decode to valid UTF-8, so the raw bytes decide).
func (p *parser) skipStr() error {
	start := p.pos
	p.pos++ // opening quote
	valid := true
	for {
		// Runs of plain bytes.
		data, i := p.data, p.pos
		high := byte(0)
		for i < len(data) {
			c := data[i]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			high |= c
			i++
		}
		if valid && high >= 0x80 && !utf8.Valid(data[p.pos:i]) {
			valid = false
		}
		p.pos = i
		if p.pos >= len(p.data) {
			return p.fail(start, "unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			if !valid {
				p.badUTF8 = append(p.badUTF8, start)
			}
			return nil
		case c < 0x20:
			return p.fail(p.pos, "invalid control character 0x%02x in string", c)
		}
		// Escape sequence.
		if p.pos+1 >= len(p.data) {
			return p.fail(start, "unterminated string")
		}
		e := p.data[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if _, ok := p.hex4(); !ok {
				return p.fail(p.pos-2, "invalid \\u escape in string")
			}
		default:
			return p.fail(p.pos-2, "invalid escape '\\%c' in string", e)
		}
	}
}

func (p *parser) skipArray() error {
	if err := p.enter(); err != nil {
		return err
	}
	defer func() { p.depth-- }()
	p.pos++ // '['
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return nil
	}
	for {
		if _, err := p.skip(); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.fail(p.pos, "unexpected end of file in array, expected ',' or ']'")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return nil
		default:
			return p.fail(p.pos, "unexpected %s in array, expected ',' or ']'", p.describe())
		}
	}
}

func (p *parser) skipObject() error {
	empty, err := p.objectHead()
	if err != nil || empty {
		return err
	}
	for {
		if err := p.skipKey(); err != nil {
			return err
		}
		if _, err := p.skip(); err != nil {
			return err
		}
		done, err := p.memberEnd()
		if err != nil || done {
			return err
		}
	}
}

// skipKey is memberKey without building the key.
func (p *parser) skipKey() error {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return p.fail(p.pos, "unexpected end of file in object, expected a key")
	}
	if p.data[p.pos] != '"' {
		return p.fail(p.pos, "unexpected %s in object, expected a string key", p.describe())
	}
	start := p.pos
	if err := p.skipStr(); err != nil {
		return err
	}
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		// the message quotes the key: decode it (errors only)
		q := &parser{data: p.data, pos: start}
		k, _ := q.str()
		return p.fail(p.pos, "unexpected %s after object key %q, expected ':'", p.describe(), k)
	}
	p.pos++
	return nil
}
