// Alternating, warmed-up timing of several libraries on one case.
#include <algorithm>

#include "bench.h"

namespace bench {

// Calls longer than this (seconds) get no separate warm-up and, unless the
// user set --rounds, at most 3 rounds.
constexpr double kLongCall = 0.25;

// Times one case over all runners; returns median seconds per call for each.
// Before each timed batch a library runs untimed for `warm` seconds (at least
// one call): its threads wake up, the cores leave any idle state, and the
// previous library's idle threads stop spinning (libgomp's spin for several
// ms after a parallel region, OpenBLAS's pthread workers sched_yield-spin for
// ~0.1 s; 20 ms covers the first, the yielding second costs little). An idle
// pause instead would let the hypervisor park the vCPUs, which then come back
// slow for milliseconds (measured here).
std::vector<std::vector<double>> time_case_rounds(std::vector<Runner> &rs, int rounds, double batch_time,
                                                  double warm, std::vector<std::vector<double>> *starts,
                                                  bool cap_long_calls) {
  const size_t L = rs.size();
  std::vector<int> batch(L, 1), warm_calls(L, 1);
  bool long_calls = false;
  for (size_t i = 0; i < L; ++i) {
    rs[i].set_threads();
    double t0 = now_s();
    rs[i].call();  // first touch: pages, pools, buffers
    double t = now_s() - t0;
    if (t < kLongCall) {
      rs[i].call();
      t0 = now_s();
      rs[i].call();
      t = now_s() - t0;
    }
    t = std::max(t, 1e-7);
    long_calls = long_calls || t >= kLongCall;
    batch[i] = int(std::max(1.0, std::min(1e5, batch_time / t)));
    // A call this long warms everything up by itself.
    warm_calls[i] = t >= kLongCall ? 0 : int(std::max(1.0, std::min(1e5, warm / t)));
  }
  if (long_calls && cap_long_calls) rounds = std::min(rounds, 3);
  std::vector<std::vector<double>> samples(L);
  if (starts) starts->assign(L, {});
  for (int r = 0; r < rounds; ++r)
    for (size_t j = 0; j < L; ++j) {
      size_t i = (j + size_t(r)) % L;  // rotate who goes first
      rs[i].set_threads();
      for (int w = 0; w < warm_calls[i]; ++w) rs[i].call();
      double t0 = now_s();
      for (int b = 0; b < batch[i]; ++b) rs[i].call();
      samples[i].push_back((now_s() - t0) / batch[i]);
      if (starts) (*starts)[i].push_back(t0);
    }
  return samples;
}

std::vector<double> time_case(std::vector<Runner> &rs, int rounds, double batch_time, double warm) {
  const std::vector<std::vector<double>> samples = time_case_rounds(rs, rounds, batch_time, warm);
  std::vector<double> med;
  for (const std::vector<double> &s : samples) med.push_back(median(s));
  return med;
}

void measure_row(Row &row, std::vector<Runner> &rs, int rounds, double batch_time, double warm, double flops,
                 double ref_flops, bool cap_long_calls) {
  const std::vector<std::vector<double>> samples =
      time_case_rounds(rs, rounds, batch_time, warm, &row.starts, cap_long_calls);
  row.seconds = samples;
  row.ref_name.clear();
  row.ref_gflops = row.ref_ratio = 0;
  if (ref_flops > 0) {
    // Rate ratio per round: (flops / t) / (ref_flops / t_ref).
    std::vector<double> r;
    for (size_t k = 0; k < samples[0].size(); ++k) r.push_back(flops / ref_flops * samples.back()[k] / samples[0][k]);
    row.ref_name = rs.back().name;
    row.ref_gflops = ref_flops / median(samples.back()) * 1e-9;
    row.ref_ratio = median(r);
  }
  const size_t L = samples.size() - (ref_flops > 0 ? 1 : 0);  // Tessera and the peers
  row.gflops.clear();
  for (size_t i = 0; i < L; ++i) row.gflops.push_back({rs[i].name, flops / median(samples[i]) * 1e-9});
  row.ratio = row.ratio_each_round = 0;
  if (L > 1) {
    // The best peer: the configuration with the fastest median, then
    // Tessera against its samples round by round.
    const size_t best = best_peer_index(row);
    std::vector<double> r, any;
    for (size_t k = 0; k < samples[0].size(); ++k) {
      double fastest = samples[1][k];
      for (size_t i = 2; i < L; ++i) fastest = std::min(fastest, samples[i][k]);
      r.push_back(samples[best][k] / samples[0][k]);
      any.push_back(fastest / samples[0][k]);
    }
    row.ratio = median(r);
    row.ratio_each_round = median(any);
  }
}

}  // namespace bench
