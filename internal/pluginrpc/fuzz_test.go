package pluginrpc

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/probe-dev/probe/internal/pb/probev1"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// fuzzSegmentID is the segment ID that fuzzed shared-memory references use
// for the real segment FuzzConvert maps (a real ID is random).
const fuzzSegmentID = 1

// FuzzConvert unmarshals arbitrary bytes into every protobuf message a
// plugin or the host receives (tensors, execute requests and responses,
// plan requests and responses, describe responses, errors) and converts
// each one that unmarshals into its SDK type, as the two sides do. The
// conversion never panics; it returns an error or SDK values whose tensors
// pass Validate; and what converted goes back through the converter in the
// other direction, the wire and the conversion again unchanged. Tensors in
// shared memory are read from a real segment of 4 KiB, as views and as
// copies; references to segment 1 address it.
func FuzzConvert(f *testing.F) {
	seg, err := transport.CreateSegment()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { seg.Close() })
	if err := seg.Reserve(4096); err != nil {
		f.Fatal(err)
	}
	pattern := make([]byte, 4096)
	for i := range pattern {
		pattern[i] = byte(i*7 + 3)
	}
	if err := seg.WriteAt(pattern, 0); err != nil {
		f.Fatal(err)
	}
	onSegment := func(ref transport.Ref) transport.Ref {
		if ref.SegmentID == fuzzSegmentID {
			ref.SegmentID = seg.ID()
		}
		return ref
	}
	resolvers := []resolver{
		func(ref transport.Ref) ([]byte, error) { return transport.ReadRef(seg, onSegment(ref)) },
		func(ref transport.Ref) ([]byte, error) { return transport.ViewRef(seg, onSegment(ref)) },
	}
	for _, m := range fuzzSeedMessages() {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, resolve := range resolvers {
			var tp pb.Tensor
			if proto.Unmarshal(data, &tp) == nil {
				fuzzTensor(t, &tp, resolve)
			}
			var er pb.ExecuteRequest
			if proto.Unmarshal(data, &er) == nil {
				fuzzExecuteRequest(t, &er, resolve)
			}
			var eresp pb.ExecuteResponse
			if proto.Unmarshal(data, &eresp) == nil {
				fuzzExecuteResponse(t, &eresp, resolve)
			}
		}
		var pr pb.PlanRequest
		if proto.Unmarshal(data, &pr) == nil {
			fuzzPlanRequest(t, &pr)
		}
		var presp pb.PlanResponse
		if proto.Unmarshal(data, &presp) == nil {
			fuzzPlanResponse(t, &presp)
		}
		var dd pb.DeviceDescribeResponse
		if proto.Unmarshal(data, &dd) == nil {
			fuzzDeviceDescribe(t, &dd)
		}
		var fd pb.FrameworkDescribeResponse
		if proto.Unmarshal(data, &fd) == nil {
			fuzzFrameworkDescribe(t, &fd)
		}
		var e pb.Error
		if proto.Unmarshal(data, &e) == nil {
			fuzzError(t, &e)
		}
	})
}

// viaWire marshals m and unmarshals it into a new message of its type.
func viaWire[M proto.Message](t *testing.T, m M) M {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatalf("marshal %T: %v", m, err)
	}
	out := m.ProtoReflect().New().Interface().(M)
	if err := proto.Unmarshal(b, out); err != nil {
		t.Fatalf("unmarshal %T: %v", m, err)
	}
	return out
}

// inlinePacker is a packer that places every tensor inline.
func inlinePacker() *transport.Packer {
	return transport.NewPacker(transport.Options{DisableShm: true}, nil)
}

func checkTensors(t *testing.T, what string, ts ...*tensor.Tensor) {
	t.Helper()
	for i, x := range ts {
		if x == nil {
			continue
		}
		if err := x.Validate(); err != nil {
			t.Fatalf("%s %d converted without error but is invalid: %v", what, i, err)
		}
	}
}

