#include "exact/feng_power_law_solution.h"

#include <algorithm>
#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "contact/restitution_calibration.h"
#include "core/checks.h"
#include "core/errors.h"

namespace impactlab {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kInf = std::numeric_limits<double>::infinity();
// tanh_sinh stops when two successive levels agree to this fraction of the L1 norm; its convergence is
// double-exponential, so the actual error is far below (checked against the Gamma closed form, < 1e-14).
constexpr double kQuadratureTolerance = 1e-12;
// Newton on t(w): binary digits requested (≈ 1e-15 relative).
constexpr int kRootDigits = 50;
constexpr std::uintmax_t kMaxRootIterations = 100;

// Boost 1.74's tanh_sinh extends its abscissa tables lazily; its mutex-guarded extension publishes the new
// level count before the level is filled, so a concurrent reader can see a half-built row. Parallel sweeps
// and `validate --threads N` step the exact integrator concurrently: one instance per thread. The tables
// hold fixed abscissas/weights per level, so the result does not depend on what was cached.
boost::math::quadrature::tanh_sinh<double>& TanhSinh() {
  thread_local boost::math::quadrature::tanh_sinh<double> integrator;
  return integrator;
}

// Over-damped X(τ) = e^{(σ−ζ)τ} S̃(τ), S̃ = (1 − e^{−2στ})/(2σ) (τ for σ = 0), computed without overflow.
double OverdampedSTilde(double sigma, double tau) { return sigma > 0.0 ? -std::expm1(-2.0 * sigma * tau) / (2.0 * sigma) : tau; }

}  // namespace

void FengPowerLawParameters::Validate() const {
  RequirePositive("m", mass);
  RequirePositive("k", stiffness);
  RequireAtLeast("p", exponent, 1.0);
  RequireNonNegative("alpha", alpha);
  RequirePositive("v0", impact_velocity);
}

FengPowerLawSolution::FengPowerLawSolution(FengPowerLawParameters parameters) : p_(parameters) {
  p_.Validate();
  const double p = p_.exponent;
  q_ = 2.0 / (p + 1.0);
  beta_ = (p - 1.0) / (p + 1.0);
  a_ = std::pow((p + 1.0) / 2.0, 1.0 / (p + 1.0));
  omega0_ = std::sqrt(p_.stiffness / p_.mass);
  zeta_ = p_.alpha / std::sqrt(2.0 * (p + 1.0));
  if (zeta_ < 1.0) {
    omega_ = std::sqrt((1.0 - zeta_) * (1.0 + zeta_));
    lambda_ = zeta_ / omega_;
    tau_max_ = std::acos(zeta_) / omega_;
  } else {
    sigma_ = std::sqrt((zeta_ - 1.0) * (zeta_ + 1.0));
    tau_max_ = sigma_ > 0.0 ? std::atanh(sigma_ / zeta_) / sigma_ : 1.0;
  }
}

FengPowerLawSolution FengPowerLawSolution::FromRestitution(double mass, double stiffness, double exponent, double e,
                                                           double impact_velocity) {
  FengPowerLawParameters p;
  p.mass = mass;
  p.stiffness = stiffness;
  p.exponent = exponent;
  p.alpha = TsujiAlphaFromRestitution(e, exponent);
  p.impact_velocity = impact_velocity;
  return FengPowerLawSolution(p);
}

FengPowerLawSolution FengPowerLawSolution::WithImpactVelocity(double impact_velocity) const {
  RequirePositive("v0", impact_velocity);
  FengPowerLawSolution copy = *this;  // q, β, A, Ω₀, ζ, ω, λ, σ, τ*, J(π/2), J(π) do not depend on v₀
  copy.p_.impact_velocity = impact_velocity;
  return copy;
}

// --- closed forms ------------------------------------------------------------------------------------------

double FengPowerLawSolution::restitution() const { return rebounds() ? std::exp(-kPi * lambda_) : 0.0; }

double FengPowerLawSolution::max_overlap() const {
  const double x_max = p_.impact_velocity / omega0_ * std::exp(-zeta_ * tau_max_);
  return a_ * std::pow(x_max, q_);
}

