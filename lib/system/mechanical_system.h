// MechanicalSystem: what an integrator can ask of a mechanical problem (a "model").
//
//   q̇ = N(q) v                      PositionRate   (N = I by default)
//   v̇ = a(t, q, v, z)               Acceleration   (M⁻¹ times all generalized forces, gyroscopic included)
//   ż = Z(t, q, v, z)               HistoryRate    (continuous history variables; zero by default)
//   E = T(q, v) + V(q, z)           KineticEnergy + PotentialEnergy (V includes energy stored in history springs)
//   P_diss(q, v, z) ≥ 0             DissipationPower (physical damping/friction power; reported unclipped so a
//                                   law that creates energy shows up as negative dissipation)
//
// Contacts are exposed as "contact events": for contact i the overlap δ_i (> 0 in contact, ≤ 0 separated)
// and its rate δ̇_i. The simulation driver locates sign changes of δ_i (contact start/end) and of δ̇_i
// inside a contact (maximum overlap). Sign convention (all of impactlab): δ > 0 is penetration, the normal
// force is positive when compressive (repulsive), n points from body A into body B.
//
// Integrators know nothing about specific models: they see this interface (and the optional
// ConstantMassSystem extension for implicit / conserving schemes). Models know nothing about integrators.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "state/energy_terms.h"
#include "system/default_hooks.h"
#include "state/mechanical_state.h"

namespace impactlab {

class MechanicalSystem {
 public:
  virtual ~MechanicalSystem() = default;

  virtual std::string name() const = 0;
  /// Initial state as configured (t = 0, dissipated = 0).
  virtual MechanicalState InitialState() const = 0;

