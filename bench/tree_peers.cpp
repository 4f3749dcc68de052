// Pinocchio (C++, its templates compiled here) and MuJoCo (its C library) on the tree models of
// bench/src/bin/mbs-tree.rs: reads the model text of `mbs-tree --dump` and the MJCF that
// bench/tree.py writes from it, and prints one JSON object of ns per call (min over repeats of
// a sweep over 64 pseudo-random states, the same as mbs-tree's): Pinocchio's rnea, crba, aba;
// MuJoCo's mj_forward, mj_step with Euler and with RK4. Built by bench/tree.sh.
//
// Usage: tree_peers MODEL.txt MODEL_EULER.xml MODEL_RK4.xml REPEATS
#include <pinocchio/multibody.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>

#include <mujoco/mujoco.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace pin = pinocchio;

// splitmix64 in [-1, 1), the generator of mbs-tree.
struct Rng {
  uint64_t s;
  double next() {
    s += 0x9E3779B97F4A7C15ull;
    uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return double(z >> 11) / double(1ull << 53) * 2.0 - 1.0;
  }
  Eigen::VectorXd vec(int n, double scale) {
    Eigen::VectorXd v(n);
    for (int i = 0; i < n; ++i) v[i] = scale * next();
    return v;
  }
};

static pin::Model load(const char* path) {
  std::ifstream in(path);
  pin::Model model;
  double g[3];
  in >> g[0] >> g[1] >> g[2];
  model.gravity.linear() << g[0], g[1], g[2];
  int parent;
  std::vector<pin::JointIndex> ids;
  while (in >> parent) {
    double a[3], r[9], p[3], m, c[3], in9[9];
    for (double& x : a) in >> x;
    for (double& x : r) in >> x;
    for (double& x : p) in >> x;
    in >> m;
    for (double& x : c) in >> x;
    for (double& x : in9) in >> x;
    Eigen::Matrix3d R;
    R << r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8];
    Eigen::Matrix3d I;
    I << in9[0], in9[1], in9[2], in9[3], in9[4], in9[5], in9[6], in9[7], in9[8];
    pin::SE3 placement(R, Eigen::Vector3d(p[0], p[1], p[2]));
    pin::JointIndex up = parent < 0 ? 0 : ids[parent];
    pin::JointIndex id;
    Eigen::Vector3d axis(a[0], a[1], a[2]);
    std::string name = "j" + std::to_string(ids.size());
    // Pinocchio's aligned revolute joints are its fast path: use them where the axis is one.
    if (axis == Eigen::Vector3d::UnitX())
      id = model.addJoint(up, pin::JointModelRX(), placement, name);
    else if (axis == Eigen::Vector3d::UnitY())
      id = model.addJoint(up, pin::JointModelRY(), placement, name);
    else if (axis == Eigen::Vector3d::UnitZ())
      id = model.addJoint(up, pin::JointModelRZ(), placement, name);
    else
      id = model.addJoint(up, pin::JointModelRevoluteUnaligned(axis), placement, name);
    model.appendBodyToJoint(id, pin::Inertia(m, Eigen::Vector3d(c[0], c[1], c[2]), I),
                            pin::SE3::Identity());
    ids.push_back(id);
  }
  return model;
}

static double best_ns(int repeats, int states, const std::function<void(int)>& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < states; ++s) f(s);
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / states;
    if (ns < best) best = ns;
  }
  return best;
}

static double mujoco_ns(const char* xml, int repeats, const std::vector<Eigen::VectorXd>& qs,
                        const std::vector<Eigen::VectorXd>& vs, const std::vector<Eigen::VectorXd>& taus,
                        bool step) {
  char err[1000];
  mjModel* m = mj_loadXML(xml, nullptr, err, sizeof err);
  if (!m) {
    std::fprintf(stderr, "MuJoCo: %s\n", err);
    std::exit(1);
  }
  mjData* d = mj_makeData(m);
  int n = m->nv;
  double ns = best_ns(repeats, int(qs.size()), [&](int s) {
    for (int i = 0; i < n; ++i) {
      d->qpos[i] = qs[s][i];
      d->qvel[i] = vs[s][i];
      d->qfrc_applied[i] = taus[s][i];
    }
    if (step)
      mj_step(m, d);
    else
      mj_forward(m, d);
  });
  mj_deleteData(d);
  mj_deleteModel(m);
  return ns;
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: tree_peers MODEL.txt EULER.xml RK4.xml REPEATS\n");
    return 2;
  }
  pin::Model model = load(argv[1]);
  pin::Data data(model);
  int repeats = std::atoi(argv[4]);
  int n = model.nv;
  Rng rng{7};
  const int S = 64;
  std::vector<Eigen::VectorXd> qs, vs, taus;
  for (int s = 0; s < S; ++s) {
    qs.push_back(rng.vec(n, 3.0));
    vs.push_back(rng.vec(n, 2.0));
    taus.push_back(rng.vec(n, 20.0));
  }
  double rnea = best_ns(repeats, S, [&](int s) { pin::rnea(model, data, qs[s], vs[s], taus[s]); });
  double crba = best_ns(repeats, S, [&](int s) { pin::crba(model, data, qs[s]); });
  double aba = best_ns(repeats, S, [&](int s) { pin::aba(model, data, qs[s], vs[s], taus[s]); });
  double fwd = mujoco_ns(argv[2], repeats, qs, vs, taus, false);
  double euler = mujoco_ns(argv[2], repeats, qs, vs, taus, true);
  double rk4 = mujoco_ns(argv[3], repeats, qs, vs, taus, true);
  std::printf(
      "{\"nv\":%d,\"pinocchio_rnea_ns\":%.1f,\"pinocchio_crba_ns\":%.1f,\"pinocchio_aba_ns\":%.1f,"
      "\"mujoco_forward_ns\":%.1f,\"mujoco_euler_step_ns\":%.1f,\"mujoco_rk4_step_ns\":%.1f}\n",
      n, rnea, crba, aba, fwd, euler, rk4);
  return 0;
}
