package cpu

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// Tests of multi_head_attention beyond its golden group (mha.json.gz, from
// real torch 1.13): the refusals PyTorch has no error for, and the
// backward without the forward's saved intermediates.

func mhaTestCall(dt tensor.DType, attrs ops.Attrs, set map[int]*array) *call {
	rng := rand.New(rand.NewPCG(1, 2))
	arr := func(shape ...int) *array {
		a := nnNew(shape, dt)
		r := opRounder(dt)
		for i := range a.data {
			a.data[i] = r(rng.NormFloat64() * 0.5)
		}
		return a
	}
	L, S, N, E := 3, 4, 2, 4
	in := make([]*array, mhaInputs)
	in[mhaQuery], in[mhaKey], in[mhaValue] = arr(L, N, E), arr(S, N, E), arr(S, N, E)
	in[mhaInW], in[mhaInB], in[mhaOutW], in[mhaOutB] = arr(3*E, E), arr(3*E), arr(E, E), arr(E)
	in[mhaBiasK], in[mhaBiasV] = arr(1, 1, E), arr(1, 1, E)
	for i, a := range set {
		in[i] = a
	}
	c := &call{op: "multi_head_attention", attrs: ops.Attrs{}, in: in, requiresGrad: make([]bool, mhaInputs)}
	sch, _ := ops.Lookup("multi_head_attention")
	for _, a := range sch.Attrs {
		c.attrs[a.Name] = a.Default
	}
	c.attrs["embed_dim_to_check"], c.attrs["num_heads"] = ops.IntAttr(int64(E)), ops.IntAttr(2)
	for n, a := range attrs {
		c.attrs[n] = a
	}
	for i, a := range in {
		c.requiresGrad[i] = a != nil && a.dtype.IsFloat() && i != mhaKPM && i != mhaAttnMask
	}
	return c
}

func TestMHARefusals(t *testing.T) {
	_, err := mhaForward(mhaTestCall(tensor.Float64, ops.Attrs{"dropout_p": ops.FloatAttr(0.1)}, nil))
	if err == nil || !strings.Contains(err.Error(), "at random") {
		t.Errorf("dropout in training: %v", err)
	}
	if _, err := mhaForward(mhaTestCall(tensor.Float64, ops.Attrs{"dropout_p": ops.FloatAttr(0.1), "training": ops.BoolAttr(false)}, nil)); err != nil {
		t.Errorf("dropout off in eval: %v", err)
	}
	kpm, am := nnNew([]int{2, 4}, tensor.Float64), nnNew([]int{3, 4}, tensor.Float64)
	_, err = mhaForward(mhaTestCall(tensor.Float64, nil, map[int]*array{mhaKPM: kpm, mhaAttnMask: am}))
	if err == nil || !strings.Contains(err.Error(), "masked_fill") {
		t.Errorf("float padding mask with a float attn_mask: %v", err)
	}
}

// TestMHABackwardRecomputes: a backward without the forward's saved state
// (another call) recomputes it and gives the same gradients.
func TestMHABackwardRecomputes(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float64, tensor.BFloat16} {
		attrs := ops.Attrs{"add_zero_attn": ops.BoolAttr(true)}
		c := mhaTestCall(dt, attrs, nil)
		outs, err := mhaForward(c)
		if err != nil {
			t.Fatal(err)
		}
		gos := []*array{nnNew(outs[0].shape, dt), nnNew(outs[1].shape, dt)}
		for _, g := range gos {
			for i := range g.data {
				g.data[i] = opRounder(dt)(float64(i%7) - 3)
			}
		}
		saved, err := mhaBackward(c, outs, gos)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := mhaBackward(mhaTestCall(dt, attrs, nil), outs, gos)
		if err != nil {
			t.Fatal(err)
		}
		for i := range saved {
			if (saved[i] == nil) != (fresh[i] == nil) || saved[i] != nil && !slices.Equal(saved[i].data, fresh[i].data) {
				t.Errorf("%s input %d: gradients differ", dt, i)
			}
			if want := c.requiresGrad[i]; want != (saved[i] != nil) {
				t.Errorf("%s input %d: gradient present %v, want %v", dt, i, saved[i] != nil, want)
			}
		}
	}
}
