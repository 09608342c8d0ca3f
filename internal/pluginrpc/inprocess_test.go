package pluginrpc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/probe-dev/probe/internal/pluginrpc"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/plugin/plugintest"
	"github.com/probe-dev/probe/sdk/tensor"
)

// recorder records a deep copy of every request and answers with canned
// results, or by echoing its tensor inputs.
type recorder struct {
	mu      sync.Mutex
	reqs    []*device.ExecRequest
	cfg     device.Config
	result  *device.ExecResult
	err     error
	panicky bool
}

func (r *recorder) Describe(context.Context) (*device.Info, error) {
	return &device.Info{Name: "rec", Version: "9.9.9", SDKVersion: "bogus", ProtocolVersion: 42, Description: "records",
		Ops: []device.OpSupport{{Op: "add", DTypes: []tensor.DType{tensor.Float16, tensor.Int64}, Backward: true}, {Op: "sum"}}}, nil
}

func (r *recorder) Configure(_ context.Context, cfg device.Config) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cfg = cfg
	return nil
}

// clone deep-copies t, keeping an empty Data non-nil.
func clone(t *tensor.Tensor) *tensor.Tensor {
	return &tensor.Tensor{DType: t.DType, Shape: append([]int(nil), t.Shape...), Data: append([]byte{}, t.Data...)}
}

func cloneReq(req *device.ExecRequest) *device.ExecRequest {
	c := *req
	c.Inputs = nil
	for _, v := range req.Inputs {
		if v.Tensor != nil {
			v.Tensor = clone(v.Tensor)
		}
		c.Inputs = append(c.Inputs, v)
	}
	c.GradOutputs = nil
	for _, g := range req.GradOutputs {
		if g != nil {
			g = clone(g)
		}
		c.GradOutputs = append(c.GradOutputs, g)
	}
	return &c
}

func (r *recorder) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	if r.panicky {
		panic("kernel exploded")
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, cloneReq(req))
	r.mu.Unlock()
	if r.err != nil || r.result != nil {
		return r.result, r.err
	}
	res := &device.ExecResult{}
	for _, v := range req.Inputs {
		res.Outputs = append(res.Outputs, v.Tensor)
	}
	return res, nil
}

func randTensor(dt tensor.DType, shape []int, seed byte) *tensor.Tensor {
	t := tensor.New(dt, shape)
	x := uint32(seed) + 1
	for i := range t.Data {
		x = x*1664525 + 1013904223
		t.Data[i] = byte(x >> 24)
	}
	return t
}