double FengPowerLawSolution::exit_velocity() const { return -restitution() * p_.impact_velocity; }

double FengPowerLawSolution::undamped_contact_time() const {
  const double p = p_.exponent;
  const double delta_max0 = a_ * std::pow(p_.impact_velocity / omega0_, q_);
  const double i_p = std::sqrt(kPi) * boost::math::tgamma(1.0 + 1.0 / (p + 1.0)) /
                     boost::math::tgamma(0.5 + 1.0 / (p + 1.0));
  return 2.0 * delta_max0 / p_.impact_velocity * i_p;
}

double FengPowerLawSolution::initial_energy() const {
  return 0.5 * p_.mass * p_.impact_velocity * p_.impact_velocity;
}

double FengPowerLawSolution::energy_dissipated_loading() const {
  return std::max(0.0, initial_energy() * -std::expm1(-2.0 * zeta_ * tau_max_));  // (no −0 at α = 0)
}

double FengPowerLawSolution::energy_dissipated_unloading() const {
  const double w_max = initial_energy() * std::exp(-2.0 * zeta_ * tau_max_);
  const double e = restitution();
  return w_max - initial_energy() * e * e;
}

double FengPowerLawSolution::ElasticEnergy(double delta) const {
  return delta > 0.0 ? p_.stiffness * std::pow(delta, p_.exponent + 1.0) / (p_.exponent + 1.0) : 0.0;
}

// --- quadratures -------------------------------------------------------------------------------------------

double FengPowerLawSolution::TimeScale() const {
  return a_ * q_ / omega0_ * std::pow(p_.impact_velocity / omega0_, -beta_);
}

double FengPowerLawSolution::JHead(double phi) const {
  if (beta_ == 0.0 || phi <= 0.0) return std::max(phi, 0.0);
  const double b = beta_, bl = beta_ * lambda_, inv_q = 1.0 / q_;
  // The factor e^{βλφ} is taken out of the integral, so that the integrand stays ≤ (π/2)^β even for ζ → 1⁻
  // (λ → ∞); the result overflows to +inf instead of the quadrature failing.
  auto f = [b, bl, inv_q, phi](double w) {
    const double psi = std::pow(w, inv_q);
    const double ratio = psi > 0.0 ? psi / std::sin(psi) : 1.0;
    return std::pow(ratio, b) * std::exp(bl * (psi - phi));
  };
  return std::exp(bl * phi) * (inv_q * TanhSinh().integrate(f, 0.0, std::pow(phi, q_), kQuadratureTolerance));
}

double FengPowerLawSolution::JTail(double chi) const {
  if (beta_ == 0.0 || chi <= 0.0) return std::max(chi, 0.0);
  const double b = beta_, bl = beta_ * lambda_, inv_q = 1.0 / q_;
  // e^{βλπ} taken out (see JHead): overflow gives +inf (nearly critical damping: t_c beyond double range).
  auto f = [b, bl, inv_q](double w) {
    const double c = std::pow(w, inv_q);
    const double ratio = c > 0.0 ? c / std::sin(c) : 1.0;
    return std::pow(ratio, b) * std::exp(-bl * c);
  };
  return std::exp(bl * kPi) * (inv_q * TanhSinh().integrate(f, 0.0, std::pow(chi, q_), kQuadratureTolerance));
}

double FengPowerLawSolution::HeadIntegrand(double w) const {
  const double psi = std::pow(w, 1.0 / q_);
  const double ratio = psi > 0.0 ? psi / std::sin(psi) : 1.0;
  return std::pow(ratio, beta_) * std::exp(beta_ * lambda_ * psi) / q_;
}

double FengPowerLawSolution::TailIntegrand(double w) const {
  const double c = std::pow(w, 1.0 / q_);
  const double ratio = c > 0.0 ? c / std::sin(c) : 1.0;
  return std::pow(ratio, beta_) * std::exp(beta_ * lambda_ * (kPi - c)) / q_;
}

