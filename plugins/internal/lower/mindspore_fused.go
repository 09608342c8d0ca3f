package lower

import (
	"fmt"
	"sort"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
)

// MindSpore's functional equivalents of the fused torch_npu operators
// (issue 13): mindspore.ops.rms_norm, swiglu and rotary_position_embedding,
// dumped as Functional.<name>, with MindSpore's signatures and defaults,
// onto the same canonical ops as NPU.npu_rms_norm, npu_swiglu and
// npu_rotary_mul. flash_attention_score is FlashAttentionScore.

type msFusedRule struct {
	sig   *signature
	fn    lowerFunc
	multi bool
}

var msFused = map[string]msFusedRule{
	// mindspore.ops.rms_norm(x, gamma, epsilon=1e-6) -> (y, rstd)
	"rms_norm": {sig: mustSig("x, gamma, epsilon=1e-06"), fn: renamed(rmsNorm, "x", "self"), multi: true},
	// mindspore.ops.swiglu(input, dim=-1)
	"swiglu": {sig: mustSig("input, dim=-1"), fn: npuSwiglu},
	// mindspore.ops.rotary_position_embedding(x, cos, sin, mode=0): mode
	// 0 rotates halves (GPT-NeoX), 1 interleaved pairs (GPT-J)
	"rotary_position_embedding": {sig: mustSig("x, cos, sin, mode=0"), fn: msRotaryPositionEmbedding},
}

// MindSporeFusedNames lists the Functional.* fused APIs MindSporeFused
// lowers, sorted.
func MindSporeFusedNames() []string {
	out := make([]string, 0, len(msFused))
	for n := range msFused {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MindSporeFused lowers the MindSpore call api (Functional.<name>.N) of
// the fused functional name; ok is false when name is not one.
func MindSporeFused(api, name string, args []framework.Arg, kwargs []framework.NamedArg, compat string) (l *Lowered, ok bool, err error) {
	r, ok := msFused[name]
	if !ok {
		return nil, false, nil
	}
	defer func() {
		if p := recover(); p != nil {
			l, err = nil, fmt.Errorf("%s: internal error while planning: %v", api, p)
		}
	}()
	b := &bound{api: api, name: name, compat: compat}
	if err := r.sig.bind(b, args, kwargs, nil); err != nil {
		return nil, true, err
	}
	p, err := r.fn(b)
	if err != nil {
		return nil, true, err
	}
	if err := complete(p); err != nil {
		return nil, true, fmt.Errorf("%s: internal error: %v", api, err)
	}
	if err := CheckPlan(p); err != nil {
		return nil, true, fmt.Errorf("%s: internal error: %v", api, err)
	}
	return &Lowered{Plan: p, MultiOutput: r.multi}, true, nil
}

// renamed runs fn with the argument from also bound under the name to fn
// reads (MindSpore's x for torch_npu's self).
func renamed(fn lowerFunc, from, to string) lowerFunc {
	return func(b *bound) (*framework.Plan, error) {
		b.alias(from, to)
		return fn(b)
	}
}

// alias binds the argument from under the name to as well, given and
// positional as from is.
func (b *bound) alias(from, to string) {
	b.vals[to], b.given[to], b.positional[to] = b.vals[from], b.given[from], b.positional[from]
}

// msRotaryPositionEmbedding lowers rotary_position_embedding(x, cos, sin,
// mode) onto npu.rotary_mul(x, r1 = cos, r2 = sin): x·cos + rot(x)·sin.
func msRotaryPositionEmbedding(b *bound) (*framework.Plan, error) {
	mode, err := b.integer("mode")
	if err != nil {
		return nil, err
	}
	var rot string
	switch mode {
	case 0:
		rot = "half"
	case 1:
		rot = "interleave"
	default:
		return nil, b.argErr("mode", "must be 0 (rotate_half) or 1 (rotate_interleaved), got %d", mode)
	}
	for from, to := range map[string]string{"x": "input", "cos": "r1", "sin": "r2"} {
		b.alias(from, to)
	}
	b.vals["rotary_mode"] = framework.Arg{Kind: framework.ArgString, Str: rot}
	b.given["rotary_mode"], b.positional["rotary_mode"] = false, false
	p, err := npuRotaryMul(b)
	if err != nil {
		return nil, err
	}
	p.Attrs["rotary_mode"] = ops.StringAttr(rot)
	return p, nil
}
