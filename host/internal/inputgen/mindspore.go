package inputgen

import (
	"errors"
	"fmt"
	"math"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/tensor"
)

// GenerateMindSpore reproduces the MindSpore checker's statistics-mode
// generation exactly (mindspore-precheck §4.3), for `--compat msprobe`:
// every tensor restarts a MT19937 stream seeded with 42 (NumPy's legacy
// np.random.seed(42)), draws one 53-bit uniform u per element in C order,
// and holds Min + (Max - Min)·u cast to its dtype (bool: u > 0.5; integers
// truncated toward zero; float16/float32 rounded to nearest even, bfloat16
// through float32). Note the consequences msprobe has: two tensors of the
// same shape and range are identical, and integers never reach Max unless
// Max == Min. probe's own generator (Generate) avoids both.
func GenerateMindSpore(d *dump.TensorDesc) (*tensor.Tensor, error) {
	if !d.DType.Valid() {
		return nil, fmt.Errorf("dtype %s is not supported", d.DTypeName)
	}
	n := 1
	for _, s := range d.Shape {
		if s < 0 || (s != 0 && int64(n) > MaxTensorBytes/int64(s)) {
			return nil, fmt.Errorf("cannot generate a tensor of shape %v", d.Shape)
		}
		n *= s
	}
	if int64(n)*int64(d.DType.Size()) > MaxTensorBytes {
		return nil, fmt.Errorf("tensor of shape %v is too large to generate (limit %d bytes)", d.Shape, MaxTensorBytes)
	}
	t := tensor.New(d.DType, d.Shape)
	m := newMT19937(42)
	if d.DType == tensor.Bool {
		for i := 0; i < n; i++ {
			if m.float64() > 0.5 {
				t.Data[i] = 1
			}
		}
		return t, nil
	}
	if !d.HasMin && d.MinBool == nil {
		return nil, errors.New("[msprobe] Api Accuracy Checker parse json failed: check_and_get_from_json_dict failed: Min field in api_info.json is missing")
	}
	if !d.HasMax && d.MaxBool == nil {
		return nil, errors.New("[msprobe] Api Accuracy Checker parse json failed: check_and_get_from_json_dict failed: Max field in api_info.json is missing")
	}
	lo, hi := msClamp(msBound(d.Min, d.MinBool)), msClamp(msBound(d.Max, d.MaxBool))
	r := hi - lo
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return nil, errors.New("Range exceeds valid bounds")
	}
	for i := 0; i < n; i++ {
		v := lo + r*m.float64()
		switch d.DType {
		case tensor.BFloat16:
			t.Set(i, float64(float32(v)))
		case tensor.Float16, tensor.Float32, tensor.Float64:
			t.Set(i, v)
		default:
			t.SetInt64(i, int64(math.Trunc(v)))
		}
	}
	return t, nil
}

// msBound reads a statistic: a number, or a JSON bool (true = 1).
func msBound(v float64, b *bool) float64 {
	if b != nil {
		if *b {
			return 1
		}
		return 0
	}
	return v
}

func msClamp(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return math.MaxFloat64
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	}
	return v
}

// mt19937 is the 32-bit Mersenne Twister with init_genrand seeding, as
// NumPy's legacy RandomState.
type mt19937 struct {
	mt  [624]uint32
	idx int
}

func newMT19937(seed uint32) *mt19937 {
	m := &mt19937{idx: 624}
	m.mt[0] = seed
	for i := 1; i < 624; i++ {
		m.mt[i] = 1812433253*(m.mt[i-1]^(m.mt[i-1]>>30)) + uint32(i)
	}
	return m
}

func (m *mt19937) uint32() uint32 {
	if m.idx >= 624 {
		const upper, lower = 0x80000000, 0x7fffffff
		for i := 0; i < 624; i++ {
			y := m.mt[i]&upper | m.mt[(i+1)%624]&lower
			v := m.mt[(i+397)%624] ^ (y >> 1)
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.mt[i] = v
		}
		m.idx = 0
	}
	y := m.mt[m.idx]
	m.idx++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// float64 is NumPy's random_sample: 53 bits from two outputs.
func (m *mt19937) float64() float64 {
	a, b := m.uint32()>>5, m.uint32()>>6
	return (float64(a)*67108864 + float64(b)) / 9007199254740992
}
