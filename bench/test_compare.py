#!/usr/bin/env python3
"""Checks compare.py's tables on made-up figures: ratios, the Gluon column, and the median of
a figure two reference files both measured (the GPU's clocks move between runs)."""
import contextlib
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def run(*files):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert compare.main(["compare.py", *files]) == 0
    return out.getvalue()


def main():
    with tempfile.TemporaryDirectory() as d:
        def write(name, data):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                json.dump(data, f)
            return path

        g = "matmul8192x8192x8192"
        hadron = write("h.json", {"device": "GPU", f"{g}.hadron_TFLOPs": 770.0,
                                  f"{g}.hadron_tma_TFLOPs": 770.0,
                                  "copy.hadron_best_GBps": 4000.0,
                                  "copy.hadron_best_config": "block=1024"})
        ref = write("r.json", {"gpu": "GPU", f"{g}.torch_TFLOPs": 800.0,
                               f"{g}.triton_best_TFLOPs": 700.0, "copy.torch_GBps": 4000.0})
        gluon = write("g.json", {f"{g}.torch_TFLOPs": 740.0, f"{g}.gluon_best_TFLOPs": 700.0})
        alone = run(hadron, ref)
        row = next(line for line in alone.splitlines() if line.startswith(g))
        assert "800.0" in row and "0.96x" in row and "1.10x" in row, row
        assert "gluon" not in alone.split("GEMM")[1].splitlines()[0], alone
        both = run(hadron, ref, gluon)
        row = next(line for line in both.splitlines() if line.startswith(g))
        # torch: the median (mean of two) of 800 and 740; Gluon 700.
        assert "770.0" in row.split()[3] and "1.00x" in row and "1.10x" in row, row
        assert "copy" in both and "1.00x" in both
        assert "cublas*" not in both, both
        # hadron-bench's in-process cuBLAS (--cublas): a column of its own, per kernel.
        inproc = write("hc.json", {"device": "GPU", f"{g}.hadron_TFLOPs": 780.0,
                                   f"{g}.hadron_tma_TFLOPs": 780.0,
                                   f"{g}.cublas_with_tma_TFLOPs": 750.0,
                                   f"{g}.hadron_tma_vs_cublas": 1.03})
        table = run(inproc, ref)
        row = next(line for line in table.splitlines() if line.startswith(g))
        # The pairs' median ratio (1.03), not the ratio of the medians (1.04).
        assert "750.0" in row and "1.03x" in row and "0.97x" in row, row
        assert "cublas*" in table, table
    print("compare.py: ok")


if __name__ == "__main__":
    main()
