#include "models/ellipsoid_wall_impact.h"

#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "dynamics/contact_mass.h"

namespace impactlab {

namespace {
constexpr double kDegree = std::numbers::pi / 180.0;

Eigen::Matrix3d RotationY(double theta) { return AxisAngleRotation(Eigen::Vector3d::UnitY(), theta); }
Eigen::Vector3d Centre(const Eigen::VectorXd& q) { return Eigen::Vector3d(q[0], 0.0, q[1]); }
}  // namespace

void EllipsoidWallParameters::Validate() const {
  shape.Validate();
  RequirePositive("mass", mass);
  RequireInClosed("theta_deg", theta_deg, -180.0, 180.0);
  RequireFinite("v_x", v_x);
  if (!(std::isfinite(v_z) && v_z < 0.0)) throw InvalidParameter("v_z", v_z, "< 0 (towards the wall) [m/s]");
  RequireFinite("omega_y", omega_y);
  RequireNonNegative("gap", gap);
  RequirePositive("K_n", K_n);
  RequireInLeftOpen("e_cn", e_cn, 0.0, 1.0);
}

double EllipsoidWallParameters::inertia_yy() const {
  const double a = shape.semi_axes[0], c = shape.semi_axes[2];
  return mass * (a * a + c * c) / 5.0;
}

const PlaneWall& EllipsoidWallImpact::Wall() {
  static const PlaneWall wall{};
  return wall;
}

EllipsoidWallImpact::EllipsoidWallImpact(EllipsoidWallParameters parameters)
    : p_((parameters.Validate(), parameters)),
      inertia_(p_.inertia_yy()),
      law_(p_.K_n),
      damping_(p_.e_cn, p_.damping,
               p_.damping == DampingMassMode::kFixedInitialMass ? InitialProjectedMass(p_.theta_deg * kDegree)
                                                                 : p_.mass) {}

double EllipsoidWallImpact::InitialProjectedMass(double theta) const {
  const auto g = EvaluateEllipsoidPlane(p_.shape, Eigen::Vector3d::Zero(), RotationY(theta), Wall());
  const double r_x = g.support_point.x();
  return 1.0 / (1.0 / p_.mass + r_x * r_x / p_.inertia_yy());
}

MechanicalState EllipsoidWallImpact::InitialState() const {
  const double theta = p_.theta_deg * kDegree;
  const auto g = EvaluateEllipsoidPlane(p_.shape, Eigen::Vector3d::Zero(), RotationY(theta), Wall());
  MechanicalState s;
  s.q = Eigen::Vector3d(0.0, g.h + p_.gap, theta);
  s.v = Eigen::Vector3d(p_.v_x, p_.v_z, p_.omega_y);
  s.z.resize(0);
  return s;
}

Eigen::VectorXd EllipsoidWallImpact::MassDiagonal() const { return Eigen::Vector3d(p_.mass, p_.mass, inertia_); }

void EllipsoidWallImpact::WriteMassDiagonal(Eigen::Ref<Eigen::VectorXd> m) const {
  m[0] = p_.mass;
  m[1] = p_.mass;
  m[2] = inertia_;
}

EllipsoidWallContactState EllipsoidWallImpact::ContactAt(const Eigen::VectorXd& q) const {
  EllipsoidWallContactState c;
  const Eigen::Vector3d centre = Centre(q);
  c.geometry = EvaluateEllipsoidPlane(p_.shape, centre, RotationY(q[2]), Wall());
  c.response = law_.Evaluate(p_.shape, c.geometry, centre, Wall().normal);
  const bool touching = c.geometry.in_contact();
  c.lever_x = (touching ? c.geometry.section_centroid : c.geometry.support_point).x() - centre.x();
  c.m_n_star = 1.0 / (1.0 / p_.mass + c.lever_x * c.lever_x / inertia_);
  // The damper uses the in-contact limit δ → 0⁺ already at δ = 0 exactly (docs/theory.md §12.2): a run that starts
  // at first touch must feel η|v_cn| from its first force evaluation, else e_cn shifts by O(1/N).
  if (c.geometry.delta >= 0.0) {
    c.k_eff = EccEffectiveStiffness(p_.K_n, p_.shape.semi_axes.prod(), c.geometry.h, c.geometry.t);
    c.eta = damping_.Coefficient(c.m_n_star, c.k_eff);
  }
  return c;
}

double EllipsoidWallImpact::Potential(const Eigen::VectorXd& q) const { return ContactAt(q).response.potential; }

void EllipsoidWallImpact::PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const {
  const auto c = ContactAt(q);
  g[0] = -c.response.force.x();
  g[1] = -c.response.force.z();
  g[2] = -c.response.torque.y();
}

Eigen::SparseMatrix<double> EllipsoidWallImpact::PotentialHessian(const Eigen::VectorXd& q) const {
  SparseEntries entries;
  AppendPotentialHessianEntries(q, entries);
  Eigen::SparseMatrix<double> hess(3, 3);
  hess.setFromTriplets(entries.begin(), entries.end());
  return hess;
}

void EllipsoidWallImpact::AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  const auto g = EvaluateEllipsoidPlane(p_.shape, Centre(q), RotationY(q[2]), Wall());
  const double z = q[1];
  if (!(g.delta > 0.0 && g.t < 2.0)) return;
  const double a2 = p_.shape.semi_axes[0] * p_.shape.semi_axes[0];
  const double c2 = p_.shape.semi_axes[2] * p_.shape.semi_axes[2];
  const double k = p_.K_n * std::numbers::pi * p_.shape.semi_axes.prod();
  const double H = g.sigma(2, 2), P = g.sigma(0, 2);
  const double dH = -2.0 * P, dP = (c2 - a2) * std::cos(2.0 * q[2]);
  const double f = (H - z * z) * std::pow(H, -1.5);
  const double f_theta = dH * std::pow(H, -2.5) * (1.5 * z * z - 0.5 * H);
  const double v_zz = 2.0 * k * z * std::pow(H, -1.5);
  const double v_zt = -k * f_theta;
  const double v_tt = -k * z * (f_theta * P / H + f * dP / H - f * P * dH / (H * H));
  entries.emplace_back(1, 1, v_zz);
  entries.emplace_back(2, 1, v_zt);
  entries.emplace_back(1, 2, v_zt);
  entries.emplace_back(2, 2, v_tt);
}

