// PlanarEllipses: N rigid ellipses (disks when a = b) in the plane, optional fixed straight walls, uniform
// gravity −g ŷ, enhanced penalty contact with Coulomb friction (lib/planar/planar_penalty.h).
//
// Implements MechanicalSystem (so velocity_verlet, rk4, cvode_bdf ... run it), PlanarContactSystem (so
// EFDA runs it) and DiscreteContactSystem with its DiscreteContactJacobian (the midpoint family, with a sparse Newton
// matrix of one block per contact slot above 24 unknowns). Layout: q = (x, y, θ) per body, v = (v_x, v_y, ω), z[slot] = tangential spring g_T [m].
//   Contact force of one slot on its bodies (generalized): f = −F_N ∇δ − F_T ∇s, with
//   F_N = K_N δ + c_N δ̇ (unclipped, docs/theory.md §12.1), ∇δ, ∇s from planar_gap.h at the current q,
//   F_T = K_T g_T + c_T ṡ, capped at μ |F_N| (Coulomb).
//   Spring history (UpdateHistory, once per step, for the non-EFDA integrators): Δs = ∇s(q_{n+½})·Δq,
//   g ← g + Δs, then projected onto |K_T g| ≤ μ |F_N| (return mapping); reset to 0 when δ ≤ 0.
//   HistoryRate is 0: ODE integrators see the spring updated once per outer step (lagged by one step),
//   stated in docs/efda.md.
//   E = ½ vᵀMv + Σ ½ K_N ⟨δ⟩² + Σ ½ K_T g_T² + Σ m g y.
//   DissipationPower = Σ c_N δ̇² + (stick) c_T ṡ² + (spring saturated) μ |F_N| |ṡ| — an estimate used
//   by the baselines' trapezoidal D; EFDA books its exact step dissipation itself. Saturated: |K_T g_T + c_T ṡ|
//   ≥ μ |F_N|, except for a spring that the return mapping left on the cone (|g_T| = μ|F_N|/K_T exactly), which
//   slips while ṡ pushes it outward (g_T ṡ > 0) and sticks while ṡ unloads it, not by the rounding of K_T g_T.
// Momenta are defined (for the ledger) only without walls and gravity: P = Σ m v, L = Σ (x × m v + I ω).
//
// With a tangential law of the shared library (config.tangential_law: Cundall–Strack or a Mindlin law, bound to the
// planar contact by planar/planar_tangential_law.h, which states what the law is fed) the spring K_T, its dashpot
// c_T and its z layout are replaced by the law's; the normal penalty law is unchanged:
//   F_T = the law's spring force of the committed history, capped at μ K_N δ (explicit / ODE schemes, lagged by one
//         step like the spring above); UpdateHistory: the law's step with Δs = ∇s(q_{n+½})·Δq;
//   E = ½ vᵀMv + Σ ½ K_N ⟨δ⟩² + Σ U_t + Σ m g y;  DissipationPower = Σ c_N δ̇² (dashpots only);
//   EnergyBooks: stored {normal_elastic, tangential_elastic, gravity}, damping = dissipated, friction work W_f and
//   generated work W_g from z (the energy-consistent schemes keep E + D + W_f − W_g constant to round-off).
// Without a law (the default) every number is Seed003's spring model as above.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "planar/contact_slots.h"
#include "planar/ellipse.h"
#include "planar/planar_contact_system.h"
#include "planar/planar_tangential_law.h"
#include "planar/wall.h"
#include "system/discrete_contact_jacobian.h"
#include "system/discrete_contact_system.h"
#include "system/mechanical_system.h"

