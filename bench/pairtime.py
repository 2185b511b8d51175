#!/usr/bin/env python3
"""Time two commands in alternation, whole process: pairtime.py [-n RUNS] [-w WARMUP] -- A... --vs B...

A and B run in turn (A B A B ...), RUNS times each after WARMUP unmeasured
pairs; each run's wall time (a monotonic clock around it) and CPU time (user +
system of the finished child, from the operating system) are recorded. The
ratio A/B is taken pair by pair, so a load spike on a shared machine hits both
sides of a pair; the medians are printed:

    A wall 0.123 cpu 0.200   B wall 0.130 cpu 0.190   A/B wall 0.95 cpu 1.05

With --one-line only the medians, space-separated (a_wall a_cpu b_wall b_cpu
ratio_wall ratio_cpu), for scripts. The commands' output is read through a
pipe and thrown away (not sent to /dev/null, which GNU grep takes as -q for
each file); their exit status is not judged (a checker exits 1 on findings)."""
import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    t0 = time.monotonic()
    # output through a pipe, read and dropped here: GNU grep stops reading a
    # file at its first match when its output is /dev/null
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    while p.stdout.read(1 << 16):
        pass
    _, _, ru = os.wait4(p.pid, 0)  # this child's own accounting, in microseconds
    wall = time.monotonic() - t0
    p.returncode = 0
    p.stdout.close()
    return wall, ru.ru_utime + ru.ru_stime


def main(argv):
    runs, warm, one = 9, 1, False
    i = 0
    while i < len(argv) and argv[i] != "--":
        if argv[i] == "-n":
            runs = int(argv[i + 1])
            i += 2
        elif argv[i] == "-w":
            warm = int(argv[i + 1])
            i += 2
        elif argv[i] == "--one-line":
            one = True
            i += 1
        else:
            sys.exit(f"pairtime.py: unknown option {argv[i]}")
    rest = argv[i + 1:]
    if "--vs" not in rest or runs < 1:
        sys.exit("usage: pairtime.py [-n RUNS] [-w WARMUP] [--one-line] -- A... --vs B...")
    k = rest.index("--vs")
    a, b = rest[:k], rest[k + 1:]
    for _ in range(warm):
        run(a)
        run(b)
    ra, rb = [], []
    for _ in range(runs):
        ra.append(run(a))
        rb.append(run(b))
    med = statistics.median
    aw, ac = med(x[0] for x in ra), med(x[1] for x in ra)
    bw, bc = med(x[0] for x in rb), med(x[1] for x in rb)
    rw = med(x[0] / y[0] for x, y in zip(ra, rb))
    rc = med(x[1] / y[1] if y[1] > 0 else float("inf") for x, y in zip(ra, rb))
    if one:
        print(f"{aw:.4f} {ac:.4f} {bw:.4f} {bc:.4f} {rw:.3f} {rc:.3f}")
    else:
        print(f"A wall {aw:.3f} cpu {ac:.3f}   B wall {bw:.3f} cpu {bc:.3f}   A/B wall {rw:.2f} cpu {rc:.2f}"
              f"   (medians of {runs} pairs)")


if __name__ == "__main__":
    main(sys.argv[1:])