func checkValues(t *testing.T, vs []ops.Value) {
	t.Helper()
	for i, v := range vs {
		switch v.Kind {
		case ops.KindTensor:
			if v.Tensor == nil {
				t.Fatalf("input %d: tensor value without tensor", i)
			}
			checkTensors(t, "input", v.Tensor)
		case ops.KindNone, ops.KindScalar:
		default:
			t.Fatalf("input %d: kind %d", i, v.Kind)
		}
	}
}

func mustSame(t *testing.T, what string, a, b any) {
	t.Helper()
	if !sameConverted(reflect.ValueOf(a), reflect.ValueOf(b)) {
		t.Fatalf("%s changed in a round trip:\n%+v\nbecame\n%+v", what, a, b)
	}
}

func fuzzTensor(t *testing.T, p *pb.Tensor, resolve resolver) {
	x, err := tensorFromPB(p, resolve)
	if err != nil {
		return
	}
	checkTensors(t, "tensor", x)
	q, err := tensorToPB(x, inlinePacker())
	if err != nil {
		t.Fatalf("a converted tensor does not convert back: %v", err)
	}
	y, err := tensorFromPB(viaWire(t, q), nil)
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	mustSame(t, "tensor", x, y)
}

func fuzzExecuteRequest(t *testing.T, p *pb.ExecuteRequest, resolve resolver) {
	req, err := execRequestFromPB(p, resolve)
	if err != nil {
		return
	}
	checkValues(t, req.Inputs)
	checkTensors(t, "grad output", req.GradOutputs...)
	// What deviceClient.Execute sends, without shared memory.
	pk := inlinePacker()
	q := &pb.ExecuteRequest{Api: req.API, Op: req.Op, RequiresGrad: req.RequiresGrad, Backward: req.Backward, Seed: req.Seed, Precision: precisionToPB(req.Precision)}
	if q.Attrs, err = attrsToPB(req.Attrs); err != nil {
		t.Fatalf("attributes do not convert back: %v", err)
	}
	if q.Inputs, err = valuesToPB(req.Inputs, pk); err != nil {
		t.Fatalf("inputs do not convert back: %v", err)
	}
	if q.GradOutputs, err = optTensorsToPB(req.GradOutputs, pk, "grad output"); err != nil {
		t.Fatalf("grad outputs do not convert back: %v", err)
	}
	back, err := execRequestFromPB(viaWire(t, q), nil)
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	mustSame(t, "execute request", req, back)
}

func fuzzExecuteResponse(t *testing.T, p *pb.ExecuteResponse, resolve resolver) {
	if e := p.GetError(); e != nil {
		fuzzError(t, e)
	}
	outs, err1 := optTensorsFromPB(p.GetOutputs(), resolve, "output")
	grads, err2 := optTensorsFromPB(p.GetInputGrads(), resolve, "input gradient")
	if err1 != nil || err2 != nil {
		return
	}
	checkTensors(t, "output", outs...)
	checkTensors(t, "input gradient", grads...)
	pk := inlinePacker()
	q := &pb.ExecuteResponse{}
	var err error
	if q.Outputs, err = optTensorsToPB(outs, pk, "output"); err != nil {
		t.Fatal(err)
	}
	if q.InputGrads, err = optTensorsToPB(grads, pk, "input gradient"); err != nil {
		t.Fatal(err)
	}
	q = viaWire(t, q)
	outs2, err1 := optTensorsFromPB(q.GetOutputs(), nil, "output")
	grads2, err2 := optTensorsFromPB(q.GetInputGrads(), nil, "input gradient")
	if err1 != nil || err2 != nil {
		t.Fatalf("round trip: %v", errors.Join(err1, err2))
	}
	mustSame(t, "outputs", outs, outs2)
	mustSame(t, "input gradients", grads, grads2)
}

func fuzzPlanRequest(t *testing.T, p *pb.PlanRequest) {
	req, err := planRequestFromPB(p)
	if err != nil {
		return
	}
	back, err := planRequestFromPB(viaWire(t, planRequestToPB(req)))
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	mustSame(t, "plan request", req, back)
}

