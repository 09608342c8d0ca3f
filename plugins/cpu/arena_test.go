package cpu

import (
	"context"
	"testing"

	"github.com/probe-dev/probe/sdk/device"
	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/tensor"
)

// releasing serves a device the way the plugin server does: each result
// is sent (here: copied) and then released.
type releasing struct{ device.Device }

func (r releasing) Execute(ctx context.Context, req *device.ExecRequest) (*device.ExecResult, error) {
	res, err := r.Device.Execute(ctx, req)
	if err != nil || res == nil {
		return res, err
	}
	clone := func(ts []*tensor.Tensor) []*tensor.Tensor {
		var out []*tensor.Tensor
		for _, t := range ts {
			if t != nil {
				t = t.Clone()
			}
			out = append(out, t)
		}
		return out
	}
	out := &device.ExecResult{Outputs: clone(res.Outputs), InputGrads: clone(res.InputGrads)}
	r.Device.(device.Releaser).Release(res)
	return out, nil
}

// TestConformanceWithPool runs the kit with every buffer pooled (arenaMin
// lowered to 64 bytes) and poisoned when it goes back to the pool: a
// kernel result sharing a buffer the call gave back, or a buffer reused
// while a result still holds it, turns into NaN values the kit rejects.
// Not parallel: it changes package settings.
func TestConformanceWithPool(t *testing.T) {
	oldMin, oldPoison := arenaMin, poisonFreed
	arenaMin, poisonFreed = 64, true
	defer func() { arenaMin, poisonFreed = oldMin, oldPoison }()
	for _, m := range modes {
		t.Run(m.String(), func(t *testing.T) {
			dev := New(Options{Mode: m})
			devicetest.Run(t, releasing{dev}, goldenOptions(m))
			if !dev.(*cpuDevice).releases.Load() {
				t.Fatal("the pool was never turned on")
			}
		})
	}
	pool.mu.Lock()
	lent := len(pool.lent)
	pool.mu.Unlock()
	if lent != 0 {
		t.Errorf("%d results' buffers were never given back", lent)
	}
}
