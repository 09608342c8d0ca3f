package devicetest

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Finite-difference gradient checks (see doc.go). For a float64 backward
// case, L(x) = Σ g·f(x) over the float outputs that have a gradient in the
// case (g = the case's grad_outputs); for each float64 input x that
// requires grad and a seeded random direction v (uniform in [-1, 1] per
// element), the directional derivative Σ grad·v from the device's backward
// must match the central difference (L(x+hv) − L(x−hv)) / 2h of the
// device's own forward (forward-only Execute calls).
//
// A kink (relu at 0, max ties, a step of floor division) is detected by
// the second-order one-sided differences (−3L(0) + 4L(h) − L(2h)) / 2h and
// (3L(0) − 4L(−h) + L(−2h)) / 2h: both have the same O(h²) error on a
// smooth function, so they differ by more than the tolerance only at a
// kink, and the input is then skipped.
const (
	// fdStep is h relative to max(1, max|x|).
	fdStep = 1e-6
	// fdRTol is the tolerance relative to Σ|grad·v| + |central difference|.
	fdRTol = 1e-5
	// fdNoise bounds the rounding noise of one evaluation of L relative to
	// Σ|g·f|; divided by h, it is added to the tolerance.
	fdNoise = 1e-11
)

// gradCheckSkip says why a case is left out of the gradient checks, or ""
// when it may run.
func gradCheckSkip(c *Case) string {
	a := c.Request.Attrs
	switch {
	case c.DType != tensor.Float64:
		return "float64 cases only"
	case c.Op == "dropout" && a.Bool("train", true) && a.Float("p", 0.5) > 0 && a.Float("p", 0.5) < 1:
		// Random: the mask may depend on more than the seed.
		return "random output"
	case c.Op == "embedding" && (a.Int("padding_idx", -1) >= 0 || a.Bool("scale_grad_by_freq", false)):
		// PyTorch's gradient is not the derivative here, on purpose.
		return "gradient is not a derivative"
	case (c.Op == "npu.swiglu" || c.Op == "npu.scaled_masked_softmax") && a.Str("semantics", "official") == "msprobe":
		// msprobe's reference computes in float32 steps: differences of a
		// float32 function cannot resolve its derivative.
		return "float32 steps"
	case c.Op == "clamp" && clampAtBound(c.Request.Inputs):
		// PyTorch passes the gradient where x equals a bound, also where
		// min == max makes the function flat: not a derivative, and no kink
		// for the one-sided differences to see.
		return "x at a clamp bound"
	}
	return ""
}

// honoredOutputs lists, for ops with outputs whose gradient the op's
// backward ignores by definition (statistics returned beside the result),
// the outputs that L may use.
var honoredOutputs = map[string][]int{
	"npu.rms_norm":         {0}, // rstd: torch_npu's backward ignores its gradient
	"npu.fusion_attention": {0}, // softmax_max, softmax_sum
}

// clampAtBound reports whether a value of clamp's input equals a value of
// its min or max (scalar or any element of a tensor).
func clampAtBound(in []ops.Value) bool {
	vals := func(v ops.Value) []float64 {
		switch v.Kind {
		case ops.KindTensor:
			if v.Tensor != nil && v.Tensor.Validate() == nil {
				return v.Tensor.Float64s()
			}
		case ops.KindScalar:
			return []float64{v.Scalar.Float()}
		}
		return nil
	}
	if len(in) == 0 {
		return false
	}
	bounds := map[float64]bool{}
	for _, v := range in[1:] {
		for _, b := range vals(v) {
			bounds[b] = true
		}
	}
	for _, x := range vals(in[0]) {
		if bounds[x] {
			return true
		}
	}
	return false
}