  // --- kinematics and dynamics -------------------------------------------------------------------
  /// q̇ = N(q) v. Default: q̇ = v (requires q and v of equal size).
  virtual void PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const { q_dot = s.v; }
  /// v̇ = M⁻¹ (f_conservative + f_nonconservative + f_external), gyroscopic terms included.
  virtual void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const = 0;
  /// v̇ at a state that differs from the state of this system's previous Acceleration call on the same thread only
  /// in v: t, q and z bitwise the same, and no other call of this system in between. The caller guarantees it
  /// (velocity Verlet's end-velocity fixed point, which changes only v between its evaluations). A model that keeps
  /// what depends on (t, q, z) may then skip the check that its cache still holds; the result must be bitwise
  /// Acceleration's. Default: Acceleration.
  virtual void AccelerationAtNewVelocity(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
    Acceleration(s, v_dot);
  }
  /// False when a(t, q, v, z) does not depend on v (lets explicit schemes skip velocity iterations).
  virtual bool velocity_dependent_forces() const { return true; }
  /// The optional hooks below (PositionRate, NormalizeCoordinates, UpdateHistory, DissipationPower) that this
  /// model leaves at their defaults, so that generic explicit steps may skip the calls (system/default_hooks.h).
  /// Default: none declared, every hook is called.
  virtual DefaultHooks default_hooks() const { return {}; }
  /// ż for history variables that evolve continuously (ODE-based integrators integrate it). Default 0.
  virtual void HistoryRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> z_dot) const {
    (void)s;
    z_dot.setZero();
  }
  /// Discrete history update from the previous accepted state to the new one (incremental laws).
  /// Called by every integrator once per step after the new positions are known, before the final
  /// force evaluation of the step. Must be a pure function of (before, after.q, after.v, after.t); a model may use
  /// before's rates over the step after.t − before.t (the sphere models' tangential laws locate a slip → stick
  /// switch inside the step with them, contact/tangential/tangential_law.h).
  virtual void UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
    (void)before;
    (void)after;
  }
  /// Project coordinates back onto their manifold (e.g. renormalize unit quaternions). Default: none.
  virtual void NormalizeCoordinates(MechanicalState& s) const { (void)s; }

  // --- energy ------------------------------------------------------------------------------------
  virtual double KineticEnergy(const MechanicalState& s) const = 0;
  virtual double PotentialEnergy(const MechanicalState& s) const = 0;
  virtual double DissipationPower(const MechanicalState& s) const {
    (void)s;
    return 0.0;
  }
  double TotalEnergy(const MechanicalState& s) const { return KineticEnergy(s) + PotentialEnergy(s); }
  /// The typed energy books of state s (state/energy_terms.h). Default: T, one stored term "potential" and the
  /// state's cumulative dissipated work as damping work. Models with friction or laws that create energy
  /// override it; their terms must sum to TotalEnergy.
  virtual EnergyTerms EnergyBooks(const MechanicalState& s) const {
    EnergyTerms e;
    e.kinetic = KineticEnergy(s);
    e.stored = {{"potential", PotentialEnergy(s)}};
    e.damping_work = s.dissipated;
    return e;
  }

  // --- contacts ----------------------------------------------------------------------------------
  /// Number of contact event functions (pairs that may touch). May be 0.
  virtual int num_contacts() const { return 0; }
  /// Overlap δ_i [m] (> 0 in contact) and its time rate δ̇_i [m/s] for every contact i.
  virtual void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                               std::span<double> overlap_rate) const {
    (void)s;
    (void)overlap;
    (void)overlap_rate;
  }
  /// One contact's reading: its index, δ_i [m] and δ̇_i [m/s] as ContactOverlaps gives them.
  struct ContactReading {
    int contact = -1;
    double overlap = 0.0;
    double rate = 0.0;
  };
  /// δ_i and δ̇_i of contact i alone, bitwise the entries i of ContactOverlaps (the event locators evaluate one
  /// contact at many interpolated states). Default: ContactOverlaps over every contact, O(num_contacts()); models
  /// with many contacts override it in O(1).
  virtual ContactReading ContactOverlapOf(const MechanicalState& s, int contact) const;
  /// Every contact i with δ_i ≥ 0 at s (touching or in contact), in ascending index, with the readings
  /// ContactOverlaps gives; a contact not listed has δ_i < 0 (or δ_i not a number). `out` is cleared first. The
  /// simulation driver detects contact starts, ends and overlap maxima from two consecutive lists. Default: filters
  /// ContactOverlaps, O(num_contacts()); models with a broad phase override it in O(N) (the pairs it finds).
  virtual void TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const;
  /// Number of switch functions: scalar functions g_j whose sign change from + to − ends a smooth branch of the
  /// force law inside a contact (e.g. stick → slip of a tangential spring; docs/event-splitting.md). May be 0.
  virtual int num_switches() const { return 0; }
  /// g_j at `s` with the history the law would commit from `step_start` to `s` (UpdateHistory(step_start, s),
  /// the stage-history rule of integrators/first_order_form.h); g_j > 0 on the smooth branch that may end,
  /// dimensionless and of order 1 there (schemes compare it with a round-off margin), finite everywhere.
  virtual void SwitchFunctions(const MechanicalState& step_start, const MechanicalState& s,
                               std::span<double> g) const {
    (void)step_start;
    (void)s;
    (void)g;
  }

  // --- stability and scale estimates (for the guards of the run driver, docs/reliability.md) ----------
  /// Estimated stability limit Δt_crit [s] of explicit schemes (central difference / velocity Verlet,
  /// Δt_crit = 2/ω_max with the stiffest contact frequency expected from state s, reduced for damping where
  /// the model knows it). An ESTIMATE (the contact stiffness varies along the impact), used to warn, never
  /// to change a step. nullopt: the model does not know one.
  virtual std::optional<double> CriticalTimeStep(const MechanicalState& s) const {
    (void)s;
    return std::nullopt;
  }
  /// Characteristic size [m] of the bodies meeting at contact i (e.g. the smaller radius), against which
  /// the overlap δ_i is judged physical or not. nullopt: unknown.
  virtual std::optional<double> ContactSize(int contact) const {
    (void)contact;
    return std::nullopt;
  }

  // --- momenta (for isolated systems; nullopt where undefined, e.g. a body against a wall) ---------
  virtual std::optional<Eigen::Vector3d> LinearMomentum(const MechanicalState& s) const {
    (void)s;
    return std::nullopt;
  }
  virtual std::optional<Eigen::Vector3d> AngularMomentum(const MechanicalState& s) const {
    (void)s;
    return std::nullopt;
  }
  /// Scales for the relative momentum drift, e.g. Σ m_i |v_i| and Σ m_i |x_i − x_G| |v_i|, for systems whose
  /// total momentum may vanish. nullopt: the ledger uses |P(0)| and |L(0)|.
  virtual std::optional<double> LinearMomentumScale(const MechanicalState& s) const {
    (void)s;
    return std::nullopt;
  }
  virtual std::optional<double> AngularMomentumScale(const MechanicalState& s) const {
    (void)s;
    return std::nullopt;
  }

  // --- what observers log --------------------------------------------------------------------------
  /// Names (with units) of extra model-specific columns of the time series, e.g. "delta_m".
  virtual std::vector<std::string> ObservableNames() const { return {}; }
  virtual void Observe(const MechanicalState& s, std::vector<double>& values) const {
    (void)s;
    values.clear();
  }
};

}  // namespace impactlab
