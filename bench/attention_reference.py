#!/usr/bin/env python3
"""Attention forward references for hadron-bench's --only attention, on the same GPU.

    python3 bench/attention_reference.py [--ctx 4096,16384] [--out ref.json]

torch's scaled_dot_product_attention (its flash backend, FlashAttention-2, and
cuDNN's where torch has it) and a Triton kernel written the way Triton's
fused-attention tutorial is (block pointers off, one program per 128 query
rows, online softmax in exp2), on bf16 [batch, heads, n_ctx, d] inputs,
non-causal. Throughput counts 4 * batch * heads * n_ctx^2 * d flops, in 1e12
per second, timed by triton.testing.do_bench (median). Keys match
hadron-bench's: "attention_z4h32_ctx4096_hd64.torch_TFLOPs" (the best torch
backend), ".triton_best_TFLOPs", plus one key per torch backend.
"""
import argparse
import json
import sys

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def tl_attention(Q, K, V, O, sm_scale, N_CTX, D: tl.constexpr, BM: tl.constexpr,
                 BN: tl.constexpr):
    pid_m = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64) * N_CTX * D
    rows = pid_m * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    q = tl.load(Q + head + rows[:, None] * D + dims[None, :])
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start in range(0, N_CTX, BN):
        cols = start + tl.arange(0, BN)
        kt = tl.load(K + head + cols[None, :] * D + dims[:, None])
        s = tl.dot(q, kt) * qk_scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + head + cols[:, None] * D + dims[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.bfloat16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + head + rows[:, None] * D + dims[None, :], acc.to(tl.bfloat16))


def bench(res, z, h, n_ctx, d):
    key = f"attention_z{z}h{h}_ctx{n_ctx}_hd{d}"
    q, k, v = (torch.randn(z, h, n_ctx, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    scale = d ** -0.5
    flop = 4 * z * h * n_ctx * n_ctx * d
    tflops = lambda ms: flop / (ms * 1e-3) / 1e12
    from torch.nn.attention import SDPBackend, sdpa_kernel
    F = torch.nn.functional
    ref = None
    best_torch = 0.0
    for name, backend in (("flash", SDPBackend.FLASH_ATTENTION),
                          ("cudnn", getattr(SDPBackend, "CUDNN_ATTENTION", None))):
        if backend is None:
            continue
        try:
            with sdpa_kernel(backend):
                out = F.scaled_dot_product_attention(q, k, v, scale=scale)
                ms = do_bench(lambda: F.scaled_dot_product_attention(q, k, v, scale=scale),
                              return_mode="median")
        except RuntimeError as e:  # a backend this build or GPU lacks
            print(f"{key}: torch {name}: {e}".splitlines()[0], file=sys.stderr)
            continue
        ref = out if ref is None else ref
        res[f"{key}.torch_{name}_TFLOPs"] = tflops(ms)
        best_torch = max(best_torch, tflops(ms))
    if best_torch:
        res[f"{key}.torch_TFLOPs"] = best_torch
    o = torch.empty_like(q)
    best = 0.0
    for bn, warps, stages in ((64, 4, 3), (128, 8, 3), (64, 8, 3), (128, 8, 2)):
        f = lambda: tl_attention[(n_ctx // 128, z * h)](q, k, v, o, scale, n_ctx, d, 128, bn,
                                                         num_warps=warps, num_stages=stages)
        o.fill_(float("nan"))
        f()
        if ref is not None:
            err = ((o.float() - ref.float()).norm() / ref.float().norm()).item()
            assert err < 2e-2, (key, bn, warps, err)
        best = max(best, tflops(do_bench(f, return_mode="median")))
    res[f"{key}.triton_best_TFLOPs"] = best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="-")
    p.add_argument("--ctx", default="4096,16384")
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--heads", type=int, default=32)
    a = p.parse_args()
    res = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
           "triton": triton.__version__}
    for d in (64, 128):
        for n_ctx in (int(c) for c in a.ctx.split(",")):
            bench(res, a.batch, a.heads, n_ctx, d)
    text = json.dumps(res, indent=1)
    print(text)
    if a.out != "-":
        open(a.out, "w").write(text)


if __name__ == "__main__":
    sys.exit(main())
