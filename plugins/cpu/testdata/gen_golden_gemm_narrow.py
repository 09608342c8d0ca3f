"""Golden data for plugins/cpu/gemm_narrow.go: PyTorch 1.13's CPU matrix
products at bfloat16, forward and backward, bit for bit.

    /usr/bin/python3 plugins/cpu/testdata/gen_golden_gemm_narrow.py

writes plugins/cpu/testdata/gemm_narrow.json (byte-stable: one thread, seeded
per case). Each case names the probe op the call lowers to, its attributes,
the bfloat16 inputs (all require grad), the output, the gradient fed to the
output and the inputs' gradients, every tensor as its shape and its
bfloat16 bit patterns (4 hex digits per element).
"""
import json
import os

import torch

torch.set_num_threads(1)
BF = torch.bfloat16


def bits(t):
    t = t.detach().contiguous().to(BF)
    return "".join("%04x" % (v & 0xFFFF) for v in t.view(torch.int16).flatten().tolist())


def enc(t):
    return {"shape": list(t.shape), "bits": bits(t)}


CASES = []


def case(name, op, fn, shapes, attrs=None, sq=()):
    CASES.append((name, op, fn, shapes, attrs or {}, sq))


# matmul's dispatch (dot, mv, mm, folded mm, bmm, broadcast bmm)
case("matmul_3d", "matmul", torch.matmul, [(2, 4, 5), (2, 5, 6)])
case("matmul_mm", "matmul", torch.matmul, [(4, 5), (5, 6)])
case("matmul_mv", "matmul", torch.matmul, [(4, 5), (5,)])
case("matmul_vm", "matmul", torch.matmul, [(5,), (5, 6)])
case("matmul_dot", "matmul", torch.matmul, [(8,), (8,)])
case("matmul_fold", "matmul", torch.matmul, [(2, 3, 5), (5, 4)])
case("matmul_fold_mv", "matmul", torch.matmul, [(2, 3, 5), (5,)])
case("matmul_bcast", "matmul", torch.matmul, [(1, 4, 5), (3, 5, 6)])
case("matmul_gemm", "matmul", torch.matmul, [(8, 9), (9, 8)])          # ≥ 400: cpublas gemm
case("matmul_onednn", "matmul", torch.matmul, [(16, 17), (17, 16)])    # > 16³: oneDNN
case("matmul_bmm_gemm", "matmul", torch.matmul, [(2, 8, 8), (2, 8, 8)])
case("matmul_long_k", "matmul", torch.matmul, [(3, 300), (300, 4)])
case("matmul_vb", "matmul", torch.matmul, [(5,), (3, 5, 4)])
case("matmul_mb", "matmul", torch.matmul, [(4, 5), (3, 5, 6)])
case("matmul_4d", "matmul", torch.matmul, [(2, 1, 3, 5), (1, 3, 5, 4)])
case("mm", "mm", torch.mm, [(4, 5), (5, 6)])
case("mm_16cubed", "mm", torch.mm, [(16, 16), (16, 16)])                 # 16³: still cpublas
case("bmm_gemm_4", "bmm", torch.bmm, [(4, 8, 8), (4, 8, 8)])
case("bmm_16cubed", "bmm", torch.bmm, [(8, 8, 8), (8, 8, 8)])
case("bmm_onednn", "bmm", torch.bmm, [(9, 8, 8), (9, 8, 8)])
case("mv_16cubed", "matmul", torch.mv, [(64, 64), (64,)])
case("dot_16cubed", "matmul", torch.dot, [(4096,), (4096,)])
case("dot_onednn", "matmul", torch.dot, [(4097,), (4097,)])
case("bmm", "bmm", torch.bmm, [(2, 4, 5), (2, 5, 6)])
case("mv_long", "matmul", torch.mv, [(4, 200), (200,)])
case("dot_long", "matmul", torch.dot, [(1000,), (1000,)])
# the add* family
case("addmm", "addmm", torch.addmm, [(4, 6), (4, 5), (5, 6)])
case("addmm_scaled", "addmm", lambda s, a, b: torch.addmm(s, a, b, beta=0.5, alpha=2.0), [(6,), (4, 5), (5, 6)],
     {"beta": 0.5, "alpha": 2.0})
case("addmv", "addmv", torch.addmv, [(4,), (4, 5), (5,)])
case("addmv_scaled", "addmv", lambda s, a, b: torch.addmv(s, a, b, beta=0.7, alpha=1.3), [(4,), (4, 5), (5,)],
     {"beta": 0.7, "alpha": 1.3})
case("addr", "addr", torch.addr, [(4, 6), (4,), (6,)])
case("addr_scaled", "addr", lambda s, a, b: torch.addr(s, a, b, beta=0.7, alpha=1.3), [(4, 6), (4,), (6,)],
     {"beta": 0.7, "alpha": 1.3})
case("baddbmm", "baddbmm", torch.baddbmm, [(2, 4, 6), (2, 4, 5), (2, 5, 6)])
case("baddbmm_scaled", "baddbmm", lambda s, a, b: torch.baddbmm(s, a, b, beta=0.7, alpha=1.3),
     [(2, 4, 6), (2, 4, 5), (2, 5, 6)], {"beta": 0.7, "alpha": 1.3})
