/* An OpenMP runtime loaded after Tessera's first multi-threaded call (a
 * plugin dlopen'ed late): once it is there, a call from inside one of its
 * parallel regions must still run on its caller's thread alone. The pool
 * remembers "no runtime" only for a while (kOpenMPLookupAgainTicks, 1e8 TSC
 * ticks: at most 100 ms on a TSC of 1 GHz or more), so this program is built
 * without OpenMP and loads libgomp itself. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tessera/blas.h"

enum { N = 200, kSkip = 77 /* CTest's SKIP_RETURN_CODE */ };
static double A[N * N], B[N * N];

/* One handle per call: a handle is used by one thread at a time. Returns
 * the threads the call used, or -1 on a failure or a wrong result. */
static int dgemm_threads(void) {
  tblasHandle_t h;
  if (tblasCreate(&h) != TESSERA_STATUS_SUCCESS) return -1;
  tblasSetNumThreads(h, 2);
  double *C = malloc(sizeof(double) * N * N);
  const double one = 1, zero = 0;
  int used = -1;
  if (C && tblasDgemm(h, TBLAS_OP_N, TBLAS_OP_N, N, N, N, &one, A, N, B, N, &zero, C, N) == TESSERA_STATUS_SUCCESS &&
      C[N * N - 1] == 2.0 * N)
    tblasGetLastThreads(h, &used);
  free(C);
  tblasDestroy(h);
  return used;
}

static int region_max = 0, region_bad = 0, region_calls = 0;
static void region(void *unused) {
  (void)unused;
  const int used = dgemm_threads();
  __atomic_add_fetch(&region_calls, 1, __ATOMIC_SEQ_CST);
  if (used < 0) __atomic_store_n(&region_bad, 1, __ATOMIC_SEQ_CST);
  int prev = __atomic_load_n(&region_max, __ATOMIC_SEQ_CST);
  while (used > prev && !__atomic_compare_exchange_n(&region_max, &prev, used, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
  }
}

int main(void) {
  for (int i = 0; i < N * N; ++i) {
    A[i] = 1.0;
    B[i] = 2.0;
  }
  /* No runtime yet: the pool looks for one and finds none. */
  const int before = dgemm_threads();
  if (before < 1) {
    printf("FAIL: dgemm before loading the runtime\n");
    return 1;
  }
  void *gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!gomp) {
    printf("skipped: libgomp.so.1 not found (%s)\n", dlerror());
    return kSkip;
  }
  void (*parallel)(void (*)(void *), void *, unsigned, unsigned) =
      (void (*)(void (*)(void *), void *, unsigned, unsigned))dlsym(gomp, "GOMP_parallel");
  if (!parallel) {
    printf("FAIL: libgomp has no GOMP_parallel\n");
    return 1;
  }
  const struct timespec wait = {0, 250 * 1000 * 1000}; /* past the time the pool trusts "no runtime" */
  nanosleep(&wait, NULL);
  parallel(region, NULL, 2, 0);
  if (region_bad) {
    printf("FAIL: a call inside the region failed or computed a wrong C\n");
    return 1;
  }
  if (region_calls < 2) { /* a one-thread team is not an active region: nothing to check */
    printf("skipped: the runtime gave the region %d thread(s)\n", region_calls);
    return kSkip;
  }
  if (region_max != 1) {
    printf("FAIL: a call inside the late runtime's parallel region used %d threads\n", region_max);
    return 1;
  }
  printf("calls inside the late-loaded runtime's region ran on one thread (before it: %d)\n", before);
  return 0;
}
