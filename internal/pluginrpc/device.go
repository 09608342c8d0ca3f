package pluginrpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"

	"google.golang.org/grpc"

	pb "github.com/probe-dev/probe/internal/pb/probev1"
	"github.com/probe-dev/probe/internal/transport"
	"github.com/probe-dev/probe/sdk/device"
)

// callOptions cap every message the host sends or accepts at 4 MiB: bulk
// data never travels inline.
var callOptions = []grpc.CallOption{
	grpc.MaxCallSendMsgSize(transport.MaxMessageSize),
	grpc.MaxCallRecvMsgSize(transport.MaxMessageSize),
}

// ---- plugin side ----

type deviceServer struct {
	pb.UnimplementedDeviceServer
	impl   device.Device
	opts   transport.Options
	retain bool
	cache  *transport.Cache
}

func newDeviceServer(impl device.Device, opts transport.Options, retain bool) *deviceServer {
	return &deviceServer{impl: impl, opts: opts.Normalized(), retain: retain, cache: transport.NewCache(0)}
}

// recoverPanic turns a panic of the implementation into an error result.
func recoverPanic(method string, errp *error) {
	if r := recover(); r != nil {
		Logger().Error("plugin implementation panicked", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		*errp = fmt.Errorf("plugin panicked in %s: %v", method, r)
	}
}

func (s *deviceServer) Describe(ctx context.Context, _ *pb.DeviceDescribeRequest) (*pb.DeviceDescribeResponse, error) {
	info, err := func() (info *device.Info, err error) {
		defer recoverPanic("Describe", &err)
		return s.impl.Describe(ctx)
	}()
	if err == nil && info == nil {
		err = errors.New("Describe returned no information")
	}
	if err != nil {
		return &pb.DeviceDescribeResponse{Error: errorToPB(err)}, nil
	}
	return deviceInfoToPB(info), nil
}

func (s *deviceServer) Configure(ctx context.Context, req *pb.ConfigureRequest) (*pb.ConfigureResponse, error) {
	cfg := device.Config{DeviceID: int(req.GetDeviceId()), Options: req.GetOptions()}
	err := func() (err error) {
		defer recoverPanic("Configure", &err)
		return s.impl.Configure(ctx, cfg)
	}()
	if err != nil {
		return &pb.ConfigureResponse{Error: errorToPB(err)}, nil
	}
	return &pb.ConfigureResponse{}, nil
}

func (s *deviceServer) Execute(ctx context.Context, req *pb.ExecuteRequest) (*pb.ExecuteResponse, error) {
	fail := func(err error) (*pb.ExecuteResponse, error) {
		return &pb.ExecuteResponse{Error: errorToPB(err)}, nil
	}
	s.cache.Retire(req.GetRetiredSegments())

	var seg *transport.Segment
	if sp := req.GetSegment(); sp != nil && !s.opts.DisableShm {
		sg, release, err := s.cache.Acquire(sp.GetId(), sp.GetPath())
		if err != nil {
			return fail(fmt.Errorf("attach shared memory: %w", err))
		}
		seg = sg
		defer func() {
			_ = seg.ReleaseViews()
			release()
		}()
	}

	// Inputs in shared memory are views of the segment unless the device
	// asked for copies. base ends up past every input, so that outputs are
	// written after them and outputs that are inputs cost nothing.
	copyInputs := s.retain
	var base int64
	resolve := func(ref transport.Ref) ([]byte, error) {
		if end := int64(ref.Offset + ref.Length); end > base {
			base = end
		}
		if copyInputs {
			return transport.ReadRef(seg, ref)
		}
		return transport.ViewRef(seg, ref)
	}

	dreq, err := execRequestFromPB(req, resolve)
	if err != nil {
		return fail(fmt.Errorf("decode request: %w", err))
	}
	if seg != nil {
		// Outputs the device writes into the segment after the inputs
		// travel by reference (encode's base moves past them).
		dreq.Alloc = func(n int) []byte {
			if n <= s.opts.InlineMax {
				return nil
			}
			off := alignUp64(base, transport.SegmentAlign)
			if err := seg.Reserve(off + int64(n)); err != nil {
				return nil
			}
			v, err := seg.View(off, int64(n))
			if err != nil {
				return nil
			}
			base = off + int64(n)
			return v
		}
	}
	res, err := func() (res *device.ExecResult, err error) {
		defer recoverPanic("Execute", &err)
		return s.impl.Execute(ctx, dreq)
	}()
	if err != nil {
		return fail(err)
	}
	if res == nil {
		return fail(errors.New("Execute returned no result"))
	}

	resp, err := s.encode(res, seg, base)
	if r, ok := s.impl.(device.Releaser); ok {
		// The message is marshalled after this returns: inline bytes must
		// not be the device's to reuse. On an error no tensor is sent.
		for _, ts := range [][]*pb.OptionalTensor{resp.GetOutputs(), resp.GetInputGrads()} {
			for _, t := range ts {
				if in, ok := t.GetTensor().GetData().(*pb.Tensor_Inline); ok {
					in.Inline = bytes.Clone(in.Inline)
				}
			}
		}
		r.Release(res)
	}
	if err != nil {
		return fail(fmt.Errorf("encode result: %w", err))
	}
	return resp, nil
}

// encode puts a result into a response: large tensors into the segment
// after base (views of the segment below it by reference), the rest
// inline.
func (s *deviceServer) encode(res *device.ExecResult, seg *transport.Segment, base int64) (*pb.ExecuteResponse, error) {
	pk := transport.NewPacker(s.opts, seg)
	pk.SetBase(base)
	resp := &pb.ExecuteResponse{}
	var err error
	if resp.Outputs, err = optTensorsToPB(res.Outputs, pk, "output"); err != nil {
		return nil, err
	}
	if resp.InputGrads, err = optTensorsToPB(res.InputGrads, pk, "input gradient"); err != nil {
		return nil, err
	}
	if err := pk.Commit(); err != nil {
		return nil, err
	}
	return resp, nil
}

func execRequestFromPB(req *pb.ExecuteRequest, resolve resolver) (*device.ExecRequest, error) {
	attrs, err := attrsFromPB(req.GetAttrs())
	if err != nil {
		return nil, err
	}
	inputs, err := valuesFromPB(req.GetInputs(), resolve)
	if err != nil {
		return nil, err
	}
	grads, err := optTensorsFromPB(req.GetGradOutputs(), resolve, "grad output")
	if err != nil {
		return nil, err
	}
	return &device.ExecRequest{
		API:          req.GetApi(),
		Op:           req.GetOp(),
		Attrs:        attrs,
		Inputs:       inputs,
		RequiresGrad: req.GetRequiresGrad(),
		Backward:     req.GetBackward(),
		GradOutputs:  grads,
		Seed:         req.GetSeed(),
		Precision:    precisionFromPB(req.GetPrecision()),
	}, nil
}

// ---- host side ----

type deviceClient struct {
	rpc  pb.DeviceClient
	opts transport.Options
	pool *transport.Pool

	mu    sync.Mutex
	noShm bool // Describe said the plugin cannot use shared memory
}

func newDeviceClient(rpc pb.DeviceClient, opts transport.Options) *deviceClient {
	return &deviceClient{rpc: rpc, opts: opts.Normalized(), pool: transport.NewPool(transport.PoolOptions{})}
}

// Close releases the client's shared-memory segments.
func (c *deviceClient) Close() error { return c.pool.Close() }

func (c *deviceClient) Describe(ctx context.Context) (*device.Info, error) {
	resp, err := c.rpc.Describe(ctx, &pb.DeviceDescribeRequest{}, callOptions...)
	if err != nil {
		return nil, rpcError("Describe", err)
	}
	if e := resp.GetError(); e != nil {
		return nil, errorFromPB(e)
	}
	info, err := deviceInfoFromPB(resp)
	if err != nil {
		return nil, fmt.Errorf("plugin Describe: %w", err)
	}
	c.mu.Lock()
	c.noShm = !slices.Contains(resp.GetPlugin().GetCapabilities(), CapShm)
	c.mu.Unlock()
	return info, nil
}

func (c *deviceClient) Configure(ctx context.Context, cfg device.Config) error {
	resp, err := c.rpc.Configure(ctx, &pb.ConfigureRequest{DeviceId: int64(cfg.DeviceID), Options: cfg.Options}, callOptions...)
	if err != nil {
		return rpcError("Configure", err)
	}
	return errorFromPB(resp.GetError())
}

func (c *deviceClient) Execute(ctx context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	res, release, err := c.execute(ctx, req, false, nil)
	release()
	return res, err
}

// ExecuteViews is Execute without the copy of the results out of shared
// memory: large result tensors are views of the call's segment, valid
// until release is called, which gives the segment back to the pool (it
// must be called, also after an error). The host reads results in place
// and releases them once judged; fresh memory for every result, faulted
// in page by page, cost more than the plugin's work on large tensors.
func (c *deviceClient) ExecuteViews(ctx context.Context, req *device.ExecRequest) (res *device.ExecResult, release func(), err error) {
	return c.execute(ctx, req, true, nil)
}

// Lease takes a shared-memory segment for the next call, for the caller to
// place its large inputs in (transport.Lease); nil when the plugin has no
// shared memory.
func (c *deviceClient) Lease() *transport.Lease {
	c.mu.Lock()
	useShm := !c.noShm && !c.opts.DisableShm
	c.mu.Unlock()
	if !useShm {
		return nil
	}
	return c.pool.Lease()
}

// WarmBytes is how many bytes the next Lease can hand out without growing
// its segment (faulting in fresh pages), or -1 when the connection lends
// no shared memory.
func (c *deviceClient) WarmBytes() int64 {
	c.mu.Lock()
	useShm := !c.noShm && !c.opts.DisableShm
	c.mu.Unlock()
	if !useShm {
		return -1
	}
	return c.pool.IdleMax()
}

// ExecuteLeased is ExecuteViews in lease's segment: inputs placed with
// lease.Alloc travel by reference, and the results stay valid until the
// lease is released (release itself does nothing then). A lease of
// another connection, or one already used, is ignored: the call copies.
func (c *deviceClient) ExecuteLeased(ctx context.Context, req *device.ExecRequest, lease *transport.Lease) (res *device.ExecResult, release func(), err error) {
	return c.execute(ctx, req, true, lease)
}

func (c *deviceClient) execute(ctx context.Context, req *device.ExecRequest, views bool, lease *transport.Lease) (res *device.ExecResult, release func(), err error) {
	release = func() {}
	if req == nil {
		return nil, release, errors.New("plugin Execute: nil request")
	}
	c.mu.Lock()
	useShm := !c.noShm && !c.opts.DisableShm
	c.mu.Unlock()

	var seg *transport.Segment
	var base int64
	leased := false
	if useShm {
		seg, base, leased = lease.Use(c.pool)
	}
	if useShm && !leased {
		if seg, err = c.pool.Get(); err != nil {
			if errors.Is(err, transport.ErrClosed) {
				return nil, release, rpcError("Execute", errConnClosed)
			}
			return nil, release, fmt.Errorf("plugin Execute: shared memory: %w", err)
		}
	}
	// The segment goes back to the pool only when the plugin has certainly
	// finished with it: after a response. With views, the caller's release
	// gives it back once it has read the results.
	// A leased segment goes back when the lease is released.
	reusable := false
	held := false
	defer func() {
		switch {
		case leased:
			lease.Done(reusable)
		case !held:
			c.pool.Put(seg, reusable)
		}
	}()

	pk := transport.NewPacker(c.opts, seg)
	pk.SetBase(base)
	preq := &pb.ExecuteRequest{
		Api:          req.API,
		Op:           req.Op,
		RequiresGrad: req.RequiresGrad,
		Backward:     req.Backward,
		Seed:         req.Seed,
		Precision:    precisionToPB(req.Precision),
	}
	if preq.Attrs, err = attrsToPB(req.Attrs); err != nil {
		return nil, release, fmt.Errorf("plugin Execute %s: %w", req.Op, err)
	}
	if preq.Inputs, err = valuesToPB(req.Inputs, pk); err != nil {
		return nil, release, fmt.Errorf("plugin Execute %s: %w", req.Op, err)
	}
	if preq.GradOutputs, err = optTensorsToPB(req.GradOutputs, pk, "grad output"); err != nil {
		return nil, release, fmt.Errorf("plugin Execute %s: %w", req.Op, err)
	}
	if err := pk.Commit(); err != nil {
		return nil, release, fmt.Errorf("plugin Execute %s: %w", req.Op, err)
	}
	if seg != nil {
		preq.Segment = &pb.Segment{Id: seg.ID(), Path: seg.Path()}
	}
	retired := c.pool.TakeRetired()
	preq.RetiredSegments = retired

	resp, err := c.rpc.Execute(ctx, preq, callOptions...)
	if err != nil {
		c.pool.ReturnRetired(retired)
		return nil, release, rpcError("Execute", err)
	}
	reusable = true
	if e := resp.GetError(); e != nil {
		return nil, release, errorFromPB(e)
	}
	resolve := func(ref transport.Ref) ([]byte, error) { return transport.ReadRef(seg, ref) }
	switch {
	case seg == nil:
		resolve = nil
	case views && leased:
		resolve = func(ref transport.Ref) ([]byte, error) { return transport.ViewRef(seg, ref) }
	case views && seg.Sealed():
		resolve = func(ref transport.Ref) ([]byte, error) { return transport.ViewRef(seg, ref) }
		held = true
		var once sync.Once
		release = func() { once.Do(func() { c.pool.Put(seg, true) }) }
	}
	out := &device.ExecResult{}
	if out.Outputs, err = optTensorsFromPB(resp.GetOutputs(), resolve, "output"); err != nil {
		return nil, release, fmt.Errorf("plugin Execute %s: decode result: %w", req.Op, err)
	}
	if out.InputGrads, err = optTensorsFromPB(resp.GetInputGrads(), resolve, "input gradient"); err != nil {
		return nil, release, fmt.Errorf("plugin Execute %s: decode result: %w", req.Op, err)
	}
	return out, release, nil
}

func alignUp64(n, a int64) int64 { return (n + a - 1) / a * a }
