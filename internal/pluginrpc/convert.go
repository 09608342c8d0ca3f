package pluginrpc

import (
	"errors"
	"fmt"
	"math"

	pb "github.com/probe-dev/probe/internal/pb/probev1"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

// resolver turns a shared-memory reference into the tensor bytes.
type resolver func(ref transport.Ref) ([]byte, error)

func shapeToPB(shape []int) []int64 {
	if len(shape) == 0 {
		return nil
	}
	out := make([]int64, len(shape))
	for i, d := range shape {
		out[i] = int64(d)
	}
	return out
}

func shapeFromPB(shape []int64) ([]int, error) {
	if len(shape) == 0 {
		return nil, nil
	}
	out := make([]int, len(shape))
	for i, d := range shape {
		if d < 0 || d > math.MaxInt64/16 {
			return nil, fmt.Errorf("dimension %d of axis %d out of range", d, i)
		}
		out[i] = int(d)
	}
	return out, nil
}

func dtypeFromPB(d pb.DType) (tensor.DType, error) {
	t := tensor.DType(d)
	if !t.Valid() {
		return tensor.Invalid, fmt.Errorf("invalid dtype %d", int32(d))
	}
	return t, nil
}

func tensorToPB(t *tensor.Tensor, pk *transport.Packer) (*pb.Tensor, error) {
	if t == nil {
		return nil, errors.New("nil tensor")
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	out := &pb.Tensor{Dtype: pb.DType(t.DType), Shape: shapeToPB(t.Shape)}
	inline, ref, err := pk.Place(t.Data)
	if err != nil {
		return nil, err
	}
	if ref != nil {
		out.Data = &pb.Tensor_Shm{Shm: &pb.ShmRef{SegmentId: ref.SegmentID, Path: ref.Path, Offset: ref.Offset, Length: ref.Length}}
	} else {
		out.Data = &pb.Tensor_Inline{Inline: inline}
	}
	return out, nil
}

// tensorFromPB rebuilds a tensor. Inline bytes are taken over from the
// message (protobuf unmarshalling already copied them out of the wire
// buffer); shared-memory bytes are copied out by resolve.
func tensorFromPB(p *pb.Tensor, resolve resolver) (*tensor.Tensor, error) {
	if p == nil {
		return nil, errors.New("missing tensor")
	}
	dt, err := dtypeFromPB(p.GetDtype())
	if err != nil {
		return nil, err
	}
	shape, err := shapeFromPB(p.GetShape())
	if err != nil {
		return nil, err
	}
	const limit = math.MaxInt64 / 16
	n := uint64(1)
	for _, d := range shape {
		if d != 0 && n > limit/uint64(d) {
			return nil, fmt.Errorf("shape %v too large", shape)
		}
		n *= uint64(d)
	}
	want := n * uint64(dt.Size())
	var data []byte
	switch d := p.GetData().(type) {
	case *pb.Tensor_Inline:
		data = d.Inline
		if data == nil {
			data = []byte{}
		}
	case *pb.Tensor_Shm:
		ref := transport.Ref{SegmentID: d.Shm.GetSegmentId(), Path: d.Shm.GetPath(), Offset: d.Shm.GetOffset(), Length: d.Shm.GetLength()}
		if ref.Length != want {
			return nil, fmt.Errorf("%s tensor of shape %v needs %d bytes, reference holds %d", dt, shape, want, ref.Length)
		}
		if resolve == nil {
			return nil, errors.New("tensor in shared memory but no segment available")
		}
		if data, err = resolve(ref); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("tensor without data")
	}
	if uint64(len(data)) != want {
		return nil, fmt.Errorf("%s tensor of shape %v needs %d bytes, has %d", dt, shape, want, len(data))
	}
	return &tensor.Tensor{DType: dt, Shape: shape, Data: data}, nil
}

func optTensorsToPB(ts []*tensor.Tensor, pk *transport.Packer, what string) ([]*pb.OptionalTensor, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	out := make([]*pb.OptionalTensor, len(ts))
	for i, t := range ts {
		out[i] = &pb.OptionalTensor{}
		if t == nil {
			continue
		}
		p, err := tensorToPB(t, pk)
		if err != nil {
			return nil, fmt.Errorf("%s %d: %w", what, i, err)
		}
		out[i].Tensor = p
	}
	return out, nil
}

func optTensorsFromPB(ps []*pb.OptionalTensor, resolve resolver, what string) ([]*tensor.Tensor, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]*tensor.Tensor, len(ps))
	for i, p := range ps {
		if p.GetTensor() == nil {
			continue
		}
		t, err := tensorFromPB(p.GetTensor(), resolve)
		if err != nil {
			return nil, fmt.Errorf("%s %d: %w", what, i, err)
		}
		out[i] = t
	}
	return out, nil
}

func scalarToPB(s ops.Scalar) *pb.Scalar {
	return &pb.Scalar{Kind: pb.ScalarKind(s.Kind), F: s.F, I: s.I}
}

func scalarFromPB(p *pb.Scalar) (ops.Scalar, error) {
	if p == nil {
		return ops.Scalar{}, errors.New("missing scalar")
	}
	k := ops.ScalarKind(p.GetKind())
	switch k {
	case ops.ScalarFloat, ops.ScalarInt, ops.ScalarBool:
	default:
		return ops.Scalar{}, fmt.Errorf("invalid scalar kind %d", k)
	}
	return ops.Scalar{Kind: k, F: p.GetF(), I: p.GetI()}, nil
}

func valuesToPB(vs []ops.Value, pk *transport.Packer) ([]*pb.Value, error) {
	if len(vs) == 0 {
		return nil, nil
	}
	out := make([]*pb.Value, len(vs))
	for i, v := range vs {
		p := &pb.Value{}
		switch v.Kind {
		case ops.KindNone:
		case ops.KindTensor:
			t, err := tensorToPB(v.Tensor, pk)
			if err != nil {
				return nil, fmt.Errorf("input %d: %w", i, err)
			}
			p.Kind = &pb.Value_Tensor{Tensor: t}
		case ops.KindScalar:
			p.Kind = &pb.Value_Scalar{Scalar: scalarToPB(v.Scalar)}
		default:
			return nil, fmt.Errorf("input %d: invalid value kind %d", i, v.Kind)
		}
		out[i] = p
	}
	return out, nil
}

func valuesFromPB(ps []*pb.Value, resolve resolver) ([]ops.Value, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]ops.Value, len(ps))
	for i, p := range ps {
		switch k := p.GetKind().(type) {
		case nil:
			out[i] = ops.None
		case *pb.Value_Tensor:
			t, err := tensorFromPB(k.Tensor, resolve)
			if err != nil {
				return nil, fmt.Errorf("input %d: %w", i, err)
			}
			out[i] = ops.T(t)
		case *pb.Value_Scalar:
			s, err := scalarFromPB(k.Scalar)
			if err != nil {
				return nil, fmt.Errorf("input %d: %w", i, err)
			}
			out[i] = ops.Value{Kind: ops.KindScalar, Scalar: s}
		default:
			return nil, fmt.Errorf("input %d: unknown value kind %T", i, k)
		}
	}
	return out, nil
}

func attrsToPB(a ops.Attrs) (map[string]*pb.Attr, error) {
	if len(a) == 0 {
		return nil, nil
	}
	out := make(map[string]*pb.Attr, len(a))
	for name, v := range a {
		if v.Kind < ops.AttrNone || v.Kind > ops.AttrFloats {
			return nil, fmt.Errorf("attribute %q: invalid kind %d", name, v.Kind)
		}
		out[name] = &pb.Attr{
			Kind:        pb.AttrKind(v.Kind),
			IntValue:    v.Int,
			FloatValue:  v.Float,
			BoolValue:   v.Bool,
			StringValue: v.String,
			Ints:        v.Ints,
			Floats:      v.Floats,
		}
	}
	return out, nil
}

func attrsFromPB(m map[string]*pb.Attr) (ops.Attrs, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(ops.Attrs, len(m))
	for name, p := range m {
		k := ops.AttrKind(p.GetKind())
		if k < ops.AttrNone || k > ops.AttrFloats {
			return nil, fmt.Errorf("attribute %q: invalid kind %d", name, k)
		}
		out[name] = ops.Attr{
			Kind:   k,
			Int:    p.GetIntValue(),
			Float:  p.GetFloatValue(),
			Bool:   p.GetBoolValue(),
			String: p.GetStringValue(),
			Ints:   p.GetInts(),
			Floats: p.GetFloats(),
		}
	}
	return out, nil
}

// errorToPB carries an implementation error as data, with its kind
// (device.KindOf).
func errorToPB(err error) *pb.Error {
	switch device.KindOf(err) {
	case device.Unsupported:
		var unsup *device.ErrUnsupported
		errors.As(err, &unsup)
		return &pb.Error{Kind: pb.ErrorKind_ERROR_KIND_UNSUPPORTED, Message: err.Error(), Op: unsup.Op, Reason: unsup.Reason, Dtype: pb.DType(unsup.DType)}
	case device.InvalidArgument:
		return &pb.Error{Kind: pb.ErrorKind_ERROR_KIND_INVALID_ARGUMENT, Message: err.Error()}
	}
	return &pb.Error{Kind: pb.ErrorKind_ERROR_KIND_FAILURE, Message: err.Error()}
}

// errorFromPB rebuilds an implementation error of the same kind:
// *device.ErrUnsupported for unsupported ops, *ops.ArgumentError for
// invalid arguments, otherwise (failures, and kinds from a newer protocol)
// an error with the plugin's message.
func errorFromPB(e *pb.Error) error {
	if e == nil {
		return nil
	}
	msg := e.GetMessage()
	switch e.GetKind() {
	case pb.ErrorKind_ERROR_KIND_UNSUPPORTED:
		u := &device.ErrUnsupported{Op: e.GetOp(), Reason: e.GetReason(), DType: tensor.DType(e.GetDtype())}
		if !u.DType.Valid() {
			u.DType = tensor.Invalid
		}
		if msg != "" && msg != u.Error() {
			return &remoteError{msg: msg, wrapped: u}
		}
		return u
	case pb.ErrorKind_ERROR_KIND_INVALID_ARGUMENT:
		if msg == "" {
			msg = "plugin rejected the arguments without a message"
		}
		return &ops.ArgumentError{Msg: msg}
	}
	if msg == "" {
		msg = "plugin returned an error without a message"
	}
	return &remoteError{msg: msg}
}

// remoteError is an error returned by a plugin implementation.
type remoteError struct {
	msg     string
	wrapped error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.wrapped }

func argToPB(a *framework.Arg) *pb.Arg {
	out := &pb.Arg{
		Kind:         pb.ArgKind(a.Kind),
		Path:         a.Path,
		TypeName:     a.TypeName,
		Dtype:        pb.DType(a.DType),
		DtypeName:    a.DTypeName,
		Shape:        shapeToPB(a.Shape),
		RequiresGrad: a.RequiresGrad,
		IntValue:     a.Int,
		FloatValue:   a.Float,
		BoolValue:    a.Bool,
		Str:          a.Str,
		Ints:         a.Ints,
	}
	if len(a.Elems) > 0 {
		out.Elems = make([]*pb.Arg, len(a.Elems))
		for i := range a.Elems {
			out.Elems[i] = argToPB(&a.Elems[i])
		}
	}
	return out
}

func argsToPB(as []framework.Arg) []*pb.Arg {
	if len(as) == 0 {
		return nil
	}
	out := make([]*pb.Arg, len(as))
	for i := range as {
		out[i] = argToPB(&as[i])
	}
	return out
}

