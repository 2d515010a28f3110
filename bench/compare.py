#!/usr/bin/env python3
"""Hadron vs torch/Triton/Gluon: reads hadron-bench's JSON and the reference script's.

    python3 bench/compare.py hadron.json ref.json [ref2.json ...]

hadron.json comes from `hadron-bench --device nvidia --json hadron.json`, ref.json from
/work/shared/bench/triton_gluon_reference.py --out ref.json, run on the same GPU in the
same command (bench/attention_reference.py --out ref2.json for attention; several
reference files are merged: a figure more than one measured is their median, any other key
the later file's; bench/gluon_matmul_reference.py
--out ref3.json adds a Gluon column to the GEMM table). Both count bytes read plus written,
in 1e9 bytes per second, GEMMs 2*M*N*K flops and attention 4*heads*n_ctx^2*d flops in 1e12
per second. A ratio above 1 means Hadron's best config is faster. Where hadron-bench timed
cuBLAS itself (--cublas, on NVIDIA devices: the same buffers, launches in turns with each
kernel), the GEMM table adds that figure and ratio per kernel (cublas*).
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    hadron, ref, seen = load(argv[1]), {}, {}
    for path in argv[2:]:
        for key, value in load(path).items():
            seen.setdefault(key, []).append(value)
    # A figure several reference runs measured (torch's GEMM is timed by both
    # GEMM references) is their median: the GPU's clocks move between runs.
    for key, values in seen.items():
        numbers = sorted(v for v in values if isinstance(v, (int, float)))
        if len(numbers) == len(values) and len(numbers) > 1:
            mid = len(numbers) // 2
            ref[key] = numbers[mid] if len(numbers) % 2 else (numbers[mid - 1] + numbers[mid]) / 2
        else:
            ref[key] = values[-1]
    suffix = ".hadron_best_GBps"
    workloads = [k[: -len(suffix)] for k in hadron if k.endswith(suffix)]
    others = ("torch", "triton_best", "gluon_best")
    print(f"Hadron on {hadron.get('device', '?')}; reference on {ref.get('gpu', '?')} "
          f"(torch {ref.get('torch', '?')}, triton {ref.get('triton', '?')})")
    head = f"{'workload':<20} {'Hadron GB/s':>12} " + " ".join(f"{o + ' GB/s':>17}" for o in others)
    head += " " + " ".join(f"{'H/' + o.split('_')[0]:>9}" for o in others) + "  Hadron config"
    print(head)
    for w in workloads:
        h = hadron[w + suffix]
        row = f"{w:<20} {h:>12.1f} "
        vals = [ref.get(f"{w}.{o}_GBps") for o in others]
        row += " ".join(f"{v:>17.1f}" if v else f"{'-':>17}" for v in vals)
        row += " " + " ".join(f"{h / v:>8.2f}x" if v else f"{'-':>9}" for v in vals)
        row += "  " + hadron.get(w + ".hadron_best_config", "")
        print(row)
    gemms = [k[: -len(".hadron_TFLOPs")] for k in hadron if k.endswith(".hadron_TFLOPs")]
    # A Gluon column only where some reference file has Gluon figures for these GEMMs
    # (bench/gluon_matmul_reference.py); the table is unchanged otherwise.
    has_gluon = any(ref.get(g + ".gluon_best_TFLOPs") for g in gemms)
    # hadron-bench's own cuBLAS reference (--cublas): timed in the same process, in turns
    # with each kernel, so its ratio is the one the GPU's clock drift does not enter.
    has_cublas = any(k.split(".", 1)[1].startswith("cublas_with_") for k in hadron if "." in k)
    if gemms:
        print(f"\n{'GEMM / attention (bf16)':<34} {'kernel':>7} {'Hadron TFLOP/s':>15} {'torch':>8} "
              f"{'triton':>8}" + (f" {'gluon':>8}" if has_gluon else "") + f" {'H/torch':>8} {'H/triton':>9}"
              + (f" {'H/gluon':>8}" if has_gluon else "")
              + (f" {'cublas*':>8} {'H/cublas*':>9}" if has_cublas else ""))
    for g in gemms:
        t, tr = ref.get(g + ".torch_TFLOPs"), ref.get(g + ".triton_best_TFLOPs")
        gb = ref.get(g + ".gluon_best_TFLOPs")
        cell = lambda v: f"{v:>8.1f}" if v else f"{'-':>8}"
        # Every kernel hadron-bench ran on this size, then the best of them.
        variants = sorted(k[len(g) + len(".hadron_"): -len("_TFLOPs")] for k in hadron
                          if k.startswith(g + ".hadron_") and k.endswith("_TFLOPs")
                          and k != g + ".hadron_TFLOPs")
        rows = [(v, hadron[f"{g}.hadron_{v}_TFLOPs"]) for v in variants]
        for v, h in rows or [("", hadron[g + ".hadron_TFLOPs"])]:
            ratio = lambda r, w: f"{h / r:>{w - 1}.2f}x" if r else f"{'-':>{w}}"
            cb = hadron.get(f"{g}.cublas_with_{v}_TFLOPs")
            # The median of the launch pairs' ratios where hadron-bench gives it.
            pair = hadron.get(f"{g}.hadron_{v}_vs_cublas")
            cb_ratio = f"{pair:>8.2f}x" if pair else ratio(cb, 9)
            print(f"{g:<34} {v:>7} {h:>15.1f} {cell(t)} {cell(tr)}" + (f" {cell(gb)}" if has_gluon else "")
                  + f" {ratio(t, 8)} {ratio(tr, 9)}" + (f" {ratio(gb, 8)}" if has_gluon else "")
                  + (f" {cell(cb)} {cb_ratio}" if has_cublas else ""))
    if has_cublas:
        print("  (cublas*: hadron-bench's in-process cuBLAS, launched in turns with that kernel; "
              "H/cublas* the median of the launch pairs' ratios)")
    if "launch.hadron_call_us" in hadron:
        print("\nlaunch overhead (us per launch)   Hadron  cuLaunchKernel  ratio")
        for what, key in (("launch call, no sync", "call"), ("N launches + 1 sync", "batch"),
                          ("launch + synchronize", "sync")):
            hv, cv = hadron[f"launch.hadron_{key}_us"], hadron[f"launch.cuda_{key}_us"]
            print(f"{what:<33} {hv:>7.2f} {cv:>15.2f} {hv / cv:>6.2f}x")
    missing = [w for w in workloads if not any(ref.get(f"{w}.{o}_GBps") for o in others)]
    if missing:
        print(f"\nno reference figures for: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
