/* The main demo: a run to look at, through the system C API.
 *
 * A steel rod (Modelica BodyCylinder, length 0.6 m, diameter 0.06 m) hangs from its frame_a on
 * a stiff Cartesian spring to the ground at the origin and swings in the x-y plane under
 * gravity g = (0, -9.81, 0); a 4 kg ball (mass point 2D) is thrown up beside it. 1.5 s at
 * 10 kHz (mbs_system_solve_dynamic, kick-drift-kick), sensors into C buffers.
 *
 * Checked against closed forms: the ball's parabola r0 + v0 t + g t^2/2 (exact for gravity);
 * the rod's energy E = kinetic + m g y_com + k |r_a|^2/2 (conserved); its swing amplitude
 * theta0 from m g c (1 - cos theta0) = I_a w0^2 / 2 (I_a = I22 + m c^2 about frame_a).
 * Exits non-zero if off.
 *
 * With MBS_RUN_DIR set (the Makefile's `run` sets target/mbs-run), it streams there:
 *   scene.txt    the final scene, one line per draw primitive (mbs_system_export_scene's
 *                callback; the "mbs-scene 1" format of view/src/stream.rs),
 *   sensors.csv  time, rod COM x, y, ball x, y (every 10 ms);
 * `mbs-view render scene.txt --csv sensors.csv` draws the picture and the time plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mbs.h"

#define DT 1e-4
#define STEPS 15000
#define EVERY 100

static mbs_system sys;
static double com[(STEPS + 1) * 4], frame_a[(STEPS + 1) * 4], kin[(STEPS + 1) * 2];
static double ball[(STEPS + 1) * 4];
static const double G = 9.81;

static int fail(mbs_status s, const char *what) {
    printf("%s failed: %s\n", what, mbs_status_str(s));
    return 1;
}
#define TRY(call, what)                                   \
    do {                                                  \
        mbs_status s_ = (call);                           \
        if (!mbs_status_is_ok(s_)) return fail(s_, what); \
    } while (0)

/* The export callback: one "mbs-scene 1" record per primitive into the FILE in ctx. */
static void write_primitive(void *ctx, const mbs_draw_primitive *p) {
    FILE *f = (FILE *)ctx;
    int i;
    switch (p->shape) {
    case MBS_SHAPE_CYLINDER:
        fprintf(f, "cylinder %u %u %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g", p->body,
                p->index, p->p0[0], p->p0[1], p->p0[2], p->p1[0], p->p1[1], p->p1[2],
                p->size[0], p->size[1]);
        break;
    case MBS_SHAPE_BOX:
        fprintf(f, "box %u %u %.17g %.17g %.17g", p->body, p->index, p->p0[0], p->p0[1],
                p->p0[2]);
        for (i = 0; i < 9; i++) fprintf(f, " %.17g", p->axes[i]);
        fprintf(f, " %.17g %.17g %.17g", p->size[0], p->size[1], p->size[2]);
        break;
    case MBS_SHAPE_SPHERE:
        fprintf(f, "sphere %u %u %.17g %.17g %.17g %.17g", p->body, p->index, p->p0[0],
                p->p0[1], p->p0[2], p->size[0]);
        break;
    default:
        fprintf(f, "line %u %u %.17g %.17g %.17g %.17g %.17g %.17g", p->body, p->index,
                p->p0[0], p->p0[1], p->p0[2], p->p1[0], p->p1[1], p->p1[2]);
        break;
    }
    fprintf(f, " %.9g %.9g %.9g %.9g %.9g", p->color[0], p->color[1], p->color[2], p->color[3],
            p->specular);
    if (p->has_contour_value) fprintf(f, " %.17g", p->contour_value);
    else fprintf(f, " -");
    if (p->has_label)
        fprintf(f, " %u %.17g %.17g %.17g\n", p->label_number, p->label_position[0],
                p->label_position[1], p->label_position[2]);
    else fprintf(f, " -\n");
}