namespace impactlab {

struct PlanarEllipsesConfig {
  std::string name = "planar_ellipses";
  std::vector<Ellipse> bodies;
  std::vector<Wall> walls;
  PlanarPenalty penalty;
  /// Tangential law of the shared library replacing the penalty's spring K_T (and dashpot); null: the spring.
  std::shared_ptr<const PlanarTangentialLaw> tangential_law;
  double gravity = 0.0;          ///< g [m/s²] ≥ 0, acting along −ŷ
  Eigen::VectorXd q0, v0;        ///< initial (x, y, θ) and (v_x, v_y, ω) per body
  void Validate() const;
};

class PlanarEllipses final : public MechanicalSystem,
                             public PlanarContactSystem,
                             public DiscreteContactSystem,
                             public DiscreteContactJacobian {
 public:
  explicit PlanarEllipses(PlanarEllipsesConfig config);

  // MechanicalSystem
  std::string name() const override { return config_.name; }
  MechanicalState InitialState() const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override;
  /// q̇ = v (q = x, y, θ per ellipse), no normalisation; a history and a dissipation power (system/default_hooks.h).
  DefaultHooks default_hooks() const override { return {true, true, false, false}; }
  double KineticEnergy(const MechanicalState& s) const override;
  double PotentialEnergy(const MechanicalState& s) const override;
  double DissipationPower(const MechanicalState& s) const override;
  /// Default (spring K_T): MechanicalSystem's (T, one stored term, D = dissipated). With a tangential law: T,
  /// stored {normal_elastic, tangential_elastic, gravity}, D = dissipated (dashpots), W_f and W_g from z.
  EnergyTerms EnergyBooks(const MechanicalState& s) const override;
  int num_contacts() const override { return slots_.num_slots(); }
  /// Δt_crit estimate 2√(m_low/K)(√(1+ξ_N²) − ξ_N), K = max(K_N, K_T) (K_N alone with a tangential law: its
  /// stiffness changes along the contact and its force is lagged by one step), m_low = the smallest projected mass
  /// m I/(I + m r²) of a body with lever r ≤ its bounding radius (halved when bodies meet each other): a
  /// lower bound on every contact's m_n*, so a conservative estimate (docs/reliability.md).
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;
  void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override;
  /// The reading of one slot (bitwise ContactOverlaps' entry: the stand-in −1 m outside the broad phase), O(1).
  ContactReading ContactOverlapOf(const MechanicalState& s, int contact) const override;
  /// The slots with δ ≥ 0 among the broad phase's candidates at s, ascending: O(W N + N) with the cell list.
  void TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const override;
  std::optional<Eigen::Vector3d> LinearMomentum(const MechanicalState& s) const override;
  std::optional<Eigen::Vector3d> AngularMomentum(const MechanicalState& s) const override;
  /// Σ m_i |v_i|: the scale of the round-off in P when the total nearly vanishes (as ParticleAssembly).
  std::optional<double> LinearMomentumScale(const MechanicalState& s) const override;
  /// Σ (m_i |x_i| |v_i| + I_i |ω_i|): the scale of L about the origin, the point AngularMomentum uses.
  std::optional<double> AngularMomentumScale(const MechanicalState& s) const override;

  // PlanarContactSystem
  int num_bodies() const override { return static_cast<int>(config_.bodies.size()); }
  double body_mass(int body) const override { return config_.bodies[static_cast<size_t>(body)].mass; }
  double body_inertia(int body) const override { return config_.bodies[static_cast<size_t>(body)].inertia(); }
  double body_length_scale(int body) const override { return radii_[static_cast<size_t>(body)]; }
  int num_contact_slots() const override { return slots_.num_slots(); }
  void CandidateSlots(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b, std::vector<int>& out) const override;
  PlanarGap Gap(int slot, const Eigen::VectorXd& q) const override;
  double slot_larger_mass(int slot) const override;
  const PlanarPenalty& penalty() const override { return config_.penalty; }
  const PlanarTangentialLaw* tangential_law() const override { return config_.tangential_law.get(); }
  Eigen::VectorXd ExternalForce() const override;
  void WriteExternalForce(Eigen::VectorXd& f) const override;

  // DiscreteContactSystem: the planar discrete contact forces (planar/planar_discrete_contacts.h) in the form
  // the scheme asks for; all dissipated work (dashpots, slip, released springs) goes to MechanicalState::dissipated.
  Eigen::VectorXd DiscreteMassDiagonal() const override;
  void WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const override;
  void EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                            DiscreteGradientForm form, DiscreteContactStep& out) const override;
  /// DiscreteContactJacobian: one block per candidate slot of the step (CandidateSlots(q_n, q₁), ascending) over the
  /// coordinates of its bodies (body A's (x, y, θ) then body B's for a pair: 6 × 6; the body's for a wall: 3 × 3),
  /// the forward difference of that slot's force alone (PlanarSlotStep, system/contact_block_difference.h). So the
  /// Newton schemes above 24 unknowns (ellipses_multi) solve with a sparse matrix, O(contacts) per Jacobian.
  void DiscreteStepJacobianBlocks(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                  DiscreteGradientForm form, double motion, ContactBlocks& blocks) const override;

  const PlanarEllipsesConfig& config() const { return config_; }
  const ContactSlots& slots() const { return slots_; }

  /// Normal and tangential contact-point velocities of `slot` (δ̇ = −v_n) for gap geometry g at state s.
  void ContactVelocity(const PlanarGap& g, const MechanicalState& s, double& v_n, double& v_t) const;

 private:
  struct SlotForce {
    double f_n = 0.0, f_t = 0.0, delta_dot = 0.0, s_dot = 0.0;
    bool saturated = false;
  };
  SlotForce ForceOf(int slot, const PlanarGap& g, const MechanicalState& s) const;
  /// δ = the exact gap's overlap and δ̇ = −v_n of a candidate slot at s.
  ContactReading CandidateReading(int slot, const MechanicalState& s) const;
  /// Δs = ∇s(q_m)·(q1 − q0) of the gap gm at the midpoint configuration qm.
  double TangentialIncrement(const PlanarGap& gm, const Eigen::VectorXd& qm, const Eigen::VectorXd& q0,
                             const Eigen::VectorXd& q1) const;
  void UpdateLawHistory(const PlanarTangentialLaw& law, const MechanicalState& before, MechanicalState& after) const;
  double GravityEnergy(const MechanicalState& s) const;
  double NormalElasticEnergy(const MechanicalState& s) const;
  double LawTangentialEnergy(const PlanarTangentialLaw& law, const MechanicalState& s) const;

  PlanarEllipsesConfig config_;
  ContactSlots slots_;
  std::vector<double> radii_;
};

}  // namespace impactlab
