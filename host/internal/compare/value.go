package compare

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/probe-dev/probe/host/internal/report"
)

// kind is the Python type a cell has when msprobe reads it with pandas.
type kind uint8

const (
	kText  kind = iota // str
	kFloat             // float (numeric column)
	kInt               // int (integer column)
	kNA                // float NaN: a pandas NA token such as "" or "nan"
	kNone              // the column does not exist (pandas raises KeyError)
)

// value is one cell as the comparison sees it. Without --compat every
// present cell is text; with it, cells are typed the way pandas.read_csv
// types them (see table.go).
type value struct {
	k kind
	s string  // the cell's text as read (always set when the column exists)
	f float64 // the number, for kFloat, kInt and kNA
}

// pyTypeName is Python's type name of the value, for AttributeError texts.
func (v value) pyTypeName() string {
	switch v.k {
	case kText:
		return "str"
	case kInt:
		return "int"
	}
	return "float"
}

// is reports whether v is a str equal to s.
func (v value) is(s string) bool { return v.k == kText && v.s == s }

// pyStr is Python's str(v).
func (v value) pyStr() string {
	switch v.k {
	case kText:
		return v.s
	case kInt:
		return strconv.FormatInt(int64(v.f), 10)
	}
	return report.PyRepr(v.f, 64)
}

// csvText is how msprobe's write_detail_csv writes a cell copied from an
// input row: floats with fixed decimals, everything else with str().
func (v value) csvText(precision int) string {
	switch v.k {
	case kFloat, kNA:
		return fixed(v.f, precision)
	}
	return v.pyStr()
}

// fixed formats v like Python's "{:.Nf}".format(v).
func fixed(v float64, precision int) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'f', precision, 64)
}

// pyIsSpace is Python's str.isspace: true for a non-empty string made of
// whitespace only.
func pyIsSpace(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsSpace(r) && (r < 0x1c || r > 0x1f) {
			return false
		}
	}
	return true
}

// pyFloatSyntax is the decimal literal grammar of Python's float(str),
// underscores between digits included.
var pyFloatSyntax = regexp.MustCompile(`^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$`)

// Python's float() error texts, as msprobe's convert_str_to_float reports
// them (pytorch-precheck Appendix D.5).
const (
	msgEmpty      = "ERROR: Input data is an empty string"
	msgNotANumber = "ERROR: Input data cannot be converted to float"
)

// pyFloat parses s like Python's float(s): surrounding whitespace allowed,
// "nan", "inf" and "infinity" in any case with an optional sign, decimal
// literals with optional underscores between digits. ok is false when
// Python would raise ValueError.
func pyFloat(s string) (float64, bool) {
	t := strings.TrimFunc(s, unicode.IsSpace)
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) <= 1 {
		neg := strings.HasPrefix(t, "-")
		switch strings.ToLower(body) {
		case "nan":
			return math.NaN(), true
		case "inf", "infinity":
			if neg {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		}
	}
	if !pyFloatSyntax.MatchString(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// pandasNA is pandas.read_csv's default set of NA tokens: a cell that is
// exactly one of these is read as NaN.
var pandasNA = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true, "-NaN": true,
	"-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true, "NA": true, "NULL": true,
	"NaN": true, "None": true, "n/a": true, "nan": true, "null": true,
}

var (
	pandasInt   = regexp.MustCompile(`^[ \t]*[+-]?\d+[ \t]*$`)
	pandasFloat = regexp.MustCompile(`^[ \t]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t]*$`)
)

// pandasNumber reports whether pandas' C parser reads s as a number, and
// whether as an integer. (Its float parser accepts surrounding blanks and
// the spellings inf/infinity with an optional sign in any case.)
func pandasNumber(s string) (f float64, isInt, ok bool) {
	if pandasInt.MatchString(s) {
		if n, err := strconv.ParseInt(strings.Trim(s, " \t"), 10, 64); err == nil {
			return float64(n), true, true
		}
	}
	switch strings.ToLower(s) {
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1), false, true
	case "-inf", "-infinity":
		return math.Inf(-1), false, true
	}
	if pandasFloat.MatchString(s) {
		f, err := strconv.ParseFloat(strings.Trim(s, " \t"), 64)
		if err == nil || isRangeErr(err) {
			return f, false, true
		}
	}
	return 0, false, false
}

func isInfOrNaN(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }
