package cpu

// Golden tests: the PyTorch-generated corpus of sdk/devicetest, the
// conformance kit every device runs (its doc.go describes the corpus, its
// generators and format). The CPU plugin runs the kit in both modes with
// tolerances tightened to what its float64 kernels achieve: for cases
// written for the device's own mode, float64 values within 1e-12 relative
// plus 1e-12 absolute, values of narrower float dtypes within 2 units in
// the last place of their dtype, or the case's own rtol/atol/ulp; cases
// written for the other mode, and the dtypes group (PyTorch's own float32
// kernels are a few ulp off the correctly rounded result; the group checks
// that every op runs at every narrow dtype, as on any device), run with the
// kit's DefaultTolerance, except that the bench meets the f32_nn group's
// float32 sums within float32 accumulation error (4e-5 relative), and the
// emulated device its first_term_dominates cases (whose own tolerance
// admits any correct summation) to 2 ulp: PyTorch's float32 sums. Error
// cases must carry PyTorch's message (errorMessageDeviations lists the
// exceptions).

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/devicetest"
	"github.com/probe-dev/probe/sdk/tensor"
)

// goldenTolerance is the CPU device's tolerance in mode m (see the top of
// this file).
func goldenTolerance(m Mode) func(c *devicetest.Case, dt tensor.DType) devicetest.Tolerance {
	return func(c *devicetest.Case, dt tensor.DType) devicetest.Tolerance {
		if strings.Contains(c.Name, "/first_term_dominates/") && m == Emulated {
			// PyTorch's float32 sums, which the emulated device forms
			// (call.gemmDT), to 2 ulp; the cases' own rtol and atol
			// admit any correct summation, the float64 one included
			return devicetest.Tolerance{ULP: 2}
		}
		if c.Group == "f32_nn" && m == Bench {
			// PyTorch's float32 sums, which the emulated device forms
			// (call.gemmDT); the bench's float64 products are up to
			// k·2⁻²⁴ relative away (k ≤ 600 there)
			return devicetest.Tolerance{RTol: 4e-5, ATol: 1e-4}
		}
		if c.Mode != m.String() || c.Group == "dtypes" {
			return devicetest.DefaultTolerance(c, dt)
		}
		tol := devicetest.Tolerance{RTol: 1e-12, ATol: 1e-12}
		if dt != tensor.Float64 {
			tol = devicetest.Tolerance{ULP: 2}
		}
		if c.RTol != nil {
			tol.RTol = *c.RTol
		}
		if c.ATol != nil {
			tol.ATol = *c.ATol
		}
		if c.ULP != nil {
			tol.ULP = *c.ULP
		}
		return tol
	}
}

// errorMessageDeviations are error cases whose message differs from
// PyTorch's on purpose:
//   - pow_ and clamp_ word the refused in-place cast differently in PyTorch
//     ("Found dtype Long but expected Float", lower-case "int"); probe uses
//     the one message of every other in-place op;
//   - the nn generator runs with float64 as default dtype, so PyTorch names
//     Double where a real run (float32 default) names Float;
//   - npu.rms_norm has no PyTorch op (the reference's broadcasting error
//     stands in for torch_npu's shape check);
//   - PyTorch's Python wrapper of adaptive_avg_pool2d checks the rank
//     before ATen does; probe gives ATen's message.
var errorMessageDeviations = map[string]bool{
	"pow/inplace_int_float":        true,
	"clamp/inplace_int_float":      true,
	"dropout/int_train":            true,
	"npu.rms_norm/gamma_mismatch":  true,
	"adaptive_avg_pool2d/2d_input": true,
}

// torchMessage requires the error of an error case to contain PyTorch's
// message: the CPU kernels reproduce them.
func torchMessage(c *devicetest.Case, err error) error {
	if errorMessageDeviations[c.Name] || strings.Contains(err.Error(), c.Error) {
		return nil
	}
	return fmt.Errorf("error %q does not contain PyTorch's %q", err, c.Error)
}