func TestDeviceRoundTripInProcess(t *testing.T) {
	rec := &recorder{}
	d := plugintest.Device(t, rec)
	ctx := context.Background()

	info, err := d.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantInfo := &device.Info{Name: "rec", Version: "9.9.9", SDKVersion: pluginrpc.SDKVersion, ProtocolVersion: pluginrpc.ProtocolVersion, Description: "records",
		Ops: []device.OpSupport{{Op: "add", DTypes: []tensor.DType{tensor.Float16, tensor.Int64}, Backward: true}, {Op: "sum"}}}
	if !reflect.DeepEqual(info, wantInfo) {
		t.Fatalf("Describe:\n got %+v\nwant %+v", info, wantInfo)
	}
	if err := d.Configure(ctx, device.Config{DeviceID: 3, Options: map[string]string{"op_timeout": "60s"}}); err != nil {
		t.Fatal(err)
	}
	if rec.cfg.DeviceID != 3 || rec.cfg.Options["op_timeout"] != "60s" {
		t.Fatalf("Configure: %+v", rec.cfg)
	}

	scalar0d := tensor.FromFloat64s(tensor.Float64, nil, []float64{2.5})
	empty := tensor.New(tensor.Float32, []int{0, 3})
	big := randTensor(tensor.BFloat16, []int{1024, 700}, 1) // 1.4 MiB: shared memory
	req := &device.ExecRequest{
		API: "Functional.add.0",
		Op:  "add",
		Attrs: ops.Attrs{
			"alpha":  ops.FloatAttr(0.5),
			"dim":    ops.IntsAttr(1, -1),
			"keep":   ops.BoolAttr(true),
			"mode":   ops.StringAttr("mean"),
			"none":   ops.NoneAttr(),
			"scales": ops.FloatsAttr(1.5, 2),
			"n":      ops.IntAttr(-7),
		},
		Inputs:       []ops.Value{ops.T(scalar0d), ops.None, ops.I(-3), ops.B(true), ops.F(0.25), ops.T(empty), ops.T(big)},
		RequiresGrad: []bool{true, false, false, false, false, false, true},
		Backward:     true,
		GradOutputs:  []*tensor.Tensor{nil, big},
		Seed:         1234,
		Precision:    ops.Precision{HF32: true},
	}
	res, err := d.Execute(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	got := rec.reqs[0]
	if got.Alloc == nil {
		t.Error("a request through shared memory came without Alloc")
	}
	got.Alloc = nil // the server's, not the host's
	if !reflect.DeepEqual(got, req) {
		t.Fatalf("request changed on the way:\n got %+v\nwant %+v", got, req)
	}
	if len(res.Outputs) != 7 || res.Outputs[1] != nil || res.Outputs[2] != nil {
		t.Fatalf("outputs: %v", res.Outputs)
	}
	for _, i := range []int{0, 5, 6} {
		if !reflect.DeepEqual(res.Outputs[i], req.Inputs[i].Tensor) {
			t.Fatalf("output %d differs", i)
		}
	}
	if res.Outputs[5].Data == nil {
		t.Fatal("empty tensor came back with nil Data")
	}
}

func TestResultsAreIndependentCopies(t *testing.T) {
	d := plugintest.Device(t, &recorder{})
	ctx := context.Background()
	a := randTensor(tensor.Float32, []int{1 << 20}, 1) // 4 MiB
	b := randTensor(tensor.Float32, []int{1 << 20}, 2)
	ra, err := d.Execute(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(a)}})
	if err != nil {
		t.Fatal(err)
	}
	keep := ra.Outputs[0]
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(b)}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(keep.Data, a.Data) {
		t.Fatal("a result changed when the segment was reused")
	}
	keep.Data[0] ^= 0xff // the caller owns it
}

// TestInputViews documents the plugin-side contract: by default the inputs
// are views of the shared segment, so a device that keeps one sees it
// change when the segment is reused; one served with RetainInputs gets private copies.
func TestInputViews(t *testing.T) {
	for _, retain := range []bool{false, true} {
		t.Run(fmt.Sprint("retain=", retain), func(t *testing.T) {
			r := &retainer{}
			var opts []plugintest.Option
			if retain {
				opts = append(opts, plugintest.RetainInputs())
			}
			d := plugintest.Device(t, r, opts...)
			first := randTensor(tensor.Float32, []int{1 << 19}, 5)
			second := randTensor(tensor.Float32, []int{1 << 19}, 6)
			for _, x := range []*tensor.Tensor{first, second} {
				res, err := d.Execute(context.Background(), &device.ExecRequest{Op: "x", Inputs: []ops.Value{ops.T(x)}})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(res.Outputs[0].Data, x.Data) {
					t.Fatal("echoed view differs")
				}
			}
			want := first
			if !retain {
				want = second // the first call's view now shows the second input
			}
			if !bytes.Equal(r.kept, want.Data) {
				t.Fatalf("kept input does not match (retain=%v)", retain)
			}
		})
	}
}

// retainer keeps the data of its first input.
type retainer struct {
	kept []byte
}

func (r *retainer) Describe(context.Context) (*device.Info, error) { return &device.Info{}, nil }
func (r *retainer) Configure(context.Context, device.Config) error { return nil }
func (r *retainer) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	if r.kept == nil {
		r.kept = req.Inputs[0].Tensor.Data
	}
	return &device.ExecResult{Outputs: []*tensor.Tensor{req.Inputs[0].Tensor}}, nil
}

