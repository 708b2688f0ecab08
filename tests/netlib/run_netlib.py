#!/usr/bin/env python3
"""Runs Netlib's level-3 BLAS test programs (Debian's libblas-test) with
libtessera_blas.so preloaded over the reference BLAS, switching on exactly
the routines Tessera provides, and checks that

  * every enabled routine passes the error-exit tests and the computational
    tests (both layouts for the CBLAS programs), nothing FAILs;
  * the dynamic linker bound each routine the program called to
    libtessera_blas.so (LD_DEBUG=bindings), so a routine silently served by
    the reference library fails the run;
  * the program's own xerbla_ / cblas_xerbla took precedence over Tessera's.

Usage: run_netlib.py LIBTESSERA_BLAS WORKDIR [--large]
--large uses inputs of our own: N up to 65 (the programs' NMAX) and more
alpha/beta values than the stock files.
"""
import os
import re
import subprocess
import sys

BLAS_DIR = "/usr/lib/x86_64-linux-gnu/blas"
ROUTINES = {"s": ["gemm", "syrk"], "d": ["gemm", "syrk"],
            "c": ["gemm", "herk", "syrk"], "z": ["gemm", "herk", "syrk"]}

LARGE_N = "0 1 2 4 9 17 33 64 65"
LARGE_REAL = ("4", "0.0 1.0 -1.0 0.7", "4", "0.0 1.0 -1.0 1.3")
LARGE_CPLX = ("4", "(0.0,0.0) (1.0,0.0) (-1.0,0.0) (0.7,-0.9)",
              "4", "(0.0,0.0) (1.0,0.0) (0.0,1.0) (1.3,-1.1)")


def make_input(stock, prefix, p, enabled, summary, large):
    lines = open(os.path.join(BLAS_DIR, stock)).read().splitlines()
    out = []
    for i, l in enumerate(lines):
        m = re.match(r"^(%s[a-z0-9]+)(\s+)([TF])(.*)$" % re.escape(prefix), l, re.I)
        if m:
            name = m.group(1)[len(prefix):].lower()[1:] if prefix else m.group(1)[1:].lower()
            on = name in enabled
            l = m.group(1) + m.group(2) + ("T" if on else "F") + m.group(4)
        elif i == 0 and summary and l.startswith("'"):
            l = "'%s'" % summary + l[l.index("'", 1) + 1:]
        out.append(l)
    if large:
        # The lines after the threshold: count of N, values, count of alpha,
        # values, count of beta, values.
        t = next(i for i, l in enumerate(out) if "THRESHOLD" in l)
        al = LARGE_CPLX if p in "cz" else LARGE_REAL
        out[t + 1] = "%d                 NUMBER OF VALUES OF N" % len(LARGE_N.split())
        out[t + 2] = LARGE_N + "       VALUES OF N"
        out[t + 3] = al[0] + "                 NUMBER OF VALUES OF ALPHA"
        out[t + 4] = al[1] + "       VALUES OF ALPHA"
        out[t + 5] = al[2] + "                 NUMBER OF VALUES OF BETA"
        out[t + 6] = al[3] + "       VALUES OF BETA"
    return "\n".join(out) + "\n"


def bindings(path):
    """symbol -> set of (from-file, to-file) the dynamic linker bound."""
    b = {}
    for f in os.listdir(os.path.dirname(path)):
        if not f.startswith(os.path.basename(path)):
            continue
        for l in open(os.path.join(os.path.dirname(path), f), errors="replace"):
            m = re.search(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `([^']+)'", l)
            if m:
                b.setdefault(m.group(3), set()).add((m.group(1), m.group(2)))
    return b


def run(program, text, work, lib, tag):
    bind = os.path.join(work, "bind-" + tag)
    for f in os.listdir(work):
        if f.startswith("bind-" + tag):
            os.remove(os.path.join(work, f))
    env = dict(os.environ, LD_LIBRARY_PATH=BLAS_DIR, LD_PRELOAD=lib,
               LD_DEBUG="bindings", LD_DEBUG_OUTPUT=bind)
    r = subprocess.run([os.path.join(BLAS_DIR, program)], input=text, capture_output=True,
                       text=True, cwd=work, env=env, timeout=1200)
    return r.stdout + r.stderr, bindings(bind)


def check(report, out, b, program, lib, symbols, handler, passes):
    errors = []
    for label, pattern in passes:
        if not re.search(pattern, out):
            errors.append("%s: missing '%s'" % (program, label))
    if "END OF TESTS" not in out:
        errors.append("%s: did not reach END OF TESTS" % program)
    for l in out.splitlines():
        if "FAIL" in l or "*****" in l:
            errors.append("%s: %s" % (program, l.strip()))
    libname = os.path.basename(lib)
    for s in symbols:
        targets = {os.path.basename(t) for _, t in b.get(s, set())}
        if not targets:
            errors.append("%s: %s was never bound (not called?)" % (program, s))
        elif targets != {libname}:
            errors.append("%s: %s bound to %s, not only %s" % (program, s, sorted(targets), libname))
    # Tessera's calls of the error handler must reach the program's own.
    h = {(os.path.basename(f), os.path.basename(t)) for f, t in b.get(handler, set())}
    if not any(f == libname and t == program for f, t in h):
        errors.append("%s: %s from %s did not bind to the program's own (%s)" % (program, handler, libname, sorted(h)))
    report.extend(errors)
    return not errors


def main():
    lib, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    large = "--large" in sys.argv
    os.makedirs(work, exist_ok=True)
    problems = []
    for p, names in ROUTINES.items():
        # Fortran program: xblat3p, summary to a file named in its input.
        summary = "%sblat3%s.out" % (p, "-large" if large else "")
        text = make_input("%sblat3.in" % p, "", p, names, summary, large)
        out, b = run("xblat3" + p, text, work, lib, "f" + p)
        out = open(os.path.join(work, summary)).read() if os.path.exists(os.path.join(work, summary)) else out
        passes = []
        for n in names:
            r = (p + n).upper()
            passes.append((r + " error exits", r + r"\s+PASSED THE TESTS OF ERROR-EXITS"))
            passes.append((r + " computational", r + r"\s+PASSED THE COMPUTATIONAL TESTS"))
        ok = check(problems, out, b, "xblat3" + p, lib, [p + n + "_" for n in names], "xerbla_", passes)
        print("xblat3%s   %-22s %s" % (p, " ".join((p + n).upper() for n in names), "PASSED" if ok else "FAILED"))
        # CBLAS program: x?cblat3, both layouts.
        text = make_input("%sin3" % p, "cblas_", p, names, None, large)
        out, b = run("x%scblat3" % p, text, work, lib, "c" + p)
        passes = []
        for n in names:
            r = "cblas_" + p + n
            passes.append((r + " error exits", r + r"\s+PASSED THE TESTS OF ERROR-EXITS"))
            passes.append((r + " column-major", r + r"\s+PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS"))
            passes.append((r + " row-major", r + r"\s+PASSED THE ROW-MAJOR\s+COMPUTATIONAL TESTS"))
        ok = check(problems, out, b, "x%scblat3" % p, lib, ["cblas_" + p + n for n in names], "cblas_xerbla", passes)
        with open(os.path.join(work, "x%scblat3%s.out" % (p, "-large" if large else "")), "w") as f:
            f.write(out)
        print("x%scblat3 %-22s %s" % (p, " ".join("cblas_" + p + n for n in names), "PASSED" if ok else "FAILED"))
    for e in problems:
        print("  " + e)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