// gradCheck runs the finite-difference checks of one backward case whose
// main run gave res. It returns nil when no input was checked.
func (k *checker) gradCheck(c *Case, res *device.ExecResult) (o *outcome) {
	if gradCheckSkip(c) != "" || len(res.InputGrads) != len(c.Request.Inputs) || len(res.Outputs) != len(c.Outputs) {
		return nil
	}
	o = &outcome{prefix: casePrefix(c)}
	ran := false
	defer func() {
		if r := recover(); r != nil {
			o.fail(math.Inf(1), "gradient check: panic: %v", r)
			ran = true
		}
		if !ran {
			o = nil
		}
	}()
	req := c.Request
	// The outputs in L and their gradients, as float64.
	var used []int
	gs := map[int][]float64{}
	for i, g := range req.GradOutputs {
		if g == nil || i >= len(c.Outputs) || !c.Outputs[i].DType.IsFloat() {
			continue
		}
		if h, ok := honoredOutputs[c.Op]; ok && !slices.Contains(h, i) {
			continue
		}
		if c.Outputs[i].DType != tensor.Float64 || g.DType != tensor.Float64 {
			return nil // a narrower output rounds away the differences
		}
		used = append(used, i)
		gs[i] = g.Float64s()
	}
	if len(used) == 0 {
		return nil
	}
	sch, _ := ops.Lookup(c.Op)
	var inputs []int
	for i, v := range req.Inputs {
		if v.Kind == ops.KindTensor && v.Tensor != nil && v.Tensor.DType == tensor.Float64 &&
			i < len(req.RequiresGrad) && req.RequiresGrad[i] && sch.Input(i).Differentiable {
			inputs = append(inputs, i)
		}
	}
	if len(inputs) == 0 {
		return nil
	}
	// loss runs the forward with input i replaced by x (x == nil: none
	// replaced) and returns L and Σ|g·f|.
	loss := func(i int, x []float64) (l, mag float64, err error) {
		fr := &device.ExecRequest{API: req.API, Op: req.Op, Attrs: req.Attrs, Inputs: req.Inputs,
			RequiresGrad: req.RequiresGrad, Seed: req.Seed, Precision: req.Precision}
		if x != nil {
			fr.Inputs = append([]ops.Value(nil), req.Inputs...)
			fr.Inputs[i] = ops.T(tensor.FromFloat64s(tensor.Float64, req.Inputs[i].Tensor.Shape, x))
		}
		r, err := k.execute(fr) // execute copies the request
		if err != nil {
			return 0, 0, fmt.Errorf("forward-only Execute: %v (%s)", err, device.KindOf(err))
		}
		if r == nil || len(r.Outputs) != len(c.Outputs) {
			return 0, 0, fmt.Errorf("forward-only Execute: no result or a wrong number of outputs")
		}
		for _, j := range used {
			out, g := r.Outputs[j], gs[j]
			if out == nil || out.Validate() != nil || out.DType != tensor.Float64 || out.Len() != len(g) {
				return 0, 0, fmt.Errorf("forward-only Execute: output %d is not a float64 tensor of %d elements", j, len(g))
			}
			for e, f := range out.Float64s() {
				l += g[e] * f
				mag += math.Abs(g[e] * f)
			}
		}
		return l, mag, nil
	}
	l0, mag, err := loss(0, nil)
	if err != nil {
		o.fail(math.Inf(1), "gradient check: %v", err)
		ran = true
		return o
	}
	if math.IsNaN(l0) || math.IsInf(l0, 0) {
		return nil // NaN or infinite values in the case: nothing to difference
	}
	for _, i := range inputs {
		grad := res.InputGrads[i]
		x0 := req.Inputs[i].Tensor
		if grad != nil && (grad.Validate() != nil || grad.DType != tensor.Float64 || grad.Len() != x0.Len()) {
			continue // the case's own comparison reports it
		}
		x := x0.Float64s()
		maxAbs := 1.0
		for _, v := range x {
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				maxAbs = math.Max(maxAbs, math.Abs(v))
			}
		}
		h := fdStep * maxAbs
		v := direction(c.Name, i, x)
		var a, s float64 // Σ grad·v, Σ|grad·v|
		if grad != nil {
			for j, gj := range grad.Float64s() {
				a += gj * v[j]
				s += math.Abs(gj * v[j])
			}
		}
		var l [5]float64 // L at -2h, -h, 0, h, 2h
		l[2] = l0
		ok := true
		for n, t := range []float64{-2, -1, 1, 2} {
			xt := make([]float64, len(x))
			for j := range x {
				xt[j] = x[j] + t*h*v[j]
			}
			idx := n
			if t > 0 {
				idx = n + 1
			}
			lt, _, err := loss(i, xt)
			if err != nil {
				o.fail(math.Inf(1), "gradient check of %s: %v", inputName(c, i), err)
				ran = true
				return o
			}
			if math.IsNaN(lt) || math.IsInf(lt, 0) {
				ok = false
				break
			}
			l[idx] = lt
		}
		if !ok || math.IsNaN(a) || math.IsInf(a, 0) {
			continue // leaves the domain, or an infinite gradient: golden values judge it
		}
		central := (l[3] - l[1]) / (2 * h)
		fwd := (-3*l[2] + 4*l[3] - l[4]) / (2 * h)
		bwd := (3*l[2] - 4*l[1] + l[0]) / (2 * h)
		tol := fdRTol*(s+math.Abs(central)) + fdNoise*mag/h
		if math.Abs(fwd-bwd) > tol {
			continue // a kink
		}
		ran = true
		d := math.Abs(central - a)
		ratio := 0.0
		if d > 0 {
			ratio = d / tol
		}
		o.seen(ratio)
		if d > tol {
			o.fail(ratio, "gradient check of %s: backward gives directional derivative %.8g, finite differences of the forward %.8g, |err| %.2g > tol %.2g (%s tolerance)",
				inputName(c, i), a, central, d, tol, fmtRatio(ratio))
		}
	}
	return o
}

// direction is the seeded random direction of input i of a case: uniform
// in [-1, 1], 0 where x is not finite.
func direction(name string, i int, x []float64) []float64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(h.Sum64(), uint64(i)+0x9e3779b97f4a7c15))
	v := make([]float64, len(x))
	for j := range v {
		v[j] = 2*r.Float64() - 1
		if math.IsNaN(x[j]) || math.IsInf(x[j], 0) {
			v[j] = 0
		}
	}
	return v
}