func TestDeviceErrorsInProcess(t *testing.T) {
	ctx := context.Background()
	rec := &recorder{err: &device.ErrUnsupported{Op: "conv3d", Reason: "dtype bfloat16"}}
	d := plugintest.Device(t, rec)
	_, err := d.Execute(ctx, &device.ExecRequest{Op: "conv3d"})
	var unsup *device.ErrUnsupported
	if !errors.As(err, &unsup) || unsup.Op != "conv3d" || unsup.Reason != "dtype bfloat16" {
		t.Fatalf("unsupported: %v", err)
	}
	var rpcErr *pluginrpc.RPCError
	if errors.As(err, &rpcErr) {
		t.Fatal("an implementation error must not be an RPCError")
	}

	rec.err = fmt.Errorf("wrapped: %w", &device.ErrUnsupported{Op: "x", Reason: "y"})
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "x"}); !errors.As(err, &unsup) || err.Error() != rec.err.Error() {
		t.Fatalf("wrapped unsupported: %v", err)
	}

	rec.err = errors.New("shape mismatch: (2, 3) vs (4,)")
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "add"}); err == nil || err.Error() != rec.err.Error() || device.KindOf(err) != device.Failure {
		t.Fatalf("generic error: %v (kind %v)", err, device.KindOf(err))
	}

	// Every kind survives the trip, with its message and fields.
	rec.err = fmt.Errorf("kernel: %w", ops.Errorf("The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"))
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "add"}); device.KindOf(err) != device.InvalidArgument || err.Error() != rec.err.Error() {
		t.Fatalf("invalid argument: %v (kind %v)", err, device.KindOf(err))
	}
	rec.err = &device.ErrUnsupported{Op: "gelu", DType: tensor.BFloat16, Reason: "no bf16 kernel"}
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "gelu"}); !errors.As(err, &unsup) || *unsup != *rec.err.(*device.ErrUnsupported) {
		t.Fatalf("unsupported dtype: %v", err)
	}

	rec.err, rec.result = nil, &device.ExecResult{Outputs: []*tensor.Tensor{{DType: tensor.Float32, Shape: []int{2}, Data: make([]byte, 7)}}}
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "add"}); err == nil || !strings.Contains(err.Error(), "needs 8 bytes") {
		t.Fatalf("invalid output tensor: %v", err)
	}

	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "add", Inputs: []ops.Value{{Kind: ops.KindTensor}}}); err == nil {
		t.Fatal("nil input tensor accepted")
	}

	p := plugintest.Device(t, &recorder{panicky: true})
	if _, err := p.Execute(ctx, &device.ExecRequest{Op: "add"}); err == nil || !strings.Contains(err.Error(), "kernel exploded") {
		t.Fatalf("panic: %v", err)
	}
}

// TestMessageLimits: many medium tensors exceed the inline budget and
// spill to shared memory (the in-process server keeps gRPC's 4 MiB receive
// limit, so an oversized message would fail); an output larger than the
// request makes the plugin grow the host's segment.
func TestMessageLimits(t *testing.T) {
	rec := &recorder{}
	d := plugintest.Device(t, rec)
	ctx := context.Background()
	var inputs []ops.Value
	for i := 0; i < 24; i++ {
		inputs = append(inputs, ops.T(randTensor(tensor.Float32, []int{50 << 10}, byte(i)))) // 200 KiB each
	}
	res, err := d.Execute(ctx, &device.ExecRequest{Op: "id", Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range inputs {
		if !bytes.Equal(res.Outputs[i].Data, v.Tensor.Data) {
			t.Fatalf("output %d differs", i)
		}
	}
	big := randTensor(tensor.Float64, []int{3, 512, 1024}, 9) // 12 MiB from a small request
	rec.result = &device.ExecResult{Outputs: []*tensor.Tensor{big}, InputGrads: []*tensor.Tensor{nil, big}}
	res, err = d.Execute(ctx, &device.ExecRequest{Op: "expand", Inputs: []ops.Value{ops.F(1)}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Outputs[0].Data, big.Data) || res.InputGrads[0] != nil || !bytes.Equal(res.InputGrads[1].Data, big.Data) {
		t.Fatal("large result differs")
	}
}

func TestInlineOnlyTransport(t *testing.T) {
	d := plugintest.Device(t, &recorder{}, plugintest.InlineOnly())
	ctx := context.Background()
	mid := randTensor(tensor.Float32, []int{512 << 10}, 3) // 2 MiB fits one message
	res, err := d.Execute(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(mid)}})
	if err != nil || !bytes.Equal(res.Outputs[0].Data, mid.Data) {
		t.Fatalf("2 MiB inline: %v", err)
	}
	big := randTensor(tensor.Float32, []int{2 << 20}, 4) // 8 MiB does not
	if _, err := d.Execute(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(big)}}); !errors.Is(err, transport.ErrTooLarge) {
		t.Fatalf("8 MiB inline: %v", err)
	}
}

