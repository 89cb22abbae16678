// MechanicalState: the value type every integrator advances.
//   t  [s]     time
//   q          generalized coordinates (m, rad, or unit-quaternion components for 3D orientation)
//   v          generalized velocities (m/s, rad/s); q̇ = N(q) v, with N = I unless the system says otherwise
//   z          internal (history) variables of contact laws, e.g. the stored tangential spring of a
//              Mindlin law. Keeping them in the state (never in the law) makes rollback of a rejected
//              step exact: the integrator restores the whole value.
//   dissipated [J] cumulative work removed by non-conservative forces, D(t) = ∫ P_diss dt, advanced by
//              each integrator consistently with its own scheme, so the balance residual
//              E(t) + D(t) − E(0) measures how well that scheme keeps the energy books.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/contact_threads.h"
#include "state/same_bits.h"

namespace impactlab {

struct MechanicalState {
  double t = 0.0;
  Eigen::VectorXd q;
  Eigen::VectorXd v;
  Eigen::VectorXd z;
  double dissipated = 0.0;

  bool IsFinite() const {
    return std::isfinite(t) && std::isfinite(dissipated) && AllFinite(q) && AllFinite(v) && AllFinite(z);
  }

  /// Copies `other` into this state, reusing storage when sizes match. Same result as operator=, written as
  /// plain loops because Eigen's vectorised assignment costs more than the copy for the tiny vectors of
  /// one- and few-body models (measured: docs/performance.md).
  void AssignFrom(const MechanicalState& other) {
    t = other.t;
    dissipated = other.dissipated;
    CopyValues(other.q, q);
    CopyValues(other.v, v);
    CopyValues(other.z, z);
  }

  // The same three operations with the long vectors in blocks on the contact threads (core/contact_threads.h), for
  // states of 10⁴ spheres and more (Integrator::Step chooses them once per step): exact, so the same answers and bits
  // for any thread count.
  bool IsFiniteInBlocks() const {
    return std::isfinite(t) && std::isfinite(dissipated) && ParallelAllFinite(q.data(), static_cast<long>(q.size())) &&
           ParallelAllFinite(v.data(), static_cast<long>(v.size())) &&
           ParallelAllFinite(z.data(), static_cast<long>(z.size()));
  }
  void AssignFromInBlocks(const MechanicalState& other) {
    t = other.t;
    dissipated = other.dissipated;
    for (auto [from, to] : {std::pair{&other.q, &q}, std::pair{&other.v, &v}, std::pair{&other.z, &z}}) {
      if (to->size() != from->size()) to->resize(from->size());
      ParallelCopy(from->data(), to->data(), static_cast<long>(from->size()));
    }
  }
  bool SameBitsInBlocks(const MechanicalState& other) const {
    const auto same = [](const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
      return a.size() == b.size() && ParallelSameBytes(a.data(), b.data(), static_cast<long>(a.size()));
    };
    return impactlab::SameBits(t, other.t) && same(q, other.q) && same(v, other.v) && same(z, other.z);
  }

  /// Equal values (t, q, v, z compared with ==, so +0.0 equals −0.0; `dissipated` is bookkeeping and not compared).
  bool SameValues(const MechanicalState& other) const {
    return t == other.t && EqualValues(q, other.q) && EqualValues(v, other.v) && EqualValues(z, other.z);
  }

  /// Identical bit patterns of t, q, v, z (`dissipated` not compared): stricter than SameValues (+0.0 and −0.0
  /// differ, a NaN equals the same NaN), so a state that passes can stand in for `other` bit for bit (the rollback
  /// copy of Integrator::Step, integrators/integrator.h).
  bool SameBits(const MechanicalState& other) const {
    return impactlab::SameBits(t, other.t) && impactlab::SameBits(q, other.q) && impactlab::SameBits(v, other.v) &&
           impactlab::SameBits(z, other.z);
  }

 private:
  static bool AllFinite(const Eigen::VectorXd& x) {
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (!std::isfinite(x[i])) return false;
    return true;
  }
  static void CopyValues(const Eigen::VectorXd& from, Eigen::VectorXd& to) {
    const Eigen::Index n = from.size();
    if (to.size() != n) to.resize(n);
    const double* src = from.data();
    double* dst = to.data();
    if (n <= kSmallSize) {  // inline copy: a memcpy call costs more than copying a few doubles
      for (Eigen::Index i = 0; i < n && i < kSmallSize; ++i) dst[i] = src[i];
    } else {
      std::copy_n(src, n, dst);
    }
  }
  static constexpr Eigen::Index kSmallSize = 8;
  static bool EqualValues(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    return a.size() == b.size() && std::equal(a.data(), a.data() + a.size(), b.data());
  }
};

}  // namespace impactlab
