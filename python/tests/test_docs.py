"""docs/frontend-python.md's code blocks, run in order as one file."""

from __future__ import annotations

import os
import re
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs")


def test_frontend_python_examples(tmp_path, monkeypatch):
    monkeypatch.setenv("HADRON_CACHE_DIR", str(tmp_path / "cache"))
    text = open(os.path.join(DOCS, "frontend-python.md")).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    # A file, not exec of a string: kernels are parsed from their source.
    path = tmp_path / "frontend_python_examples.py"
    path.write_text("\n".join(blocks))
    namespace = runpy.run_path(str(path))
    assert namespace["message"].startswith(f"{path}:")