func TestConcurrentExecute(t *testing.T) {
	d := plugintest.Device(t, &recorder{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				x := randTensor(tensor.Int64, []int{64 << 10}, byte(g*16+i)) // 512 KiB
				res, err := d.Execute(context.Background(), &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(x)}})
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(res.Outputs[0].Data, x.Data) {
					errs <- fmt.Errorf("goroutine %d call %d: data differs", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

type planner struct {
	got  *framework.PlanRequest
	resp *framework.PlanResponse
	err  error
}

func (p *planner) Describe(context.Context) (*framework.Info, error) {
	return &framework.Info{Name: "pytorch", Version: "1.0.0", APIs: []string{"Functional.conv2d", "Tensor.add"}, Ops: []string{"conv2d", "add"},
		Support: []framework.APISupport{{API: "Tensor.add", Ops: []string{"add"}}, {API: "Tensor.bernoulli_", Reason: "Tensor.bernoulli_ is random by nature"}}}, nil
}

func (p *planner) Plan(_ context.Context, req *framework.PlanRequest) (*framework.PlanResponse, error) {
	p.got = req
	return p.resp, p.err
}

func TestFrameworkRoundTripInProcess(t *testing.T) {
	pl := &planner{}
	f := plugintest.Framework(t, pl)
	ctx := context.Background()
	info, err := f.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := &framework.Info{Name: "pytorch", Version: "1.0.0", SDKVersion: pluginrpc.SDKVersion, ProtocolVersion: pluginrpc.ProtocolVersion,
		APIs: []string{"Functional.conv2d", "Tensor.add"}, Ops: []string{"conv2d", "add"},
		Support: []framework.APISupport{{API: "Tensor.add", Ops: []string{"add"}}, {API: "Tensor.bernoulli_", Reason: "Tensor.bernoulli_ is random by nature"}}}
	if !reflect.DeepEqual(info, want) {
		t.Fatalf("Describe: %+v", info)
	}

	req := &framework.PlanRequest{
		API: "Functional.conv2d.0",
		Args: []framework.Arg{
			{Kind: framework.ArgTensor, Path: "args.0", TypeName: "torch.Tensor", DType: tensor.Float16, DTypeName: "torch.float16", Shape: []int{1, 3, 8, 8}, RequiresGrad: true},
			{Kind: framework.ArgList, Path: "args.1", TypeName: "tuple", Elems: []framework.Arg{
				{Kind: framework.ArgInt, Int: 2}, {Kind: framework.ArgFloat, Float: -0.5}, {Kind: framework.ArgNone},
				{Kind: framework.ArgSlice, Elems: []framework.Arg{{Kind: framework.ArgInt, Int: 1}, {Kind: framework.ArgNone}, {Kind: framework.ArgInt, Int: -1}}},
			}},
			{Kind: framework.ArgSize, Ints: []int64{4, 5}},
			{Kind: framework.ArgEllipsis},
		},
		Kwargs: []framework.NamedArg{
			{Name: "stride", Arg: framework.Arg{Kind: framework.ArgInt, Int: 1}},
			{Name: "dtype", Arg: framework.Arg{Kind: framework.ArgDType, Str: "torch.float32"}},
			{Name: "inplace", Arg: framework.Arg{Kind: framework.ArgBool, Bool: true}},
			{Name: "what", Arg: framework.Arg{Kind: framework.ArgUnknown, TypeName: "Generator"}},
		},
		Outputs:     []framework.Arg{{Kind: framework.ArgTensor, Path: "output.0", DType: tensor.Float16, Shape: []int{1, 4, 4, 4}}},
		HasBackward: true,
		Compat:      "msprobe",
		Dialect:     "mindtorch",
	}
	for _, plan := range []*framework.Plan{
		{Op: "conv2d", Attrs: ops.Attrs{"stride": ops.IntsAttr(1, 1), "groups": ops.IntAttr(1)},
			Inputs: []framework.Binding{{Kind: framework.BindTensor, Path: "args.0", RequiresGrad: true}, {Kind: framework.BindNone},
				{Kind: framework.BindScalar, Scalar: ops.Scalar{Kind: ops.ScalarInt, I: 3}},
				{Kind: framework.BindTensor, Path: "kwargs.atten_mask", Synthetic: framework.SynthCausalMask}},
			Compare: []int{0}, GradOutput: 1, Precision: ops.Precision{HF32: true}, GradRows: []string{"args.0", "args.1.0"},
			Bench: &framework.BenchPolicy{Inputs: map[tensor.DType]tensor.DType{tensor.Float16: tensor.Float32, tensor.Float32: tensor.Float64},
				Grads: map[tensor.DType]tensor.DType{}, Attrs: ops.Attrs{"dtype": ops.StringAttr("float64")}},
			CompareMode: framework.CompareZeroShare, Generator: framework.GenMsprobeMindSpore,
			Rewrites: []framework.TensorRewrite{{Path: "args.1", DType: tensor.Int64, HasMin: true, MinAtLeast: 0}, {Path: "args.0", DType: tensor.Float32}}},
		{Op: "add", Compare: []int{}, BackwardMessage: "Multiple backward is not supported."},
		{Op: "sum"}, // Compare nil: all outputs
		{Op: "split_with_sizes", GradOutputs: []int{0, 1, 2}},
	} {
		pl.resp = &framework.PlanResponse{Plan: plan}
		got, err := f.Plan(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pl.got, req) {
			t.Fatalf("request changed on the way:\n got %+v\nwant %+v", pl.got, req)
		}
		// Bindings without a scalar come back with the zero scalar.
		if !reflect.DeepEqual(got.Plan, plan) {
			t.Fatalf("plan changed on the way:\n got %+v\nwant %+v", got.Plan, plan)
		}
	}
	pl.resp = &framework.PlanResponse{Skip: "Functional.foo is not supported"}
	if got, err := f.Plan(ctx, req); err != nil || got.Plan != nil || got.Skip != pl.resp.Skip {
		t.Fatalf("skip: %+v %v", got, err)
	}
	pl.resp, pl.err = nil, errors.New("cannot plan")
	if _, err := f.Plan(ctx, req); err == nil || err.Error() != "cannot plan" {
		t.Fatalf("error: %v", err)
	}
}

// TestResultViews: ExecuteViews leaves large results in the call's
// segment, which no other call takes until release; after release the
// segment is reused (the same memory serves the next call).
func TestResultViews(t *testing.T) {
	d := plugintest.Device(t, &recorder{})
	v, ok := d.(interface {
		ExecuteViews(context.Context, *device.ExecRequest) (*device.ExecResult, func(), error)
	})
	if !ok {
		t.Skipf("%T has no ExecuteViews", d)
	}
	ctx := context.Background()
	a := randTensor(tensor.Float32, []int{1 << 20}, 1) // 4 MiB: through the segment
	b := randTensor(tensor.Float32, []int{1 << 20}, 2)
	ra, releaseA, err := v.ExecuteViews(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(a)}})
	if err != nil {
		t.Fatal(err)
	}
	rb, releaseB, err := v.ExecuteViews(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(b)}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ra.Outputs[0].Data, a.Data) || !bytes.Equal(rb.Outputs[0].Data, b.Data) {
		t.Fatal("a held result changed while another call ran")
	}
	if &ra.Outputs[0].Data[0] == &rb.Outputs[0].Data[0] {
		t.Fatal("two held results share memory")
	}
	first := &rb.Outputs[0].Data[0]
	releaseA()
	releaseB()
	releaseB() // idempotent
	rc, releaseC, err := v.ExecuteViews(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(a)}})
	if err != nil {
		t.Fatal(err)
	}
	defer releaseC()
	if !bytes.Equal(rc.Outputs[0].Data, a.Data) {
		t.Fatal("result differs")
	}
	if &rc.Outputs[0].Data[0] != first {
		t.Error("the released segment (most recently used) was not reused: results are not views")
	}
}