static FILE *open_out(const char *dir, const char *name) {
    char path[1024];
    FILE *f;
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return NULL;
    f = fopen(path, "w");
    if (!f) printf("cannot write %s\n", path);
    return f;
}

int main(void) {
    const double r[3] = {0.6, 0, 0}, origin[3] = {0, 0, 0}, g[3] = {0, -G, 0};
    const double k = 2e6, kk[3] = {k, k, k}, theta0 = 0.6;
    const double ball_r0[2] = {0.8, -0.9}, ball_v0[2] = {-0.4, 6.0}, zero2[2] = {0, 0};
    const char *dir = getenv("MBS_RUN_DIR");
    mbs_cylinder cyl;
    mbs_mass_properties mp;
    mbs_body_start start;
    mbs_created_body rod, pt;
    mbs_sensor_spec spec;
    mbs_simulation_settings sim;
    mbs_item_ref failed;
    mbs_visualization_settings vis;
    mbs_scene_summary summary;
    uint32_t ground, m0, m1, c_id, s_com, s_a, s_kin, s_ball;
    size_t n, i;
    double m, c, ia, w0, e0 = 0, k0 = 0, max_de = 0, max_theta = 0, t, err_ball;

    TRY(mbs_cylinder_default(&cyl, r), "cylinder");
    cyl.has_diameter = true;
    cyl.diameter = 0.06;
    TRY(mbs_cylinder_mass_properties(&cyl, &mp), "mass properties");
    m = mp.mass, c = mp.com[0];
    ia = mp.inertia[4] + m * c * c;
    w0 = sqrt(2.0 * m * G * c * (1.0 - cos(theta0)) / ia); /* start rate for amplitude theta0 */
    printf("rod: mass %.9g kg, COM %.6g m from frame_a, I_a %.9g kg m^2, w0 %.9g rad/s\n", m, c,
           ia, w0);

    TRY(mbs_system_init(&sys), "init");
    TRY(mbs_body_start_default(&start), "start");
    start.angles_start[2] = -2.0 * atan(1.0); /* -pi/2 about z: the rod's axis (x) hangs down */
    start.w_0_start[2] = w0;                  /* rad/s about world z: a swing in x-y */
    TRY(mbs_system_create_body_cylinder(&sys, &cyl, &start, g, &rod), "rod");
    TRY(mbs_system_create_mass_point(&sys, 4.0, ball_r0, zero2, ball_v0, g, &pt), "ball");
    TRY(mbs_system_create_ground(&sys, origin, &ground), "ground");
    TRY(mbs_system_add_marker_body_position(&sys, ground, origin, &m0), "marker");
    TRY(mbs_system_add_marker_body_position(&sys, rod.object, origin, &m1), "marker");
    TRY(mbs_system_add_cartesian_spring_damper(&sys, m0, m1, kk, origin, origin, &c_id), "spring");

    memset(&spec, 0, sizeof spec);
    spec.kind = MBS_SENSOR_BODY, spec.index = rod.object, spec.variable = MBS_OUTPUT_POSITION;
    spec.local_position[0] = c;
    TRY(mbs_system_add_sensor(&sys, &spec, com, STEPS + 1, &s_com), "sensor COM");
    spec.variable = MBS_OUTPUT_KINETIC_ENERGY, spec.local_position[0] = 0.0;
    TRY(mbs_system_add_sensor(&sys, &spec, kin, STEPS + 1, &s_kin), "sensor energy");
    spec.kind = MBS_SENSOR_NODE, spec.index = rod.node, spec.variable = MBS_OUTPUT_POSITION;
    TRY(mbs_system_add_sensor(&sys, &spec, frame_a, STEPS + 1, &s_a), "sensor frame_a");
    spec.index = pt.node;
    TRY(mbs_system_add_sensor(&sys, &spec, ball, STEPS + 1, &s_ball), "sensor ball");
    if (mbs_system_assemble(&sys, &failed) != MBS_OK) return fail(MBS_ERR_INVALID_ARGUMENT, "assemble");

    TRY(mbs_simulation_settings_default(&sim), "settings");
    sim.solver_type = MBS_DYNAMIC_SOLVER_SYSTEM_COUPLING; /* kick-drift-kick: 3D bodies, no constraints */
    sim.end_time = STEPS * DT, sim.number_of_steps = STEPS;
    TRY(mbs_system_solve_dynamic(&sys, &sim, NULL, &failed), "solve");
    TRY(mbs_system_time(&sys, &t), "time");
    TRY(mbs_system_sensor_rows(&sys, s_kin, &n), "rows");
    for (i = 0; i < n; i++) {
        const double *a = &frame_a[4 * i], *p = &com[4 * i];
        double e = kin[2 * i + 1] + m * G * p[2] + 0.5 * k * (a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
        double th = atan2(p[1] - a[1], -(p[2] - a[2]));
        if (i == 0) e0 = e, k0 = kin[1];
        if (fabs(e - e0) > max_de) max_de = fabs(e - e0);
        if (fabs(th) > max_theta) max_theta = fabs(th);
    }
    {
        const double *b = &ball[4 * (n - 1)];
        double tb = b[0];
        err_ball = fmax(fabs(b[1] - (ball_r0[0] + ball_v0[0] * tb)),
                        fabs(b[2] - (ball_r0[1] + ball_v0[1] * tb - 0.5 * G * tb * tb)));
        printf("t = %g s (%d steps of %g s), %u sensor rows\n", t, STEPS, DT, (unsigned)n);
        printf("ball position = %.17g %.17g m\n", b[1], b[2]);
    }
    printf("ball error vs parabola = %.3e m\n", err_ball);
    printf("rod energy E0 = %.12g J, max |E - E0| / kinetic0 = %.3e\n", e0, max_de / k0);
    printf("rod swing amplitude = %.9g rad, closed form theta0 = %.9g rad\n", max_theta, theta0);

    /* The scene, streamed by the export callback. */
    TRY(mbs_visualization_settings_default(&vis), "visualization settings");
    vis.bodies_show_numbers = true;
    vis.contour_output_variable = MBS_OUTPUT_VELOCITY;
    vis.contour_output_variable_component = -1; /* the norm */
    if (dir) {
        FILE *f = open_out(dir, "scene.txt"), *csv;
        if (!f) return 1;
        fprintf(f, "mbs-scene 1\ntitle scene_run.c, t = %g s: swinging rod (0), ball (1)\n", t);
        TRY(mbs_system_export_scene(&sys, &vis, write_primitive, f, &summary), "export scene");
        if (summary.has_contour_range)
            fprintf(f, "contour %.17g %.17g |velocity| (m/s)\n", summary.contour_min,
                    summary.contour_max);
        fclose(f);
        csv = open_out(dir, "sensors.csv");
        if (!csv) return 1;
        fprintf(csv, "time,rod COM x (m),rod COM y (m),ball x (m),ball y (m)\n");
        for (i = 0; i < n; i += EVERY)
            fprintf(csv, "%.17g,%.17g,%.17g,%.17g,%.17g\n", com[4 * i], com[4 * i + 1],
                    com[4 * i + 2], ball[4 * i + 1], ball[4 * i + 2]);
        fclose(csv);
        printf("scene: %u bodies drawn, %u primitives, streamed to %s/scene.txt; sensors to "
               "%s/sensors.csv\n",
               summary.bodies_drawn, summary.primitives, dir, dir);
    } else {
        TRY(mbs_system_export_scene(&sys, &vis, write_primitive, stdout, &summary),
            "export scene");
        printf("scene: %u bodies drawn, %u primitives\n", summary.bodies_drawn,
               summary.primitives);
    }

    if (!(err_ball < 1e-9) || !(max_de / k0 < 1e-3) || !(fabs(max_theta - theta0) < 2e-3)) {
        printf("WRONG: off the closed forms\n");
        return 1;
    }
    return 0;
}
