package lower

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/probe-dev/probe/sdk/framework"
	"github.com/probe-dev/probe/sdk/ops"
	"github.com/probe-dev/probe/sdk/tensor"
)

func TestReduceFamily(t *testing.T) { runCases(t, reduceFamilyCases(), nil) }

func reduceFamilyCases() []lcase {
	x := f32("args.0", 2, 3, 4)
	xi := tn("args.0", tensor.Int32, 3)
	x0 := f32("args.0")
	a := func(v ...framework.Arg) []framework.Arg { return v }
	return []lcase{
		// prod: full, or one int dim
		{name: "Torch.prod", args: a(x), op: "prod", attrs: attrsOf("dim", na(), "keepdim", ba(false), "dtype", na()), in: []string{"args.0"}},
		{name: "Tensor.prod", args: a(x, iv(-1), bv(true)), op: "prod", attrs: attrsOf("dim", la(-1), "keepdim", ba(true))},
		{name: "Torch.prod", args: a(x, iv(1)), kwargs: kwPairs("dtype", dtv("torch.float64")), op: "prod", attrs: attrsOf("dim", la(1), "dtype", sa("float64"))},
		{name: "Torch.prod", args: a(xi), kwargs: kwPairs("out", nv()), op: "prod"},
		{name: "Torch.prod", args: a(x0, iv(0)), op: "prod", attrs: attrsOf("dim", la(0))},
		{name: "Torch.prod", args: a(x, ints(0, 1)), err: `argument "dim": expected int, got list`},
		{name: "Torch.prod", args: a(x, iv(3)), err: `argument "dim": dimension out of range (expected to be in range of [-3, 2], but got 3)`},
		{name: "Torch.prod", args: a(x), kwargs: kwPairs("keepdim", bv(true)), err: `argument "keepdim": prod() takes keepdim only with a dim`},
		{name: "Torch.prod", args: a(x, iv(0), iv(1)), err: `argument "keepdim": expected bool, got int`},
		{name: "Torch.prod", args: a(x), kwargs: kwPairs("dtype", sv("complex32")), err: `argument "dtype": dtype "complex32" is not supported`},
		{name: "Tensor.prod", args: a(x), kwargs: kwPairs("out", nv()), err: `unexpected keyword argument "out"`},
		// nansum / nanmean: int or list dims, dtype
		{name: "Torch.nansum", args: a(x, ints(0, -1), bv(true)), op: "nansum", attrs: attrsOf("dim", la(0, -1), "keepdim", ba(true), "dtype", na())},
		{name: "Tensor.nansum", args: a(xi), op: "nansum", attrs: attrsOf("dim", na())},
		{name: "Torch.nansum", args: a(x, ints(1, -2)), err: "dim 1 appears multiple times in the list of dims"},
		{name: "Torch.nanmean", args: a(x, iv(2)), kwargs: kwPairs("dtype", dtv("torch.float64")), op: "nanmean", attrs: attrsOf("dim", la(2), "dtype", sa("float64"))},
		{name: "Tensor.nanmean", args: a(x), op: "nanmean"},
		{name: "Torch.nanmean", args: a(xi), err: "nanmean(): expected input to have floating point dtype but got Int"},
		// amax / amin / logsumexp / count_nonzero
		{name: "Torch.amax", args: a(x), op: "amax", attrs: attrsOf("dim", na(), "keepdim", ba(false))},
		{name: "Tensor.amax", args: a(x, iv(1), bv(true)), op: "amax", attrs: attrsOf("dim", la(1), "keepdim", ba(true))},
		{name: "Torch.amin", args: a(x), kwargs: kwPairs("dim", szv(0, 2)), op: "amin", attrs: attrsOf("dim", la(0, 2))},
		{name: "Tensor.amin", args: a(x, lv()), op: "amin", attrs: attrsOf("dim", na())},
		{name: "Torch.amax", args: a(x, iv(-4)), err: `argument "dim": dimension out of range`},
		{name: "Torch.amin", args: a(x, fv(1)), err: `argument "dim": expected int or list of ints, got float`},
		{name: "Torch.logsumexp", args: a(x, iv(1)), op: "logsumexp", attrs: attrsOf("dim", la(1), "keepdim", ba(false))},
		{name: "Tensor.logsumexp", args: a(xi, ints(0), bv(true)), op: "logsumexp", attrs: attrsOf("dim", la(0), "keepdim", ba(true))},
		{name: "Torch.logsumexp", args: a(x), err: `missing required argument "dim"`},
		{name: "Torch.logsumexp", args: a(x, lv()), err: `argument "dim": logsumexp needs at least one dim`},
		{name: "Torch.count_nonzero", args: a(x), op: "count_nonzero", attrs: attrsOf("dim", na())},
		{name: "Tensor.count_nonzero", args: a(x, ints(0, 1)), op: "count_nonzero", attrs: attrsOf("dim", la(0, 1))},
		{name: "Torch.count_nonzero", args: a(x, iv(0), bv(true)), err: "takes at most 2 positional arguments"},
		// all / any: one int dim
		{name: "Torch.all", args: a(x), op: "all", attrs: attrsOf("dim", na(), "keepdim", ba(false))},
		{name: "Tensor.any", args: a(x, iv(-1), bv(true)), op: "any", attrs: attrsOf("dim", la(-1), "keepdim", ba(true))},
		{name: "Tensor.all", args: a(x), kwargs: kwPairs("dim", iv(0)), op: "all", attrs: attrsOf("dim", la(0))},
		{name: "Torch.any", args: a(x, ints(0, 1)), err: `argument "dim": expected int, got list`},
		{name: "Torch.all", args: a(x), kwargs: kwPairs("keepdim", bv(false)), err: `argument "keepdim": all() takes keepdim only with a dim`},
		// cumprod (and in place) / logcumsumexp
		{name: "Torch.cumprod", args: a(x, iv(1)), op: "cumprod", attrs: attrsOf("dim", ia(1), "dtype", na(), "inplace", ba(false))},
		{name: "Tensor.cumprod_", args: a(xi, iv(0)), op: "cumprod", attrs: attrsOf("inplace", ba(true))},
		{name: "Tensor.cumprod", args: a(xi), kwargs: kwPairs("dim", iv(-1), "dtype", dtv("torch.float32")), op: "cumprod", attrs: attrsOf("dim", ia(-1), "dtype", sa("float32"))},
		{name: "Torch.cumprod", args: a(x), err: `missing required argument "dim"`},
		{name: "Torch.cumprod", args: a(x, iv(5)), err: `argument "dim": dimension out of range`},
		{name: "Torch.logcumsumexp", args: a(x, iv(-1)), op: "logcumsumexp", attrs: attrsOf("dim", ia(-1))},
		{name: "Tensor.logcumsumexp", args: a(x0, iv(0)), op: "logcumsumexp"},
		{name: "Torch.logcumsumexp", args: a(x, nv()), err: `argument "dim": expected int, got None`},
		{name: "Torch.logcumsumexp", args: a(sv("x"), iv(0)), err: `argument "input": expected tensor, got str`},
		// var / std / var_mean / std_mean
		{name: "Torch.var", args: a(x), op: "var", attrs: attrsOf("dim", na(), "correction", fa(1), "keepdim", ba(false))},
		{name: "Tensor.var", args: a(x, bv(false)), op: "var", attrs: attrsOf("dim", na(), "correction", fa(0))},
		{name: "Torch.std", args: a(x, iv(1), bv(false), bv(true)), op: "std", attrs: attrsOf("dim", la(1), "correction", fa(0), "keepdim", ba(true))},
		{name: "Tensor.std", args: a(x, ints(0, 2)), kwargs: kwPairs("correction", iv(2)), op: "std", attrs: attrsOf("dim", la(0, 2), "correction", fa(2))},
		{name: "Torch.var", args: a(x, lv()), op: "var", attrs: attrsOf("dim", na())},
		{name: "Torch.var_mean", args: a(x, iv(-1)), op: "var_mean", multi: true, attrs: attrsOf("dim", la(-1), "correction", fa(1))},
		{name: "Torch.std_mean", args: a(x), kwargs: kwPairs("dim", nv(), "correction", iv(0)), op: "std_mean", multi: true, attrs: attrsOf("correction", fa(0))},
		{name: "Torch.var", args: a(x, iv(1)), kwargs: kwPairs("unbiased", bv(true), "correction", iv(1)), err: `argument "correction": var() takes unbiased or correction, not both`},
		{name: "Torch.var", args: a(x, iv(1)), kwargs: kwPairs("correction", fv(0.5)), err: `argument "correction": expected int, got float`},
		{name: "Torch.std", args: a(x, bv(true), bv(true)), err: `argument "dim": expected int or list of ints, got bool`},
		{name: "Torch.std", args: a(x, iv(1), iv(1)), err: `argument "unbiased": expected bool, got int`},
		{name: "Torch.var", args: a(xi), err: "std and var only support floating point and complex dtypes"},
		{name: "Torch.var_mean", args: a(xi), err: "var_mean only support floating point and complex dtypes"},
		{name: "Torch.std", args: a(x, iv(3)), err: `argument "dim": dimension out of range`},
		{name: "Tensor.var_mean", args: a(x), err: "has no lowering"},
		// norm / linalg.vector_norm
		{name: "Torch.norm", args: a(x), op: "norm", attrs: attrsOf("p", fa(2), "dim", na(), "keepdim", ba(false), "dtype", na())},
		{name: "Tensor.norm", args: a(x, iv(1), iv(1), bv(true)), op: "norm", attrs: attrsOf("p", fa(1), "dim", la(1), "keepdim", ba(true))},
		{name: "Torch.norm", args: a(x, sv("fro"), ints(0, 1)), op: "norm", attrs: attrsOf("p", fa(2), "dim", la(0, 1))},
		{name: "Torch.norm", args: a(x, fv(math.Inf(1))), kwargs: kwPairs("dtype", dtv("torch.float64")), op: "norm", attrs: attrsOf("p", fa(math.Inf(1)), "dtype", sa("float64"))},
		{name: "Torch.norm", args: a(x, nv(), iv(0)), op: "norm", attrs: attrsOf("p", fa(2), "dim", la(0))},
		{name: "Torch.norm", args: a(x), kwargs: kwPairs("dtype", dtv("torch.float64")), err: `argument "dtype": dtype argument is not supported in frobenius norm`},
		{name: "Torch.norm", args: a(x, sv("fro"), ints(0, 1, 2)), err: `argument "dim": the Frobenius norm takes at most 2 dimensions, got 3`},
		{name: "Tensor.norm", args: a(x, sv("nuc")), err: `argument "p": the nuclear norm is a matrix norm`},
		{name: "Torch.norm", args: a(x, sv("max")), err: `argument "p": unknown norm "max"`},
		{name: "Torch.norm", args: a(x, bv(true)), err: `argument "p": expected a number, got bool`},
		{name: "Torch.norm", args: a(xi), err: "norm(): input dtype should be either floating point or complex. Got Int instead."},
		{name: "Torch.linalg.vector_norm", args: a(x), op: "norm", attrs: attrsOf("p", fa(2), "dim", na(), "dtype", na())},
		{name: "Torch.linalg.vector_norm", args: a(x, fv(0.5), iv(-1), bv(true)), kwargs: kwPairs("dtype", dtv("torch.float64")), op: "norm", attrs: attrsOf("p", fa(0.5), "dim", la(-1), "keepdim", ba(true), "dtype", sa("float64"))},
		{name: "Torch.linalg.vector_norm", args: a(x), kwargs: kwPairs("dtype", dtv("torch.float16")), err: `argument "dtype": linalg.vector_norm: the dtype of the input (Float) should be convertible without narrowing to the specified dtype (Half)`},
		{name: "Torch.linalg.vector_norm", args: a(x, sv("fro")), err: `argument "ord": expected a number, got str`},
		{name: "Torch.linalg.vector_norm", args: a(xi), err: "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Int"},
		// aminmax
		{name: "Torch.aminmax", args: a(x), op: "aminmax", multi: true, attrs: attrsOf("dim", na(), "keepdim", ba(false))},
		{name: "Tensor.aminmax", args: a(xi), kwargs: kwPairs("dim", iv(-1), "keepdim", bv(true)), op: "aminmax", multi: true, attrs: attrsOf("dim", ia(-1), "keepdim", ba(true))},
		{name: "Torch.aminmax", args: a(x, iv(0)), err: "takes at most 1 positional arguments"},
		{name: "Torch.aminmax", args: a(x), kwargs: kwPairs("dim", ints(0, 1)), err: `argument "dim": expected int, got list`},
		// argmax / argmin
		{name: "Torch.argmax", args: a(x), op: "argmax", attrs: attrsOf("dim", na(), "keepdim", ba(false))},
		{name: "Tensor.argmin", args: a(x, iv(-1), bv(true)), op: "argmin", attrs: attrsOf("dim", ia(-1), "keepdim", ba(true))},
		{name: "Tensor.argmax", args: a(x), kwargs: kwPairs("keepdim", bv(true)), op: "argmax", attrs: attrsOf("dim", na(), "keepdim", ba(true))},
		{name: "Torch.argmax", args: a(x, ints(0)), err: `argument "dim": expected int, got list`},
		{name: "Torch.argmin", args: a(x, iv(3)), err: `argument "dim": dimension out of range`},
		// sort / argsort / msort
		{name: "Torch.sort", args: a(x), op: "sort", multi: true, attrs: attrsOf("dim", ia(-1), "descending", ba(false), "stable", ba(false))},
		{name: "Tensor.sort", args: a(x, iv(0), bv(true)), kwargs: kwPairs("stable", bv(true)), op: "sort", multi: true, attrs: attrsOf("dim", ia(0), "descending", ba(true), "stable", ba(true))},
		{name: "Torch.sort", args: a(x), kwargs: kwPairs("stable", nv(), "dim", iv(1)), op: "sort", multi: true, attrs: attrsOf("dim", ia(1), "stable", ba(false))},
		{name: "Torch.sort", args: a(x, iv(0), bv(true), bv(true)), err: "takes at most 3 positional arguments"},
		{name: "Torch.argsort", args: a(x, iv(1)), op: "sort", attrs: attrsOf("dim", ia(1))},
		{name: "Tensor.argsort", args: a(xi), kwargs: kwPairs("descending", bv(true)), op: "sort", attrs: attrsOf("dim", ia(-1), "descending", ba(true))},
		{name: "Torch.msort", args: a(x), op: "sort", attrs: attrsOf("dim", ia(0), "descending", ba(false))},
		{name: "Tensor.msort", args: a(x, iv(1)), err: "takes at most 1 positional arguments"},
		{name: "Torch.argsort", args: a(x, iv(4)), err: `argument "dim": dimension out of range`},
		// topk / kthvalue
		{name: "Torch.topk", args: a(x, iv(2)), op: "topk", multi: true, attrs: attrsOf("k", ia(2), "dim", ia(-1), "largest", ba(true))},
		{name: "Tensor.topk", args: a(x, iv(3), iv(1), bv(false), bv(false)), op: "topk", multi: true, attrs: attrsOf("k", ia(3), "dim", ia(1), "largest", ba(false))},
		{name: "Torch.topk", args: a(x, iv(5)), err: `argument "k": selected index k out of range (k = 5, dim size 4)`},
		{name: "Torch.topk", args: a(x, iv(-1)), err: `argument "k": selected index k out of range`},
		{name: "Torch.topk", args: a(x), err: `missing required argument "k"`},
		{name: "Torch.kthvalue", args: a(x, iv(1)), op: "kthvalue", multi: true, attrs: attrsOf("k", ia(1), "dim", ia(-1), "keepdim", ba(false))},
		{name: "Tensor.kthvalue", args: a(x, iv(2), iv(0), bv(true)), op: "kthvalue", multi: true, attrs: attrsOf("k", ia(2), "dim", ia(0), "keepdim", ba(true))},
		{name: "Torch.kthvalue", args: a(x, iv(0)), err: `argument "k": kthvalue(): selected number k out of range for dimension 2`},
		{name: "Torch.kthvalue", args: a(x0, iv(1)), op: "kthvalue", multi: true},
		// median / nanmedian / mode / cummax / cummin
		{name: "Torch.median", args: a(x), op: "median", attrs: attrsOf("ignore_nan", ba(false))},
		{name: "Tensor.nanmedian", args: a(x), op: "median", attrs: attrsOf("ignore_nan", ba(true))},
		{name: "Torch.median", args: a(x, iv(1)), op: "median_dim", multi: true, attrs: attrsOf("dim", ia(1), "keepdim", ba(false), "ignore_nan", ba(false))},
		{name: "Tensor.median", args: a(x), kwargs: kwPairs("dim", iv(-1), "keepdim", bv(true)), op: "median_dim", multi: true, attrs: attrsOf("dim", ia(-1), "keepdim", ba(true))},
		{name: "Torch.nanmedian", args: a(x, iv(0), bv(true)), op: "median_dim", multi: true, attrs: attrsOf("ignore_nan", ba(true), "keepdim", ba(true))},
		{name: "Torch.median", args: a(x), kwargs: kwPairs("keepdim", bv(true)), err: `argument "keepdim": median() takes keepdim only with a dim`},
		{name: "Torch.median", args: a(x, ints(0)), err: `argument "dim": expected int, got list`},
		{name: "Torch.mode", args: a(x), op: "mode", multi: true, attrs: attrsOf("dim", ia(-1), "keepdim", ba(false))},
		{name: "Tensor.mode", args: a(x, iv(0), bv(true)), op: "mode", multi: true, attrs: attrsOf("dim", ia(0), "keepdim", ba(true))},
		{name: "Torch.mode", args: a(x, iv(3)), err: `argument "dim": dimension out of range`},
		{name: "Torch.cummax", args: a(x, iv(1)), op: "cummax", multi: true, attrs: attrsOf("dim", ia(1))},
		{name: "Tensor.cummin", args: a(xi), kwargs: kwPairs("dim", iv(0)), op: "cummin", multi: true, attrs: attrsOf("dim", ia(0))},
		{name: "Torch.cummin", args: a(x), err: `missing required argument "dim"`},
		// quantile / nanquantile
		{name: "Torch.quantile", args: a(x, fv(0.25)), op: "quantile", in: []string{"args.0", "float:0.25"},
			attrs: attrsOf("dim", na(), "keepdim", ba(false), "interpolation", sa("linear"), "ignore_nan", ba(false))},
		{name: "Tensor.nanquantile", args: a(x, f32("args.1", 3), iv(1), bv(true)), kwargs: kwPairs("interpolation", sv("midpoint")), op: "quantile",
			in: []string{"args.0", "args.1"}, attrs: attrsOf("dim", ia(1), "keepdim", ba(true), "interpolation", sa("midpoint"), "ignore_nan", ba(true))},
		{name: "Torch.quantile", args: a(x, iv(1)), op: "quantile", in: []string{"args.0", "float:1"}},
		{name: "Torch.quantile", args: a(x, fv(1.5)), err: `argument "q": quantile() q must be in the range [0, 1] but got 1.5`},
		{name: "Torch.quantile", args: a(x, f32("args.1", 2, 2)), err: `argument "q": quantile() q must be a scalar or 1D tensor`},
		{name: "Torch.quantile", args: a(x, tn("args.1", tensor.Float64, 2)), err: `argument "q": quantile() q tensor must be same dtype as the input tensor`},
		{name: "Torch.quantile", args: a(xi, fv(0.5)), err: "quantile() input tensor must be either float or double dtype"},
		{name: "Torch.quantile", args: a(tn("args.0", tensor.Float16, 3), fv(0.5)), err: "quantile() input tensor must be either float or double dtype"},
		{name: "Torch.quantile", args: a(x, fv(0.5)), kwargs: kwPairs("interpolation", sv("cubic")), err: `argument "interpolation": quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got cubic`},
		{name: "Torch.nanquantile", args: a(x, bv(true)), err: `argument "q": expected float or tensor, got bool`},
		// histc / bincount / bucketize / searchsorted
		{name: "Torch.histc", args: a(x), op: "histc", attrs: attrsOf("bins", ia(100), "min", fa(0), "max", fa(0))},
		{name: "Tensor.histc", args: a(x, iv(5), iv(-1), fv(2.5)), op: "histc", attrs: attrsOf("bins", ia(5), "min", fa(-1), "max", fa(2.5))},
		{name: "Torch.histc", args: a(x, iv(0)), err: `argument "bins": torch.histogram(): bins must be > 0, but got 0 for dimension 0`},
		{name: "Torch.histc", args: a(x, iv(3), fv(2), fv(1)), err: `argument "max": torch.histc: max must be larger than min`},
		{name: "Torch.histc", args: a(x, iv(3), fv(0), fv(math.Inf(1))), err: `argument "min": torch.histc: the range [0, +Inf] is not finite`},
		{name: "Torch.bincount", args: a(i64("args.0", 5)), op: "bincount", in: []string{"args.0", "none"}, attrs: attrsOf("minlength", ia(0))},
		{name: "Tensor.bincount", args: a(i64("args.0", 5), f32("args.1", 5), iv(3)), op: "bincount", in: []string{"args.0", "args.1"}, attrs: attrsOf("minlength", ia(3))},
		{name: "Torch.bincount", args: a(x), err: `argument "input": bincount only supports 1-d non-negative integral inputs.`},
		{name: "Torch.bincount", args: a(i64("args.0", 5), f32("args.1", 4)), err: `argument "weights": weights should be 1-d and have the same length as input`},
		{name: "Torch.bincount", args: a(i64("args.0", 5)), kwargs: kwPairs("minlength", iv(-1)), err: `argument "minlength": minlength should be >= 0`},
		{name: "Torch.bucketize", args: a(x, f32("args.1", 5)), op: "searchsorted", in: []string{"args.1", "args.0", "none"}, attrs: attrsOf("out_int32", ba(false), "right", ba(false))},
		{name: "Torch.bucketize", args: a(fv(2.5), f32("args.1", 5)), kwargs: kwPairs("right", bv(true), "out_int32", bv(true)), op: "searchsorted", in: []string{"args.1", "float:2.5", "none"}, attrs: attrsOf("out_int32", ba(true), "right", ba(true))},
		{name: "Torch.bucketize", args: a(x, f32("args.1", 2, 5)), err: `argument "boundaries": boundaries tensor must be 1 dimension, but got dim(2)`},
		{name: "Torch.searchsorted", args: a(f32("args.0", 5), f32("args.1", 2, 3)), op: "searchsorted", in: []string{"args.0", "args.1", "none"}},
		{name: "Torch.searchsorted", args: a(f32("args.0", 5), iv(3)), kwargs: kwPairs("side", sv("right"), "sorter", i64("kwargs.sorter", 5)), op: "searchsorted", in: []string{"args.0", "int:3", "kwargs.sorter"}, attrs: attrsOf("right", ba(true))},
		{name: "Torch.searchsorted", args: a(f32("args.0", 2, 3, 5), f32("args.1", 2, 3, 7)), op: "searchsorted"},
		{name: "Torch.searchsorted", args: a(f32("args.0", 2, 5), f32("args.1", 3, 7)), err: "first N-1 dimensions of boundaries tensor and input value tensor must match"},
		{name: "Torch.searchsorted", args: a(f32("args.0", 2, 5), iv(1)), err: "input value can be a scalar only when boundaries tensor dimension is 1"},
		{name: "Torch.searchsorted", args: a(f32("args.0", 5), x), kwargs: kwPairs("side", sv("left"), "right", bv(true)), err: "side and right can't be set to opposites, got side of left while right was True"},
		{name: "Torch.searchsorted", args: a(f32("args.0", 5), x), kwargs: kwPairs("side", sv("middle")), err: "side can only be 'left' or 'right' but got middle"},
		{name: "Torch.searchsorted", args: a(f32("args.0", 5), x), kwargs: kwPairs("sorter", i64("kwargs.sorter", 4)), err: `argument "sorter": torch.searchsorted(): boundary and sorter must have the same size`},
		{name: "Torch.searchsorted", args: a(x0, x), err: "boundaries tensor should have positive dimension"},
		// unique / unique_consecutive
		{name: "Tensor.unique", args: a(x), op: "unique", attrs: attrsOf("dim", na(), "consecutive", ba(false), "return_inverse", ba(false), "return_counts", ba(false))},
		{name: "Tensor.unique", args: a(x, bv(false), bv(true)), kwargs: kwPairs("dim", iv(1)), op: "unique", multi: true, attrs: attrsOf("dim", ia(1), "return_inverse", ba(true))},
		{name: "Torch.unique_consecutive", args: a(xi), kwargs: kwPairs("return_counts", bv(true)), op: "unique", multi: true, attrs: attrsOf("consecutive", ba(true), "return_counts", ba(true))},
		{name: "Tensor.unique_consecutive", args: a(x, bv(false), bv(false), iv(0)), op: "unique", attrs: attrsOf("dim", ia(0), "consecutive", ba(true))},
		{name: "Tensor.unique", args: a(x), kwargs: kwPairs("dim", iv(3)), err: `argument "dim": dimension out of range`},
		{name: "Tensor.unique", args: a(x, iv(1)), err: `argument "sorted": expected bool, got int`},
		{name: "Torch.unique_consecutive", args: a(x), kwargs: kwPairs("sorted", bv(true)), err: `unexpected keyword argument "sorted"`},
		// every spelling of max/min with a dim is max_dim/min_dim
		{name: "Torch.max", args: a(x, iv(1)), op: "max_dim", multi: true, attrs: attrsOf("dim", ia(1), "keepdim", ba(false))},
		{name: "Torch.max", args: a(x), kwargs: kwPairs("dim", iv(-1), "keepdim", bv(true)), op: "max_dim", multi: true, attrs: attrsOf("dim", ia(-1), "keepdim", ba(true))},
		{name: "Tensor.max", args: a(x, iv(0), bv(true)), op: "max_dim", multi: true},
		{name: "Tensor.min", args: a(x), kwargs: kwPairs("dim", iv(2)), op: "min_dim", multi: true},
		{name: "Torch.min", args: a(x, iv(0), bv(false)), op: "min_dim", multi: true},
		{name: "Torch.max", args: a(x), op: "max"},
		{name: "Tensor.min", args: a(x, f32("args.1", 2, 3, 4)), op: "minimum"},
	}
}