// scribbler reuses its result buffers: Release overwrites them, as a
// device handing them to its next call would.
type scribbler struct {
	mu       sync.Mutex
	released int
}

func (s *scribbler) Describe(context.Context) (*device.Info, error) { return &device.Info{}, nil }
func (s *scribbler) Configure(context.Context, device.Config) error { return nil }
func (s *scribbler) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	var outs []*tensor.Tensor
	for _, in := range req.Inputs {
		outs = append(outs, in.Tensor.Clone()) // the device's own buffers
	}
	return &device.ExecResult{Outputs: outs}, nil
}
func (s *scribbler) Release(res *device.ExecResult) {
	s.mu.Lock()
	s.released++
	s.mu.Unlock()
	for _, t := range res.Outputs {
		for i := range t.Data {
			t.Data[i] = 0xff
		}
	}
}

// TestReleaseAfterEncoding: the server gives a device.Releaser its result
// back after each call, and what reaches the host — inline (small) or
// through shared memory (large) — is what Execute returned, whatever the
// device does with the buffers afterwards.
func TestReleaseAfterEncoding(t *testing.T) {
	dev := &scribbler{}
	d := plugintest.Device(t, dev)
	small := randTensor(tensor.Float32, []int{100}, 3)
	large := randTensor(tensor.Float32, []int{1 << 20}, 4)
	for i := 0; i < 3; i++ {
		res, err := d.Execute(context.Background(), &device.ExecRequest{Op: "x", Inputs: []ops.Value{ops.T(small), ops.T(large)}})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(res.Outputs[0].Data, small.Data) || !bytes.Equal(res.Outputs[1].Data, large.Data) {
			t.Fatalf("call %d: a result came back changed by Release", i)
		}
	}
	dev.mu.Lock()
	defer dev.mu.Unlock()
	if dev.released != 3 {
		t.Fatalf("Release called %d times, want 3", dev.released)
	}
}

