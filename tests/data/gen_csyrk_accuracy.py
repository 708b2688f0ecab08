#!/usr/bin/env python3
"""Generates tests/data/csyrk_accuracy.csv: 1000 csyrk accuracy cases in the
seed's categories (SPEC §3.4). Deterministic (fixed seed): rerunning rewrites
the same file. Columns:

  id, category, uplo (L/U or X = invalid), trans (N/T/C or Q = invalid), n, k,
  lda, ldc, alpha_re, alpha_im, beta_re, beta_im, values, expect

values: how A and C are filled -- random (uniform [-1, 1]), zeros, or a corner
value planted in A or C (inf_a, nan_a, fltmax_a, negfltmax_a, denorm_a, inf_c,
nan_c, fltmax_c, denorm_c), or, for invalid-argument cases, which pointer is
null (null_a, null_c, null_alpha, null_beta, null_handle).
expect: SUCCESS, INVALID_VALUE or NOT_INITIALIZED.
Big shapes (n or k in the thousands) are kept few so the suite runs in seconds.
"""
import os
import random

rng = random.Random(20261130)
rows = []


def add(cat, uplo, trans, n, k, alpha=(1.0, 0.0), beta=(0.0, 0.0), values="random", expect="SUCCESS",
        lda=None, ldc=None, pad=0):
    if lda is None:
        lda = max(1, (k if trans in "TC" else n) + pad)
    if ldc is None:
        ldc = max(1, n + pad)
    rows.append([cat, uplo, trans, n, k, lda, ldc, alpha[0], alpha[1], beta[0], beta[1], values, expect])


def rc():
    """A random complex scalar with 3 significant digits."""
    return (round(rng.uniform(-2, 2), 3), round(rng.uniform(-2, 2), 3))


def flags():
    return rng.choice("LU"), rng.choice("NTC")


odd = [1, 2, 3, 5, 7, 9, 13, 17, 31, 33, 47, 63, 65, 97, 127, 129]

# basic small shapes (200)
for _ in range(200):
    u, t = flags()
    add("basic_small", u, t, rng.randint(1, 32), rng.randint(1, 32), rc(), rc())
# square n == k (120), odd and unaligned sizes, a few large
for _ in range(116):
    u, t = flags()
    s = rng.choice(odd + [rng.randint(33, 200)])
    add("square", u, t, s, s, rc(), rc())
