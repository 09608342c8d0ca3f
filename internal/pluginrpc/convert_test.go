package pluginrpc

import (
	"strings"
	"testing"

	pb "github.com/probe-dev/probe/internal/pb/probev1"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestTensorFromPBRejectsBadInput(t *testing.T) {
	inline := func(b []byte) *pb.Tensor_Inline { return &pb.Tensor_Inline{Inline: b} }
	cases := []struct {
		name string
		in   *pb.Tensor
		want string
	}{
		{"nil", nil, "missing tensor"},
		{"invalid dtype", &pb.Tensor{Dtype: 0, Data: inline(nil)}, "invalid dtype"},
		{"unknown dtype", &pb.Tensor{Dtype: 99, Data: inline(nil)}, "invalid dtype"},
		{"negative dim", &pb.Tensor{Dtype: pb.DType_DTYPE_FLOAT32, Shape: []int64{2, -1}, Data: inline(nil)}, "out of range"},
		{"huge shape", &pb.Tensor{Dtype: pb.DType_DTYPE_FLOAT32, Shape: []int64{1 << 40, 1 << 40}, Data: inline(nil)}, "too large"},
		{"short data", &pb.Tensor{Dtype: pb.DType_DTYPE_FLOAT32, Shape: []int64{2}, Data: inline(make([]byte, 7))}, "needs 8 bytes, has 7"},
		{"no data", &pb.Tensor{Dtype: pb.DType_DTYPE_INT8, Shape: []int64{1}}, "without data"},
		{"ref length", &pb.Tensor{Dtype: pb.DType_DTYPE_FLOAT64, Shape: []int64{4}, Data: &pb.Tensor_Shm{Shm: &pb.ShmRef{Length: 31}}}, "reference holds 31"},
		{"ref without segment", &pb.Tensor{Dtype: pb.DType_DTYPE_FLOAT64, Shape: []int64{4}, Data: &pb.Tensor_Shm{Shm: &pb.ShmRef{Length: 32}}}, "no segment"},
	}
	for _, c := range cases {
		_, err := tensorFromPB(c.in, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error mentioning %q", c.name, err, c.want)
		}
	}
	// A reference into a segment other than the call's is refused.
	seg, err := transport.CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	bad := &pb.Tensor{Dtype: pb.DType_DTYPE_UINT8, Shape: []int64{4}, Data: &pb.Tensor_Shm{Shm: &pb.ShmRef{SegmentId: seg.ID() + 1, Length: 4}}}
	if _, err := tensorFromPB(bad, func(r transport.Ref) ([]byte, error) { return transport.ReadRef(seg, r) }); err == nil {
		t.Error("reference to a foreign segment accepted")
	}
}

func TestInvalidKindsRejected(t *testing.T) {
	if _, err := attrsFromPB(map[string]*pb.Attr{"x": {Kind: 77}}); err == nil {
		t.Error("attr kind 77 accepted")
	}
	if _, err := scalarFromPB(&pb.Scalar{Kind: 9}); err == nil {
		t.Error("scalar kind 9 accepted")
	}
	if _, err := planFromPB(&pb.Plan{Inputs: []*pb.Binding{{Kind: 5}}}); err == nil {
		t.Error("binding kind 5 accepted")
	}
	if _, err := argFromPB(&pb.Arg{Kind: 40}); err == nil {
		t.Error("arg kind 40 accepted")
	}
	if _, err := valuesFromPB([]*pb.Value{{Kind: &pb.Value_Scalar{Scalar: &pb.Scalar{Kind: 3}}}}, nil); err == nil {
		t.Error("bad scalar value accepted")
	}
}

// TestWireEnumValues pins the numbers of every protocol enum by name: they
// are the protocol (plugins in other languages are generated from
// sdk/proto), so renumbering one is a breaking change even when the Go
// code still compiles.
func TestWireEnumValues(t *testing.T) {
	pins := []struct {
		name string
		got  int32
		want int32
	}{
		{"ERROR_KIND_FAILURE", int32(pb.ErrorKind_ERROR_KIND_FAILURE), 0},
		{"ERROR_KIND_UNSUPPORTED", int32(pb.ErrorKind_ERROR_KIND_UNSUPPORTED), 1},
		{"ERROR_KIND_INVALID_ARGUMENT", int32(pb.ErrorKind_ERROR_KIND_INVALID_ARGUMENT), 2},
		{"SYNTHETIC_NONE", int32(pb.Synthetic_SYNTHETIC_NONE), 0},
		{"SYNTHETIC_CAUSAL_MASK", int32(pb.Synthetic_SYNTHETIC_CAUSAL_MASK), 1},
		{"COMPARE_MODE_STANDARD", int32(pb.CompareMode_COMPARE_MODE_STANDARD), 0},
		{"COMPARE_MODE_ZERO_SHARE", int32(pb.CompareMode_COMPARE_MODE_ZERO_SHARE), 1},
		{"INPUT_GENERATOR_PROBE", int32(pb.InputGenerator_INPUT_GENERATOR_PROBE), 0},
		{"INPUT_GENERATOR_MSPROBE_MINDSPORE", int32(pb.InputGenerator_INPUT_GENERATOR_MSPROBE_MINDSPORE), 1},
		{"BINDING_KIND_NONE", int32(pb.BindingKind_BINDING_KIND_NONE), 0},
		{"BINDING_KIND_TENSOR", int32(pb.BindingKind_BINDING_KIND_TENSOR), 1},
		{"BINDING_KIND_SCALAR", int32(pb.BindingKind_BINDING_KIND_SCALAR), 2},
		{"SCALAR_KIND_FLOAT", int32(pb.ScalarKind_SCALAR_KIND_FLOAT), 0},
		{"SCALAR_KIND_INT", int32(pb.ScalarKind_SCALAR_KIND_INT), 1},
		{"SCALAR_KIND_BOOL", int32(pb.ScalarKind_SCALAR_KIND_BOOL), 2},
		{"ATTR_KIND_NONE", int32(pb.AttrKind_ATTR_KIND_NONE), 0},
		{"ATTR_KIND_INT", int32(pb.AttrKind_ATTR_KIND_INT), 1},
		{"ATTR_KIND_FLOAT", int32(pb.AttrKind_ATTR_KIND_FLOAT), 2},
		{"ATTR_KIND_BOOL", int32(pb.AttrKind_ATTR_KIND_BOOL), 3},
		{"ATTR_KIND_STRING", int32(pb.AttrKind_ATTR_KIND_STRING), 4},
		{"ATTR_KIND_INTS", int32(pb.AttrKind_ATTR_KIND_INTS), 5},
		{"ATTR_KIND_FLOATS", int32(pb.AttrKind_ATTR_KIND_FLOATS), 6},
		{"DTYPE_INVALID", int32(pb.DType_DTYPE_INVALID), 0},
		{"DTYPE_FLOAT64", int32(pb.DType_DTYPE_FLOAT64), 1},
		{"DTYPE_FLOAT32", int32(pb.DType_DTYPE_FLOAT32), 2},
		{"DTYPE_FLOAT16", int32(pb.DType_DTYPE_FLOAT16), 3},
		{"DTYPE_BFLOAT16", int32(pb.DType_DTYPE_BFLOAT16), 4},
		{"DTYPE_INT8", int32(pb.DType_DTYPE_INT8), 5},
		{"DTYPE_INT16", int32(pb.DType_DTYPE_INT16), 6},
		{"DTYPE_INT32", int32(pb.DType_DTYPE_INT32), 7},
		{"DTYPE_INT64", int32(pb.DType_DTYPE_INT64), 8},
		{"DTYPE_UINT8", int32(pb.DType_DTYPE_UINT8), 9},
		{"DTYPE_BOOL", int32(pb.DType_DTYPE_BOOL), 10},
		{"ARG_KIND_NONE", int32(pb.ArgKind_ARG_KIND_NONE), 0},
		{"ARG_KIND_TENSOR", int32(pb.ArgKind_ARG_KIND_TENSOR), 1},
		{"ARG_KIND_UNKNOWN", int32(pb.ArgKind_ARG_KIND_UNKNOWN), 12},
	}
	for _, p := range pins {
		if p.got != p.want {
			t.Errorf("%s = %d on the wire, want %d", p.name, p.got, p.want)
		}
	}
	// The Go enums that mirror them are converted by number.
	goPins := []struct {
		name      string
		got, want int32
	}{
		{"framework.SynthCausalMask", int32(framework.SynthCausalMask), int32(pb.Synthetic_SYNTHETIC_CAUSAL_MASK)},
		{"framework.CompareZeroShare", int32(framework.CompareZeroShare), int32(pb.CompareMode_COMPARE_MODE_ZERO_SHARE)},
		{"framework.GenMsprobeMindSpore", int32(framework.GenMsprobeMindSpore), int32(pb.InputGenerator_INPUT_GENERATOR_MSPROBE_MINDSPORE)},
		{"framework.BindScalar", int32(framework.BindScalar), int32(pb.BindingKind_BINDING_KIND_SCALAR)},
		{"framework.ArgUnknown", int32(framework.ArgUnknown), int32(pb.ArgKind_ARG_KIND_UNKNOWN)},
		{"ops.ScalarBool", int32(ops.ScalarBool), int32(pb.ScalarKind_SCALAR_KIND_BOOL)},
		{"ops.AttrFloats", int32(ops.AttrFloats), int32(pb.AttrKind_ATTR_KIND_FLOATS)},
		{"tensor.Bool", int32(tensor.Bool), int32(pb.DType_DTYPE_BOOL)},
		{"tensor.BFloat16", int32(tensor.BFloat16), int32(pb.DType_DTYPE_BFLOAT16)},
	}
	for _, p := range goPins {
		if p.got != p.want {
			t.Errorf("%s = %d, wire value %d", p.name, p.got, p.want)
		}
	}
}