// allocator writes its results into the memory the request lends
// (device.ExecRequest.Alloc): output i is input i with every byte flipped,
// plus, for a large first input, a second large output.
type allocator struct {
	mu   sync.Mutex
	lent []bool // per output of the last call: Alloc lent its memory
}

func (a *allocator) Describe(context.Context) (*device.Info, error) { return &device.Info{}, nil }
func (a *allocator) Configure(context.Context, device.Config) error { return nil }
func (a *allocator) Execute(_ context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	var outs []*tensor.Tensor
	var lent []bool
	var srcs []*tensor.Tensor
	for _, in := range req.Inputs {
		srcs = append(srcs, in.Tensor)
	}
	if len(srcs) > 0 && len(srcs[0].Data) > 1<<20 {
		srcs = append(srcs, srcs[0])
	}
	for _, in := range srcs {
		var data []byte
		if req.Alloc != nil {
			data = req.Alloc(len(in.Data))
		}
		lent = append(lent, data != nil)
		if data == nil {
			data = make([]byte, len(in.Data))
		}
		clear(data) // an output overlapping an input would show
		outs = append(outs, &tensor.Tensor{DType: in.DType, Shape: in.Shape, Data: data})
	}
	for i, in := range srcs {
		for j, b := range in.Data {
			outs[i].Data[j] = ^b
		}
	}
	a.mu.Lock()
	a.lent = lent
	a.mu.Unlock()
	return &device.ExecResult{Outputs: outs}, nil
}