Eigen::SparseMatrix<double> EllipsoidWallImpact::DampingMatrix(const Eigen::VectorXd& q) const {
  SparseEntries entries;
  AppendDampingMatrixEntries(q, entries);
  Eigen::SparseMatrix<double> m(3, 3);
  m.setFromTriplets(entries.begin(), entries.end());
  return m;
}

void EllipsoidWallImpact::AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  const auto c = ContactAt(q);
  if (!(c.eta > 0.0)) return;
  const double r = c.lever_x;
  entries.emplace_back(1, 1, c.eta);
  entries.emplace_back(2, 1, -c.eta * r);
  entries.emplace_back(1, 2, -c.eta * r);
  entries.emplace_back(2, 2, c.eta * r * r);
}

void EllipsoidWallImpact::AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                                            SparseEntries& entries) const {
  if (!(ContactAt(q).eta > 0.0)) return;
  // C(x) w = (0, f, −r f) with f = η (w_z − r w_θ), at x = q shifted in coordinate j ∈ {z, θ}.
  thread_local Eigen::VectorXd x;  // per-thread storage: no allocation once sized (the model may be shared)
  auto damping_force = [&](int j, double shift, double& f, double& r) {
    x = q;
    x[j] += shift;
    const auto c = ContactAt(x);
    r = c.lever_x;
    f = c.eta * (w[1] - r * w[2]);
  };
  const double steps[3] = {0.0, 1e-7 * p_.shape.semi_axes.maxCoeff(), 1e-7};
  for (int j = 1; j <= 2; ++j) {
    double fp = 0.0, rp = 0.0, fm = 0.0, rm = 0.0;
    damping_force(j, steps[j], fp, rp);
    damping_force(j, -steps[j], fm, rm);
    entries.emplace_back(1, j, (fp - fm) / (2.0 * steps[j]));
    entries.emplace_back(2, j, (-rp * fp + rm * fm) / (2.0 * steps[j]));
  }
}