bool FengPowerLawSolution::AdvancePhase(Phase& ph, double dt, double& time_to_exit) const {
  RequireNonNegative("dt", dt);
  if (!rebounds()) throw InvalidParameter("alpha", p_.alpha, "a rebounding contact (zeta < 1) for AdvancePhase");
  if (beta_ == 0.0) {
    time_to_exit = TimeScale() * ph.tau_to_exit;
    if (dt >= time_to_exit) return false;
    const double d = dt / TimeScale();
    ph.tau += d;
    ph.tau_to_exit -= d;
    return true;
  }
  using GaussLegendre = boost::math::quadrature::gauss<double, 20>;
  const double unit = TimeUnitJ(), inv_q = 1.0 / q_;
  const double w_half = std::pow(kPi / 2.0, q_);
  const double phi0 = omega_ * ph.tau, chi0 = omega_ * ph.tau_to_exit;
  std::uintmax_t iterations = kMaxRootIterations;
  auto head = [this](double w) { return HeadIntegrand(w); };
  auto tail = [this](double w) { return TailIntegrand(w); };
  if (phi0 <= chi0) {  // head: J(φ) measured from 0
    const double w0 = std::pow(phi0, q_), j0 = JHead(phi0);
    time_to_exit = unit * (JPi() - j0);
    if (dt >= time_to_exit) return false;
    const double j1 = j0 + dt / unit;
    if (j1 > JHalf()) {
      ph = PhaseAtTimeToExit(time_to_exit - dt);
      return true;
    }
    auto j_at = [&](double w) {
      return w0 > 0.0 && w - w0 <= w0 ? j0 + GaussLegendre::integrate(head, w0, w) : JHead(std::pow(w, inv_q));
    };
    auto f = [&](double w) { return std::make_pair(j_at(w) - j1, HeadIntegrand(w)); };
    const double guess = std::clamp(w0 + (j1 - j0) / HeadIntegrand(w0), w0, w_half);
    const double w = boost::math::tools::newton_raphson_iterate(f, guess, w0, w_half, kRootDigits, iterations);
    ph = PhaseAtPseudoTime(std::pow(w, inv_q) / omega_);
    return true;
  }
  // tail: J_tail(χ) = ∫ from the exit end; it decreases to J_tail(χ₁) = J_tail(χ₀) − dt/unit.
  const double w0 = std::pow(chi0, q_), t0 = JTail(chi0);
  time_to_exit = unit * t0;
  if (dt >= time_to_exit) return false;
  const double t1 = t0 - dt / unit;
  auto jt_at = [&](double w) {
    return w >= w0 - w ? t0 - GaussLegendre::integrate(tail, w, w0) : JTail(std::pow(w, inv_q));
  };
  auto f = [&](double w) { return std::make_pair(jt_at(w) - t1, TailIntegrand(w)); };
  const double guess = std::clamp(w0 - (t0 - t1) / TailIntegrand(w0), 0.0, w0);
  const double w = boost::math::tools::newton_raphson_iterate(f, guess, 0.0, w0, kRootDigits, iterations);
  const double chi = std::pow(w, inv_q);
  ph.tau_to_exit = chi / omega_;
  ph.tau = (kPi - chi) / omega_;
  return true;
}

double FengPowerLawSolution::JHalf() const {
  if (std::isnan(j_half_)) j_half_ = JHead(kPi / 2.0);
  return j_half_;
}

double FengPowerLawSolution::JPi() const {
  if (std::isnan(j_pi_)) j_pi_ = JHalf() + JTail(kPi / 2.0);
  return j_pi_;
}

double FengPowerLawSolution::OverdampedX(double tau) const {
  return std::exp((sigma_ - zeta_) * tau) * OverdampedSTilde(sigma_, tau);
}

double FengPowerLawSolution::OverdampedXDot(double tau) const {
  const double e2 = std::exp(-2.0 * sigma_ * tau);
  return std::exp((sigma_ - zeta_) * tau) * (0.5 * (1.0 + e2) - zeta_ * OverdampedSTilde(sigma_, tau));
}

double FengPowerLawSolution::TimeUnitJ() const { return TimeScale() * std::pow(omega_, beta_ - 1.0); }

