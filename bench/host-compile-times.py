#!/usr/bin/env python3
"""Times `hadron compile` of every conformance case and example for the host.

The cases come from `hadron conformance --list --ir` (the kernel text the suite
compiles), the examples from examples/*.mlir. Each kernel is compiled once per
host level with `hadron compile KERNEL --target host:LEVEL -o /dev/null`, one
process per compile with the kernel cache off (HADRON_CACHE_DIR=off), and the
CPU time of each compile (user + system, which a loaded machine disturbs less
than the wall time; --wall for that) is printed as a table (TSV with --tsv).
Nothing is asserted: this measures, docs/performance.md records the figures.

  bench/host-compile-times.py --hadron build/default/bin/hadron
  bench/host-compile-times.py --hadron ... --levels native,x86-64 --filter 'dot.*,scan.*'
  bench/host-compile-times.py --filter 'example.*' --examples 'examples/**/*.mlir'
"""

import argparse
import fnmatch
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

LEVELS = ["native", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"]


def cases(hadron):
    """(name, kernel text) of every conformance case, in the suite's order."""
    listing = subprocess.run([hadron, "conformance", "--list", "--ir"], check=True,
                             capture_output=True, text=True).stdout
    result, name, lines = [], None, []
    for line in listing.splitlines():
        if name is None:
            if line.strip() and not line.startswith(" ") and "case(s)" not in line:
                name, lines = line.strip(), []
            continue
        if not line.strip():
            result.append((name, "\n".join(lines) + "\n"))
            name = None
        else:
            lines.append(line)
    if name is not None and lines:
        result.append((name, "\n".join(lines) + "\n"))
    return result


def examples(root, globs):
    paths = sorted({p for g in globs.split(",") for p in root.glob(g)})
    return [("example." + str(p.relative_to(root / "examples").with_suffix("")).replace("/", "."),
             p.read_text()) for p in paths]


def main():
    here = pathlib.Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hadron", default=str(here / "build/default/bin/hadron"))
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="comma-separated host archs (default: all five)")
    parser.add_argument("--filter", default="*", help="comma-separated globs over case names")
    parser.add_argument("--examples", default="examples/*.mlir",
                        help="comma-separated globs of example files, from the source root")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds before one compile is stopped and reported as such")
    parser.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    parser.add_argument("--tsv", action="store_true", help="one line per compile: case level s")
    parser.add_argument("--top", type=int, default=10, help="slowest compiles listed per level")
    args = parser.parse_args()

    globs = args.filter.split(",")
    kernels = [(n, t) for n, t in cases(args.hadron) + examples(here, args.examples)
               if any(fnmatch.fnmatchcase(n, g) for g in globs)]
    levels = args.levels.split(",")
    times = {level: [] for level in levels}
    failures = []
    env = dict(os.environ, HADRON_CACHE_DIR="off")
    with tempfile.TemporaryDirectory(prefix="hadron-ct-") as tmp:
        for name, text in kernels:
            path = os.path.join(tmp, name + ".mlir")
            with open(path, "w") as f:
                f.write(text)
            for level in levels:
                cmd = [args.hadron, "compile", path, "--target", "host:" + level, "-o", os.devnull]
                start = time.monotonic()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                try:
                    rc = subprocess.run(cmd, capture_output=True, env=env,
                                        timeout=args.timeout).returncode
                except subprocess.TimeoutExpired:
                    rc = "timeout"
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                seconds = (time.monotonic() - start if args.wall else
                           after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
                if rc != 0:
                    failures.append((name, level, rc))
                times[level].append((seconds, name))
                if args.tsv:
                    print(f"{name}\t{level}\t{seconds:.3f}" + ("" if rc == 0 else f"\t{rc}"),
                          flush=True)

    what = "wall" if args.wall else "CPU (user + system)"
    print(f"\n{len(kernels)} kernel(s); {what} seconds per `hadron compile` (one process each)")
    print("| level | total | median | max (case) | > 1 s |")
    print("| --- | --- | --- | --- | --- |")
    for level in levels:
        t = sorted(times[level])
        if not t:
            continue
        slow = sum(1 for s, _ in t if s > 1.0)
        print(f"| {level} | {sum(s for s, _ in t):.1f} | {t[len(t) // 2][0]:.2f} | "
              f"{t[-1][0]:.2f} ({t[-1][1]}) | {slow} |")
    for level in levels:
        top = sorted(times[level], reverse=True)[:args.top]
        print(f"\nslowest on {level}: " + ", ".join(f"{n} {s:.2f}" for s, n in top))
    for name, level, rc in failures:
        print(f"FAILED {name} on {level}: {rc}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