func argFromPB(p *pb.Arg) (framework.Arg, error) {
	k := framework.ArgKind(p.GetKind())
	if k < framework.ArgNone || k > framework.ArgUnknown {
		return framework.Arg{}, fmt.Errorf("argument %q: invalid kind %d", p.GetPath(), k)
	}
	shape, err := shapeFromPB(p.GetShape())
	if err != nil {
		return framework.Arg{}, fmt.Errorf("argument %q: %w", p.GetPath(), err)
	}
	out := framework.Arg{
		Kind:         k,
		Path:         p.GetPath(),
		TypeName:     p.GetTypeName(),
		DType:        tensor.DType(p.GetDtype()),
		DTypeName:    p.GetDtypeName(),
		Shape:        shape,
		RequiresGrad: p.GetRequiresGrad(),
		Int:          p.GetIntValue(),
		Float:        p.GetFloatValue(),
		Bool:         p.GetBoolValue(),
		Str:          p.GetStr(),
		Ints:         p.GetInts(),
	}
	if len(p.GetElems()) > 0 {
		out.Elems = make([]framework.Arg, len(p.GetElems()))
		for i, e := range p.GetElems() {
			if out.Elems[i], err = argFromPB(e); err != nil {
				return framework.Arg{}, err
			}
		}
	}
	return out, nil
}

