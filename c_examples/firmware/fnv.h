/* FNV-1a (64 bit) over the bit patterns of doubles: the same hash as firmware/rust's
 * workload.rs and the host test, so a trajectory stepped through the C API can be compared
 * bit for bit with the one stepped on x86_64. */
#ifndef MBS_FW_FNV_H
#define MBS_FW_FNV_H

#include <stdint.h>
#include <string.h>

#define MBS_FNV_OFFSET 0xcbf29ce484222325ull
#define MBS_FNV_PRIME 0x00000100000001b3ull

/* Folds the 8 little-endian bytes of the bits of x (float values widened to double first). */
static inline uint64_t mbs_fnv1a_f64(uint64_t h, double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    for (int i = 0; i < 8; i++) {
        h ^= (bits >> (8 * i)) & 0xffu;
        h *= MBS_FNV_PRIME;
    }
    return h;
}

#endif
