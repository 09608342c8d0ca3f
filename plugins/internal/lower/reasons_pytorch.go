package lower

// Names of msprobe's PyTorch lists that no canonical op can check, each
// with why. The claims about PyTorch 1.13 were tried with Debian's
// python3-torch (1.13) on the CPU.
func init() {
	cannot("is random by nature: its values cannot be compared with a reference",
		"Tensor.bernoulli", "Tensor.bernoulli_", "Tensor.cauchy_", "Tensor.exponential_", "Tensor.geometric_",
		"Tensor.log_normal_", "Tensor.normal_", "Tensor.multinomial",
		"Torch.bernoulli", "Torch.multinomial", "Torch.normal", "Torch.poisson", "Torch.binomial")
	cannot("was removed in PyTorch 1.9: PyTorch 1.13 raises on every call",
		"Tensor.eig", "Tensor.lstsq", "Tensor.solve", "Torch.eig")
	cannot("has no CPU kernel in PyTorch 1.13 (a CUDA helper of SyncBatchNorm)",
		"Torch.batch_norm_stats", "Torch.batch_norm_elemt", "Torch.batch_norm_gather_stats",
		"Torch.batch_norm_gather_stats_with_counts", "Torch.batch_norm_backward_reduce", "Torch.batch_norm_backward_elemt")
	cannot("needs a quantized tensor, which a dump does not record", "Tensor.q_zero_point")
	cannot("returns a NumPy array, not a tensor", "Tensor.numpy")
	cannot("returns a tuple of Python ints (the strides), not a tensor", "Tensor.stride")
	cannot("takes a Python callable, which a dump does not record", "Tensor.map_", "Tensor.map2_")
	cannot("needs named tensors, which a dump does not record", "Tensor.align_as", "Tensor.align_to", "Torch.align_tensors")
	cannot("works on sparse tensors, which a dump does not record",
		"Tensor.smm", "Tensor.sspaddmm", "Torch.smm", "Torch.sspaddmm", "Torch.hspmm", "Torch.dsmm",
		"Torch.hsmm", "Torch.saddmm", "Torch.spmm", "Torch.sparse_coo_tensor")
	cannot("returns a complex tensor, which the precision standard does not compare", "Torch.polar")
}
