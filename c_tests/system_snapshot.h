/* What a refused mbs_system_* call must leave as it was, for the C tests of the system API:
 * the counts, the time, the settings, every node state (2D point, 2D rigid or rigid), every
 * load's vector and every sensor buffer's bookkeeping, compared before and after the call, and
 * every byte of the system's storage.
 * REFUSE(call, expected) checks the test's `sys`; REFUSE_ON(s, ...) another system. */
#ifndef MBS_C_TESTS_SYSTEM_SNAPSHOT_H
#define MBS_C_TESTS_SYSTEM_SNAPSHOT_H

#include "mbs.h"
#include "check.h"

typedef struct {
    mbs_system_counts counts;
    double time;
    mbs_system_settings settings;
    mbs_point2d_state p2[MBS_SYSTEM_MAX_NODES];
    mbs_rigid2d_state r2[MBS_SYSTEM_MAX_NODES];
    mbs_rigid_state rigid[MBS_SYSTEM_MAX_NODES];
    double loads[MBS_SYSTEM_MAX_LOADS][3];
    mbs_sensor_info sensors[MBS_SYSTEM_MAX_SENSORS];
} snap_t;

static snap_t before_, after_;
static mbs_system storage_before_;

static void snapshot(const mbs_system *s, snap_t *out) {
    uint32_t i;
    memset(out, 0, sizeof *out);
    CHECK_STATUS(mbs_system_get_counts(s, &out->counts), MBS_OK);
    CHECK_STATUS(mbs_system_time(s, &out->time), MBS_OK);
    CHECK_STATUS(mbs_system_get_settings(s, &out->settings), MBS_OK);
    for (i = 0; i < out->counts.nodes; i++) {
        if (mbs_system_get_point2d_state(s, i, &out->p2[i]) != MBS_OK &&
            mbs_system_get_rigid2d_state(s, i, &out->r2[i]) != MBS_OK)
            (void)mbs_system_get_rigid_state(s, i, &out->rigid[i]);
    }
    for (i = 0; i < out->counts.loads; i++) (void)mbs_system_load_value(s, i, out->loads[i]);
    for (i = 0; i < out->counts.sensors; i++)
        CHECK_STATUS(mbs_system_sensor_info(s, i, &out->sensors[i]), MBS_OK);
}

/* `call` returns `expected` and changes nothing in `*(s)`: neither what the API reads back
 * nor any byte of the storage. */
#define REFUSE_ON(s, call, expected)                                   \
    do {                                                               \
        snapshot((s), &before_);                                       \
        STORAGE_COPY(storage_before_, *(s));                           \
        CHECK_STATUS(call, expected);                                  \
        snapshot((s), &after_);                                        \
        CHECK(memcmp(&before_, &after_, sizeof before_) == 0);         \
        CHECK(STORAGE_SAME(storage_before_, *(s)));                    \
    } while (0)
#define REFUSE(call, expected) REFUSE_ON(&sys, call, expected)

#endif
