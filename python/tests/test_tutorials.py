"""The tutorials' own tests (python/tutorials), run on the test's device:
the host in python.pytest, the OpenCL CPU device in
python.tutorials.opencl-cpu (HADRON_DEVICE=intel)."""

from __future__ import annotations

import importlib.util
import os

import pytest

import hadron

HERE = os.path.dirname(os.path.abspath(__file__))
TUTORIALS = os.path.join(os.path.dirname(HERE), "tutorials")


def load(name: str):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"),
                                                  os.path.join(TUTORIALS, name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name,tests", [
    ("01-intro.py", ["test_copy_scalar", "test_memcpy", "test_memcpy_autotune"]),
    ("02-layouts.py", ["test_memcpy_1d", "test_memcpy_2d", "test_transpose"]),
])
def test_tutorial(name, tests, tmp_path, monkeypatch):
    monkeypatch.setenv("HADRON_CACHE_DIR", str(tmp_path))  # autotune from scratch
    module = load(name)
    for t in tests:
        getattr(module, t)()


def test_tutorial_benchmarks_run():
    intro, layouts = load("01-intro.py"), load("02-layouts.py")
    assert intro.bench_memcpy(1024, xnumel=1 << 14) > 0
    assert layouts.bench_memcpy_1d(4, 2048, xnumel=1 << 14) > 0
    assert layouts.bench_memcpy_2d(layouts.ROW_MAJOR, shape=(128, 128)) > 0


def test_on_the_device_selected():
    selector = os.environ.get("HADRON_DEVICE", "host")
    if ":" in selector or selector.isidentifier():  # a plugin, or one device of it
        assert hadron.device().plugin == selector.split(":")[0]
