#!/usr/bin/env python3
"""Runs hadron-opt on every ```mlir block of a Markdown file.

Each block must be a complete module or function that parses and verifies.
Errors are reported at the Markdown line they come from. Fails as well when
the file holds fewer than --min-blocks blocks, so that a broken extraction
cannot pass by finding nothing.
"""

import argparse
import re
import shutil
import subprocess
import sys


def mlir_blocks(lines):
    """Yields (line number of the first line of code, code) per ```mlir block."""
    start, code = None, []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if start is None:
            if stripped == "```mlir":
                start, code = number + 1, []
        elif stripped.startswith("```"):
            yield start, "\n".join(code) + "\n"
            start = None
        else:
            code.append(line)
    if start is not None:
        yield start, "\n".join(code) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("markdown")
    parser.add_argument("--min-blocks", type=int, default=20)
    args = parser.parse_args()

    hadron_opt = shutil.which("hadron-opt")
    if hadron_opt is None:
        print("error: hadron-opt is not on PATH", file=sys.stderr)
        return 2
    with open(args.markdown, encoding="utf-8") as f:
        lines = f.read().splitlines()

    blocks = list(mlir_blocks(lines))
    failures = 0
    for first_line, code in blocks:
        result = subprocess.run([hadron_opt, "-", "-o", "/dev/null"], input=code,
                                capture_output=True, text=True)
        if result.returncode == 0:
            continue
        failures += 1
        # <stdin>:LINE:COL -> file.md:LINE:COL, counted from the block's start.
        diagnostics = re.sub(
            r"<stdin>:(\d+):(\d+)",
            lambda m: "%s:%d:%s" % (args.markdown, first_line + int(m.group(1)) - 1, m.group(2)),
            result.stderr)
        print("%s:%d: error: this mlir block does not parse and verify" %
              (args.markdown, first_line), file=sys.stderr)
        print(diagnostics, file=sys.stderr)
    if len(blocks) < args.min_blocks:
        print("%s: error: found %d mlir blocks, expected at least %d" %
              (args.markdown, len(blocks), args.min_blocks), file=sys.stderr)
        return 1
    print("%d mlir blocks checked, %d failed" % (len(blocks), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
