package apilist

import "strings"

// MindSporeMint is the dumper's mint.ops list (support_wrap_ops.yaml;
// mindspore-precheck.md Appendix B), in its order: mindspore.mint names,
// dump prefix Mint. It holds sub-module names and mint-only helpers
// (absolute_import, nn, add_ex, ...) as the YAML does.
var MindSporeMint = strings.Fields(`abs absolute_import add add_ex all any any_ex argmax avg_pool2d baddbmm baddbmm_ex batch_norm
binary_cross_entropy_with_logits bitwise_and bitwise_or bitwise_xor bmm broadcast_to cat cat_ex
ceil chunk clamp conv2d conv_transpose2d cos cross cummax cummin cumsum div divide dropout
embedding eq erf erfinv exp flatten flip flip_ex fold full functional gather gelu greater
grid_sample group_norm gt index_select interpolate isclose isfinite layer_norm le leaky_relu less
less_equal linear linspace log logical_and logical_not logical_or lt masked_select matmul max
max_pool2d maximum mean mean_ex min minimum mul ne neg negative nn nonzero normal one_hot ones
ones_ex ones_like pad permute permute_ex pow prod reciprocal relu remainder repeat_interleave rsqrt
scatter scatter_add searchsorted sigmoid silu sin softmax softplus sort split sqrt sqrt_ex square
stack sub sub_ex sum tanh tile topk tril triu unfold unique where xlogy zeros zeros_ex zeros_like
inverse select item unsqueeze median floor histc special arctan2 sign concat atanh greater_equal
eye fix argmin asinh atan nan_to_num tan round cosh norm roll log1p reshape arccos outer arcsin
rand_like acosh multinomial logical_xor acos linalg sinc arcsinh asin narrow arctanh trace erfc
bernoulli expm1 logaddexp sinh arccosh atan2 rand arange trunc arctan swapaxes transpose`)

// MindSporeMintFunctional is the dumper's mint.nn.functional list
// (Appendix B), in its order: dump prefix MintFunctional.
var MindSporeMintFunctional = strings.Fields(`absolute_import avg_pool2d batch_norm batch_norm_ex bce_with_logits
binary_cross_entropy_with_logits conv_transpose2d dense dropout embedding fold gelu grid_sample
group_norm interpolate layer_norm leaky_relu linear max_pool2d max_pool2d_ex normal one_hot
one_hot_ext pad relu relu_ sigmoid silu softmax softmax_ex softplus tanh unfold mse_loss
adaptive_avg_pool1d binary_cross_entropy adaptive_avg_pool2d hardsigmoid selu softshrink prelu
logsigmoid hardswish mish log_softmax hardshrink l1_loss elu`)

// MindSporeTensorList is MindSporeTensorMethods in the file order of
// checker_support_api.yaml (Appendix A): dump prefix Tensor.
var MindSporeTensorList = strings.Fields(`add_ add addmm_ all allclose any bool byte ceil clamp contiguous copy_ cos clone cumprod expand_as
flatten float half int is_contiguous isnan item log log2 long masked_fill max mean min numel numpy
repeat repeat_interleave reshape round select sin size split sqrt square sub swapaxes to t tolist
topk transpose trunc type unsqueeze view view_as fill_ floor_ clamp_ type_as zero_`)