double FengPowerLawSolution::K(double tau) const {
  if (tau <= 0.0) return 0.0;
  if (beta_ == 0.0) return tau;
  IMPACTLAB_DEMAND(!rebounds());
  // Over-damped: u = w^{1/q} on [0, min(τ, 1)], X^{−β} du = (1/q)(u/X)^β dw.
  const double b = beta_, inv_q = 1.0 / q_, z = zeta_, s = sigma_;
  auto head = [b, inv_q, z, s](double w) {
    const double u = std::pow(w, inv_q);
    if (u <= 0.0) return 1.0;
    return std::pow(u / OverdampedSTilde(s, u), b) * std::exp(b * (z - s) * u);
  };
  const double u1 = std::min(tau, 1.0);
  double k = inv_q * TanhSinh().integrate(head, 0.0, std::pow(u1, q_), kQuadratureTolerance);
  if (tau > 1.0) {
    auto tail = [b, z, s](double u) { return std::exp(-b * ((s - z) * u + std::log(OverdampedSTilde(s, u)))); };
    k += boost::math::quadrature::gauss_kronrod<double, 31>::integrate(tail, 1.0, tau, 15, kQuadratureTolerance);
  }
  return k;
}

double FengPowerLawSolution::pseudo_time_at_exit() const { return rebounds() ? kPi / omega_ : kInf; }

FengPowerLawSolution::Phase FengPowerLawSolution::PhaseAtPseudoTime(double tau) const {
  RequireNonNegative("tau", tau);
  Phase ph;
  ph.tau = std::min(tau, pseudo_time_at_exit());
  ph.tau_to_exit = rebounds() ? pseudo_time_at_exit() - ph.tau : kInf;
  return ph;
}

double FengPowerLawSolution::TimeAtPhase(const Phase& ph) const {
  if (!rebounds()) return TimeScale() * K(ph.tau);
  const double phi = omega_ * ph.tau, chi = omega_ * ph.tau_to_exit;
  if (beta_ == 0.0) return TimeScale() * ph.tau;
  return TimeUnitJ() * (phi <= kPi / 2.0 ? JHead(phi) : JPi() - JTail(chi));
}

double FengPowerLawSolution::TimeToExit(const Phase& ph) const {
  if (!rebounds()) return kInf;
  const double phi = omega_ * ph.tau, chi = omega_ * ph.tau_to_exit;
  if (beta_ == 0.0) return TimeScale() * ph.tau_to_exit;
  return TimeUnitJ() * (chi <= kPi / 2.0 ? JTail(chi) : JPi() - JHead(phi));
}

double FengPowerLawSolution::time_of_max_overlap() const { return TimeAtPhase(PhaseAtPseudoTime(tau_max_)); }

double FengPowerLawSolution::contact_time() const {
  if (!rebounds()) return kInf;
  return beta_ == 0.0 ? TimeScale() * kPi / omega_ : TimeUnitJ() * JPi();
}

FengPowerLawSolution::Phase FengPowerLawSolution::PhaseAtTimeToExit(double time_to_exit) const {
  RequireNonNegative("time_to_exit", time_to_exit);
  if (!rebounds()) throw InvalidParameter("time_to_exit", time_to_exit, "only for a rebounding contact (zeta < 1)");
  if (time_to_exit >= contact_time()) return PhaseAtPseudoTime(0.0);
  Phase ph;
  if (beta_ == 0.0) {
    ph.tau_to_exit = time_to_exit / TimeScale();
    ph.tau = pseudo_time_at_exit() - ph.tau_to_exit;
    return ph;
  }
  const double tail_target = time_to_exit / TimeUnitJ();
  // (The 1e-10 margin stops PhaseAtTime and this function from handing a point at φ ≈ π/2 back and forth.)
  if (tail_target > (JPi() - JHalf()) * (1.0 + 1e-10)) return PhaseAtTime(contact_time() - time_to_exit);
  // Newton in w with π − φ = χ = w^{1/q}: dJ_tail/dw = (1/q)(χ/sin χ)^β e^{βλ(π−χ)} ≠ 0.
  const double inv_q = 1.0 / q_, b = beta_, bl = beta_ * lambda_, w_half = std::pow(kPi / 2.0, q_) * (1.0 + 1e-9);
  auto f = [&](double w) {
    const double c = std::pow(w, inv_q);
    const double ratio = c > 0.0 ? c / std::sin(c) : 1.0;
    return std::make_pair(JTail(c) - tail_target, inv_q * std::pow(ratio, b) * std::exp(bl * (kPi - c)));
  };
  std::uintmax_t iterations = kMaxRootIterations;
  const double guess = std::clamp(q_ * tail_target * std::exp(-bl * kPi), 0.0, w_half);
  const double w = boost::math::tools::newton_raphson_iterate(f, guess, 0.0, w_half, kRootDigits, iterations);
  const double chi = std::pow(w, inv_q);
  ph.tau_to_exit = chi / omega_;
  ph.tau = (kPi - chi) / omega_;
  return ph;
}

