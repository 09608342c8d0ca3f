"""Every-API dump recipes for the act family (torch.nn.functional's elu,
leaky_relu, hard* activations, mish, softplus, softshrink, softsign,
tanhshrink, logsigmoid, glu, softmin): see make_every_api_dump.py and
every_api_fn_base.py for the conventions."""

RECIPES = {
    "elu": lambda t: ([t.f(4, 8)], {"alpha": 1.2}),
    "elu_": lambda t: ([t.f(4, 8)], {"alpha": 0.8}),
    "leaky_relu": lambda t: ([t.f(4, 8)], {"negative_slope": 0.1}),
    "leaky_relu_": lambda t: ([t.f(4, 8)], {"negative_slope": 0.05}),
    "hardsigmoid": lambda t: ([t.f(4, 8)], {}),
    "hardswish": lambda t: ([t.f(4, 8)], {}),
    "hardtanh": lambda t: ([t.f(4, 8)], {"min_val": -0.5, "max_val": 0.75}),
    "hardtanh_": lambda t: ([t.f(4, 8)], {}),
    "relu6": lambda t: ([t.f(4, 8)], {}),
    "mish": lambda t: ([t.f(4, 8)], {}),
    "softplus": lambda t: ([t.f(4, 8)], {"beta": 2, "threshold": 10}),
    "softshrink": lambda t: ([t.f(4, 8)], {"lambd": 0.3}),
    "softsign": lambda t: ([t.f(4, 8)], {}),
    "tanhshrink": lambda t: ([t.f(4, 8)], {}),
    "logsigmoid": lambda t: ([t.f(4, 8)], {}),
    "glu": lambda t: ([t.f(4, 8)], {"dim": -1}),
    "softmin": lambda t: ([t.f(4, 8)], {"dim": 1}),
}
