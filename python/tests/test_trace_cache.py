"""Running without the builder: hadron._runtime links no LLVM/MLIR, a kernel
traced once launches from the trace cache in a process that cannot import
hadron._builder, a damaged entry is traced again (or named in the error when
the builder is missing), and HADRON_COMPILE_ONLY fills the caches for a
GPU without one. Each scenario is a fresh process, as on a GPU machine."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hadron

# Run before the script: makes importing the builder fail, as on a machine
# without LLVM/MLIR.
BLOCK_BUILDER = textwrap.dedent("""
    import sys

    class BlockBuilder:
        def find_spec(self, name, path=None, target=None):
            if name == "hadron._builder":
                raise ImportError("hadron._builder is blocked by the test")
            return None

    sys.meta_path.insert(0, BlockBuilder())
""")

# Copies fresh random data through a kernel that calls another @jit function
# (both sources are in the key) and checks it.
SCRIPT = textwrap.dedent("""
    import sys

    import numpy as np

    import hadron
    import hadron.language as hl


    @hadron.jit
    def scaled(v, SCALE: hl.constexpr):
        return v * SCALE


    @hadron.jit
    def scale_kernel(src, dst, n, XBLOCK: hl.constexpr, SCALE: hl.constexpr):
        layout: hl.constexpr = hl.BlockedLayout([2], [32], [hl.num_warps()], [0])
        offs = hl.program_id(0) * XBLOCK + hl.arange(0, XBLOCK, layout)
        mask = offs < n
        hl.store(dst + offs, scaled(hl.load(src + offs, mask), SCALE), mask)


    n = 3000
    x = np.random.default_rng().standard_normal(n).astype(np.float32)
    y = np.full(n, np.nan, np.float32)
    k = scale_kernel[(hadron.cdiv(n, 256),)](x, y, n, XBLOCK=256, SCALE=3.0, num_warps=4)
    np.testing.assert_allclose(y, x * np.float32(3.0), rtol=1e-6)
    print("key", k.key)
    print("builder imported:", "hadron._builder" in sys.modules)
""")


def run(tmp_path, cache, block_builder=False, env=None, check=True):
    script = tmp_path / "scale.py"
    script.write_text(SCRIPT)
    prelude = BLOCK_BUILDER if block_builder else ""
    code = prelude + f"import runpy\nrunpy.run_path({str(script)!r}, run_name='__main__')\n"
    environ = dict(os.environ, HADRON_CACHE_DIR=str(cache), HADRON_DEVICE="host")
    environ.pop("HADRON_COMPILE_ONLY", None)
    environ.update(env or {})
    p = subprocess.run([sys.executable, "-c", code], env=environ, capture_output=True,
                       text=True, timeout=300)
    if check:
        assert p.returncode == 0, p.stdout + p.stderr
    return p


def traces(cache):
    return sorted(glob.glob(os.path.join(cache, "traces", "*.json")))


def test_runtime_module_links_no_llvm():
    ldd = shutil.which("ldd")
    if ldd is None:
        pytest.skip("no ldd")
    from hadron import _runtime
    out = subprocess.run([ldd, _runtime.__file__], capture_output=True, text=True,
                         check=True).stdout
    assert "libhadron-runtime" in out, out
    bad = [line for line in out.splitlines() if "libLLVM" in line or "libMLIR" in line]
    assert not bad, f"{_runtime.__file__} loads LLVM/MLIR: {bad}"


def test_launch_from_trace_cache_without_builder(tmp_path):
    cache = tmp_path / "cache"
    first = run(tmp_path, cache)
    assert "builder imported: True" in first.stdout
    assert len(traces(cache)) == 1
    again = run(tmp_path, cache, block_builder=True)
    assert "builder imported: False" in again.stdout
    assert "key scale_kernel.XBLOCK_256.SCALE_3_0.w4" in again.stdout


def test_other_source_is_another_key(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, cache)
    global SCRIPT
    saved = SCRIPT
    try:
        # The callee changes: the kernel's key must change with it.
        SCRIPT = SCRIPT.replace("return v * SCALE", "return SCALE * v")
        p = run(tmp_path, cache, block_builder=True, check=False)
    finally:
        SCRIPT = saved
    assert p.returncode != 0 and "trace cache has no entry" in p.stderr, p.stderr
    run(tmp_path, cache)
    assert len(traces(cache)) == 1  # SCRIPT is back: the first key again


@pytest.mark.parametrize("damage", ["truncate", "edit_ir", "garbage"])
def test_damaged_entry_is_traced_again(tmp_path, damage):
    cache = tmp_path / "cache"
    run(tmp_path, cache)
    [entry] = traces(cache)
    raw = open(entry).read()
    with open(entry, "w") as f:
        if damage == "truncate":
            f.write(raw[: len(raw) // 2])
        elif damage == "edit_ir":
            data = json.loads(raw)
            data["ir"] = data["ir"].replace("256", "128")
            json.dump(data, f)
        else:
            f.write("\x00not json")
    p = run(tmp_path, cache)
    assert "damaged trace cache entry" in p.stderr and entry in p.stderr, p.stderr
    assert "builder imported: True" in p.stdout
    # Rewritten whole: a process without the builder uses it again.
    run(tmp_path, cache, block_builder=True)


def test_damaged_entry_without_builder_is_a_clear_error(tmp_path):
    cache = tmp_path / "cache"
    run(tmp_path, cache)
    [entry] = traces(cache)
    with open(entry, "w") as f:
        f.write("{")
    p = run(tmp_path, cache, block_builder=True, check=False)
    assert p.returncode != 0
    key = os.path.basename(entry)[: -len(".json")]
    assert "hadron._errors.CompileError" in p.stderr
    for part in ("scale_kernel(", "XBLOCK=int:256", "trace cache has no entry", key,
                 "builder cannot be imported", "blocked by the test"):
        assert part in p.stderr, (part, p.stderr)


def test_compile_only_nvidia_fills_the_caches(tmp_path):
    if "nvidia" not in hadron.runtime.context().plugins():
        pytest.skip("the nvidia plugin is not built")
    cache = tmp_path / "cache"
    p = run(tmp_path, cache, env={"HADRON_COMPILE_ONLY": "nvidia:sm_90a"})
    assert "1 kernel(s) compiled for nvidia:sm_90a, 0 failed" in p.stderr, p.stderr
    assert len(traces(cache)) == 1
    # The host run's entry and the sm_90a one.
    assert len(glob.glob(os.path.join(cache, "kernels", "*.hdk"))) == 2
    # Compiling the traced IR again for sm_90a is served by that entry: the
    # module it gives has the kernel, and no new entry appears.
    ir = json.load(open(traces(cache)[0]))["ir"]
    env_cache = os.environ.get("HADRON_CACHE_DIR")
    os.environ["HADRON_CACHE_DIR"] = str(cache)
    try:
        ctx = hadron._runtime.Context.create()
        kernels, size, _ = ctx.compile("nvidia:sm_90a", ir)
    finally:
        if env_cache is None:
            os.environ.pop("HADRON_CACHE_DIR")
        else:
            os.environ["HADRON_CACHE_DIR"] = env_cache
    assert kernels == ["scale_kernel"] and size > 0
    assert len(glob.glob(os.path.join(cache, "kernels", "*.hdk"))) == 2