for s in (511, 1000, 1025, 1531):
    add("square", rng.choice("LU"), rng.choice("NT"), s, 48 if s > 1100 else s // 4, rc(), rc())
# alpha/beta variants (120): alpha in {0, 1, real, complex} x beta in {0, 1, real, complex}
scalars = [(0.0, 0.0), (1.0, 0.0), (-0.75, 0.0), (0.5, -1.25)]
for a in scalars:
    for b in scalars:
        for _ in range(7):
            u, t = flags()
            add("alpha_beta", u, t, rng.randint(1, 90), rng.randint(1, 90), a, b)
for _ in range(8):
    u, t = flags()
    add("alpha_beta", u, t, rng.randint(1, 40), rng.randint(1, 40), rc(), (1.0, 0.0))
# wide: trans N with k >> n (80); narrow: trans T with n >> k (80)
for _ in range(78):
    add("wide_N", rng.choice("LU"), "N", rng.randint(1, 24), rng.randint(100, 900), rc(), rc())
add("wide_N", "L", "N", 7, 4096, rc(), rc())
add("wide_N", "U", "N", 33, 3001, rc(), rc())
for _ in range(78):
    add("narrow_T", rng.choice("LU"), "T", rng.randint(100, 700), rng.randint(1, 12), rc(), rc())
add("narrow_T", "L", "T", 4096, 5, rc(), rc())
add("narrow_T", "U", "C", 2049, 3, rc(), rc())
# thin: n or k in 1..8 (80)
for _ in range(80):
    u, t = flags()
    if rng.random() < 0.5:
        add("thin", u, t, rng.randint(1, 8), rng.randint(1, 300), rc(), rc())
    else:
        add("thin", u, t, rng.randint(1, 300), rng.randint(1, 8), rc(), rc())
# large leading dimensions (60)
for _ in range(60):
    u, t = flags()
    n, k = rng.randint(1, 80), rng.randint(1, 80)
    add("large_ld", u, t, n, k, rc(), rc(), lda=(k if t in "TC" else n) + rng.randint(1, 300),
        ldc=n + rng.randint(1, 300))
# every uplo x trans combination (incl. C) at several sizes (60)
for u in "LU":
    for t in "NTC":
        for _ in range(10):
            add("flags", u, t, rng.choice(odd), rng.choice(odd), rc(), rc())
# corner values (120): Inf, NaN, +-FLT_MAX, denormals, zeros in A or C
corners = ["inf_a", "nan_a", "fltmax_a", "negfltmax_a", "denorm_a", "inf_c", "nan_c", "fltmax_c", "denorm_c",
           "zeros"]
for v in corners:
    for _ in range(12):
        u, t = flags()
        beta = rng.choice([(0.0, 0.0), (1.0, 0.0), (0.5, 0.0), (0.25, 0.75)])
        add("corner", u, t, rng.randint(1, 40), rng.randint(1, 40), rng.choice([(1.0, 0.0), (0.5, 0.0), rc()]),
            beta, values=v)
# degenerate edges (40): n = 0, k = 0 (with beta 0, 1, other)
for _ in range(10):
    add("degenerate", rng.choice("LU"), rng.choice("NTC"), 0, rng.randint(0, 20), rc(), rc())
for b in [(1.0, 0.0), (0.0, 0.0), (2.0, -1.0)]:
    for _ in range(10):
        u, t = flags()
        add("degenerate", u, t, rng.randint(1, 60), 0, rc(), b)
# invalid arguments (40), with the status Tessera must return and C untouched
bad = [
    ("X", "N", 4, 3, {}, "random", "INVALID_VALUE"),
    ("L", "Q", 4, 3, {}, "random", "INVALID_VALUE"),
    ("L", "N", -1, 3, {}, "random", "INVALID_VALUE"),
    ("U", "T", 4, -2, {}, "random", "INVALID_VALUE"),
    ("L", "N", 6, 3, {"lda": 5}, "random", "INVALID_VALUE"),
    ("U", "T", 6, 7, {"lda": 6}, "random", "INVALID_VALUE"),
    ("L", "C", 6, 7, {"lda": 3}, "random", "INVALID_VALUE"),
    ("L", "N", 6, 3, {"ldc": 5}, "random", "INVALID_VALUE"),
    ("U", "N", 5, 3, {}, "null_a", "INVALID_VALUE"),
    ("L", "N", 5, 3, {}, "null_c", "INVALID_VALUE"),
    ("L", "T", 5, 3, {}, "null_alpha", "INVALID_VALUE"),
    ("U", "N", 5, 3, {}, "null_beta", "INVALID_VALUE"),
    ("L", "N", 5, 3, {}, "null_handle", "NOT_INITIALIZED"),
]
for i in range(40):
    u, t, n, k, ld, v, e = bad[i % len(bad)]
    add("invalid", u, t, n, k, rc(), rc(), values=v, expect=e, lda=ld.get("lda"), ldc=ld.get("ldc"))

assert len(rows) == 1000, len(rows)
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "csyrk_accuracy.csv")
with open(out, "w") as f:
    f.write("id,category,uplo,trans,n,k,lda,ldc,alpha_re,alpha_im,beta_re,beta_im,values,expect\n")
    for i, r in enumerate(rows):
        f.write(",".join(str(x) for x in [f"TC_AC_{i + 1:04d}"] + r) + "\n")
print(f"wrote {len(rows)} cases to {out}")
