#!/usr/bin/env python3
"""Generates bench/cases/csyrk_perf.csv: the seed's 200 csyrk performance cases
(TC_PF), run by `tessera-bench syrk --suite`. Deterministic. Columns:
id, category, uplo, trans, n, k, threads. Shapes span n, k in [1, 4096]: square,
wide (trans N, k >> n), narrow (trans T, n >> k), odd/unaligned sizes, both
uplo, trans N/T, 1 and 2 threads. Few cases are large (a 4096^2 csyrk is
~275 GFLOP) so the suite stays around ten minutes here."""
import os
import random

rng = random.Random(1202)
rows = []


def add(cat, n, k):
    rows.append([cat, rng.choice("LU"), rng.choice("NT"), n, k, rng.choice([1, 2])])


for n in [16, 32, 48, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048]:
    for _ in range(3):
        add("square", n, n)
for n, k in [(3000, 3000), (4096, 1024), (1024, 4096)]:
    add("square", n, k)
for _ in range(40):  # wide: k >> n with trans N
    n = rng.choice([4, 8, 16, 24, 32, 48, 64, 100, 128])
    rows.append(["wide", rng.choice("LU"), "N", n, rng.choice([512, 1000, 2048, 3000, 4096]), rng.choice([1, 2])])
for _ in range(40):  # narrow: n >> k with trans T
    k = rng.choice([1, 2, 4, 8, 16, 32, 64])
    rows.append(["narrow", rng.choice("LU"), "T", rng.choice([256, 500, 1000, 1500, 2048]), k, rng.choice([1, 2])])
for _ in range(63):  # odd and unaligned
    add("odd", rng.choice([1, 3, 7, 13, 17, 31, 61, 97, 127, 129, 251, 383, 509, 777, 1001]),
        rng.choice([1, 5, 9, 33, 63, 65, 127, 255, 257, 511, 999]))
assert len(rows) == 200, len(rows)
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "csyrk_perf.csv")
with open(out, "w") as f:
    f.write("id,category,uplo,trans,n,k,threads\n")
    for i, r in enumerate(rows):
        f.write(",".join(str(x) for x in [f"TC_PF_{i + 1:03d}"] + r) + "\n")
print(f"wrote {len(rows)} cases to {out}")
