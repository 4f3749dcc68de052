/* Every byte of every struct the library hands back is defined: each call that writes a struct
 * is made twice, once into memory filled with 0x00 and once into memory filled with 0xFF (the
 * library's own stack scribbled the same way before each call), and the two results must agree
 * byte for byte, padding included (the structs' padding is explicit `_pad` fields, written as
 * zeros). Under valgrind (scripts/memcheck.sh) the comparisons also fail on any byte the
 * library left undefined. */
#include <stdint.h>
#include "mbs.h"
#include "check.h"

/* Fills `n` bytes of this function's stack frame with `v`, so that the library's next frames
 * start from that garbage. */
static void scribble_stack(int v) {
    volatile unsigned char frame[16384];
    size_t i;
    for (i = 0; i < sizeof frame; i++) frame[i] = (unsigned char)v;
}

/* Calls `call` (which writes `out`) with `out` and the stack filled with 0x00, then with 0xFF,
 * and checks the two results are byte-for-byte equal. */
#define SAME_BYTES(out, call)                                                 \
    do {                                                                      \
        unsigned char first_[sizeof(out)];                                    \
        memset(&(out), 0x00, sizeof(out));                                    \
        scribble_stack(0x00);                                                 \
        CHECK_STATUS(call, MBS_OK);                                           \
        memcpy(first_, &(out), sizeof(out));                                  \
        memset(&(out), 0xFF, sizeof(out));                                    \
        scribble_stack(0xFF);                                                 \
        CHECK_STATUS(call, MBS_OK);                                           \
        if (memcmp(first_, &(out), sizeof(out)) != 0) {                       \
            printf("FAIL %s:%d: %s wrote bytes that depend on the garbage\n", \
                   __FILE__, __LINE__, #call);                                \
            failures++;                                                       \
        }                                                                     \
    } while (0)

static const double Z3[3] = {0, 0, 0};

/* The scene callback keeps the first primitive's bytes. */
typedef struct {
    unsigned char bytes[sizeof(mbs_draw_primitive)];
    int seen;
} first_primitive;

static void keep_first(void *ctx, const mbs_draw_primitive *p) {
    first_primitive *f = (first_primitive *)ctx;
    if (!f->seen) memcpy(f->bytes, p, sizeof *p);
    f->seen = 1;
}

static void ignore(void *ctx, const mbs_draw_primitive *p) {
    (void)ctx, (void)p;
}

static mbs_system sys;

int main(void) {
    (void)untouched_bytes;
    /* Defaults and settings. */
    {
        mbs_body_start bs;
        mbs_cylinder cyl;
        mbs_visualization_settings vis;
        mbs_step_settings st;
        mbs_step_settings_f32 st32;
        mbs_simulation_settings sim;
        mbs_simulation_settings_f32 sim32;
        mbs_system_settings ss;
        const double r[3] = {1.0, 0.0, 0.0};
        SAME_BYTES(bs, mbs_body_start_default(&bs));
        SAME_BYTES(cyl, mbs_cylinder_default(&cyl, r));
        SAME_BYTES(vis, mbs_visualization_settings_default(&vis));
        SAME_BYTES(st, mbs_step_settings_default(&st));
        SAME_BYTES(st32, mbs_step_settings_default_f32(&st32));
        SAME_BYTES(sim, mbs_simulation_settings_default(&sim));
        SAME_BYTES(sim32, mbs_simulation_settings_default_f32(&sim32));
        SAME_BYTES(ss, mbs_system_settings_default(&ss));
    }
    /* A rigid body and its step: the body (with its sealed core), the state, the step info. */
    {
        const double inertia[9] = {0.1, 0, 0, 0, 0.2, 0, 0, 0, 0.3};
        const float inertia32[9] = {0.1f, 0, 0, 0, 0.2f, 0, 0, 0, 0.3f};
        const float z32[3] = {0, 0, 0};
        mbs_rigid_body body;
        mbs_rigid_body_f32 body32;
        mbs_rigid_state state, s0;
        mbs_rigid_loads loads;
        mbs_step_settings st;
        mbs_step_info info;
        mbs_cylinder cyl;
        mbs_body_start start;
        const double r[3] = {1.0, 0.0, 0.0};
        SAME_BYTES(body, mbs_rigid_body_init(&body, 2.0, inertia, Z3));
        SAME_BYTES(body32, mbs_rigid_body_init_f32(&body32, 2.0f, inertia32, z32));
        CHECK_STATUS(mbs_cylinder_default(&cyl, r), MBS_OK);
        CHECK_STATUS(mbs_body_start_default(&start), MBS_OK);
        start.w_0_start[0] = 3.0, start.w_0_start[2] = 1.0;
        SAME_BYTES(body, mbs_body_cylinder_init(&cyl, &start, &body, &s0));
        SAME_BYTES(s0, mbs_body_cylinder_init(&cyl, &start, &body, &s0));
        memset(&loads, 0, sizeof loads);
        CHECK_STATUS(mbs_step_settings_default(&st), MBS_OK);
        SAME_BYTES(info, (state = s0, mbs_rigid_step(&body, &loads, &st, &state, 1e-3, &info)));
    }
    /* A system: counts, settings, a solve's report, the scene's summary and a primitive. */
    {
        const double g[3] = {0, -9.81, 0}, ref[3] = {0, 0, 0};
        mbs_created_body b;
        mbs_item_ref failed;
        mbs_system_counts counts;
        mbs_system_settings ss;
        mbs_simulation_settings sim;
        mbs_system_solve_report report;
        mbs_visualization_settings vis;
        mbs_scene_summary summary;
        first_primitive a, c;
        mbs_mass_properties mp;
        const double o[3] = {0, 0, 0}, dims[3] = {0.1, 0.2, 0.3};
        CHECK_STATUS(mbs_system_init(&sys), MBS_OK);
        CHECK_STATUS(mbs_box_mass_properties(dims, 1000.0, o, &mp), MBS_OK);
        {
            const double q[4] = {1, 0, 0, 0}, w[3] = {1.0, 2.0, 3.0};
            CHECK_STATUS(mbs_system_create_rigid_body(&sys, &mp, ref, q, Z3, w, g, &b), MBS_OK);
        }
        CHECK_STATUS(mbs_system_assemble(&sys, &failed), MBS_OK);
        SAME_BYTES(counts, mbs_system_get_counts(&sys, &counts));
        SAME_BYTES(ss, mbs_system_get_settings(&sys, &ss));
        CHECK_STATUS(mbs_simulation_settings_default(&sim), MBS_OK);
        sim.solver_type = MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME;
        sim.number_of_steps = 10, sim.end_time = 0.01;
        SAME_BYTES(report, (mbs_system_reset(&sys), mbs_system_solve_dynamic(&sys, &sim, &report, &failed)));
        CHECK_STATUS(mbs_visualization_settings_default(&vis), MBS_OK);
        vis.bodies_show_numbers = 1;
        memset(&a, 0x00, sizeof a), memset(&c, 0xFF, sizeof c);
        a.seen = c.seen = 0;
        scribble_stack(0x00);
        CHECK_STATUS(mbs_system_export_scene(&sys, &vis, keep_first, &a, NULL), MBS_OK);
        scribble_stack(0xFF);
        CHECK_STATUS(mbs_system_export_scene(&sys, &vis, keep_first, &c, NULL), MBS_OK);
        CHECK(a.seen && c.seen && memcmp(a.bytes, c.bytes, sizeof a.bytes) == 0);
        SAME_BYTES(summary, mbs_system_export_scene(&sys, &vis, ignore, NULL, &summary));
    }
    printf("test_outputs: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
