#!/usr/bin/env python3
"""Renders the conformance HTML report in headless Chromium and checks the PNG.

    render_report.py REPORT.html OUT.png

Exit 0: the page rendered to a real picture of the matrix (big enough, mostly
not blank, with the report's cell colours in it). Exit 77 (ctest's skip code)
when no Chromium is installed (Debian: `apt-get install chromium`). Exit 1
otherwise, saying what was wrong.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

# Cell colours of conformance.html (Report.cpp's style sheet).
PASS_GREEN = (0xDA, 0xFB, 0xE1)
HEADER_GREY = (0xF6, 0xF8, 0xFA)


def find_browser():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def decode_png(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, depth, ctype = 8, b"", 0, 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    if depth != 8 or ctype not in (2, 6):
        raise ValueError(f"unexpected PNG format: depth {depth}, colour type {ctype}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 0xFF
            elif f == 2:
                line[x] = (line[x] + b) & 0xFF
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pred) & 0xFF
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return width, height, rows


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    html, png = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    browser = find_browser()
    if not browser:
        print("SKIP: no chromium on PATH (Debian package 'chromium')")
        return 77
    if not os.path.isfile(html):
        print(f"no report at {html} (run `hadron conformance --report DIR` first)")
        return 1
    if os.path.exists(png):
        os.remove(png)
    with tempfile.TemporaryDirectory() as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--window-size=1400,2200",
               f"--screenshot={png}", "file://" + html]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if not os.path.isfile(png):
        print(f"chromium wrote no screenshot (exit {run.returncode}):\n{run.stderr[-2000:]}")
        return 1
    with open(png, "rb") as f:
        width, height, rows = decode_png(f.read())
    colours = {}
    for row in rows[::4]:
        for px in row[::4]:
            colours[px] = colours.get(px, 0) + 1
    total = sum(colours.values())
    white = colours.get((255, 255, 255), 0)
    dark = sum(n for (r, g, b), n in colours.items() if r + g + b < 200)
    problems = []
    if width < 800 or height < 600:
        problems.append(f"only {width}x{height} pixels")
    if white > 0.97 * total:
        problems.append(f"{100 * white / total:.1f}% white: the page is blank")
    if dark < 0.001 * total:
        problems.append("no text (almost no dark pixels)")
    if len(colours) < 8:
        problems.append(f"only {len(colours)} colours")
    if PASS_GREEN not in colours and HEADER_GREY not in colours:
        problems.append("none of the report's cell colours")
    print(f"{png}: {width}x{height}, {len(colours)} colours sampled, "
          f"{100 * white / total:.1f}% white, {100 * dark / total:.2f}% text")
    if problems:
        print("not a rendered report: " + "; ".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
