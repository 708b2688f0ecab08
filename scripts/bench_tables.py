#!/usr/bin/env python3
"""Markdown tables and summaries from tessera-bench CSV output, for
docs/performance.md.

  scripts/bench_tables.py gemm  bench-results/final/gemm.csv
  scripts/bench_tables.py syrk  bench-results/final/syrk.csv
  scripts/bench_tables.py suite bench-results/final/csyrk_suite.csv
"""
import collections
import csv
import math
import sys

PEERS = ["OpenBLAS", "OpenBLAS-ZEN", "OpenBLAS-omp", "OpenBLAS-omp-ZEN", "BLIS", "BLIS-skx"]


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else 0.0


def rows_table(path, shape_title):
    rows = list(csv.DictReader(open(path)))
    cases = collections.OrderedDict()
    for r in rows:
        cases.setdefault((r["type"] + r["op"], r["shape"], r["threads"]), {})[r["library"]] = r
    present = [p for p in PEERS if any(r["library"] == p for r in rows)]
    # SYRK rows since session 22: Tessera's rate ÷ its own GEMM's (same rounds).
    own = any(float(r.get("ratio_vs_own_gemm") or 0) > 0 for r in rows)
    short = {"OpenBLAS-ZEN": "OB-ZEN", "OpenBLAS-omp": "OB-omp", "OpenBLAS-omp-ZEN": "OB-omp-ZEN"}
    out = [f"| routine | {shape_title} | thr | Tessera GF/s (% peak) | " +
           " | ".join(short.get(p, p) for p in present) + " | Tessera ÷ best |" + (" ÷ own GEMM |" if own else ""),
           "|---|---|---|---|" + "---|" * len(present) + "---|" + ("---|" if own else "")]
    ratios = collections.defaultdict(list)
    allr, big, strict = [], [], []
    for (op, shape, thr), d in cases.items():
        t = d["Tessera"]
        ratio = float(t["ratio_vs_best_peer"])
        ratios[(op, thr)].append(ratio)
        allr.append(ratio)
        # Against the fastest peer of each round (CSVs since session 26).
        if t.get("ratio_vs_fastest_each_round"):
            strict.append(float(t["ratio_vs_fastest_each_round"]))
        if t["square"] == "1" and float(t["size"]) >= 1024:
            big.append(ratio)
        cells = [f"{float(t['gflops']):.1f} ({float(t['pct_peak']):.0f}%)"]
        cells += [f"{float(d[p]['gflops']):.1f}" if p in d else "-" for p in present]
        out.append(f"| {op} | {shape} | {thr} | " + " | ".join(cells) + f" | **{ratio:.2f}** |" +
                   (f" {float(t['ratio_vs_own_gemm']):.2f} |" if own else ""))
    summary = [f"{len(allr)} rows: geomean Tessera ÷ best peer **{geomean(allr):.3f}**, "
               f"{sum(x >= 1 for x in allr)} rows ≥ 1.0" +
               (f"; square n ≥ 1024: geomean {geomean(big):.3f}, min {min(big):.2f}" if big else "") + "." +
               (f" Against the fastest peer of each round: geomean {geomean(strict):.3f}, "
                f"{sum(x >= 1 for x in strict)} rows ≥ 1.0." if strict else "")]
    for (op, thr), v in sorted(ratios.items()):
        summary.append(f"- {op} {thr}T: geomean {geomean(v):.2f}, min {min(v):.2f}, max {max(v):.2f}, "
                       f"{sum(x >= 1 for x in v)}/{len(v)} ≥ 1.0")
    return "\n".join(summary) + "\n\n" + "\n".join(out)


def suite(path):
    rows = list(csv.DictReader(open(path)))
    r = [float(x["ratio"]) for x in rows if float(x["ratio"]) > 0]
    cats = collections.defaultdict(list)
    for x in rows:
        cats[x["category"]].append(float(x["ratio"]))
    lines = [f"{len(r)} cases vs the best peer per case: geomean **{geomean(r):.3f}**, min {min(r):.3f}, "
             f"{sum(v >= 1 for v in r)}/{len(r)} ≥ 1.0, {sum(v >= 0.95 for v in r)}/{len(r)} ≥ 0.95."]
    strict = [float(x["ratio_fastest_each_round"]) for x in rows if x.get("ratio_fastest_each_round")]
    if strict:
        lines.append(f"- against the fastest peer of each round: geomean {geomean(strict):.3f}, "
                     f"min {min(strict):.3f}, {sum(v >= 1 for v in strict)}/{len(strict)} ≥ 1.0, "
                     f"{sum(v >= 0.95 for v in strict)}/{len(strict)} ≥ 0.95")
    for c, v in sorted(cats.items()):
        lines.append(f"- {c}: {len(v)} cases, geomean {geomean(v):.3f}, min {min(v):.3f}")
    return "\n".join(lines)


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "gemm":
        print(rows_table(path, "m×n×k"))
    elif kind == "syrk":
        print(rows_table(path, "uplo,trans n×k"))
    else:
        print(suite(path))
