#!/usr/bin/env python3
"""numpy (Debian's python3-numpy) over Tessera: re-runs itself with
libtessera_blas.so preloaded, checks matmul and A @ A.T in four types against
an extended-precision reference, runs numpy's linear-algebra test suite, then
checks from the dynamic linker's record (LD_DEBUG=bindings) that numpy's
BLAS calls were bound to Tessera.

Usage: numpy_tessera.py LIBTESSERA_BLAS WORKDIR
"""
import os
import re
import subprocess
import sys


def square(x):
    return x @ x


def child():
    import numpy as np
    rng = np.random.default_rng(0)
    for dt in (np.float32, np.float64, np.complex64, np.complex128):
        single = dt in (np.float32, np.complex64)
        wide = np.clongdouble if np.iscomplexobj(dt(0)) else np.longdouble
        a = rng.standard_normal((300, 200)).astype(dt)
        b = rng.standard_normal((200, 250)).astype(dt)
        if np.iscomplexobj(a):
            a = a + 1j * rng.standard_normal(a.shape).astype(a.real.dtype)
            b = b + 1j * rng.standard_normal(b.shape).astype(b.real.dtype)
        for what, got, ref in (("a @ b", a @ b, a.astype(wide) @ b.astype(wide)),
                               ("a @ a.T", a @ a.T, a.astype(wide) @ a.T.astype(wide))):
            err = float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))
            print("%-10s %-8s relative error %.2e" % (dt.__name__, what, err))
            assert err < (1e-5 if single else 1e-13), (dt, what, err)
    # Python's multiprocessing (fork): children of a process whose Tessera
    # pool has started workers compute the same bits (any thread count
    # does) and finish.
    import multiprocessing
    x = rng.standard_normal((600, 600))
    want = square(x)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        got = pool.map(square, [x] * 4)
    assert all(np.array_equal(g, want) for g in got), "a forked child's product differs"
    print("multiprocessing (fork): 4 products in child processes equal the parent's")
    ok = np.linalg.test(extra_argv=["-q", "-p", "no:cacheprovider"])
    print("numpy.linalg.test:", "passed" if ok else "FAILED")
    sys.exit(0 if ok else 1)


def main():
    if os.environ.get("TESSERA_NUMPY_CHILD"):
        return child()
    lib, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    for f in os.listdir(work):
        if f.startswith("bind"):
            os.remove(os.path.join(work, f))
    env = dict(os.environ, TESSERA_NUMPY_CHILD="1", LD_PRELOAD=lib, LD_DEBUG="bindings",
               LD_DEBUG_OUTPUT=os.path.join(work, "bind"))
    r = subprocess.run([sys.executable, __file__], env=env, cwd=work)
    bound = {}
    for f in os.listdir(work):
        if f.startswith("bind"):
            for l in open(os.path.join(work, f), errors="replace"):
                m = re.search(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `([^']+)'", l)
                if m:
                    bound.setdefault(m.group(3), set()).add(os.path.basename(m.group(2)))
    want = ["cblas_sgemm", "cblas_dgemm", "cblas_cgemm", "cblas_zgemm", "cblas_ssyrk", "cblas_dsyrk",
            "cblas_csyrk", "cblas_zsyrk"]
    bad = [s for s in want if bound.get(s) != {os.path.basename(lib)}]
    for s in want:
        print("%-12s bound to %s" % (s, sorted(bound.get(s, ["(never called)"]))))
    if bad:
        print("FAILED: not served by Tessera:", ", ".join(bad))
    return 1 if (bad or r.returncode) else 0


if __name__ == "__main__":
    sys.exit(main())