func fuzzPlanResponse(t *testing.T, p *pb.PlanResponse) {
	if e := p.GetError(); e != nil {
		fuzzError(t, e)
	}
	if p.GetPlan() == nil {
		return
	}
	plan, err := planFromPB(p.GetPlan())
	if err != nil {
		return
	}
	q, err := planToPB(plan)
	if err != nil {
		t.Fatalf("a converted plan does not convert back: %v", err)
	}
	back, err := planFromPB(viaWire(t, q))
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	if (plan.Compare == nil) != (back.Compare == nil) {
		t.Fatalf("plan compare list %v became %v", plan.Compare, back.Compare)
	}
	mustSame(t, "plan", plan, back)
}

func fuzzDeviceDescribe(t *testing.T, p *pb.DeviceDescribeResponse) {
	info, err := deviceInfoFromPB(p)
	if err != nil {
		return
	}
	back, err := deviceInfoFromPB(viaWire(t, deviceInfoToPB(info)))
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	// The SDK and protocol versions are this SDK's, not the info's.
	back.SDKVersion, back.ProtocolVersion = info.SDKVersion, info.ProtocolVersion
	mustSame(t, "device info", info, back)
}

func fuzzFrameworkDescribe(t *testing.T, p *pb.FrameworkDescribeResponse) {
	info, err := frameworkInfoFromPB(p)
	if err != nil {
		return
	}
	back, err := frameworkInfoFromPB(viaWire(t, frameworkInfoToPB(info)))
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	back.SDKVersion, back.ProtocolVersion = info.SDKVersion, info.ProtocolVersion
	mustSame(t, "framework info", info, back)
}

func fuzzError(t *testing.T, p *pb.Error) {
	err := errorFromPB(p)
	if err == nil {
		t.Fatal("an error message converted to nil")
	}
	back := errorFromPB(viaWire(t, errorToPB(err)))
	if device.KindOf(back) != device.KindOf(err) || back.Error() != err.Error() {
		t.Fatalf("error %v (kind %v) became %v (kind %v)", err, device.KindOf(err), back, device.KindOf(back))
	}
	var u1, u2 *device.ErrUnsupported
	if errors.As(err, &u1) != errors.As(back, &u2) || u1 != nil && *u1 != *u2 {
		t.Fatalf("unsupported %+v became %+v", u1, u2)
	}
}

