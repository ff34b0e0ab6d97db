// Finds two test names with one FNV-1a 64 hash (the history's name reference), for
// Tests/SwiftCovCoreTests/Inputs/HistoryFormatTests.swift: Brent's cycle search on
// f(x) = FNV-1a 64 of "CollisionTests/test_" + x in 16 hex digits. A collision of 64-bit hashes
// takes about 2^32 steps (the birthday bound) in constant memory; about five minutes of one core.
//
//     cc -O3 -o /tmp/fnv-collision scripts/fnv-collision.c && /tmp/fnv-collision 12345
//
// prints the two names and their hash (seed 12345 gave the pair the tests use).
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
static const char *PREFIX = "CollisionTests/test_";
static uint64_t base;
static const char hex[] = "0123456789abcdef";
static inline uint64_t f(uint64_t x) {
    uint64_t h = base;
    for (int i = 60; i >= 0; i -= 4) { h ^= (uint8_t)hex[(x >> i) & 15]; h *= 0x100000001b3ULL; }
    return h;
}
static void name(uint64_t x, char *out) { sprintf(out, "%s%016llx", PREFIX, (unsigned long long)x); }
int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], 0, 10) : 1;
    base = 0xcbf29ce484222325ULL;
    for (const char *p = PREFIX; *p; p++) { base ^= (uint8_t)*p; base *= 0x100000001b3ULL; }
    // Brent: find the cycle length lam.
    uint64_t power = 1, lam = 1, tortoise = seed, hare = f(seed);
    while (tortoise != hare) {
        if (power == lam) { tortoise = hare; power <<= 1; lam = 0; }
        hare = f(hare); lam++;
    }
    fprintf(stderr, "cycle length %llu\n", (unsigned long long)lam);
    // Find mu: the first repeated value's two preimages are the collision.
    tortoise = hare = seed;
    for (uint64_t i = 0; i < lam; i++) hare = f(hare);
    if (tortoise == hare) { fprintf(stderr, "seed on the cycle: try another\n"); return 1; }
    for (;;) {
        uint64_t nt = f(tortoise), nh = f(hare);
        if (nt == nh) {
            char a[64], b[64]; name(tortoise, a); name(hare, b);
            printf("%s\n%s\n%016llx\n", a, b, (unsigned long long)nt);
            return 0;
        }
        tortoise = nt; hare = nh;
    }
}