// goldenOptions are the kit's options for the CPU device in mode m.
func goldenOptions(m Mode) devicetest.Options {
	return devicetest.Options{Tolerance: goldenTolerance(m), CheckError: torchMessage}
}

// goldenCorpus is the kit's corpus.
func goldenCorpus(t *testing.T) []*devicetest.Case {
	t.Helper()
	cs, err := devicetest.Cases()
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// dtypesExceptions are kernels without cases in the dtypes group.
var dtypesExceptions = map[string]string{
	"echo": "measures tensor transport; no PyTorch op computes it",
	"gcd":  "integer dtypes only",
	"lcm":  "integer dtypes only",
}

// nnErrorExceptions are nn kernels without an error golden case.
var nnErrorExceptions = map[string]string{
	"npu.fusion_attention":      "no PyTorch op to raise; TestAttnExecute checks its errors",
	"npu.fusion_attention_grad": "no PyTorch op to raise; TestAttnGradExecute checks its errors",
}

// TestGoldenCoverage: every registered kernel has bench golden cases,
// forward and, where the kernel has a backward, backward; every nn kernel
// (one whose cases are in an nn_* group) at least two forward cases and an
// error case; every kernel a forward case at float32, float16 and bfloat16
// in the dtypes group (or emulated cases of its family's group), and a
// backward one where it has a backward; and at
// least five ops have emulated-mode cases outside the dtypes group.
func TestGoldenCoverage(t *testing.T) {
	type key struct {
		op string
		dt tensor.DType
	}
	fwd, bwd, emu, errs := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	nn := map[string]bool{}
	dtFwd, dtBwd := map[key]bool{}, map[key]bool{}
	for _, c := range goldenCorpus(t) {
		if strings.HasPrefix(c.Group, "nn_") {
			nn[c.Op] = true
		}
		if c.Error == "" && c.Mode == "emulated" && c.DType != tensor.Float64 && c.DType.IsFloat() {
			// a family's own group may carry its narrow-dtype cases
			dtFwd[key{c.Op, c.DType}] = true
			if c.Request.Backward {
				dtBwd[key{c.Op, c.DType}] = true
			}
		}
		switch {
		case c.Error != "":
			errs[c.Op]++
		case c.Group == "dtypes" || c.Mode == "emulated" && !strings.Contains(c.Group, "emulated"):
			// a family's own group may carry its narrow-dtype cases
			dtFwd[key{c.Op, c.DType}] = true
			if c.Request.Backward {
				dtBwd[key{c.Op, c.DType}] = true
			}
		case c.Mode == "emulated":
			emu[c.Op]++
			// a family's own group may hold its narrow-dtype cases
			dtFwd[key{c.Op, c.DType}] = true
			if c.Request.Backward {
				dtBwd[key{c.Op, c.DType}] = true
			}
		default:
			fwd[c.Op]++
			if c.Request.Backward {
				bwd[c.Op]++
			}
		}
	}
	for op, k := range kernels {
		if fwd[op] == 0 {
			t.Errorf("kernel %s has no bench golden case", op)
		}
		if k.backward != nil && bwd[op] == 0 {
			t.Errorf("kernel %s has a backward but no backward golden case", op)
		}
		if nn[op] && fwd[op] < 2 {
			t.Errorf("nn kernel %s has %d forward golden cases", op, fwd[op])
		}
		if nn[op] && errs[op] == 0 && nnErrorExceptions[op] == "" {
			t.Errorf("nn kernel %s has no error golden case", op)
		}
		if why := dtypesExceptions[op]; why != "" {
			t.Logf("%s: no dtypes cases (%s)", op, why)
			continue
		}
		for _, dt := range []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16} {
			if dts := opDTypes[op]; dts != nil && !slices.Contains(dts, dt) {
				continue // an integer-only kernel (bitwise ops)
			}
			if !dtFwd[key{op, dt}] {
				t.Errorf("kernel %s has no %s case in the dtypes group", op, dt)
			}
			if k.backward != nil && !dtBwd[key{op, dt}] {
				t.Errorf("kernel %s has no %s backward case in the dtypes group", op, dt)
			}
		}
	}
	for op := range nn {
		if kernels[op] == nil {
			t.Errorf("golden cases for %s, which has no kernel", op)
		}
	}
	if len(nn) < 17 {
		t.Errorf("only %d nn kernels have golden cases", len(nn))
	}
	if len(emu) < 5 {
		t.Errorf("only %d ops have emulated-mode golden cases", len(emu))
	}
	t.Logf("golden: %d ops forward (%d nn), %d backward, %d emulated, %d with error cases, %d op × dtype pairs in the dtypes group",
		len(fwd), len(nn), len(bwd), len(emu), len(errs), len(dtFwd))
}

