#!/usr/bin/env python3
"""Gluon bf16 GEMM reference for hadron-bench's --only matmul, on the same Hopper GPU.

    python3 bench/gluon_matmul_reference.py --out ref-gluon.json [--sizes 4096,8192]
    python3 bench/gluon_matmul_reference.py --compile-only     # no GPU, no torch needed

C = A @ B with A [M, K] and B [K, N] row-major bf16, C [M, N] bf16, f32 accumulation, written
the way Gluon's Hopper tutorials (04-tma, 05-wgmma) build a GEMM, with both the loads and the
MMA pipelined: A and B tiles come through TensorDescriptors (NVMMASharedLayout, 128-byte
swizzle) into a STAGES-deep shared-memory ring filled by TMA (one mbarrier per stage,
expect-tx bytes, wait on the stage's phase parity); each K step issues an async warpgroup_mma
(NVMMADistributedLayout version [3, 0] accumulator) and waits with num_outstanding=1, so the
TMA refill of the stage the previous MMA read overlaps the current product. Tiles of C go in
groups of GROUP_M rows of tiles (L2 reuse); the epilogue stores C through shared memory with
a TMA store. A small sweep of tile configs runs per size; each config is checked against
torch.matmul (relative Frobenius error < 1e-2, C poisoned with NaN first) before it is timed
by triton.testing.do_bench (median); a config that fails to compile, to fit in shared memory
or the check is skipped with a note on stderr. Throughput counts 2*M*N*K flops in 1e12 per
second. Keys: "matmul{m}x{n}x{k}.gluon_best_TFLOPs", ".gluon_best_config" and
".torch_TFLOPs" (torch.matmul, i.e. cuBLAS, measured in the same run), plus "gpu", "torch"
and "triton". A size is "4096" (4096^3) or "MxNxK".

--compile-only compiles every config for GPUTarget("cuda", 90, 32) (sm_90a) with
triton.compile and the wheel's own ptxas, with no driver, and checks that the PTX holds
wgmma.mma_async and cp.async.bulk.tensor; it exits 1 if any config fails.
"""
import argparse
import json
import sys

import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma,
                                                              warpgroup_mma, warpgroup_mma_wait)

# (BM, BN, BK, STAGES, num_warps). 128x256 uses m64n256k16 (one 64-row half per warpgroup).
CONFIGS = (
    (128, 256, 64, 3, 8),
    (128, 256, 64, 4, 8),
    (128, 128, 64, 4, 4),
    (128, 128, 64, 4, 8),
    (128, 128, 64, 5, 4),
)
GROUP_M = 8
SMEM_LIMIT = 232448  # bytes of shared memory one CTA may take on sm_90 (227 KiB)


def acc_layout(BM, BN, num_warps):
    """The wgmma accumulator layout: warps stacked along M first (16 rows per warp, 4 warps a
    warpgroup), then along N; instruction N as large as divides this warp's share of BN."""
    wm, wn = 4, 1
    while wm * wn < num_warps:
        if BM > 16 * wm:
            wm *= 2
        else:
            wn *= 2
    n = 256
    while n > max(BN // wn, 8) or BN % n:
        n -= 8
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[wm, wn], instr_shape=[16, n, 16])


