package ops

import (
	"fmt"
	"strings"
)

// The linalg2 family: einsum, distances (cdist, pdist), factorisation-based
// solvers and norms (cholesky, solve, triangular_solve, lu_solve, svdvals,
// matrix_norm, pinv, ...), statistics (cov, corrcoef), integration
// (trapezoid) and combinatorics (cartesian_prod, combinations).

func init() {
	addSchemas(
		Schema{Name: "einsum", Doc: "torch.einsum(equation, *operands): operands of one dtype; repeated subscripts take diagonals, " +
			"size-1 dimensions broadcast, an implicit output lists the ellipsis dims then the subscripts seen once (A-Z before a-z)",
			Inputs: []InputSpec{{Name: "operands", Variadic: true, Differentiable: true}},
			Attrs:  []AttrSpec{req("equation", AttrString, "the equation as given")}, Outputs: 1},
		Schema{Name: "cdist", Doc: "torch.cdist: p-norm distances between the rows of x1 [..., P, M] and x2 [..., R, M] (batch dims broadcast); float only",
			Inputs: []InputSpec{in("x1"), in("x2")},
			Attrs: []AttrSpec{attr("p", AttrFloat, FloatAttr(2), "p >= 0, inf included"),
				attr("compute_mode", AttrInt, IntAttr(0), "0 use_mm_for_euclid_dist_if_necessary, 1 use_mm_for_euclid_dist, 2 donot_use_mm_for_euclid_dist")}, Outputs: 1},
		Schema{Name: "pdist", Doc: "torch.pdist: p-norm distances between every pair of rows i < j of a 2-d input, row-major; float only",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("p", AttrFloat, FloatAttr(2), "p >= 0, inf included")}, Outputs: 1},
		Schema{Name: "cholesky", Doc: "Cholesky factor of (batches of) symmetric positive-definite matrices from their lower (upper: upper) triangle, and LAPACK's info (int32); " +
			"float32/float64 only. check_errors raises where a leading minor is not positive-definite; otherwise the factor stops there as LAPACK's potf2",
			Inputs: []InputSpec{in("self")},
			Attrs: []AttrSpec{attr("upper", AttrBool, BoolAttr(false), ""), attr("check_errors", AttrBool, BoolAttr(true), ""),
				attr("fn", AttrString, StringAttr("linalg.cholesky"), "the function PyTorch's messages name")}, Outputs: 2},
		Schema{Name: "cholesky_inverse", Doc: "(L·Lᵀ)⁻¹ of a Cholesky factor L (upper: (Uᵀ·U)⁻¹); float32/float64 only",
			Inputs: []InputSpec{in("self")}, Attrs: []AttrSpec{attr("upper", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "cholesky_solve", Doc: "X with (L·Lᵀ)·X = self (upper: (Uᵀ·U)) for self [..., n, k] and the factor input2 [..., n, n] (batch dims broadcast, one dtype)",
			Inputs: []InputSpec{in("self"), in("input2")}, Attrs: []AttrSpec{attr("upper", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "triangular_solve", Doc: "torch.triangular_solve(b, A): X with op(A)·X = b for the upper (or lower) triangle of A, and a copy of A broadcast to the batch",
			Inputs: []InputSpec{in("self"), in("A")},
			Attrs: []AttrSpec{attr("upper", AttrBool, BoolAttr(true), ""), attr("transpose", AttrBool, BoolAttr(false), ""),
				attr("unitriangular", AttrBool, BoolAttr(false), "")}, Outputs: 2},
		Schema{Name: "linalg_solve", Doc: "torch.linalg.solve_ex(A, B, left): X with A·X = B (left=False: X·A = B) by LU with partial pivoting, and LAPACK's info (int32); " +
			"B may be a (batch of) vector(s); batch dims broadcast; check_errors raises on a singular A",
			Inputs: []InputSpec{in("A"), in("B")},
			Attrs:  []AttrSpec{attr("left", AttrBool, BoolAttr(true), ""), attr("check_errors", AttrBool, BoolAttr(true), "")}, Outputs: 2},
		Schema{Name: "lu_solve", Doc: "torch.lu_solve(b, LU_data, LU_pivots): X with A·X = b for A = P·L·U given by LU_data and LAPACK's 1-based int32 pivots",
			Inputs: []InputSpec{in("self"), in("LU_data"), idx("LU_pivots")}, Outputs: 1},
		Schema{Name: "lu_unpack", Doc: "torch.lu_unpack: (P, L, U) of LU_data [..., m, n] and its int32 pivots; unpack_data=False gives empty L and U, unpack_pivots=False an empty P",
			Inputs: []InputSpec{in("LU_data"), idx("LU_pivots")},
			Attrs:  []AttrSpec{attr("unpack_data", AttrBool, BoolAttr(true), ""), attr("unpack_pivots", AttrBool, BoolAttr(true), "")}, Outputs: 3},
		Schema{Name: "svdvals", Doc: "singular values (descending) of (batches of) m×n matrices; float32/float64 only; gradient U·diag(g)·Vᵀ",
			Inputs: []InputSpec{in("A")}, Outputs: 1},
		Schema{Name: "matrix_norm", Doc: "torch.linalg.matrix_norm: ord fro, nuc, inf, -inf, 1, -1, 2 or -2 over the two dims, at dtype (input converted first); " +
			"nuc and ±2 need float32/float64",
			Inputs: []InputSpec{in("A")},
			Attrs: []AttrSpec{attr("ord", AttrString, StringAttr("fro"), "fro, nuc, inf, -inf, 1, -1, 2 or -2"), attr("dim", AttrInts, IntsAttr(-2, -1), "two distinct dims"),
				attr("keepdim", AttrBool, BoolAttr(false), ""), attr("dtype", AttrString, NoneAttr(), "computation and result dtype; None: the input's")}, Outputs: 1},
		Schema{Name: "cond", Doc: "torch.linalg.cond: p 2 (None) and -2 from the singular values (any m×n), the others as norm(A)·norm(A⁻¹) of square matrices (inf when singular); " +
			"PyTorch 1.13 differentiates p 2 and -2 only",
			Inputs: []InputSpec{in("A")}, Attrs: []AttrSpec{attr("p", AttrString, StringAttr("2"), "2, -2, fro, nuc, inf, -inf, 1 or -1")}, Outputs: 1},
		Schema{Name: "pinv", Doc: "pseudo-inverse from the singular values above max(atol, rtol·σmax) (hermitian: the eigenvalues of the lower triangle); " +
			"atol and rtol already defaulted by the lowering from the dumped dtype; gradient PyTorch's pinv_backward",
			Inputs: []InputSpec{in("A")},
			Attrs: []AttrSpec{attr("atol", AttrFloat, FloatAttr(0), ""), req("rtol", AttrFloat, "relative cut-off"),
				attr("hermitian", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "matrix_rank", Doc: "int64 count of the singular values (hermitian: |eigenvalues| of the lower triangle) above max(atol, rtol·σmax); no gradient",
			Inputs: []InputSpec{idx("A")},
			Attrs: []AttrSpec{attr("atol", AttrFloat, FloatAttr(0), ""), req("rtol", AttrFloat, "relative cut-off"),
				attr("hermitian", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "symeig", Doc: "torch.symeig: ascending eigenvalues of the symmetric matrices in the upper (or lower) triangle, and the eigenvectors " +
			"(empty without eigenvectors), each signed so that its largest-magnitude element is positive (LAPACK's signs are arbitrary); " +
			"differentiable only with eigenvectors",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{attr("eigenvectors", AttrBool, BoolAttr(false), ""), attr("upper", AttrBool, BoolAttr(true), "")}, Outputs: 2},
		Schema{Name: "matrix_exp", Doc: "exp of (batches of) square matrices (scaling and squaring, Padé 13); gradient the upper-right block of exp([[Aᵀ, G], [0, Aᵀ]])",
			Inputs: []InputSpec{in("self")}, Outputs: 1},
		Schema{Name: "lstsq", Doc: "torch.linalg.lstsq(A, B): (solution, residuals, rank, singular_values) as the driver returns them; the minimum-norm " +
			"solution over the singular values above rcond·σmax; residuals when m > n, every A has full rank and the driver is not gelsy",
			Inputs: []InputSpec{in("self"), in("b")},
			Attrs:  []AttrSpec{req("rcond", AttrFloat, "already defaulted from the dumped dtype"), attr("driver", AttrString, StringAttr("gelsy"), "gelsy, gels, gelsd or gelss")}, Outputs: 4},
		Schema{Name: "tensorsolve", Doc: "torch.linalg.tensorsolve(A, B, dims): X with tensordot(A, X, X.ndim) = B, dims of A moved to the end first",
			Inputs: []InputSpec{in("A"), in("B")}, Attrs: []AttrSpec{attr("dims", AttrInts, IntsAttr(), "dims of A moved to the end (empty: none)")}, Outputs: 1},
		Schema{Name: "householder_product", Doc: "torch.linalg.householder_product / orgqr: the first n columns of H_0·…·H_{k−1}, H_i = I − tau_i·v_i·v_iᵀ with v_i = e_i + input[i+1:, i]",
			Inputs: []InputSpec{in("input"), in("tau")}, Outputs: 1},
		Schema{Name: "ormqr", Doc: "torch.ormqr(input, input2=tau, input3=other): op(Q)·other (left) or other·op(Q), Q = H_0·…·H_{k−1} of the reflectors in input; " +
			"PyTorch 1.13 has no derivative",
			Inputs: []InputSpec{in("input"), in("input2"), in("input3")},
			Attrs:  []AttrSpec{attr("left", AttrBool, BoolAttr(true), ""), attr("transpose", AttrBool, BoolAttr(false), "")}, Outputs: 1},
		Schema{Name: "cov", Doc: "torch.cov: covariance of the rows (variables) of a 1-d or 2-d input over its columns (observations), weighted by fweights (integers) " +
			"and aweights (floats, not differentiated); integer input gives float32",
			Inputs: []InputSpec{in("input"), {Name: "fweights", Optional: true}, {Name: "aweights", Optional: true}},
			Attrs:  []AttrSpec{attr("correction", AttrInt, IntAttr(1), "")}, Outputs: 1},
		Schema{Name: "corrcoef", Doc: "torch.corrcoef: cov / s_i / s_j with s = sqrt(diag(cov)), clipped to [-1, 1]",
			Inputs: []InputSpec{in("input")}, Outputs: 1},
		Schema{Name: "trapezoid", Doc: "torch.trapezoid / trapz along dim: sample spacing dx, or the sample points x (1-d along dim, or broadcast to y); integer input gives float32",
			Inputs: []InputSpec{in("y"), opt("x")},
			Attrs:  []AttrSpec{attr("dx", AttrFloat, FloatAttr(1), "ignored with x"), attr("dim", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "cumulative_trapezoid", Doc: "torch.cumulative_trapezoid: the running trapezoid sums along dim (one element fewer)",
			Inputs: []InputSpec{in("y"), opt("x")},
			Attrs:  []AttrSpec{attr("dx", AttrFloat, FloatAttr(1), "ignored with x"), attr("dim", AttrInt, IntAttr(-1), "")}, Outputs: 1},
		Schema{Name: "cartesian_prod", Doc: "torch.cartesian_prod of 1-d tensors of one dtype: [N, k] rows in lexicographic order (one tensor: itself)",
			Inputs: []InputSpec{{Name: "tensors", Variadic: true, Differentiable: true}}, Outputs: 1},
		Schema{Name: "combinations", Doc: "torch.combinations of a 1-d tensor: the r-element index tuples (non-decreasing with with_replacement) in lexicographic order",
			Inputs: []InputSpec{in("self")},
			Attrs:  []AttrSpec{attr("r", AttrInt, IntAttr(2), ""), attr("with_replacement", AttrBool, BoolAttr(false), "")}, Outputs: 1},
	)
}

// Linalg2Einsum is a parsed einsum equation: per operand the label of each
// dimension and the output's labels. Letters A-Z are labels 0-25, a-z
// 26-51; the ellipsis dimensions get labels 52.. (right-aligned across the
// operands, so they broadcast).
type Linalg2Einsum struct {
	Operands [][]int
	Output   []int
	// Ellipsis is the number of dimensions the ellipsis stands for.
	Ellipsis int
}

// Linalg2ParseEinsum parses equation for operands of the given ranks with
// torch 1.13's rules and messages.
func Linalg2ParseEinsum(equation string, ranks []int) (*Linalg2Einsum, error) {
	lhs, rhs, explicit := strings.Cut(equation, "->")
	terms := strings.Split(lhs, ",")
	if len(terms) < len(ranks) {
		return nil, fmt.Errorf("einsum(): more operands were provided than specified in the equation")
	}
	if len(terms) > len(ranks) {
		return nil, fmt.Errorf("einsum(): fewer operands were provided than specified in the equation")
	}
	type term struct {
		labels []int // -1: the ellipsis
	}
	pos := 0
	parse := func(s string, op int) ([]int, error) {
		var out []int
		dots := 0
		seenEll := false
		for i := 0; i < len(s); i++ {
			ch := s[i]
			switch {
			case ch == ' ':
			case ch == '.':
				if seenEll {
					if op >= 0 {
						return nil, fmt.Errorf("einsum(): found '.' for operand %d for which an ellipsis was already found", op)
					}
					return nil, fmt.Errorf("einsum(): found '.' for output but an ellipsis (...) was already found")
				}
				dots++
				if i+1 >= len(s) || s[i+1] != '.' || i+2 >= len(s) || s[i+2] != '.' {
					if op >= 0 {
						return nil, fmt.Errorf("einsum(): found '.' for operand %d that is not part of any ellipsis", op)
					}
					return nil, fmt.Errorf("einsum(): found '.' for output that is not part of any ellipsis")
				}
				i += 2
				seenEll = true
				out = append(out, -1)
			case ch >= 'A' && ch <= 'Z':
				out = append(out, int(ch-'A'))
			case ch >= 'a' && ch <= 'z':
				out = append(out, int(ch-'a')+26)
			default:
				return nil, fmt.Errorf("einsum(): invalid subscript given at index %d in the equation string, subscripts must be in [a-zA-Z]", pos+i)
			}
		}
		_ = dots
		return out, nil
	}
	var ts []term
	for k, s := range terms {
		l, err := parse(s, k)
		if err != nil {
			return nil, err
		}
		ts = append(ts, term{l})
		pos += len(s) + 1
	}
	ell := 0
	anyEll := false
	for k, t := range ts {
		n, hasEll := 0, false
		for _, l := range t.labels {
			if l == -1 {
				hasEll = true
			} else {
				n++
			}
		}
		if hasEll {
			anyEll = true
			if n > ranks[k] {
				return nil, fmt.Errorf("einsum(): the number of subscripts in the equation (%d) is more than the number of dimensions (%d) for operand %d", n, ranks[k], k)
			}
			ell = max(ell, ranks[k]-n)
		} else if n != ranks[k] {
			return nil, fmt.Errorf("einsum(): the number of subscripts in the equation (%d) does not match the number of dimensions (%d) for operand %d and no ellipsis was given", n, ranks[k], k)
		}
	}
	e := &Linalg2Einsum{Ellipsis: ell}
	count := make([]int, 52)
	for k, t := range ts {
		var ls []int
		for _, l := range t.labels {
			if l == -1 {
				m := ranks[k] - (len(t.labels) - 1)
				for j := 0; j < m; j++ {
					ls = append(ls, 52+ell-m+j)
				}
				continue
			}
			count[l]++
			ls = append(ls, l)
		}
		e.Operands = append(e.Operands, ls)
	}
	if !explicit {
		if anyEll {
			for j := 0; j < ell; j++ {
				e.Output = append(e.Output, 52+j)
			}
		}
		for l, c := range count {
			if c == 1 {
				e.Output = append(e.Output, l)
			}
		}
		return e, nil
	}
	ol, err := parse(rhs, -1)
	if err != nil {
		return nil, err
	}
	seen := make([]bool, 52)
	for _, l := range ol {
		if l == -1 {
			for j := 0; j < ell; j++ {
				e.Output = append(e.Output, 52+j)
			}
			continue
		}
		ch := linalg2Letter(l)
		if seen[l] {
			return nil, fmt.Errorf("einsum(): output subscript %c appears more than once in the output", ch)
		}
		if count[l] == 0 {
			return nil, fmt.Errorf("einsum(): output subscript %c does not appear in the equation for any input operand", ch)
		}
		seen[l] = true
		e.Output = append(e.Output, l)
	}
	return e, nil
}

func linalg2Letter(l int) byte {
	if l < 26 {
		return byte('A' + l)
	}
	return byte('a' + l - 26)
}