// TestAllocLendsSharedMemory: a device that writes its large results into
// the memory Alloc lends gets them to the host intact, after the inputs
// (which it reads after writing every result), in both Execute forms;
// small results are not lent memory.
func TestAllocLendsSharedMemory(t *testing.T) {
	dev := &allocator{}
	d := plugintest.Device(t, dev)
	v, ok := d.(interface {
		ExecuteViews(context.Context, *device.ExecRequest) (*device.ExecResult, func(), error)
	})
	if !ok {
		t.Skipf("%T has no ExecuteViews", d)
	}
	ctx := context.Background()
	large := randTensor(tensor.Float32, []int{3 << 20}, 5) // 12 MiB: the segment grows for the results
	large2 := randTensor(tensor.Float64, []int{1 << 19}, 6)
	small := randTensor(tensor.Float32, []int{100}, 7)
	flip := func(b []byte) []byte {
		out := make([]byte, len(b))
		for i, x := range b {
			out[i] = ^x
		}
		return out
	}
	for _, views := range []bool{false, true} {
		req := &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(large), ops.T(small), ops.T(large2)}}
		var res *device.ExecResult
		release := func() {}
		var err error
		if views {
			res, release, err = v.ExecuteViews(ctx, req)
		} else {
			res, err = d.Execute(ctx, req)
		}
		if err != nil {
			t.Fatal(err)
		}
		want := [][]byte{flip(large.Data), flip(small.Data), flip(large2.Data), flip(large.Data)}
		if len(res.Outputs) != len(want) {
			t.Fatalf("views=%v: %d outputs", views, len(res.Outputs))
		}
		for i, w := range want {
			if !bytes.Equal(res.Outputs[i].Data, w) {
				t.Errorf("views=%v: output %d differs", views, i)
			}
		}
		release()
		dev.mu.Lock()
		lent := dev.lent
		dev.mu.Unlock()
		if !reflect.DeepEqual(lent, []bool{true, false, true, true}) {
			t.Errorf("views=%v: Alloc lent memory for outputs %v, want the large ones only", views, lent)
		}
	}
}

// TestLeasedInputs: inputs the host places in a lease travel by reference
// (a device that returns its input returns the very bytes the host wrote),
// results stay valid until the lease is released, and a lease of another
// connection is copied from like any host memory.
func TestLeasedInputs(t *testing.T) {
	type leaser interface {
		Lease() *transport.Lease
		ExecuteLeased(context.Context, *device.ExecRequest, *transport.Lease) (*device.ExecResult, func(), error)
	}
	d, ok := plugintest.Device(t, &recorder{}).(leaser)
	if !ok {
		t.Skip("the client lends no shared memory")
	}
	other, _ := plugintest.Device(t, &recorder{}).(leaser)
	ctx := context.Background()
	a := randTensor(tensor.Float32, []int{1 << 20}, 3)
	for _, c := range []struct {
		name    string
		lease   *transport.Lease
		inPlace bool
	}{{"own", d.Lease(), true}, {"other connection's", other.Lease(), false}} {
		if c.lease == nil {
			t.Fatalf("%s: no lease", c.name)
		}
		buf := c.lease.Alloc(len(a.Data))
		if buf == nil {
			t.Fatalf("%s: Alloc lent nothing", c.name)
		}
		copy(buf, a.Data)
		in := &tensor.Tensor{DType: a.DType, Shape: a.Shape, Data: buf}
		res, release, err := d.ExecuteLeased(ctx, &device.ExecRequest{Op: "id", Inputs: []ops.Value{ops.T(in)}}, c.lease)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		release()
		out := res.Outputs[0].Data
		if !bytes.Equal(out, a.Data) {
			t.Fatalf("%s: result differs", c.name)
		}
		if same := &out[0] == &buf[0]; same != c.inPlace {
			t.Errorf("%s: result is the leased input itself: %v, want %v", c.name, same, c.inPlace)
		}
		if c.inPlace && c.lease.Alloc(16) != nil {
			t.Errorf("%s: a used lease still lends memory", c.name)
		}
		c.lease.Release()
		c.lease.Release() // idempotent
	}
}
