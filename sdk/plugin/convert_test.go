package plugin

import (
	"strings"
	"testing"

	pb "github.com/probe-dev/probe/sdk/internal/pb/probev1"
	"github.com/probe-dev/probe/sdk/transport"
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