FengPowerLawSolution::Phase FengPowerLawSolution::PhaseAtTime(double t) const {
  RequireNonNegative("t", t);
  if (t == 0.0) return PhaseAtPseudoTime(0.0);
  if (rebounds() && t >= contact_time()) return PhaseAtPseudoTime(pseudo_time_at_exit());
  if (beta_ == 0.0) return PhaseAtPseudoTime(t / TimeScale());
  const double inv_q = 1.0 / q_;
  std::uintmax_t iterations = kMaxRootIterations;
  if (rebounds()) {
    const double j_target = t / TimeUnitJ();
    if (j_target > JHalf()) return PhaseAtTimeToExit(contact_time() - t);
    // Newton in w with φ = w^{1/q}: dJ_head/dw = (1/q)(φ/sin φ)^β e^{βλφ} ≠ 0.
    const double w_half = std::pow(kPi / 2.0, q_), b = beta_, bl = beta_ * lambda_;
    auto f = [&](double w) {
      const double psi = std::pow(w, inv_q);
      const double ratio = psi > 0.0 ? psi / std::sin(psi) : 1.0;
      return std::make_pair(JHead(psi) - j_target, inv_q * std::pow(ratio, b) * std::exp(bl * psi));
    };
    const double guess = std::clamp(q_ * j_target, 0.0, w_half);
    const double w = boost::math::tools::newton_raphson_iterate(f, guess, 0.0, w_half, kRootDigits, iterations);
    return PhaseAtPseudoTime(std::pow(w, inv_q) / omega_);
  }
  // Over-damped: head (τ ≤ 1) in w, beyond in τ with dK/dτ = X^{−β}.
  const double k_target = t / TimeScale();
  const double k_one = K(1.0);
  if (k_target <= k_one) {
    auto f = [&](double w) {
      const double u = std::pow(w, inv_q);
      const double d = u > 0.0 ? inv_q * std::pow(u / OverdampedX(u), beta_) : inv_q;
      return std::make_pair(K(u) - k_target, d);
    };
    const double w = boost::math::tools::newton_raphson_iterate(f, std::clamp(q_ * k_target, 0.0, 1.0), 0.0, 1.0,
                                                                kRootDigits, iterations);
    return PhaseAtPseudoTime(std::pow(w, inv_q));
  }
  double hi = 2.0;
  while (K(hi) < k_target) {
    hi *= 2.0;
    if (!std::isfinite(K(hi))) throw InvalidParameter("t", t, "a time the over-damped solution reaches in double");
  }
  auto f = [&](double tau) { return std::make_pair(K(tau) - k_target, std::pow(OverdampedX(tau), -beta_)); };
  return PhaseAtPseudoTime(
      boost::math::tools::newton_raphson_iterate(f, 0.5 * (1.0 + hi), 1.0, hi, kRootDigits, iterations));
}

PowerLawContactState FengPowerLawSolution::StateAtPhase(const Phase& ph) const {
  PowerLawContactState s = KinematicsAtPhase(ph);
  s.t = TimeAtPhase(ph);
  return s;
}