func argsFromPB(ps []*pb.Arg) ([]framework.Arg, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	out := make([]framework.Arg, len(ps))
	for i, p := range ps {
		a, err := argFromPB(p)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func planRequestToPB(r *framework.PlanRequest) *pb.PlanRequest {
	out := &pb.PlanRequest{Api: r.API, Args: argsToPB(r.Args), Outputs: argsToPB(r.Outputs), HasBackward: r.HasBackward, Compat: r.Compat, Dialect: r.Dialect}
	if len(r.Kwargs) > 0 {
		out.Kwargs = make([]*pb.NamedArg, len(r.Kwargs))
		for i := range r.Kwargs {
			out.Kwargs[i] = &pb.NamedArg{Name: r.Kwargs[i].Name, Arg: argToPB(&r.Kwargs[i].Arg)}
		}
	}
	return out
}

func planRequestFromPB(p *pb.PlanRequest) (*framework.PlanRequest, error) {
	args, err := argsFromPB(p.GetArgs())
	if err != nil {
		return nil, err
	}
	outs, err := argsFromPB(p.GetOutputs())
	if err != nil {
		return nil, err
	}
	out := &framework.PlanRequest{API: p.GetApi(), Args: args, Outputs: outs, HasBackward: p.GetHasBackward(), Compat: p.GetCompat(), Dialect: p.GetDialect()}
	if len(p.GetKwargs()) > 0 {
		out.Kwargs = make([]framework.NamedArg, len(p.GetKwargs()))
		for i, kw := range p.GetKwargs() {
			a, err := argFromPB(kw.GetArg())
			if err != nil {
				return nil, err
			}
			out.Kwargs[i] = framework.NamedArg{Name: kw.GetName(), Arg: a}
		}
	}
	return out, nil
}

func planToPB(p *framework.Plan) (*pb.Plan, error) {
	attrs, err := attrsToPB(p.Attrs)
	if err != nil {
		return nil, err
	}
	out := &pb.Plan{
		Op:              p.Op,
		Attrs:           attrs,
		HasCompare:      p.Compare != nil,
		GradOutput:      int64(p.GradOutput),
		BackwardMessage: p.BackwardMessage,
		Precision:       precisionToPB(p.Precision),
		GradRows:        p.GradRows,
		CompareMode:     pb.CompareMode(p.CompareMode),
		Generator:       pb.InputGenerator(p.Generator),
	}
	for i, b := range p.Inputs {
		if b.Kind < framework.BindNone || b.Kind > framework.BindScalar {
			return nil, fmt.Errorf("binding %d: invalid kind %d", i, b.Kind)
		}
		out.Inputs = append(out.Inputs, &pb.Binding{Kind: pb.BindingKind(b.Kind), Path: b.Path, Scalar: scalarToPB(b.Scalar),
			RequiresGrad: b.RequiresGrad, Synthetic: pb.Synthetic(b.Synthetic)})
	}
	if p.Bench != nil {
		battrs, err := attrsToPB(p.Bench.Attrs)
		if err != nil {
			return nil, fmt.Errorf("bench policy: %w", err)
		}
		out.Bench = &pb.BenchPolicy{Inputs: castsToPB(p.Bench.Inputs), Grads: castsToPB(p.Bench.Grads), Attrs: battrs}
	}
	for _, r := range p.Rewrites {
		out.Rewrites = append(out.Rewrites, &pb.TensorRewrite{Path: r.Path, Dtype: pb.DType(r.DType), HasMin: r.HasMin, Min: r.MinAtLeast})
	}
	for _, c := range p.Compare {
		out.Compare = append(out.Compare, int64(c))
	}
	for _, g := range p.GradOutputs {
		out.GradOutputs = append(out.GradOutputs, int64(g))
	}
	return out, nil
}

func planFromPB(p *pb.Plan) (*framework.Plan, error) {
	attrs, err := attrsFromPB(p.GetAttrs())
	if err != nil {
		return nil, err
	}
	out := &framework.Plan{
		Op:              p.GetOp(),
		Attrs:           attrs,
		GradOutput:      int(p.GetGradOutput()),
		BackwardMessage: p.GetBackwardMessage(),
		Precision:       precisionFromPB(p.GetPrecision()),
		GradRows:        p.GetGradRows(),
		CompareMode:     framework.CompareMode(p.GetCompareMode()),
		Generator:       framework.InputGenerator(p.GetGenerator()),
	}
	if out.CompareMode < framework.CompareStandard || out.CompareMode > framework.CompareZeroShare {
		return nil, fmt.Errorf("invalid compare mode %d", out.CompareMode)
	}
	if out.Generator < framework.GenProbe || out.Generator > framework.GenMsprobeMindSpore {
		return nil, fmt.Errorf("invalid input generator %d", out.Generator)
	}
	if b := p.GetBench(); b != nil {
		battrs, err := attrsFromPB(b.GetAttrs())
		if err != nil {
			return nil, fmt.Errorf("bench policy: %w", err)
		}
		out.Bench = &framework.BenchPolicy{Attrs: battrs}
		if out.Bench.Inputs, err = castsFromPB(b.GetInputs()); err != nil {
			return nil, fmt.Errorf("bench policy: %w", err)
		}
		if out.Bench.Grads, err = castsFromPB(b.GetGrads()); err != nil {
			return nil, fmt.Errorf("bench policy: %w", err)
		}
	}
	for _, r := range p.GetRewrites() {
		dt := tensor.DType(r.GetDtype())
		if dt != tensor.Invalid && !dt.Valid() {
			return nil, fmt.Errorf("rewrite of %s: invalid dtype %d", r.GetPath(), dt)
		}
		out.Rewrites = append(out.Rewrites, framework.TensorRewrite{Path: r.GetPath(), DType: dt, HasMin: r.GetHasMin(), MinAtLeast: r.GetMin()})
	}
	for i, b := range p.GetInputs() {
		k := framework.BindingKind(b.GetKind())
		if k < framework.BindNone || k > framework.BindScalar {
			return nil, fmt.Errorf("binding %d: invalid kind %d", i, k)
		}
		var s ops.Scalar
		if b.GetScalar() != nil {
			if s, err = scalarFromPB(b.GetScalar()); err != nil {
				return nil, fmt.Errorf("binding %d: %w", i, err)
			}
		}
		syn := framework.Synthetic(b.GetSynthetic())
		if syn < framework.SynthNone || syn > framework.SynthCausalMask {
			return nil, fmt.Errorf("binding %d: invalid synthetic input %d", i, syn)
		}
		out.Inputs = append(out.Inputs, framework.Binding{Kind: k, Path: b.GetPath(), Scalar: s, RequiresGrad: b.GetRequiresGrad(), Synthetic: syn})
	}
	for _, g := range p.GetGradOutputs() {
		out.GradOutputs = append(out.GradOutputs, int(g))
	}
	if p.GetHasCompare() {
		out.Compare = make([]int, len(p.GetCompare()))
		for i, c := range p.GetCompare() {
			out.Compare[i] = int(c)
		}
	}
	return out, nil
}

func precisionToPB(p ops.Precision) *pb.Precision {
	if p == (ops.Precision{}) {
		return nil
	}
	return &pb.Precision{Hf32: p.HF32}
}

func precisionFromPB(p *pb.Precision) ops.Precision {
	return ops.Precision{HF32: p.GetHf32()}
}

// castsToPB writes a dtype map in dtype order, so that encoding is
// deterministic.
func castsToPB(m map[tensor.DType]tensor.DType) []*pb.DTypeCast {
	var out []*pb.DTypeCast
	for _, from := range tensor.All {
		if to, ok := m[from]; ok {
			out = append(out, &pb.DTypeCast{From: pb.DType(from), To: pb.DType(to)})
		}
	}
	return out
}

func castsFromPB(cs []*pb.DTypeCast) (map[tensor.DType]tensor.DType, error) {
	out := make(map[tensor.DType]tensor.DType, len(cs))
	for _, c := range cs {
		from, err := dtypeFromPB(c.GetFrom())
		if err != nil {
			return nil, err
		}
		to, err := dtypeFromPB(c.GetTo())
		if err != nil {
			return nil, err
		}
		out[from] = to
	}
	return out, nil
}

func pluginInfoToPB(name, version, description string) *pb.PluginInfo {
	return &pb.PluginInfo{
		Name:          name,
		PluginVersion: version,
		SdkVersion:    SDKVersion,
		ProtocolMajor: ProtocolVersion,
		ProtocolMinor: ProtocolMinor,
		Capabilities:  Capabilities(),
		Description:   description,
	}
}

func deviceInfoToPB(info *device.Info) *pb.DeviceDescribeResponse {
	out := &pb.DeviceDescribeResponse{Plugin: pluginInfoToPB(info.Name, info.Version, info.Description)}
	for _, o := range info.Ops {
		s := &pb.OpSupport{Op: o.Op, Backward: o.Backward}
		for _, d := range o.DTypes {
			s.Dtypes = append(s.Dtypes, pb.DType(d))
		}
		out.Ops = append(out.Ops, s)
	}
	return out
}

func deviceInfoFromPB(r *pb.DeviceDescribeResponse) (*device.Info, error) {
	p := r.GetPlugin()
	if p == nil {
		return nil, errors.New("describe response without plugin information")
	}
	info := &device.Info{
		Name:            p.GetName(),
		Version:         p.GetPluginVersion(),
		SDKVersion:      p.GetSdkVersion(),
		ProtocolVersion: int(p.GetProtocolMajor()),
		Description:     p.GetDescription(),
	}
	for _, o := range r.GetOps() {
		s := device.OpSupport{Op: o.GetOp(), Backward: o.GetBackward()}
		for _, d := range o.GetDtypes() {
			dt, err := dtypeFromPB(d)
			if err != nil {
				return nil, fmt.Errorf("op %s: %w", o.GetOp(), err)
			}
			s.DTypes = append(s.DTypes, dt)
		}
		info.Ops = append(info.Ops, s)
	}
	return info, nil
}

func frameworkInfoToPB(info *framework.Info) *pb.FrameworkDescribeResponse {
	return &pb.FrameworkDescribeResponse{
		Plugin:  pluginInfoToPB(info.Name, info.Version, info.Description),
		Apis:    info.APIs,
		Ops:     info.Ops,
		Support: supportToPB(info.Support),
	}
}

func supportToPB(ss []framework.APISupport) []*pb.APISupport {
	out := make([]*pb.APISupport, 0, len(ss))
	for _, s := range ss {
		out = append(out, &pb.APISupport{Api: s.API, Ops: s.Ops, Reason: s.Reason})
	}
	return out
}

func supportFromPB(ss []*pb.APISupport) []framework.APISupport {
	if len(ss) == 0 {
		return nil
	}
	out := make([]framework.APISupport, 0, len(ss))
	for _, s := range ss {
		out = append(out, framework.APISupport{API: s.GetApi(), Ops: s.GetOps(), Reason: s.GetReason()})
	}
	return out
}

func frameworkInfoFromPB(r *pb.FrameworkDescribeResponse) (*framework.Info, error) {
	p := r.GetPlugin()
	if p == nil {
		return nil, errors.New("describe response without plugin information")
	}
	return &framework.Info{
		Name:            p.GetName(),
		Version:         p.GetPluginVersion(),
		SDKVersion:      p.GetSdkVersion(),
		ProtocolVersion: int(p.GetProtocolMajor()),
		Description:     p.GetDescription(),
		APIs:            r.GetApis(),
		Ops:             r.GetOps(),
		Support:         supportFromPB(r.GetSupport()),
	}, nil
}
