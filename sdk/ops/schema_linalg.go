package ops

// The linalg family: matrix products beyond matmul/mm/bmm/addmm (addmv,
// addr, baddbmm, addbmm, outer, kron, tensordot, multi_dot, vecdot,
// matrix_power). dot, vdot, mv and linalg.matmul lower onto matmul.

var (
	betaAttr  = attr("beta", AttrFloat, FloatAttr(1), "multiplier of self (integer tensors: truncated; bool results: non-zero is True)")
	alphaAttr = attr("alpha", AttrFloat, FloatAttr(1), "multiplier of the product (integer tensors: truncated; bool results: non-zero is True)")
)

func init() {
	addSchemas(
		Schema{Name: "addmv", Doc: "beta*self + alpha*(mat @ vec): mat 2-d, vec 1-d of mat's dtype (the result's), self 0-d or 1-d converted to it; " +
			"beta == 0 ignores self (NaN included), alpha == 0 the product",
			Inputs: []InputSpec{in("self"), in("mat"), in("vec")}, Attrs: []AttrSpec{betaAttr, alphaAttr, inplace}, Outputs: 1},
		Schema{Name: "addr", Doc: "beta*self + alpha*outer(vec1, vec2) with PyTorch type promotion over the three tensors (bool: logical and/or); " +
			"beta == 0 ignores self (NaN included)",
			Inputs: []InputSpec{in("self"), in("vec1"), in("vec2")}, Attrs: []AttrSpec{betaAttr, alphaAttr, inplace}, Outputs: 1},
		Schema{Name: "baddbmm", Doc: "beta*self + alpha*(batch1 @ batch2) per batch: batch1 [b,n,k], batch2 [b,k,p] of one dtype (the result's), self broadcast to [b,n,p]; " +
			"beta == 0 ignores self (NaN included)",
			Inputs: []InputSpec{in("self"), in("batch1"), in("batch2")}, Attrs: []AttrSpec{betaAttr, alphaAttr, inplace}, Outputs: 1},
		Schema{Name: "addbmm", Doc: "beta*self + alpha*sum_b(batch1[b] @ batch2[b]): the three tensors share one dtype, self broadcast to [n,p]; " +
			"beta == 0 ignores self (NaN included), alpha == 0 the product",
			Inputs: []InputSpec{in("self"), in("batch1"), in("batch2")}, Attrs: []AttrSpec{betaAttr, alphaAttr, inplace}, Outputs: 1},
		Schema{Name: "outer", Doc: "self[:, None] * vec2[None, :] of two 1-d tensors, PyTorch type promotion (torch.outer, torch.ger)",
			Inputs: []InputSpec{in("self"), in("vec2")}, Outputs: 1},
		Schema{Name: "kron", Doc: "Kronecker product, PyTorch type promotion; the lower-rank input gets leading 1s",
			Inputs: []InputSpec{in("self"), in("other")}, Outputs: 1},
		Schema{Name: "tensordot", Doc: "contraction of dims_self of self with dims_other of other (same dtype); result: self's free dims then other's",
			Inputs: []InputSpec{in("self"), in("other")},
			Attrs: []AttrSpec{req("dims_self", AttrInts, "contracted dims of self (may be negative)"),
				req("dims_other", AttrInts, "contracted dims of other, one per dims_self entry")}, Outputs: 1},
		Schema{Name: "multi_dot", Doc: "torch.linalg.multi_dot: the product of two or more matrices of one dtype (the first may be 1-d, the last may be 1-d)",
			Inputs: []InputSpec{{Name: "tensors", Variadic: true, Differentiable: true}}, Outputs: 1},
		Schema{Name: "vecdot", Doc: "torch.linalg.vecdot: sum(x * y, dim) of broadcast x and y of one floating dtype",
			Inputs: []InputSpec{in("x"), in("y")}, Attrs: []AttrSpec{attr("dim", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "cross", Doc: "3-vector cross product along dim of self and other (same rank and dtype, broadcast over the other dims)",
			Inputs: []InputSpec{in("self"), in("other")}, Attrs: []AttrSpec{req("dim", AttrInt, "the dimension of length 3 (may be negative)")}, Outputs: 1},
		Schema{Name: "dist", Doc: "p-norm of self - other (broadcast, PyTorch type promotion, float results only), as linalg.vector_norm over every element",
			Inputs: []InputSpec{in("self"), in("other")}, Attrs: []AttrSpec{attr("p", AttrFloat, FloatAttr(2), "the order: any float, inf and -inf included")}, Outputs: 1},
		Schema{Name: "diff", Doc: "n-th forward difference along dim of cat(prepend, self, append) (PyTorch type promotion over the three; bool: logical xor); " +
			"n = 0 returns self, n < 0 the concatenation",
			Inputs: []InputSpec{in("self"), opt("prepend"), opt("append")},
			Attrs:  []AttrSpec{attr("n", AttrInt, IntAttr(1), ""), attr("dim", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "vander", Doc: "Vandermonde matrices of the last dim of x: powers 0..N-1 (increasing) or N-1..0; integer and bool inputs give int64",
			Inputs: []InputSpec{in("x")},
			Attrs:  []AttrSpec{req("N", AttrInt, "number of columns (already defaulted to x's length)"), attr("increasing", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "block_diag", Doc: "block-diagonal matrix of the tensors (0-d: 1×1, 1-d: one row), PyTorch type promotion over them (a 0-d tensor ranks below the others)",
			Inputs: []InputSpec{{Name: "tensors", Variadic: true, Differentiable: true}}, Outputs: 1},
		Schema{Name: "det", Doc: "determinant of (batches of) square matrices by LU with partial pivoting (float only)",
			Inputs: []InputSpec{in("self")}, Outputs: 1},
		Schema{Name: "logdet", Doc: "log(det(self)): NaN for a negative determinant, -inf for a zero one (float32/float64 only)",
			Inputs: []InputSpec{in("self")}, Outputs: 1},
		Schema{Name: "slogdet", Doc: "(sign, log|det|) of (batches of) square matrices (float32/float64 only); the sign takes no gradient",
			Inputs: []InputSpec{in("self")}, Outputs: 2},
		Schema{Name: "matrix_power", Doc: "self^n of (batches of) square matrices; n = 0 is the identity, n < 0 the inverse's power (float only)",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{req("n", AttrInt, "")}, Outputs: 1},
	)
}