void EllipsoidWallImpact::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const auto c = ContactAt(s.q);
  const double v_cn = s.v[1] - s.v[2] * c.lever_x;
  const double f_damp = -c.eta * v_cn;  // along n, at x̄
  const double f_z = c.response.force.z() + f_damp;
  v_dot[0] = c.response.force.x() / p_.mass;
  v_dot[1] = f_z / p_.mass;
  v_dot[2] = (c.response.torque.y() - c.lever_x * f_damp) / inertia_;
}

double EllipsoidWallImpact::ContactNormalVelocity(const MechanicalState& s) const {
  return s.v[1] - s.v[2] * ContactAt(s.q).lever_x;
}

double EllipsoidWallImpact::DissipationPower(const MechanicalState& s) const {
  const auto c = ContactAt(s.q);
  const double v_cn = s.v[1] - s.v[2] * c.lever_x;
  return c.eta * v_cn * v_cn;
}

void EllipsoidWallImpact::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                          std::span<double> overlap_rate) const {
  const Eigen::Vector3d centre = Centre(s.q);
  const auto g = EvaluateEllipsoidPlane(p_.shape, centre, RotationY(s.q[2]), Wall());
  const double r_support = g.support_point.x() - centre.x();
  overlap[0] = g.delta;
  overlap_rate[0] = -(s.v[1] - s.v[2] * r_support);
}

double EllipsoidWallImpact::TranslationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * p_.mass * (s.v[0] * s.v[0] + s.v[1] * s.v[1]);
}
double EllipsoidWallImpact::RotationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * inertia_ * s.v[2] * s.v[2];
}

std::vector<std::string> EllipsoidWallImpact::ObservableNames() const {
  return {"delta_m",     "v_cn_m_s",  "E_kin_trans_J", "E_kin_rot_J", "W_J",
          "m_n_star_kg", "k_eff_N_m", "eta_N_s_m",     "normal_force_N", "lever_x_m"};
}

void EllipsoidWallImpact::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const auto c = ContactAt(s.q);
  const double v_cn = s.v[1] - s.v[2] * c.lever_x;
  values = {c.geometry.delta,
            v_cn,
            TranslationalKineticEnergy(s),
            RotationalKineticEnergy(s),
            c.response.potential,
            c.m_n_star,
            c.k_eff,
            c.eta,
            c.response.normal_force - c.eta * v_cn,
            c.lever_x};
}

}  // namespace impactlab

namespace impactlab {

// Seed000 eq. (15): ω_max = √(k_eff/m_n*) with k_eff at first touch (t = 0, its largest value, 2π K_n ρ_G)
// and m_n* for the orientation of state s, Δt_crit = 2/ω_max, reduced by Belytschko's factor √(1+ξ²) − ξ for
// the contact-centric damping ratio ξ. The orientation changes during a run: an estimate, for state s.
std::optional<double> EllipsoidWallImpact::CriticalTimeStep(const MechanicalState& s) const {
  const EllipsoidWallContactState c = ContactAt(s.q);
  const double k_eff = EccEffectiveStiffness(p_.K_n, p_.shape.semi_axes.prod(), c.geometry.h, 0.0);
  const double m_n = InitialProjectedMass(s.q[2]);
  if (!(k_eff > 0.0 && m_n > 0.0)) return std::nullopt;
  const double xi = damping_.damping_ratio();
  return 2.0 / CriticalContactFrequency(k_eff, m_n) * (std::sqrt(1.0 + xi * xi) - xi);
}

std::optional<double> EllipsoidWallImpact::ContactSize(int contact) const {
  (void)contact;
  return p_.shape.semi_axes.minCoeff();
}

}  // namespace impactlab
