// SPDX-License-Identifier: Apache-2.0
// What the machine's cores can do, for reading the streaming path's figures: the clock they really run at, and
// what one double-precision division or square root costs when nothing waits on it (throughput, not latency),
// one at a time and two at a time (SSE2, which every x86-64 Swift build may use).
//
//   cc -O2 -fno-tree-vectorize -fno-math-errno Benchmarks/Floor/costs.c -o /tmp/costs -lm && /tmp/costs
//
// -fno-tree-vectorize keeps the scalar loops scalar; -fno-math-errno lets sqrt() be one instruction.
#include <emmintrin.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

enum { rounds = 50000000, lanes = 8 };

int main(void) {
    // The clock: a chain of dependent adds retires one a cycle.
    long adds = 0, limit = 1000000000;
    double start = now();
    __asm__ volatile("1: add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n cmp %1, %0\n jb 1b\n"
                     : "+r"(adds) : "r"(limit));
    double clock = (double)adds / (now() - start);
    printf("clock: %.2f GHz (dependent adds a second)\n", clock * 1e-9);

    // Eight independent accumulators, so that only the units' throughput limits the loops.
    volatile double seed = 1.0000001;
    double x[lanes], sum[lanes];
    for (int k = 0; k < lanes; k++) x[k] = seed + k;

    for (int k = 0; k < lanes; k++) sum[k] = 0;
    start = now();
    for (long i = 0; i < rounds; i++)
        for (int k = 0; k < lanes; k++) sum[k] += 1.0 / (x[k] + (double)(i & 7));
    double divide = (now() - start) / ((double)rounds * lanes);
    double check = 0;
    for (int k = 0; k < lanes; k++) check += sum[k];

    for (int k = 0; k < lanes; k++) sum[k] = 0;
    start = now();
    for (long i = 0; i < rounds; i++)
        for (int k = 0; k < lanes; k++) sum[k] += sqrt(x[k] + (double)(i & 7));
    double root = (now() - start) / ((double)rounds * lanes);
    for (int k = 0; k < lanes; k++) check += sum[k];

    __m128d acc[lanes / 2], one = _mm_set1_pd(1.0);
    for (int k = 0; k < lanes / 2; k++) acc[k] = _mm_setzero_pd();
    start = now();
    for (long i = 0; i < rounds; i++) {
        __m128d d = _mm_set1_pd((double)(i & 7));
        for (int k = 0; k < lanes / 2; k++)
            acc[k] = _mm_add_pd(acc[k], _mm_div_pd(one, _mm_add_pd(_mm_loadu_pd(x + 2 * k), d)));
    }
    double dividePair = (now() - start) / ((double)rounds * lanes);
    for (int k = 0; k < lanes / 2; k++) check += _mm_cvtsd_f64(acc[k]);

    for (int k = 0; k < lanes / 2; k++) acc[k] = _mm_setzero_pd();
    start = now();
    for (long i = 0; i < rounds; i++) {
        __m128d d = _mm_set1_pd((double)(i & 7));
        for (int k = 0; k < lanes / 2; k++)
            acc[k] = _mm_add_pd(acc[k], _mm_sqrt_pd(_mm_add_pd(_mm_loadu_pd(x + 2 * k), d)));
    }
    double rootPair = (now() - start) / ((double)rounds * lanes);
    for (int k = 0; k < lanes / 2; k++) check += _mm_cvtsd_f64(acc[k]);

    printf("division:    %.2f ns (%.1f cycles) each; %.2f ns each two at a time\n", divide * 1e9,
           divide * clock, dividePair * 1e9);
    printf("square root: %.2f ns (%.1f cycles) each; %.2f ns each two at a time\n", root * 1e9,
           root * clock, rootPair * 1e9);
    printf("(checksum %g)\n", check);
    return 0;
}