PowerLawContactState FengPowerLawSolution::KinematicsAtPhase(const Phase& ph) const {
  PowerLawContactState s;
  double big_x, big_x_dot;
  if (rebounds()) {
    // X = e^{−λφ} sin φ/ω, X' = e^{−λφ}(cos φ − λ sin φ); sin/cos from the smaller of φ and χ = π − φ.
    const double phi = omega_ * ph.tau, chi = omega_ * ph.tau_to_exit;
    const bool tail = chi < phi;
    const double sn = tail ? std::sin(chi) : std::sin(phi), cs = tail ? -std::cos(chi) : std::cos(phi);
    const double decay = std::exp(-lambda_ * phi);
    big_x = decay * sn / omega_;
    big_x_dot = decay * (cs - lambda_ * sn);
  } else {
    big_x = OverdampedX(ph.tau);
    big_x_dot = OverdampedXDot(ph.tau);
  }
  const double x = p_.impact_velocity / omega0_ * std::max(big_x, 0.0);
  s.delta = a_ * std::pow(x, q_);
  s.delta_dot = p_.impact_velocity * big_x_dot;
  return s;
}

PowerLawContactState FengPowerLawSolution::StateAtTime(double t) const {
  RequireNonNegative("t", t);
  if (rebounds() && t >= contact_time()) {
    PowerLawContactState s;
    s.t = t;
    s.delta_dot = exit_velocity();
    s.delta = exit_velocity() * (t - contact_time());
    return s;
  }
  PowerLawContactState s = KinematicsAtPhase(PhaseAtTime(t));
  s.t = t;
  return s;
}

std::vector<PowerLawContactState> FengPowerLawSolution::Trajectory(int samples) const {
  if (samples < 2) throw InvalidParameter("samples", static_cast<double>(samples), ">= 2");
  const double t_end = rebounds() ? contact_time() : 10.0 * time_of_max_overlap();
  std::vector<PowerLawContactState> out;
  out.reserve(static_cast<std::size_t>(samples));
  if (!rebounds() || beta_ == 0.0) {
    for (int i = 0; i < samples; ++i) out.push_back(StateAtTime(t_end * i / (samples - 1)));
    return out;
  }
  // Marching (ζ < 1, β > 0): consecutive samples differ by a short panel [w_prev, w] of the substituted
  // variable. When the panel is no longer than its distance to the singular point w = 0 (w_prev ≥ w − w_prev),
  // the integrand is analytic on a Bernstein ellipse with ρ ≥ 2 + √5, so 20-point Gauss-Legendre is exact to
  // round-off (ρ^{−40} < 1e−25); otherwise the full tanh_sinh integral from 0 is used.
  const double inv_q = 1.0 / q_, b = beta_, bl = beta_ * lambda_;
  const double w_half = std::pow(kPi / 2.0, q_);
  auto g_head = [b, bl, inv_q](double w) {
    const double psi = std::pow(w, inv_q);
    const double ratio = psi > 0.0 ? psi / std::sin(psi) : 1.0;
    return inv_q * std::pow(ratio, b) * std::exp(bl * psi);
  };
  auto g_tail = [b, bl, inv_q](double w) {
    const double c = std::pow(w, inv_q);
    const double ratio = c > 0.0 ? c / std::sin(c) : 1.0;
    return inv_q * std::pow(ratio, b) * std::exp(bl * (kPi - c));
  };
  using GaussLegendre = boost::math::quadrature::gauss<double, 20>;
  double w_head = 0.0, j_head = 0.0;                     // head: J(w_head) = j_head
  double w_tail = w_half, j_tail = JPi() - JHalf();      // tail: J_tail(w_tail) = j_tail
  const double unit = TimeUnitJ();
  for (int i = 0; i < samples; ++i) {
    const double t = t_end * i / (samples - 1);
    PowerLawContactState st;
    if (i == 0 || i == samples - 1) {
      st = StateAtTime(t);
    } else if (t / unit <= JHalf()) {
      const double target = t / unit;
      auto head_integral = [&](double w) {
        return w_head >= w - w_head ? j_head + GaussLegendre::integrate(g_head, w_head, w)
                                    : JHead(std::pow(w, inv_q));
      };
      auto f = [&](double w) { return std::make_pair(head_integral(w) - target, g_head(w)); };
      std::uintmax_t iterations = kMaxRootIterations;
      const double guess = std::clamp(w_head + (target - j_head) / g_head(std::max(w_head, 1e-300)), w_head, w_half);
      const double w = boost::math::tools::newton_raphson_iterate(f, guess, w_head, w_half, kRootDigits, iterations);
      j_head = head_integral(w);
      w_head = w;
      st = KinematicsAtPhase(PhaseAtPseudoTime(std::pow(w, inv_q) / omega_));
    } else {
      const double target = (contact_time() - t) / unit;  // tail integral still ahead
      auto tail_integral = [&](double w) {
        return w >= w_tail - w ? j_tail - GaussLegendre::integrate(g_tail, w, w_tail) : JTail(std::pow(w, inv_q));
      };
      auto f = [&](double w) { return std::make_pair(tail_integral(w) - target, g_tail(w)); };
      std::uintmax_t iterations = kMaxRootIterations;
      const double guess = std::clamp(w_tail - (j_tail - target) / g_tail(w_tail), 0.0, w_tail);
      const double w = boost::math::tools::newton_raphson_iterate(f, guess, 0.0, w_tail, kRootDigits, iterations);
      j_tail = tail_integral(w);
      w_tail = w;
      const double chi = std::pow(w, inv_q);
      Phase ph;
      ph.tau = (kPi - chi) / omega_;
      ph.tau_to_exit = chi / omega_;
      st = KinematicsAtPhase(ph);
    }
    st.t = t;
    out.push_back(st);
  }
  return out;
}

