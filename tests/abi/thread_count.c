/* tessera_blas_set_num_threads / _get_num_threads: the thread count of the
 * BLAS-ABI routines, process-wide. Argument: the default the environment
 * gives (TESSERA_NUM_THREADS, else OMP_NUM_THREADS's first entry, else all
 * cores), which the setting returns to. Checks that a count set on one thread is
 * what calls on another thread use, that <= 0 restores the default, and that
 * a product computed with 1 and with 3 threads is bitwise the same. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tessera/cblas.h>

static int fails = 0;
static void expect(int got, int want, const char *what) {
  if (got != want) {
    printf("FAIL %s: %d, expected %d\n", what, got, want);
    ++fails;
  }
}

static void *other_thread(void *arg) {
  *(int *)arg = tessera_blas_get_num_threads();
  return NULL;
}

static void product(double *C, const double *A, const double *B, int n) {
  for (int i = 0; i < n * n; ++i) C[i] = 0.5;
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B, n, 1.0, C, n);
}

int main(int argc, char **argv) {
  const int deflt = argc > 1 ? atoi(argv[1]) : 0;
  if (deflt < 1) {
    printf("usage: abi_thread_count DEFAULT\n");
    return 2;
  }
  expect(tessera_blas_get_num_threads(), deflt, "default from the environment");
  tessera_blas_set_num_threads(1);
  expect(tessera_blas_get_num_threads(), 1, "after set(1)");
  tessera_blas_set_num_threads(3);
  expect(tessera_blas_get_num_threads(), 3, "after set(3)");
  int seen = 0;
  pthread_t t;
  pthread_create(&t, NULL, other_thread, &seen);
  pthread_join(t, NULL);
  expect(seen, 3, "on a thread started after set(3)");

  const int n = 300;
  double *A = malloc(sizeof(double) * n * n), *B = malloc(sizeof(double) * n * n);
  double *C1 = malloc(sizeof(double) * n * n), *C3 = malloc(sizeof(double) * n * n);
  unsigned s = 12345;
  for (int i = 0; i < n * n; ++i) {
    s = s * 1103515245u + 12345u;
    A[i] = (double)(s >> 8) / (1u << 24) - 0.5;
    s = s * 1103515245u + 12345u;
    B[i] = (double)(s >> 8) / (1u << 24) - 0.5;
  }
  tessera_blas_set_num_threads(1);
  product(C1, A, B, n);
  tessera_blas_set_num_threads(3);
  product(C3, A, B, n);
  if (memcmp(C1, C3, sizeof(double) * n * n) != 0) {
    printf("FAIL 1 and 3 threads gave different bits\n");
    ++fails;
  }
  tessera_blas_set_num_threads(0);
  expect(tessera_blas_get_num_threads(), deflt, "after set(0)");
  tessera_blas_set_num_threads(-4);
  expect(tessera_blas_get_num_threads(), deflt, "after set(-4)");
  free(A), free(B), free(C1), free(C3);
  if (fails) return 1;
  printf("thread count control: all checks passed\n");
  return 0;
}