// The CPU kit run covers every error case with PyTorch's message; this
// makes sure the exceptions stay exceptions.
func TestErrorMessageDeviations(t *testing.T) {
	byName := map[string]*devicetest.Case{}
	for _, c := range goldenCorpus(t) {
		byName[c.Name] = c
	}
	for name := range errorMessageDeviations {
		c := byName[name]
		if c == nil || c.Error == "" {
			t.Errorf("deviation %s is not an error case of the corpus", name)
			continue
		}
		_, err := New(Options{}).Execute(context.Background(), c.Request)
		if err == nil {
			t.Errorf("%s: no error", name)
		} else if strings.Contains(err.Error(), c.Error) {
			t.Errorf("%s: the message now contains PyTorch's %q: drop the deviation", name, c.Error)
		}
	}
}

// goldenFile and goldenCase are the corpus grouped by file, for tests that
// count cases (nn_attention_test.go).
type goldenFile struct {
	Group string
	Cases []goldenCase
}

type goldenCase struct {
	Name, Op, Mode string
	Error          *string
	GradOutputs    []*tensor.Tensor // non-nil for a backward case
}

// loadGolden returns the corpus grouped by file.
func loadGolden(t *testing.T) []goldenFile {
	t.Helper()
	var files []goldenFile
	for _, c := range goldenCorpus(t) {
		if len(files) == 0 || files[len(files)-1].Group != c.Group {
			files = append(files, goldenFile{Group: c.Group})
		}
		gc := goldenCase{Name: c.Name, Op: c.Op, Mode: c.Mode}
		if c.Error != "" {
			msg := c.Error
			gc.Error = &msg
		}
		if c.Request.Backward {
			gc.GradOutputs = append([]*tensor.Tensor{}, c.Request.GradOutputs...)
		}
		f := &files[len(files)-1]
		f.Cases = append(f.Cases, gc)
	}
	return files
}

// goldenOps maps every op of the corpus's groups of plain ops (all but the
// nn groups, bf16_nn and f32_nn included, whose ops have cases in several
// groups, and
// the emulated and dtypes groups, which never carry the only backward
// case) to whether the
// corpus has backward cases for it; device_test.go checks that Describe
// declares a backward exactly for those.
var goldenOps = func() map[string]bool {
	cs, err := devicetest.Cases()
	if err != nil {
		panic(err)
	}
	m := map[string]bool{}
	for _, c := range cs {
		if strings.HasPrefix(c.Group, "nn_") || c.Group == "bf16_nn" || c.Group == "f32_nn" || c.Group == "emulated" || c.Group == "dtypes" {
			continue
		}
		m[c.Op] = m[c.Op] || c.Request.Backward
	}
	return m
}()

// allZero reports whether every element of t is zero.
func allZero(t *tensor.Tensor) bool {
	for _, v := range t.Float64s() {
		if v != 0 {
			return false
		}
	}
	return true
}
