/* Measuring one call: its stack high-water mark (painting below the SP) and its instruction
 * count (QEMU's exec log between the marker functions; scripts/embedded-figures.sh). */
#ifndef MBS_FW_PROBE_H
#define MBS_FW_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* The word startup.S paints the stack with. */
#define MBS_FW_PAINT 0xCCCCCCCCu

/* Bytes of stack f(ctx) uses, the call itself included: paints every free word below the
 * current SP, calls f, finds the lowest word that is no longer paint. */
size_t probe_stack_bytes(void (*f)(void *), void *ctx);
/* Size of the painted stack region (bytes). */
size_t probe_stack_region_bytes(void);
/* Bytes of stack used since reset (startup.S painted the whole stack region). */
size_t probe_stack_bytes_since_reset(void);
/* Runs f(ctx) once between mbs_count_begin() and mbs_count_end(). */
void probe_counted(void (*f)(void *), void *ctx);
/* An empty counted region: the markers' own cost. */
void probe_counted_empty(void);

void mbs_count_begin(void);
void mbs_count_end(void);

#endif
