#!/usr/bin/env python3
"""Inputs for bench/limits.sh (the size limits), each at a given scale.

    gen_limits.py KIND SCALE OUT

KIND     SCALE means                 OUT
bigfile  megabytes                   one kernel source of that size, a probe pair per ~1 MB
longline megabytes                   a probe pair around one line of that many MB
nesting  #if levels                  one probe pair inside that many nested #if
probes   probe names (2 blocks each) one file, every probe in its own function
tree     files                       a directory, 1,000 files per subdirectory, one probe each

Every probe has a start and an end part and prints, so probe-list finds no
problem; all probes are off (#if 0), so probe-check passes.
"""
import os
import sys


def probe_pair(name, body, indent="    "):
    return (
        f"#if 0  // TIMING_PROBE: {name}\n"
        f"{indent}PipeBarrier<PIPE_ALL>();\n"
        f"{indent}uint64_t probeStart = GetSystemCycle();\n"
        "#endif\n"
        f"{body}"
        f"#if 0  // TIMING_PROBE: {name}\n"
        f"{indent}PipeBarrier<PIPE_ALL>();\n"
        f"{indent}uint64_t probeEnd = GetSystemCycle();\n"
        f"{indent}if (GetBlockIdx() == 0) {{\n"
        f'{indent}    printf("[{name}] start=%lu end=%lu dur=%lu\\n", probeStart, probeEnd, probeEnd - probeStart);\n'
        f"{indent}}}\n"
        "#endif\n"
    )


def stage_function(k, probed):
    body = (
        f"    LocalTensor<half> x = inQ.AllocTensor<half>();\n"
        f"    DataCopy(x, xGm[{k} * tileLength], tileLength);  // tile {k}\n"
        f"    inQ.EnQue(x);\n"
        f"    x = inQ.DeQue<half>();\n"
        f"    Adds(x, x, (half){k % 7}, tileLength);\n"
        f"    /* keep the scalar unit busy: {k} */\n"
    )
    head = f"__aicore__ inline void Stage{k}(uint32_t tileLength)\n{{\n"
    if probed:
        return head + probe_pair(f"STAGE_{k}", body) + "}\n\n"
    return head + body + "}\n\n"


def bigfile(mb, out):
    target = mb * 1024 * 1024
    with open(out, "w") as f:
        f.write('#include "kernel_operator.h"\nusing namespace AscendC;\n\n')
        size, k, next_probe = 0, 0, 0
        while size < target:
            probed = size >= next_probe
            if probed:
                next_probe += 1024 * 1024
            text = stage_function(k, probed)
            f.write(text)
            size += len(text)
            k += 1


def longline(mb, out):
    n = mb * 1024 * 1024
    unit = "x = x * 3 + 1; "
    line = "    " + unit * (n // len(unit)) + "\n"
    with open(out, "w") as f:
        f.write("void long_line(int x)\n{\n")
        f.write(probe_pair("LONG_LINE", line))
        f.write("}\n")


def nesting(levels, out):
    with open(out, "w") as f:
        f.write("void nested(void)\n{\n")
        for i in range(levels):
            f.write(f"#if defined(LEVEL_{i}) || !defined(NO_LEVEL_{i})\n")
        f.write(probe_pair("DEEP", "    work();\n"))
        for i in reversed(range(levels)):
            f.write(f"#endif  // level {i}\n")
        f.write("}\n")


def probes(count, out):
    with open(out, "w") as f:
        f.write('#include "kernel_operator.h"\nusing namespace AscendC;\n\n')
        for k in range(count):
            f.write(stage_function(k, True))


def tree(count, out):
    os.makedirs(out, exist_ok=True)
    for k in range(count):
        d = os.path.join(out, f"op{k // 1000:03d}")
        if k % 1000 == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"kernel{k}.cpp"), "w") as f:
            f.write('#include "kernel_operator.h"\n\n')
            f.write(stage_function(k, False).replace(f"Stage{k}", "StageBody"))
            f.write('extern "C" __global__ __aicore__ void kernel(GM_ADDR x)\n{\n')
            f.write(probe_pair("STAGE_A", "    StageBody(256);\n"))
            f.write("}\n")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    kind, scale, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    gens = {"bigfile": bigfile, "longline": longline, "nesting": nesting, "probes": probes, "tree": tree}
    if kind not in gens:
        sys.exit(f"unknown kind '{kind}'")
    gens[kind](scale, out)


if __name__ == "__main__":
    main()
