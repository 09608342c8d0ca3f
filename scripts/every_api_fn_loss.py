"""Every-API dump recipes for the loss family (torch.nn.functional's
mse_loss, l1_loss, smooth_l1_loss, huber_loss, binary_cross_entropy,
normalize, one_hot, local_response_norm): see make_every_api_dump.py and
every_api_fn_base.py for the conventions."""

RECIPES = {
    "mse_loss": lambda t: ([t.f(4, 8), t.c(4, 8)], {}),
    "l1_loss": lambda t: ([t.f(4, 8), t.c(4, 8)], {"reduction": "sum"}),
    "smooth_l1_loss": lambda t: ([t.f(4, 8), t.c(4, 8)], {"beta": 0.5}),
    "huber_loss": lambda t: ([t.f(4, 8), t.c(4, 8)], {"delta": 0.75}),
    "binary_cross_entropy": lambda t: ([t.z(4, 8), t.cz(4, 8)], {"weight": t.cp(8)}),
    "normalize": lambda t: ([t.f(4, 8)], {"dim": -1}),
    "one_hot": lambda t: ([t.i(4, 6, lo=0, hi=5)], {"num_classes": 5}),
    "local_response_norm": lambda t: ([t.f(2, 6, 5)], {"size": 3, "alpha": 1e-2}),
    # PyTorch 2 only: called where torch has it
    "scaled_dot_product_attention": lambda t: ([t.f(2, 2, 4, 8), t.f(2, 2, 6, 8), t.f(2, 2, 6, 8)], {"is_causal": False}),
}

# one_hot takes an int64 index tensor: called once, not per float dtype
NATURAL = {"one_hot"}
