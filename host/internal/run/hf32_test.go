package run

import (
	"slices"
	"testing"

	"github.com/probe-dev/probe/internal/dump"
	"github.com/probe-dev/probe/sdk/tensor"
)

// pytorch-precheck §11.12: HF32 rounding of float32 bit patterns.
// pytorch-precheck §11.6: atten_mask without data, sparse_mode 3, for
// npu_fusion_attention is the 2048x2048 mask true strictly above the
// diagonal.
func TestCausalMask(t *testing.T) {
	d := &dump.TensorDesc{DType: tensor.Bool, Shape: []int{2048, 2048}}
	m, err := causalMask(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]int{{0, 0, 0}, {0, 1, 1}, {1, 0, 0}, {2047, 2047, 0}, {5, 2047, 1}, {2047, 5, 0}} {
		if got := int(m.Data[c[0]*2048+c[1]]); got != c[2] {
			t.Errorf("mask[%d][%d] = %d, want %d", c[0], c[1], got, c[2])
		}
	}
	// Batched: the diagonal rule applies to the last two dimensions.
	b, err := causalMask(&dump.TensorDesc{DType: tensor.Bool, Shape: []int{2, 3, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Data; !slices.Equal(got, []byte{0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0}) {
		t.Errorf("batched mask %v", got)
	}
	for _, bad := range []*dump.TensorDesc{{DType: tensor.Float32, Shape: []int{2, 2}}, {DType: tensor.Bool, Shape: []int{4}}} {
		if _, err := causalMask(bad); err == nil {
			t.Errorf("causal mask of %v%v accepted", bad.DType, bad.Shape)
		}
	}
}
