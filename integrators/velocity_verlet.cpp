#include "integrators/velocity_verlet.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/contact_threads.h"

namespace impactlab {

namespace {
constexpr double kFiniteMax = std::numeric_limits<double>::max();

/// The maxima of the end-velocity fixed point's convergence test over a range of entries.
struct KickNorms {
  double change = 0.0, new_norm = 0.0, half_norm = 0.0, kick_norm = 0.0;
  bool finite = true;
  /// Maxima of finite numbers are exact in any order, so combining ranges in any order gives the serial values.
  void Combine(const KickNorms& o) {
    change = o.change > change ? o.change : change;
    new_norm = o.new_norm > new_norm ? o.new_norm : new_norm;
    half_norm = o.half_norm > half_norm ? o.half_norm : half_norm;
    kick_norm = o.kick_norm > kick_norm ? o.kick_norm : kick_norm;
    finite = finite && o.finite;
  }
};

/// v_new = v_half + h/2 a on [begin, end), with the maxima of |v_new − v|, |v_new|, |v_half|, |a| there.
/// Two entries at a time in Eigen's packets (the loop alone: 1.64 ns per entry as a scalar loop, 0.99 in packets;
/// docs/performance.md, "Velocity Verlet's end-velocity fixed point on the sphere assembly"): each lane keeps its own
/// maxima, combined at the end, which for finite numbers is the serial maximum exactly (any order). `finite` is
/// tracked as a sum of x − x over the four quantities: 0 while every one is finite, NaN from the first ±inf or NaN on
/// (inf − inf and NaN − NaN are NaN, and NaN stays in a sum), so it holds exactly when all four are ≤ DBL_MAX.
KickNorms KickRange(const Eigen::VectorXd& v_half, const Eigen::VectorXd& a, const Eigen::VectorXd& v,
                    Eigen::VectorXd& v_new, double half_h, Eigen::Index begin, Eigen::Index end) {
  using Lanes = Eigen::Array2d;
  Lanes change = Lanes::Zero(), new_norm = Lanes::Zero(), half_norm = Lanes::Zero(), kick_norm = Lanes::Zero();
  Lanes poison = Lanes::Zero();
  const double* vh = v_half.data();
  const double* ac = a.data();
  const double* vo = v.data();
  double* out = v_new.data();
  Eigen::Index i = begin;
  for (; i + 2 <= end; i += 2) {
    const Lanes h2 = Eigen::Map<const Lanes>(vh + i), a2 = Eigen::Map<const Lanes>(ac + i);
    const Lanes vn = h2 + half_h * a2;
    Eigen::Map<Lanes>(out + i) = vn;
    const Lanes d = (vn - Eigen::Map<const Lanes>(vo + i)).abs();
    poison += (d - d) + (vn - vn) + (h2 - h2) + (a2 - a2);
    change = change.max(d);
    new_norm = new_norm.max(vn.abs());
    half_norm = half_norm.max(h2.abs());
    kick_norm = kick_norm.max(a2.abs());
  }
  KickNorms m;
  m.change = change.maxCoeff();
  m.new_norm = new_norm.maxCoeff();
  m.half_norm = half_norm.maxCoeff();
  m.kick_norm = kick_norm.maxCoeff();
  m.finite = poison[0] == 0.0 && poison[1] == 0.0;
  for (; i < end; ++i) {  // an odd last entry
    const double vn = vh[i] + half_h * ac[i];
    out[i] = vn;
    const double d = std::abs(vn - vo[i]), x = std::abs(vn), b = std::abs(vh[i]), c = std::abs(ac[i]);
    m.finite = m.finite && d <= kFiniteMax && x <= kFiniteMax && b <= kFiniteMax && c <= kFiniteMax;
    m.change = d > m.change ? d : m.change;
    m.new_norm = x > m.new_norm ? x : m.new_norm;
    m.half_norm = b > m.half_norm ? b : m.half_norm;
    m.kick_norm = c > m.kick_norm ? c : m.kick_norm;
  }
  return m;
}

/// KickRange over all entries: serially, or on `threads` threads in contiguous blocks whose maxima are combined (exact
/// in any order: the result is bitwise the serial one for any thread count).
KickNorms Kick(const Eigen::VectorXd& v_half, const Eigen::VectorXd& a, const Eigen::VectorXd& v,
               Eigen::VectorXd& v_new, double half_h, int threads) {
  if (threads <= 1) return KickRange(v_half, a, v, v_new, half_h, 0, v.size());
  constexpr int kMaxBlocks = 64;
  std::array<KickNorms, kMaxBlocks> block_norms{};
  const int blocks = std::min(threads, kMaxBlocks);
  ParallelBlocks(v.size(), blocks, [&](int b, long begin, long end) {
    block_norms[static_cast<size_t>(b)] = KickRange(v_half, a, v, v_new, half_h, begin, end);
  });
  KickNorms all;
  for (int b = 0; b < blocks; ++b) all.Combine(block_norms[static_cast<size_t>(b)]);
  return all;
}

/// The half kick and drift with q̇ = v: v½ = v + h/2 a, v ← v½, q ← q + h v½ on [begin, end).
void HalfKickDrift(Eigen::VectorXd& q, Eigen::VectorXd& v, Eigen::VectorXd& v_half, const Eigen::VectorXd& a,
                   double h, Eigen::Index begin, Eigen::Index end) {
  const double half_h = 0.5 * h;
  for (Eigen::Index i = begin; i < end; ++i) {
    const double vh = v[i] + half_h * a[i];
    v_half[i] = vh;
    v[i] = vh;
    q[i] += h * vh;  // q̇ = v½, the default PositionRate
  }
}
}  // namespace

IntegratorTraits VelocityVerlet::traits() const {
  IntegratorTraits t;
  t.order = 2;  // conservative forces; kHalfStepVelocity is first order with dampers (header)
  t.symplectic = true;
  t.library = "impactlab";
  if (damping_ == VerletDamping::kHalfStepVelocity) {
    t.reference = "Verlet 1967; Swope, Andersen, Berens & Wilson 1982; LAMMPS fix nve/sphere (Thompson et al. 2022)";
    t.damping_treatment = "explicit: dampers see the half-step velocity, one force evaluation per step (first order)";
  } else {
    t.reference = "Verlet 1967; Swope, Andersen, Berens & Wilson 1982 (velocity form)";
    t.damping_treatment = "implicit in the end-of-step velocity (fixed point), trapezoidal kick";
  }
  return t;
}

template <bool kLongVectors>
[[gnu::always_inline]] inline StepResult VelocityVerlet::DoStepWith(const MechanicalSystem& system, MechanicalState& state, double h) {
  // Plain index loops instead of Eigen expressions: for the 1–12 dof models the expression set-up costs more
  // than the arithmetic (callgrind, docs/performance.md); for long vectors the loops vectorise all the same.
  const Eigen::Index nv = state.v.size();
  const MechanicalState& before = step_start();
  if (a0_.size() != nv) {
    a0_.resize(nv);
    a1_.resize(nv);
    v_half_.resize(nv);
  }
  // Hooks the model leaves at their defaults are not called (system/default_hooks.h): same numbers, fewer calls.
  const DefaultHooks hooks = system.default_hooks();
  // a_n and P_n are the a_{n+1}, P_{n+1} of the previous step when the state is the one it returned (FSAL; the
  // bitwise compare is Integrator::Step's, fused with its rollback copy).
  double p0 = 0.0;
  if (cache_valid_ && resumes_returned_state()) {
    a0_.swap(a1_);
    p0 = cached_power_;
  } else {
    system.Acceleration(before, a0_);
    ++stats_.rhs_evaluations;
    p0 = hooks.no_dissipation ? 0.0 : system.DissipationPower(before);
  }
  cache_valid_ = false;

  const double half_h = 0.5 * h;
  // The step is a serial chain q → a → v → q through memory, so the loops avoid store-to-load hops on it: v_n is read
  // from `state` (equal to `before` here, Integrator::Step's contract), the value the last kick stored, not its copy
  // in the rollback state; with q̇ = v½ the drift uses v½ from a register instead of reloading it from v_half_.
  // Element by element: the same bits for any thread count.
  const int threads = kLongVectors ? ContactThreads() : 1;
  if (hooks.position_rate_is_velocity) {
    if (threads <= 1) {
      for (Eigen::Index i = 0; i < nv; ++i) {
        const double vh = state.v[i] + half_h * a0_[i];
        v_half_[i] = vh;
        state.v[i] = vh;
        state.q[i] += h * vh;  // q̇ = v½, the default PositionRate
      }
    } else {  // the same loop in blocks (HalfKickDrift)
      ParallelBlocks(nv, threads,
                     [&](int, long b, long e) { HalfKickDrift(state.q, state.v, v_half_, a0_, h, b, e); });
    }
  } else {
    for (Eigen::Index i = 0; i < nv; ++i) state.v[i] = v_half_[i] = state.v[i] + half_h * a0_[i];  // drift with v½
    if (q_dot_.size() != state.q.size()) q_dot_.resize(state.q.size());
    system.PositionRate(state, q_dot_);
    for (Eigen::Index i = 0; i < q_dot_.size(); ++i) state.q[i] += h * q_dot_[i];
  }
  state.t = before.t + h;
  if (!hooks.no_coordinate_normalization) system.NormalizeCoordinates(state);
  if (!hooks.no_discrete_history) system.UpdateHistory(before, state);

  StepResult result;
  if (damping_ == VerletDamping::kHalfStepVelocity || !system.velocity_dependent_forces()) {
    // One evaluation at (q_{n+1}, v½): the DEM codes' kick (dampers see v½), or the plain scheme when a does not
    // depend on v.
    system.Acceleration(state, a1_);
    ++stats_.rhs_evaluations;
    if (threads <= 1) {
      for (Eigen::Index i = 0; i < nv; ++i) state.v[i] = v_half_[i] + half_h * a1_[i];
    } else {
      ParallelBlocks(nv, threads, [&](int, long b, long e) {
        for (Eigen::Index i = b; i < e; ++i) state.v[i] = v_half_[i] + half_h * a1_[i];
      });
    }
    result.newton_iterations = 1;
  } else {
    // Implicit-in-velocity kick: v = v_half + h/2 a(q_{n+1}, v), from the explicit predictor v_half + h/2 a_n.
    if (threads <= 1) {
      for (Eigen::Index i = 0; i < nv; ++i) state.v[i] = v_half_[i] + half_h * a0_[i];
    } else {
      ParallelBlocks(nv, threads, [&](int, long b, long e) {
        for (Eigen::Index i = b; i < e; ++i) state.v[i] = v_half_[i] + half_h * a0_[i];
      });
    }
    constexpr int kMaxIterations = 50;
    if (v_new_.size() != nv) v_new_.resize(nv);
    for (int it = 0; it < kMaxIterations; ++it) {
      // After the first evaluation only v changes between the iterations: the model may skip its cache check.
      if (it == 0)
        system.Acceleration(state, a1_);
      else
        system.AccelerationAtNewVelocity(state, a1_);
      ++stats_.rhs_evaluations;
      result.newton_iterations = it + 1;
      // v_new = v_half + h/2 a and the four maximum norms below in one pass over the vectors (they were five: for
      // 10⁵ spheres each pass streams 4.8 MB), on the contact threads for long vectors. A maximum of finite numbers
      // is exact in any order, so change and scale are bitwise those of the separate lpNorm<Infinity> reductions;
      // with a non-finite entry those reductions are evaluated as before (their NaN handling is Eigen's).
      const KickNorms m = Kick(v_half_, a1_, state.v, v_new_, half_h, threads);
      double change = m.change, new_norm = m.new_norm, half_norm = m.half_norm, kick_norm = m.kick_norm;
      if (!m.finite) {
        change = (v_new_ - state.v).lpNorm<Eigen::Infinity>();
        new_norm = v_new_.lpNorm<Eigen::Infinity>();
        half_norm = v_half_.lpNorm<Eigen::Infinity>();
        kick_norm = a1_.lpNorm<Eigen::Infinity>();
      }
      // Relative to the size of the kick as well as of v: near maximum overlap v ≈ 0 while h/2·a is not.
      const double scale = std::max({new_norm, half_norm, half_h * kick_norm, 1e-300});
      state.v.swap(v_new_);  // v ← v_new without a copy (v_new_ is overwritten before it is read again)
      if (change <= 1e-15 * scale) break;
      if (it == kMaxIterations - 1) {
        result.status = StepStatus::kRetrySmallerStep;
        result.cause = StepFailureCause::kFixedPointNonConvergence;
        result.message = "velocity fixed point did not converge (damping too stiff for h)";
        return result;
      }
    }
  }
  const double p1 = hooks.no_dissipation ? 0.0 : system.DissipationPower(state);
  state.dissipated = before.dissipated + half_h * (p0 + p1);
  cached_power_ = p1;
  cache_valid_ = true;
  return result;
}

StepResult VelocityVerlet::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  // Long vectors are swept in blocks on the contact threads; the plain instantiation is the short vectors' step with
  // nothing added.
  // Vectors of at least kParallelArrayLength entries (core/contact_threads.h, ≈ 5 500 spheres and more); shorter ones
  // run the plain loops, with no OpenMP call on their path.
  if (state.v.size() >= kParallelArrayLength && ContactThreads() > 1) [[unlikely]]
    return DoStepWith<true>(system, state, h);
  return DoStepWith<false>(system, state, h);
}

}  // namespace impactlab
