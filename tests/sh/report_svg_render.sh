#!/usr/bin/env bash
# report_svg_render.sh - probe-report's SVG as a real browser draws it: the
# timeline of testdata/report/log-svg-legend (twelve probes, long names, a
# 3-cycle span) rendered by headless Chromium, then pixel checks on the
# screenshot: the 3-cycle bar is visible in its colour, no legend label runs
# into the next swatch, the kinds past the tenth have colours of their own.
# usage: report_svg_render.sh BIN_DIR SRC_DIR
# Without chromium (scripts/setup.sh installs it) the test says SKIP and why.
set -u
bin=$1
src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: no chromium (scripts/setup.sh installs it)"; exit 0; }
[ -x "$bin/probe-report" ] || fail "no $bin/probe-report"
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-svg-render.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bin/probe-report" --format svg -o "$work/t.svg" "$src"/testdata/report/log-svg-legend/run*.log ||
	fail "probe-report exit $?"
size=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$work/t.svg")
[ -n "$size" ] || fail "no svg size"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
	--user-data-dir="$work/profile" --force-device-scale-factor=1 --window-size="$size" \
	--screenshot="$work/t.png" "file://$work/t.svg" > "$work/chromium.log" 2>&1
[ -s "$work/t.png" ] || fail "no screenshot: $(tail -3 "$work/chromium.log")"

python3 - "$work/t.svg" "$work/t.png" <<'EOF' || exit 1
import re, struct, sys, zlib

def png(path):
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(d):
        n, kind = struct.unpack(">I4s", d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 6) and not interlace, "unexpected PNG format"
    bpp = 4 if ctype == 6 else 3
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (w * bpp + 1)], bytearray(raw[y * (w * bpp + 1) + 1:(y + 1) * (w * bpp + 1)])
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return rows

def hexrgb(s):
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))

def near(p, q, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(p, q))

svg, img = open(sys.argv[1]).read(), png(sys.argv[2])
bad = []
# the 3-cycle bar: its middle pixel has its fill colour
m = re.search(r'<rect x="([\d.]+)" y="(\d+)" width="([\d.]+)" height="(\d+)" fill="(#\w+)"[^>]*><title>STAGE_A_LOAD:', svg)
x, y, w, h = float(m[1]), int(m[2]), float(m[3]), int(m[4])
px = img[y + h // 2][int(x + w / 2)]
if not near(px, hexrgb(m[5])):
    bad.append("3-cycle bar at x=%.1f drawn %s, want %s" % (x, px, m[5]))
# legend: between a label and the next swatch on its row, white only
sw = [(float(a), int(b)) for a, b in re.findall(r'<rect x="([\d.]+)" y="(\d+)" width="10" height="10"', svg)]
for (x0, y0), (x1, y1) in zip(sw, sw[1:]):
    if y1 != y0:
        continue
    for yy in range(y0, y0 + 10):
        for xx in range(int(x1) - 4, int(x1)):
            if not near(img[yy][xx], (255, 255, 255), 60):
                bad.append("legend text runs into the swatch at x=%.0f y=%d" % (x1, y1))
                break
        else:
            continue
        break
# every legend swatch has a colour of its own
cols = [img[yy + 5][int(xx) + 5] for xx, yy in sw]
for i in range(len(cols)):
    for j in range(i):
        if near(cols[i], cols[j], 12):
            bad.append("legend swatches %d and %d share a colour %s" % (j, i, cols[i]))
if len(sw) != 12:
    bad.append("%d legend entries, want 12" % len(sw))
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
echo "ok: chromium drew the SVG timeline as intended"