case("baddbmm_gemm", "baddbmm", torch.baddbmm, [(2, 8, 8), (2, 8, 8), (2, 8, 8)])
case("addbmm", "addbmm", torch.addbmm, [(4, 6), (2, 4, 5), (2, 5, 6)])
case("outer", "outer", torch.outer, [(4,), (6,)])
case("kron", "kron", torch.kron, [(2, 3), (3, 2)])
case("kron_3d", "kron", torch.kron, [(2, 3, 2), (2, 2, 3)])
case("kron_vec", "kron", torch.kron, [(4,), (3,)])
case("kron_ranks", "kron", torch.kron, [(3, 1, 2), (2, 3)])
case("kron_ones", "kron", torch.kron, [(3, 1), (1, 4)])
case("vecdot", "vecdot", lambda x, y: torch.linalg.vecdot(x, y), [(4, 8), (4, 8)], {"dim": -1})
case("tensordot", "tensordot", lambda a, b: torch.tensordot(a, b, dims=2), [(4, 5, 6), (5, 6, 3)],
     {"dims_self": [1, 2], "dims_other": [0, 1]})
case("tensordot_rot", "tensordot", lambda a, b: torch.tensordot(a, b, dims=([0], [1])), [(5, 4), (3, 5)],
     {"dims_self": [0], "dims_other": [1]})
case("inner", "tensordot", torch.inner, [(4, 8), (6, 8)], {"dims_self": [-1], "dims_other": [-1]})
case("multi_dot3", "multi_dot", lambda a, b, c: torch.linalg.multi_dot([a, b, c]), [(4, 5), (5, 6), (6, 3)])
case("multi_dot3_left", "multi_dot", lambda a, b, c: torch.linalg.multi_dot([a, b, c]), [(3, 6), (6, 5), (5, 4)])
case("multi_dot4", "multi_dot", lambda a, b, c, d: torch.linalg.multi_dot([a, b, c, d]),
     [(4, 5), (5, 6), (6, 3), (3, 7)])
case("chain_matmul", "multi_dot", torch.chain_matmul, [(4, 5), (5, 6), (6, 3)])
for p in (2, 3, 4, 5):
    case("matrix_power%d" % p, "matrix_power", lambda a, p=p: torch.linalg.matrix_power(a, p), [(2, 4, 4)],
         {"n": p}, sq=(0,))
case("matrix_power3_2d", "matrix_power", lambda a: torch.linalg.matrix_power(a, 3), [(4, 4)], {"n": 3}, sq=(0,))
case("bilinear", "bilinear", torch.bilinear, [(4, 5), (4, 6), (3, 5, 6), (3,)])
case("bilinear_gemm", "bilinear", torch.bilinear, [(16, 10), (16, 12), (3, 10, 12), (3,)])
case("bilinear_3d", "bilinear", torch.bilinear, [(2, 3, 5), (2, 3, 6), (4, 5, 6), (4,)])
case("conv_tbc", "conv_tbc", lambda x, w, b: torch.conv_tbc(x, w, b, 1), [(8, 2, 3), (3, 3, 4), (4,)], {"pad": 1})
case("conv_tbc_gemm", "conv_tbc", lambda x, w, b: torch.conv_tbc(x, w, b, 0), [(20, 4, 8), (2, 8, 6), (6,)], {"pad": 0})
# tensordot with several contracted dims: other (4, 5, 3) permuted (2, 0, 1)
# is a contiguous copy; other (5, 3, 4) permuted (1, 2, 0) a transposed view
case("tensordot_lists", "tensordot", lambda a, b: torch.tensordot(a, b, dims=([0, 2], [2, 0])), [(3, 2, 4), (4, 5, 3)],
     {"dims_self": [0, 2], "dims_other": [2, 0]})
case("tensordot_rot3", "tensordot", lambda a, b: torch.tensordot(a, b, dims=([1, 2], [1, 2])), [(6, 3, 4), (5, 3, 4)],
     {"dims_self": [1, 2], "dims_other": [1, 2]})
case("tensordot_rot3_self", "tensordot", lambda a, b: torch.tensordot(a, b, dims=([0], [1])), [(3, 2, 4), (5, 3)],
     {"dims_self": [0], "dims_other": [1]})


def main():
    out = []
    for i, (name, op, fn, shapes, attrs, sq) in enumerate(CASES):
        torch.manual_seed(1000 + i)
        ins = []
        for j, s in enumerate(shapes):
            x = torch.randn(*s)
            if j in sq:  # well-conditioned powers: scaled identity plus noise
                x = torch.eye(s[-1]).expand(*s) + 0.3 * x
            ins.append(x.to(BF).requires_grad_())
        y = fn(*ins)
        g = torch.randn(tuple(y.shape)).to(BF)
        y.backward(g)
        out.append({"name": name, "op": op, "attrs": attrs, "inputs": [enc(x) for x in ins],
                    "output": enc(y), "grad_output": enc(g), "grads": [enc(x.grad) for x in ins]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gemm_narrow.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
