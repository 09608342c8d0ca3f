// Package lower lowers framework API calls with PyTorch semantics onto
// probe's canonical ops (sdk/ops).
//
// Both framework plugins use it: the pytorch plugin for Functional./Torch./
// Tensor./NPU. APIs, and the mindspore plugin for Mint./MintFunctional./
// Tensor. APIs, whose bench in msprobe is the same-named torch API, so torch
// semantics are the reference there too.
//
// A lowering binds the dumped positional and keyword argument descriptors to
// the PyTorch 1.13 signature of the API (defaults filled in, keyword or
// positional alike), validates every descriptor, normalises the non-tensor
// arguments into op attributes and binds the op inputs to dumped tensors by
// their Path or to Python-number constants. Any argument PyTorch would
// reject, or that the canonical op cannot express, makes the call a SKIP
// whose reason names the API and the argument.
//
// Deliberate choices, where one canonical op cannot mirror PyTorch exactly:
//
//   - Tensor.__rtruediv__/__rdiv__ are `self.reciprocal() * other` in
//     PyTorch 1.13 (two kernels); they lower to div(other, self).
//   - Tensor.__rpow__ builds a 0-d tensor of the promoted dtype from the
//     number; it lowers to pow with the number as a wrapped scalar.
//   - square is pow(input, 2), which is ATen's own implementation.
//   - t() of a 0-d or 1-d tensor and contiguous() are identities; they
//     lower to permute with identity dims and to clone.
//   - Unbatched convolution inputs skip (the convolution op takes a batch
//     dimension); padding='same' that PyTorch pads asymmetrically skips.
//   - F.embedding with max_norm skips (it renormalises the weight in place);
//     cross_entropy with class-probability targets skips.
//   - npu_rms_norm uses the recorded epsilon, else torch_npu's 1e-6 (msprobe's
//     CPU reference defaults to 1e-5: fused-ops.md quirk 9).
package lower