@gluon.jit
def gemm_kernel(a_desc, b_desc, c_desc, GROUP_M: gl.constexpr, STAGES: gl.constexpr,
                ACC_LAYOUT: gl.constexpr):
    BM: gl.constexpr = c_desc.block_type.shape[0]
    BN: gl.constexpr = c_desc.block_type.shape[1]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    dtype: gl.constexpr = a_desc.dtype
    M = a_desc.shape[0]
    K = a_desc.shape[1]
    N = b_desc.shape[1]

    # Grouped tile order: GROUP_M rows of tiles are walked column by column, so the CTAs that
    # run together share both their A rows and their B columns in L2.
    pid = gl.program_id(0)
    tiles_m = gl.cdiv(M, BM)
    tiles_n = gl.cdiv(N, BN)
    per_group = GROUP_M * tiles_n
    first_m = (pid // per_group) * GROUP_M
    rows = min(tiles_m - first_m, GROUP_M)
    off_m = (first_m + (pid % per_group) % rows) * BM
    off_n = ((pid % per_group) // rows) * BN

    # The ring: STAGES tiles of A and of B, one mbarrier per stage that TMA completes.
    a_ring = gl.allocate_shared_memory(dtype, [STAGES] + a_desc.block_type.shape, a_desc.layout)
    b_ring = gl.allocate_shared_memory(dtype, [STAGES] + b_desc.block_type.shape, b_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(STAGES):
        mbarrier.init(ready.index(i), count=1)
    stage_bytes: gl.constexpr = a_desc.block_type.nbytes + b_desc.block_type.nbytes
    k_tiles = gl.cdiv(K, BK)

    # Prologue: K tiles 0 .. STAGES-2 in flight (fewer if K is short).
    for i in gl.static_range(STAGES - 1):
        live = i < k_tiles
        mbarrier.expect(ready.index(i), stage_bytes, pred=live)
        tma.async_copy_global_to_shared(a_desc, [off_m, i * BK], ready.index(i), a_ring.index(i), pred=live)
        tma.async_copy_global_to_shared(b_desc, [i * BK, off_n], ready.index(i), b_ring.index(i), pred=live)

    acc = gl.zeros([BM, BN], dtype=gl.float32, layout=ACC_LAYOUT)
    for ki in range(k_tiles):
        s = ki % STAGES
        mbarrier.wait(ready.index(s), (ki // STAGES) & 1)
        acc = warpgroup_mma(a_ring.index(s), b_ring.index(s), acc, is_async=True)
        # At most this step's MMA is still running: the one of step ki-1 has retired, so its
        # stage, (ki-1) % STAGES == (ki+STAGES-1) % STAGES, takes K tile ki+STAGES-1 while
        # this step's MMA runs.
        acc = warpgroup_mma_wait(num_outstanding=1, deps=(acc, ))
        nxt = ki + STAGES - 1
        ns = nxt % STAGES
        live = nxt < k_tiles
        mbarrier.expect(ready.index(ns), stage_bytes, pred=live)
        tma.async_copy_global_to_shared(a_desc, [off_m, nxt * BK], ready.index(ns), a_ring.index(ns), pred=live)
        tma.async_copy_global_to_shared(b_desc, [nxt * BK, off_n], ready.index(ns), b_ring.index(ns), pred=live)
    acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))
    for i in gl.static_range(STAGES):
        mbarrier.invalidate(ready.index(i))

    # Epilogue: bf16 tile into shared memory, then one TMA store (it clips at M and N).
    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_smem.store(acc.to(c_desc.dtype))
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc, [off_m, off_n], c_smem)
    tma.store_wait(pendings=0)


def smem_layouts(BM, BN, BK):
    get = gl.NVMMASharedLayout.get_default_for
    return get([BM, BK], gl.bfloat16), get([BK, BN], gl.bfloat16), get([BM, BN], gl.bfloat16)


def cfg_name(cfg):
    BM, BN, BK, stages, warps = cfg
    return f"{BM}x{BN}x{BK} stages={stages} warps={warps}"


def cubin_usage(cubin):
    """Registers and spill stores of a cubin, from the cuobjdump that ships with triton."""
    import re
    import subprocess
    import tempfile
    from triton import knobs
    try:
        with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
            f.write(cubin)
            f.flush()
            out = subprocess.run([knobs.nvidia.cuobjdump.path, "--dump-resource-usage", f.name],
                                 capture_output=True, text=True, check=True).stdout
        regs, stack = re.search(r"REG:(\d+)", out), re.search(r"STACK:(\d+)", out)
        return f"{regs.group(1)} regs, stack {stack.group(1)} B"
    except Exception:  # noqa: BLE001 - the figures are a nicety
        return "registers unknown"


def compile_only():
    """Compile each config for sm_90a without a GPU; check the PTX uses wgmma and TMA."""
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    target = GPUTarget("cuda", 90, 32)
    failed = 0
    for cfg in CONFIGS:
        BM, BN, BK, stages, warps = cfg
        la, lb, lc = smem_layouts(BM, BN, BK)
        # What a launch with host TensorDescriptors of bf16 tensors specialises to.
        signature = {"a_desc": f"tensordesc<bf16[{BM}, {BK}],{la!r}>",
                     "b_desc": f"tensordesc<bf16[{BK}, {BN}],{lb!r}>",
                     "c_desc": f"tensordesc<bf16[{BM}, {BN}],{lc!r}>",
                     "GROUP_M": "constexpr", "STAGES": "constexpr", "ACC_LAYOUT": "constexpr"}
        constexprs = {"GROUP_M": GROUP_M, "STAGES": stages, "ACC_LAYOUT": acc_layout(BM, BN, warps)}
        try:
            k = triton.compile(GluonASTSource(gemm_kernel, signature, constexprs), target=target,
                               options={"num_warps": warps})
        except Exception as e:  # noqa: BLE001 - report and go on with the next config
            print(f"{cfg_name(cfg)}: compile failed: {str(e).strip().splitlines()[-1][:300]}")
            failed += 1
            continue
        ptx = k.asm["ptx"]
        wgmma = ptx.count("wgmma.mma_async")
        tma_load = ptx.count("cp.async.bulk.tensor.2d.shared::cluster.global")
        tma_store = ptx.count("cp.async.bulk.tensor.2d.global.shared")
        md = k.metadata
        fits = md.shared <= SMEM_LIMIT
        sm_90a = ".target sm_90a" in ptx
        ok = wgmma > 0 and tma_load > 0 and sm_90a and fits
        failed += not ok
        print(f"{cfg_name(cfg)}: shared {md.shared} B{'' if fits else ' (over 227 KiB)'}, "
              f"{cubin_usage(k.asm['cubin'])}; PTX{' (sm_90a)' if sm_90a else ' (NOT sm_90a)'}: "
              f"{wgmma} wgmma.mma_async, {tma_load} TMA loads, {tma_store} TMA stores "
              f"-> {'ok' if ok else 'FAILED'}")
    print(f"{len(CONFIGS) - failed}/{len(CONFIGS)} configs compiled for sm_90a with wgmma and TMA")
    return 1 if failed else 0


def bench(res, m, n, k):
    import torch
    from triton.testing import do_bench
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    key = f"matmul{m}x{n}x{k}"
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    tflops = lambda ms: 2 * m * n * k / (ms * 1e-3) / 1e12
    ref = torch.matmul(a, b).float()
    res[f"{key}.torch_TFLOPs"] = tflops(do_bench(lambda: torch.matmul(a, b), return_mode="median"))
    best, best_cfg = 0.0, None
    for cfg in CONFIGS:
        BM, BN, BK, stages, warps = cfg
        try:
            la, lb, lc = smem_layouts(BM, BN, BK)
            a_desc = TensorDescriptor.from_tensor(a, [BM, BK], la)
            b_desc = TensorDescriptor.from_tensor(b, [BK, BN], lb)
            c_desc = TensorDescriptor.from_tensor(c, [BM, BN], lc)
            grid = (triton.cdiv(m, BM) * triton.cdiv(n, BN), )
            layout = acc_layout(BM, BN, warps)
            f = lambda: gemm_kernel[grid](a_desc, b_desc, c_desc, GROUP_M, stages, layout, num_warps=warps)
            c.fill_(float("nan"))
            f()
            torch.cuda.synchronize()
            err = ((c.float() - ref).norm() / ref.norm()).item()
            if not err < 1e-2:  # NaN (a tile never written) fails too
                print(f"{key}: gluon {cfg_name(cfg)}: wrong result, relative error {err:.3g}; skipped",
                      file=sys.stderr)
                continue
            t = tflops(do_bench(f, return_mode="median"))
        except Exception as e:  # noqa: BLE001 - compile error, out of shared memory, ...
            msg = (str(e).strip().splitlines() or [type(e).__name__])[-1][:300]
            print(f"{key}: gluon {cfg_name(cfg)}: {type(e).__name__}: {msg}; skipped", file=sys.stderr)
            continue
        print(f"{key}: gluon {cfg_name(cfg)}: {t:.1f} TFLOP/s (rel. error {err:.2e})", file=sys.stderr)
        if t > best:
            best, best_cfg = t, cfg
    if best_cfg is None:
        print(f"{key}: no Gluon config ran; no gluon_best_TFLOPs", file=sys.stderr)
        return
    res[f"{key}.gluon_best_TFLOPs"] = best
    res[f"{key}.gluon_best_config"] = cfg_name(best_cfg)


def parse_size(s):
    dims = [int(x) for x in s.lower().split("x")]
    if len(dims) == 1:
        return dims * 3
    if len(dims) != 3:
        raise argparse.ArgumentTypeError(f"size {s!r}: give N or MxNxK")
    return dims


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="-")
    p.add_argument("--sizes", default="4096,8192", help="comma list of N (N^3) or MxNxK")
    p.add_argument("--compile-only", action="store_true",
                   help="compile every config for sm_90a (no GPU, no torch) and check the PTX")
    a = p.parse_args()
    if a.compile_only:
        return compile_only()
    import torch
    res = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
           "triton": triton.__version__}
    for s in a.sizes.split(","):
        bench(res, *parse_size(s))
    text = json.dumps(res, indent=1)
    print(text)
    if a.out != "-":
        open(a.out, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