// sameConverted is reflect.DeepEqual for conversion results: floats
// compare by their bits (NaN equals itself, -0 differs from 0), and a nil
// slice or map equals an empty one (the wire does not tell them apart).
func sameConverted(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameConverted(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !sameConverted(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			v := b.MapIndex(it.Key())
			if !v.IsValid() || !sameConverted(it.Value(), v) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !sameConverted(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Func:
		// ExecRequest.Alloc: set by the server, never by a conversion
		return a.IsNil() && b.IsNil()
	}
	return false // channels: never in a converted value
}

// fuzzSeedMessages are one message of each kind FuzzConvert converts, with
// every field set somewhere: tensors inline and in shared memory, every
// value, attribute, argument and binding kind.
func fuzzSeedMessages() []proto.Message {
	f32 := &pb.Tensor{Dtype: pb.DType_DTYPE_FLOAT32, Shape: []int64{2, 2}, Data: &pb.Tensor_Inline{Inline: make([]byte, 16)}}
	shm := &pb.Tensor{Dtype: pb.DType_DTYPE_BFLOAT16, Shape: []int64{3}, Data: &pb.Tensor_Shm{Shm: &pb.ShmRef{SegmentId: fuzzSegmentID, Offset: 64, Length: 6}}}
	scalar := &pb.Tensor{Dtype: pb.DType_DTYPE_BOOL, Data: &pb.Tensor_Inline{Inline: []byte{1}}}
	empty := &pb.Tensor{Dtype: pb.DType_DTYPE_INT64, Shape: []int64{0, 5}, Data: &pb.Tensor_Inline{}}
	attrs := map[string]*pb.Attr{
		"dim":     {Kind: pb.AttrKind_ATTR_KIND_INT, IntValue: -1},
		"alpha":   {Kind: pb.AttrKind_ATTR_KIND_FLOAT, FloatValue: math.NaN()},
		"keep":    {Kind: pb.AttrKind_ATTR_KIND_BOOL, BoolValue: true},
		"mode":    {Kind: pb.AttrKind_ATTR_KIND_STRING, StringValue: "bilinear"},
		"size":    {Kind: pb.AttrKind_ATTR_KIND_INTS, Ints: []int64{2, 3}},
		"weights": {Kind: pb.AttrKind_ATTR_KIND_FLOATS, Floats: []float64{0.5, math.Inf(-1)}},
		"none":    {},
	}
	arg := &pb.Arg{Kind: pb.ArgKind_ARG_KIND_TENSOR, Path: "input_args.0", TypeName: "torch.Tensor", Dtype: pb.DType_DTYPE_FLOAT16,
		DtypeName: "torch.float16", Shape: []int64{4, 1}, RequiresGrad: true}
	list := &pb.Arg{Kind: pb.ArgKind(framework.ArgList), Path: "input_args.1", Elems: []*pb.Arg{
		{Kind: pb.ArgKind(framework.ArgInt), IntValue: 3}, {Kind: pb.ArgKind(framework.ArgFloat), FloatValue: math.Copysign(0, -1)},
		{Kind: pb.ArgKind(framework.ArgBool), BoolValue: true}, {Kind: pb.ArgKind(framework.ArgString), Str: "sum"}, {Kind: pb.ArgKind(framework.ArgSize), Ints: []int64{2, 3}}, {}}}
	unsupported := &pb.Error{Kind: pb.ErrorKind_ERROR_KIND_UNSUPPORTED, Op: "matmul", Reason: "no kernel", Dtype: pb.DType_DTYPE_BFLOAT16}
	return []proto.Message{
		f32, shm, scalar,
		&pb.ExecuteRequest{Api: "Torch.matmul.0", Op: "matmul", Attrs: attrs,
			Inputs: []*pb.Value{{Kind: &pb.Value_Tensor{Tensor: f32}}, {}, {Kind: &pb.Value_Scalar{Scalar: &pb.Scalar{Kind: pb.ScalarKind_SCALAR_KIND_INT, I: 7}}},
				{Kind: &pb.Value_Tensor{Tensor: shm}}},
			RequiresGrad: []bool{true, false}, Backward: true, GradOutputs: []*pb.OptionalTensor{{Tensor: scalar}, {}},
			Seed: 1234, Precision: &pb.Precision{Hf32: true}, Segment: &pb.Segment{Id: fuzzSegmentID, Path: "/proc/self/fd/3"}, RetiredSegments: []uint64{9}},
		&pb.ExecuteResponse{Outputs: []*pb.OptionalTensor{{Tensor: f32}, {}, {Tensor: empty}}, InputGrads: []*pb.OptionalTensor{{Tensor: shm}}},
		&pb.ExecuteResponse{Error: unsupported},
		&pb.PlanRequest{Api: "Functional.linear.0", Args: []*pb.Arg{arg, list}, Outputs: []*pb.Arg{arg},
			Kwargs: []*pb.NamedArg{{Name: "bias", Arg: &pb.Arg{}}, {Name: "w", Arg: arg}}, HasBackward: true, Compat: "msprobe", Dialect: "mindtorch"},
		&pb.PlanResponse{Plan: &pb.Plan{Op: "linear", Attrs: attrs, HasCompare: true, Compare: []int64{0}, GradOutput: -1, GradOutputs: []int64{0, 2},
			BackwardMessage: "no backward", Precision: &pb.Precision{Hf32: true}, GradRows: []string{"input_args.0"},
			CompareMode: pb.CompareMode_COMPARE_MODE_ZERO_SHARE, Generator: pb.InputGenerator_INPUT_GENERATOR_MSPROBE_MINDSPORE,
			Inputs: []*pb.Binding{{Kind: pb.BindingKind_BINDING_KIND_TENSOR, Path: "input_args.0", RequiresGrad: true},
				{Kind: pb.BindingKind_BINDING_KIND_SCALAR, Scalar: &pb.Scalar{Kind: pb.ScalarKind_SCALAR_KIND_FLOAT, F: 0.5}},
				{Synthetic: pb.Synthetic_SYNTHETIC_CAUSAL_MASK}},
			Bench: &pb.BenchPolicy{Inputs: []*pb.DTypeCast{{From: pb.DType_DTYPE_FLOAT16, To: pb.DType_DTYPE_FLOAT64}},
				Grads: []*pb.DTypeCast{{From: pb.DType_DTYPE_BFLOAT16, To: pb.DType_DTYPE_FLOAT32}}, Attrs: attrs},
			Rewrites: []*pb.TensorRewrite{{Path: "input_args.1", Dtype: pb.DType_DTYPE_INT64, HasMin: true, Min: 1}}}},
		&pb.PlanResponse{Skip: "not supported", Error: &pb.Error{Kind: pb.ErrorKind_ERROR_KIND_INVALID_ARGUMENT, Message: "bad dim"}},
		&pb.DeviceDescribeResponse{Plugin: &pb.PluginInfo{Name: "cpu", PluginVersion: "1.0", SdkVersion: SDKVersion, ProtocolMajor: ProtocolVersion, Capabilities: []string{CapShm}, Description: "d"},
			Ops: []*pb.OpSupport{{Op: "matmul", Dtypes: []pb.DType{pb.DType_DTYPE_FLOAT32, pb.DType_DTYPE_FLOAT16}, Backward: true}, {Op: "abs"}}},
		&pb.FrameworkDescribeResponse{Plugin: &pb.PluginInfo{Name: "pytorch", PluginVersion: "2.1"}, Apis: []string{"Torch.matmul", "Functional.linear"}, Ops: []string{"matmul"},
			Support: []*pb.APISupport{{Api: "Torch.matmul", Ops: []string{"matmul"}}, {Api: "Torch.bernoulli", Reason: "Torch.bernoulli is random by nature"}}},
		unsupported,
		&pb.Error{Kind: pb.ErrorKind_ERROR_KIND_UNSUPPORTED, Message: "own message", Dtype: 99},
		&pb.Error{Kind: 42},
	}
}

// The seeds of FuzzConvert convert without error as the message they are,
// so that the fuzzer starts from round trips, not from rejections.
func TestFuzzConvertSeedsConvert(t *testing.T) {
	seg, err := transport.CreateSegment()
	if err != nil {
		t.Fatal(err)
	}
	defer seg.Close()
	if err := seg.Reserve(4096); err != nil {
		t.Fatal(err)
	}
	resolve := func(ref transport.Ref) ([]byte, error) {
		ref.SegmentID = seg.ID()
		return transport.ReadRef(seg, ref)
	}
	for i, m := range fuzzSeedMessages() {
		var err error
		switch m := m.(type) {
		case *pb.Tensor:
			_, err = tensorFromPB(m, resolve)
		case *pb.ExecuteRequest:
			_, err = execRequestFromPB(m, resolve)
		case *pb.ExecuteResponse:
			_, err = optTensorsFromPB(m.GetOutputs(), resolve, "output")
			if err == nil {
				_, err = optTensorsFromPB(m.GetInputGrads(), resolve, "input gradient")
			}
		case *pb.PlanRequest:
			_, err = planRequestFromPB(m)
		case *pb.PlanResponse:
			if m.GetPlan() != nil {
				_, err = planFromPB(m.GetPlan())
			}
		case *pb.DeviceDescribeResponse:
			_, err = deviceInfoFromPB(m)
		case *pb.FrameworkDescribeResponse:
			_, err = frameworkInfoFromPB(m)
		case *pb.Error:
			if errorFromPB(m) == nil {
				err = errors.New("nil error")
			}
		default:
			t.Fatalf("seed %d: no conversion for %T", i, m)
		}
		if err != nil {
			t.Errorf("seed %d (%T): %v", i, m, err)
		}
	}
}