// attrsOf builds ops.Attrs from name, value pairs.
func attrsOf(kv ...any) map[string]ops.Attr {
	m := map[string]ops.Attr{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(ops.Attr)
	}
	return m
}

// kwPairs builds keyword arguments from name, value pairs.
func kwPairs(kv ...any) []framework.NamedArg {
	var out []framework.NamedArg
	for i := 0; i < len(kv); i += 2 {
		out = append(out, kw(kv[i].(string), kv[i+1].(framework.Arg)))
	}
	return out
}

// TestSortOutputs: argsort compares sort's indices, msort its values
// along dim 0 (the gradient goes to the values).
func TestSortOutputs(t *testing.T) {
	x := f32("args.0", 3, 4)
	for name, want := range map[string][]int{"Torch.argsort": {1}, "Tensor.msort": {0}, "Torch.sort": nil} {
		prefix, short, _ := strings.Cut(name, ".")
		l, err := lower(&Call{API: name + ".0", Namespace: nsByPrefix[prefix], Name: short, Args: []framework.Arg{x}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(l.Plan.Compare, want) || l.Plan.GradOutput != 0 {
			t.Errorf("%s: compare %v grad output %d, want %v and 0", name, l.Plan.Compare, l.Plan.GradOutput, want)
		}
	}
}
