package dump

import (
	"crypto/sha256"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Signatures of a forward call for -f/--filter_api, the de-duplication of
// identical calls (pytorch-precheck §3.6). Two calls of the same API (full
// name minus the call index) with equal signatures are duplicates. Each
// signature is a SHA-256 digest of a canonical rendering of the raw JSON
// descriptors under Python's equality: object keys in any order (the last
// duplicate key wins), 1 == 1.0 == true, NaN equal to NaN (Python's json
// shares one NaN object, and container comparison tests identity first).

// statKeys are the descriptor keys left out of probe's signature: the
// statistics and the location of the data, which differ between calls that
// are otherwise the same (§12 #15).
var statKeys = map[string]bool{
	"Max": true, "Min": true, "Mean": true, "Norm": true, "md5": true,
	"Max_except_inf_nan": true, "Min_except_inf_nan": true,
	"data_name": true, "datapath": true,
}

// signatures computes Call.FilterSig (probe's rule: every positional and
// keyword descriptor, list contents included, without statistics keys in
// any descriptor) and Call.FilterSigMsprobe (msprobe's rule: only the
// top-level object elements of input_args, each without Max and Min, and
// input_kwargs unchanged).
func signatures(body *jvalue) (probe, msprobe string) {
	args, kwargs := body.get("input_args"), body.get("input_kwargs")

	var b strings.Builder
	b.WriteString("args:")
	canon(&b, args, func(obj *jvalue, key string) bool { return isDescriptor(obj) && statKeys[key] })
	b.WriteString("\x00kwargs:")
	canon(&b, kwargs, func(obj *jvalue, key string) bool { return isDescriptor(obj) && statKeys[key] })
	probe = digest(b.String())

	b.Reset()
	b.WriteString("args:[")
	if args != nil && args.kind == jArray {
		for _, a := range args.arr {
			if a.kind != jObject {
				continue // msprobe keeps only the dict elements
			}
			top := a
			canon(&b, a, func(obj *jvalue, key string) bool { return obj == top && (key == "Max" || key == "Min") })
			b.WriteByte(',')
		}
	}
	b.WriteString("]\x00kwargs:")
	canon(&b, kwargs, func(*jvalue, string) bool { return false })
	msprobe = digest(b.String())
	return probe, msprobe
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return string(sum[:])
}

// isDescriptor: an object with a "type" member (an argument descriptor,
// not a dict argument's members).
func isDescriptor(v *jvalue) bool { return v.get("type") != nil }

// canon writes v in a canonical form; drop(obj, key) leaves members out.
func canon(b *strings.Builder, v *jvalue, drop func(obj *jvalue, key string) bool) {
	if v == nil {
		b.WriteString("missing")
		return
	}
	switch v.kind {
	case jNull:
		b.WriteString("null")
	case jBool:
		if v.b {
			b.WriteString("n1")
		} else {
			b.WriteString("n0")
		}
	case jNumber:
		b.WriteString("n")
		b.WriteString(canonNumber(v))
	case jString:
		b.WriteString(strconv.Quote(v.s))
	case jArray:
		b.WriteByte('[')
		for _, e := range v.arr {
			canon(b, e, drop)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case jObject:
		last := map[string]*jvalue{}
		for _, m := range v.obj {
			last[m.key] = m.val
		}
		keys := make([]string, 0, len(last))
		for k := range last {
			if !drop(v, k) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canon(b, last[k], drop)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	}
}

// canonNumber renders a number so that equal Python values render alike:
// integral values as integers (exactly, also beyond 64 bits), others in
// shortest float form.
func canonNumber(v *jvalue) string {
	if v.isInt() {
		s := strings.TrimPrefix(v.num, "+")
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimLeft(strings.TrimPrefix(s, "-"), "0")
		switch {
		case s == "":
			return "0"
		case neg:
			return "-" + s
		}
		return s
	}
	f := v.f
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 0):
		return strconv.FormatFloat(f, 'g', -1, 64)
	case f == 0:
		return "0" // -0.0 == 0
	case f == math.Trunc(f):
		return strconv.FormatFloat(f, 'f', 0, 64) // 2.0 == 2
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
