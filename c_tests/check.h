/* Shared helpers of the C tests: a failure counter, CHECK, and the sentinel pattern that
 * proves an output was left untouched by a refused call. */
#ifndef MBS_C_TESTS_CHECK_H
#define MBS_C_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
            failures++;                                                    \
        }                                                                  \
    } while (0)

/* The status `call` returns equals `expected` (printed with its text when not). */
#define CHECK_STATUS(call, expected)                                                  \
    do {                                                                              \
        mbs_status got_ = (call);                                                     \
        if (got_ != (mbs_status)(expected)) {                                         \
            printf("FAIL %s:%d: %s returned %u (%s), expected %s\n", __FILE__,        \
                   __LINE__, #call, (unsigned)got_, mbs_status_str(got_), #expected); \
            failures++;                                                               \
        }                                                                             \
    } while (0)

#define SENTINEL 0xAB

/* The number after the last output variable: an unknown one. */
#define UNKNOWN_OUTPUT (MBS_OUTPUT_VELOCITY_LOCAL + 1)

/* Fills an output with the sentinel pattern. */
#define POISON(x) memset(&(x), SENTINEL, sizeof(x))

/* 1 if every byte of the object at `p` still holds the sentinel. */
static int untouched_bytes(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        if (b[i] != SENTINEL) return 0;
    }
    return 1;
}
#define UNTOUCHED(x) untouched_bytes(&(x), sizeof(x))

/* Byte-for-byte snapshots of a library storage (an mbs_system, an mbs_tree) compare the
 * padding of the values the library copied in too, which valgrind's memcheck calls undefined:
 * under valgrind the storage is declared defined before it is copied, so that the comparison
 * is of the bytes as they are. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define STORAGE_DEFINED(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#endif
#endif
#ifndef STORAGE_DEFINED
#define STORAGE_DEFINED(p, n) ((void)0)
#endif
#define STORAGE_COPY(dst, src)                  \
    do {                                        \
        STORAGE_DEFINED(&(src), sizeof(src));   \
        memcpy(&(dst), &(src), sizeof(src));    \
    } while (0)
#define STORAGE_SAME(a, b) \
    (STORAGE_DEFINED(&(a), sizeof(a)), STORAGE_DEFINED(&(b), sizeof(b)), \
     memcmp(&(a), &(b), sizeof(a)) == 0)

#endif
