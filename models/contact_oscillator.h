// ContactOscillator: a body of mass m approaching a rigid half-space (or two bodies, with m the reduced
// mass m₁m₂/(m₁+m₂)), 1 DOF [Seed001; docs/theory.md §5].
//
//   q = y [m] height of the body's contact point above the surface (y > 0 free flight), v = ẏ [m/s]
//   δ = −y (overlap), δ̇ = −v;   m ÿ = F_n(δ, δ̇) = W'(δ) + C(δ) δ̇  for δ > 0, 0 otherwise (never clipped)
//   V(y) = W(−y);  ∇V = −W'(δ);  damping matrix C(δ) (f_nc = −C v);  P_diss = C(δ) δ̇²
//
// Contact begins and ends at δ = 0; free flight before and after. Initial state: y₀ = initial_gap ≥ 0,
// v₀ = −impact_velocity (approaching). Optional constant gravity g ≥ 0 pulls towards the surface.
// Contact structure (for the conserving schemes): one wall term δ = −y, and the linear potential m g y.
#pragma once

#include <memory>

#include "contact/damped_normal_law.h"
#include "system/constant_mass_system.h"
#include "system/pair_potential_structure.h"
#include "system/power_law_oscillator_structure.h"

namespace impactlab {

struct ContactOscillatorParameters {
  double mass = 1.0;              ///< m [kg] > 0
  double impact_velocity = 1.0;   ///< v₀ [m/s] > 0 (speed of approach)
  double initial_gap = 0.0;       ///< y₀ [m] ≥ 0
  double gravity = 0.0;           ///< g [m/s²] ≥ 0
  double contact_radius = 0.0;    ///< R* [m] ≥ 0 of the contact (overlap-size check only; 0: unknown)
  void Validate() const;
};

class ContactOscillator final : public ConstantMassSystem,
                                public PairPotentialStructure,
                                public PowerLawOscillatorStructure {
 public:
  ContactOscillator(ContactOscillatorParameters parameters, DampedNormalLaw law);

  std::string name() const override { return "contact_oscillator"; }
  MechanicalState InitialState() const override;

  Eigen::VectorXd MassDiagonal() const override { return Eigen::VectorXd::Constant(1, p_.mass); }
  double Potential(const Eigen::VectorXd& q) const override;
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> gradient) const override;
  Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const override;
  Eigen::SparseMatrix<double> DampingMatrix(const Eigen::VectorXd& q) const override;
  void ExternalForce(double t, Eigen::Ref<Eigen::VectorXd> f) const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  double DissipationPower(const MechanicalState& s) const override;
  bool velocity_dependent_forces() const override { return damped_; }
  /// q̇ = v, no normalisation, no history; no dissipation without a damper (NoDamping's C(δ) = 0).
  DefaultHooks default_hooks() const override { return {true, true, true, !damped_}; }
  double PotentialEnergy(const MechanicalState& s) const override;

  int num_contacts() const override { return 1; }
  /// Δt_crit estimate for explicit schemes (docs/reliability.md, "Numerical guards").
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;
  std::optional<double> ContactSize(int contact) const override;
  void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override;

  std::vector<std::string> ObservableNames() const override {
    return {"delta_m", "delta_dot_m_s", "normal_force_N"};
  }
  void Observe(const MechanicalState& s, std::vector<double>& values) const override;

  const std::vector<ContactTerm>& ContactTerms() const override { return terms_; }
  Eigen::VectorXd LinearPotentialCoefficients() const override {
    return Eigen::VectorXd::Constant(1, p_.mass * p_.gravity);
  }
  const Eigen::VectorXd& LinearPotentialCoefficientsRef() const override { return linear_potential_; }
  // Allocation-free forms for the implicit schemes (same values as MassDiagonal, PotentialHessian, DampingMatrix).
  void WriteMassDiagonal(Eigen::Ref<Eigen::VectorXd> m) const override { m[0] = p_.mass; }
  void AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const override;
  void AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const override;
  /// ∂(C(q) w)/∂q = −C'(δ) w (δ = −q).
  void AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                         SparseEntries& entries) const override;
  std::size_t MaxSparseEntries() const override { return 1; }
  /// {m, k, p, α} when the law is a power law with no / Tsuji-form damping (Tsuji, universal, linear
  /// viscous at p = 1, Kuwabara–Kono at p = 2) and g = 0 [docs/theory.md §3, §5]; nullopt otherwise.
  std::optional<PowerLawOscillatorParameters> PowerLawOscillator(std::string* why_not) const override;

  const ContactOscillatorParameters& parameters() const { return p_; }
  const DampedNormalLaw& law() const { return law_; }

 private:
  ContactOscillatorParameters p_;
  DampedNormalLaw law_;
  bool damped_ = false;  ///< law_.damping is not "none" (cached: asked every step)
  std::vector<ContactTerm> terms_;
  Eigen::VectorXd linear_potential_;  ///< LinearPotentialCoefficients(), kept (read once per evaluation)
};

}  // namespace impactlab
