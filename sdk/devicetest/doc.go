// Package devicetest is the conformance kit every probe device runs: a
// corpus of golden cases computed by real PyTorch 1.13, embedded in the
// package, and the code that runs them against a device.Device and judges
// the results (the model is gonum's lapack/testlapack: the implementation
// brings itself, the package brings the tests).
//
// # What a device author does
//
// Write a test in the device's package that calls Run with the device,
// configured as it will serve:
//
//	func TestConformance(t *testing.T) {
//		devicetest.Run(t, mydevice.New(), devicetest.Options{})
//	}
//
// Run makes one subtest per op × dtype pair ("gelu/float32"); a failure
// names the op, the case and what was wrong. Check returns the same verdict
// as a Report (WriteTable prints it) for tools such as `probe conformance`.
// The package imports only the standard library and sdk/device, sdk/ops
// and sdk/tensor, so a plugin's test needs nothing else.
//
// # How cases are chosen
//
// Check calls Describe first and runs a case when the device declares the
// case's op at the case's DType (device.CallDType of its inputs: the dtype
// the host matches Info.Ops against). A backward case runs with its
// backward only when the device declares Backward for the op; otherwise
// its forward alone runs. Pairs the corpus has cases for but the device
// does not declare are reported Unsupported, declared pairs without a case
// NoCases; neither is a failure. Options.Ops restricts the run to some ops.
// Every case runs whatever its Mode (bench or emulated: which mode of the
// CPU plugin it was written for); every request is a fresh deep copy, so a
// device may overwrite its inputs.
//
// # What is checked
//
// Forward outputs and input gradients must have exactly PyTorch's dtype and
// shape, and values within tolerance: |got − want| ≤ ATol + RTol·|want| +
// ULP·ulp(dtype, want); NaN must meet NaN and an infinity the same
// infinity; integers and bools must be equal. An input gradient PyTorch
// does not give may be nil or all zeros. An error case (PyTorch rejected
// the call) must make Execute return an error of kind
// device.InvalidArgument (an *ops.ArgumentError: the framework itself
// rejects the call); Unsupported for a declared pair is a failure too, and
// Options.CheckError may look at the message. A panic of the device is a
// failure of the case, never a panic of the caller.
//
// # Tolerances
//
// DefaultTolerance is torch.testing.assert_close's defaults per dtype
// (float64 rtol 1e-7 atol 1e-7, float32 1.3e-6 and 1e-5, float16 1e-3 and
// 1e-5, bfloat16 1.6e-2 and 1e-5), raised to the case's own rtol, atol and
// ulp fields where it has them: loose enough for any correct kernel of a
// real device (another summation order, float32 accumulation for the half
// types, one rounding of a correct result). The float16 and bfloat16
// backward cases of the dtypes group whose gradient is formed from the
// rounded forward output (rsqrt −½·g·y³, tanh, softmax, ...) carry an ulp
// field of a few units: the gradient inherits a multiple of the output's
// rounding, on PyTorch and on a device alike. A device whose kernels are
// better tightens it with Options.Tolerance, usually by Case.Mode or
// Case.Group; plugins/cpu, whose kernels compute in float64, requires
// 1e-12 at float64 and 2 ulp at the narrow dtypes for the cases of its own
// mode (plugins/cpu/golden_test.go).
//
// # Gradient checks
//
// Golden gradients test a backward against PyTorch's. Independently of
// them, every backward case at float64 is also checked against the
// device's own forward by finite differences: with g the case's gradient
// outputs and L(x) = Σ g·f(x) over the float outputs that have one, for
// each float64 input that requires grad, a seeded random direction v
// (uniform in [-1, 1] per element) and h = 1e-6·max(1, max|x|), the
// directional derivative Σ grad·v of the device's backward must match the
// central difference (L(x+hv) − L(x−hv)) / 2h computed with forward-only
// Execute calls, within 1e-5·(Σ|grad·v| + |difference|) plus a rounding
// allowance of 1e-11·Σ|g·f| / h. A wrong backward fails this check even
// where the corpus has no golden gradient. Skipped, by design:
//
//   - kinks: points where the second-order one-sided differences
//     (−3L(0) + 4L(h) − L(2h)) / 2h and (3L(0) − 4L(−h) + L(−2h)) / 2h
//     disagree (relu at 0, max ties, a step of floor division); on a smooth
//     function they share the same O(h²) error;
//   - points where L or the device's directional derivative is not finite;
//   - cases whose used outputs are narrower than float64, and float32 or
//     narrower cases altogether: finite differences of a float32 forward
//     (TF32 and other reduced-precision modes of real devices included)
//     cannot tell a 1e-3 error from noise, so they would either pass
//     everything or fail correct devices;
//   - dropout in training with 0 < p < 1 (the mask is random; the corpus
//     has no such case anyway: p = 0, p = 1 and evaluation are checked);
//   - embedding with padding_idx or scale_grad_by_freq, and clamp where an
//     input value equals a bound: PyTorch's gradient is not the derivative
//     there, on purpose;
//   - npu.swiglu and npu.scaled_masked_softmax with semantics "msprobe"
//     (msprobe's reference, float32 steps);
//   - the statistics outputs of npu.rms_norm (rstd) and
//     npu.fusion_attention (softmax_max, softmax_sum), whose gradient the
//     op's backward ignores.
//
// Options.NoGradCheck turns the checks off (a device whose forward is not
// a function of its inputs alone, say).
//
// # The corpus
//
// testdata/golden/*.json.gz, one file per group, written by the Python
// generators beside them with real PyTorch 1.13 on the CPU (format:
// testdata/golden_lib.py). To regenerate (the output is byte-for-byte
// deterministic), with the system interpreter that has torch:
//
//	cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden.py           # elementwise, reduction, shape ops
//	cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_nn.py        # nn ops
//	cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_attention.py # npu.fusion_attention
//	cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_dtypes.py    # every op at float32, float16, bfloat16
//	cd sdk/devicetest/testdata && /usr/bin/python3 gen_golden_f32_nn.py    # float32 sums of matrix products (emulated)
//
// (`apt-get install -y python3-torch` provides it; a pyenv python on PATH
// usually has no torch.) A new group is a new file in testdata/golden and
// needs no Go change. Most ops have many cases at float64 (bench) and some
// at float32/float16/bfloat16 (emulated); the dtypes group gives every op
// but echo a forward case and, where differentiable, a backward case at
// each narrow dtype, computed in float32 and rounded where PyTorch 1.13's
// CPU has no kernel at the dtype (case names ending in "_via_f32").
package devicetest