bool FengPowerLawSolution::BacktraceState(double mass, double stiffness, double exponent, double alpha, double delta,
                                          double delta_dot, Backtrace& out) {
  RequirePositive("m", mass);
  RequirePositive("k", stiffness);
  RequireAtLeast("p", exponent, 1.0);
  RequireNonNegative("alpha", alpha);
  RequireNonNegative("delta", delta);
  RequireFinite("delta_dot", delta_dot);
  const double omega0 = std::sqrt(stiffness / mass);
  const double zeta = alpha / std::sqrt(2.0 * (exponent + 1.0));
  // x = √(2W/k) = √(2/(p+1)) δ^{(p+1)/2}; the linear-oscillator velocity dx/ds is δ̇ itself.
  const double x = std::sqrt(2.0 / (exponent + 1.0)) * std::pow(delta, 0.5 * (exponent + 1.0));
  const double y = omega0 * x;  // Ω₀ x [m/s-like]
  if (x == 0.0) {
    if (!(delta_dot > 0.0)) return false;
    out.impact_velocity = delta_dot;
    out.phase.tau = 0.0;
    out.phase.tau_to_exit = zeta < 1.0 ? std::numbers::pi / std::sqrt((1.0 - zeta) * (1.0 + zeta)) : kInf;
    return true;
  }
  if (zeta < 1.0) {
    const double omega = std::sqrt((1.0 - zeta) * (1.0 + zeta));
    const double lambda = zeta / omega;
    const double a = omega * y, b = delta_dot + zeta * y;
    // φ₀ = atan2(a, b) ∈ (0, π); its complement π − φ₀ = atan2(a, −b) is computed directly (accurate near exit).
    const double phi = std::atan2(a, b), chi = std::atan2(a, -b);
    out.impact_velocity = std::exp(lambda * phi) * std::hypot(a, b);
    out.phase.tau = phi / omega;
    out.phase.tau_to_exit = chi / omega;
    return std::isfinite(out.impact_velocity) && out.impact_velocity > 0.0;
  }
  const double sigma = std::sqrt((zeta - 1.0) * (zeta + 1.0));
  const double rho = delta_dot / y + zeta;  // = σ coth(στ₀) on an entry trajectory
  if (!(rho > sigma)) return false;
  const double tau = sigma > 0.0 ? std::atanh(sigma / rho) / sigma : 1.0 / rho;
  const double big_x = std::exp((sigma - zeta) * tau) * OverdampedSTilde(sigma, tau);
  out.impact_velocity = y / big_x;
  out.phase.tau = tau;
  out.phase.tau_to_exit = kInf;
  return std::isfinite(out.impact_velocity) && out.impact_velocity > 0.0;
}

}  // namespace impactlab
