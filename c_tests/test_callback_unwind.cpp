/* C++ test of the callbacks' one unwinding rule: a C++ exception that leaves any callback the
 * library calls (a user load, during a step, an assembly and a solve's start; a draw callback;
 * a text writer of a recording; a solve's step callback) aborts the process at once. It never
 * reaches the caller's catch, which would find the system half stepped. Each case runs in a
 * child process; the parent checks that the child died of SIGABRT. */
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "mbs.h"

namespace {

mbs_system sys;

struct thrown : std::runtime_error {
    thrown() : std::runtime_error("thrown by a callback") {}
};

// Throws once `armed`, so that building the system (which evaluates the load) succeeds.
bool armed = false;

void throwing_load(void *, double, double *out) {
    if (armed) throw thrown();
    out[0] = 1.0;
}

void throwing_draw(void *, const mbs_draw_primitive *) { throw thrown(); }

void throwing_text(void *, const char *, size_t) { throw thrown(); }

int32_t throwing_step(void *, const mbs_system *, const mbs_solve_progress *progress) {
    if (progress->step == 1) throw thrown();
    return MBS_RUN_CONTINUE;
}

// A mass point on a spring to the ground with a user force on it, assembled.
bool build() {
    const double z3[3] = {0, 0, 0}, z2[2] = {0, 0}, ref[2] = {1.0, 0.0};
    mbs_created_body point;
    uint32_t ground, m_ground, m_point, spring, load;
    return mbs_system_init(&sys) == MBS_OK &&
           mbs_system_create_ground(&sys, z3, &ground) == MBS_OK &&
           mbs_system_create_mass_point(&sys, 1.0, ref, z2, z2, nullptr, &point) == MBS_OK &&
           mbs_system_add_marker_body_position(&sys, ground, z3, &m_ground) == MBS_OK &&
           mbs_system_add_marker_node_position(&sys, point.node, &m_point) == MBS_OK &&
           mbs_system_add_spring_damper(&sys, m_ground, m_point, 100.0, 0.5, 0.5, 0.0, &spring) ==
               MBS_OK &&
           mbs_system_add_load_user(&sys, m_point, MBS_USER_LOAD_FORCE, throwing_load, nullptr,
                                    &load) == MBS_OK &&
           mbs_system_assemble(&sys, nullptr) == MBS_OK;
}

mbs_simulation_settings settings() {
    mbs_simulation_settings s;
    mbs_simulation_settings_default(&s);
    s.end_time = 0.01, s.number_of_steps = 10;
    return s;
}

// The calls that run a callback, one per case; each returns what the library returned.
mbs_status load_in_step() {
    armed = true;
    return mbs_system_step(&sys, 1e-3, nullptr, nullptr);
}

mbs_status load_in_assemble() {
    armed = true;
    return mbs_system_assemble(&sys, nullptr);
}

mbs_status load_in_solve() {
    armed = true;
    mbs_simulation_settings s = settings();
    return mbs_system_solve_dynamic(&sys, &s, nullptr, nullptr);
}

mbs_status draw_in_export() {
    mbs_visualization_settings v;
    mbs_visualization_settings_default(&v);
    return mbs_system_export_scene(&sys, &v, throwing_draw, nullptr, nullptr);
}

mbs_status text_in_header() { return mbs_record_header("run", throwing_text, nullptr); }

mbs_status text_in_frame() {
    mbs_visualization_settings v;
    mbs_visualization_settings_default(&v);
    return mbs_system_record_frame(&sys, &v, throwing_text, nullptr, nullptr);
}

mbs_status step_callback_in_solve() {
    mbs_simulation_settings s = settings();
    return mbs_system_solve_dynamic_observed(&sys, &s, throwing_step, nullptr, nullptr, nullptr);
}

struct named_case {
    const char *name;
    mbs_status (*run)();
};

const named_case cases[] = {
    {"load callback in mbs_system_step", load_in_step},
    {"load callback in mbs_system_assemble", load_in_assemble},
    {"load callback in mbs_system_solve_dynamic", load_in_solve},
    {"draw callback in mbs_system_export_scene", draw_in_export},
    {"text callback in mbs_record_header", text_in_header},
    {"text callback in mbs_system_record_frame", text_in_frame},
    {"step callback in mbs_system_solve_dynamic_observed", step_callback_in_solve},
};

// The child: builds the system, runs the case; exit code 3 if the exception reached this
// catch, 4 if the call returned, 5 if the system did not build.
[[noreturn]] void child(const named_case &c) {
    if (!build()) _exit(5);
    try {
        mbs_status s = c.run();
        std::printf("  %s returned %u\n", c.name, static_cast<unsigned>(s));
        std::fflush(stdout);
        _exit(4);
    } catch (...) {
        std::printf("  %s: the exception reached the caller\n", c.name);
        std::fflush(stdout);
        _exit(3);
    }
}

}  // namespace

int main() {
    int failures = 0;
    std::fflush(stdout);
    for (const named_case &c : cases) {
        pid_t pid = fork();
        if (pid == 0) {
            // The abort's message goes to stderr; keep the test's output to its verdicts.
            std::freopen("/dev/null", "w", stderr);
            child(c);
        }
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) != pid) {
            std::printf("FAIL %s: no child process\n", c.name);
            failures++;
        } else if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)) {
            std::printf("FAIL %s: the process did not abort (%s %d)\n", c.name,
                        WIFSIGNALED(status) ? "signal" : "exit code",
                        WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            failures++;
        }
    }
    std::printf("test_callback_unwind: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
