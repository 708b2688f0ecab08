"""The shared libraries export their API and nothing else.

libtessera.so: exactly the functions its headers declare with TESSERA_API
(every declared one exported, no other name: the standard library's template
instantiations had leaked out before cmake/libtessera.map).
libtessera_blas.so: exactly the cblas_* functions of tessera/cblas.h, their
Fortran twins (name_), xerbla_, cblas_xerbla, the thread-count calls and the
Netlib CBLAS globals.

usage: exported_symbols.py LIBTESSERA LIBTESSERA_BLAS INCLUDE_DIR
"""
import pathlib
import re
import subprocess
import sys


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def declared(header, pattern):
    text = "\n".join(l for l in pathlib.Path(header).read_text().splitlines() if not l.lstrip().startswith("#"))
    return set(re.findall(pattern, text, re.M))


def compare(name, got, want):
    missing, extra = sorted(want - got), sorted(got - want)
    for s in missing:
        print(f"FAIL {name}: declared but not exported: {s}")
    for s in extra:
        print(f"FAIL {name}: exported but not part of the API: {s}")
    print(f"{name}: {len(got)} symbols exported, {len(want)} expected")
    return not missing and not extra


def main():
    lib, blas, inc = sys.argv[1:4]
    api = set()
    for h in sorted(pathlib.Path(inc, "tessera").glob("*.h")):
        api |= declared(h, r"TESSERA_API\s+[\w\s\*]*?\b(\w+)\s*\(")
    ok = compare("libtessera.so", exported(lib), api)

    cblas = declared(pathlib.Path(inc, "tessera", "cblas.h"), r"^\s*\w[\w\s\*]*?\b(cblas_\w+|tessera_blas_\w+)\s*\(")
    fortran = {re.sub(r"^cblas_", "", s) + "_" for s in cblas if s.startswith("cblas_") and s != "cblas_xerbla"}
    want = cblas | fortran | {"xerbla_", "cblas_xerbla", "CBLAS_CallFromC", "RowMajorStrg"}
    ok = compare("libtessera_blas.so", exported(blas), want) and ok
    print("all checks passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
