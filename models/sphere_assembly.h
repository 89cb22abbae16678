// SphereAssembly: N frictional solid spheres (3D translation and rotation each) in a box of planar walls under
// gravity — the classic DEM packing test [Cundall & Strack 1979]. Every sphere–sphere and sphere–wall contact
// uses the contact seam (contact/contact_law.h): a normal elastic law ⊕ a damping law ⊕ a tangential law from the
// registries, by default Hertz ⊕ Tsuji ⊕ Mindlin [Hertz 1882; Tsuji, Tanaka & Ishida 1992; Mindlin & Deresiewicz
// 1953]. The geometry of each contact is that of the single-contact models (models/sphere_pair_impact.h for a pair,
// models/sphere_wall_impact.h for a wall), so one pair or one sphere on the floor reproduces those models.
//
// Generalized coordinates (6 per sphere, as in SpherePairImpact):
//   q = [x_0, φ_0, x_1, φ_1, …]   centres [m] and accumulated rotation vectors φ_i = ∫ω_i dt [rad]
//   v = [v_0, ω_0, v_1, ω_1, …]   q̇ = v;  M = diag(m, m, m, I, I, I, …) constant, I = 2/5 m R²
// (isotropic inertia: no gyroscopic term; the contacts do not depend on orientation, φ only measures rotation
// increments, so the tangential increment of a step is a function of the positions at its two ends).
//
// Contacts (A = the lower-index sphere or the wall, B = the other sphere; n from A to B):
//   pair i < j:  r = x_j − x_i, n = r/|r|, δ = R_i + R_j − |r|, δ̇ = −(v_j − v_i)·n, arms a = R − δ/2,
//                Δs = P_t(n)[(r − r⁰) − ((R_i − δ̄/2)Δφ_i + (R_j − δ̄/2)Δφ_j) × n̄], n̄ = (n + n⁰)/|n + n⁰|,
//                δ̄ = (δ + max(δ⁰, 0))/2  (r⁰, n⁰, δ⁰, φ⁰ at the last committed step)
//   wall (point p, unit normal n into the box): δ = R − n·(x − p), δ̇ = −n·v, arm R,
//                Δs = P_t(n)[(x − x⁰) − R Δφ × n]
//   F_n = W'(δ) + C(δ) δ̇ (never clipped), F_t from the tangential law capped by μ W'(δ) (SphereContactModel);
//   on B: F_n n + F_t, torque (−a_B n) × F_t; on A (a sphere): −(F_n n + F_t), torque (a_A n) × (−F_t).
//   Gravity: −m g e_z on every sphere (a potential, m g z).
//
// Broad phase: a Verlet list with skin 0.1 R (geometry/verlet_list.h; Verlet 1967) over a cell list
// (geometry/cell_list.h; Allen & Tildesley 1987, §5.3) with cutoff 2R·(1 + 1e-9): exactly the cell list's pairs at
// every evaluation, the cells rebuilt only when a sphere has moved 0.05 R; O(N) per evaluation at bounded
// density, no N² array anywhere. Sphere–wall candidates: the (i, w) within the skin of wall w, rebuilt with the Verlet
// list (WallCandidates). The normal law's W'(δ), C(δ) are kept per candidate with their δ (NormalLawMemo).
//
// History z (rollback-exact; UpdateHistory is its only writer, a pure function of (before, after.q)):
//   [0, 6N)         q at the last committed step (x⁰, φ⁰ of every sphere)
//   [6N], [6N + 1]  total friction work W_f (cap removal + springs released at separation) and generated work W_g [J]
//   [6N + 2, …)     K history slots per sphere (key history_slots), each 1 + H entries: the partner code
//                   (j ≥ 0: sphere j > i; −2 − w: wall w; −1: empty) and the tangential law's H history values.
//                   A contact's slot belongs to its lower-index sphere (walls: to the sphere). Slots are filled
//                   from 0 in contact order; a sphere with more than K contacts stops the run with an
//                   InvalidParameter naming history_slots. δ⁰ and the elastic F_n⁰ of the tangential step are
//                   recomputed from x⁰ (the same value SphereContactModel stores).
// A committed step (UpdateHistory): every contact with δ > 0 at after.q takes one tangential step from its slot in
// before.z (zero history when new: the onset fraction δ/(δ − δ⁰) of Δs loads the spring, EvaluateTangentialStep),
// W_f += friction work, W_g += generated work; a slot of before.z whose contact is no longer active is dropped and
// the energy its spring still stores at δ⁰ is booked as friction work (SphereContactModel::BookStep).
// A force evaluation (Acceleration) takes the tangential step with Δs since the committed positions, except for a
// contact whose spheres are both at their committed positions and angles: there the step is the identity and F_t is
// the committed spring force (CommittedTangentialResponse; docs/theory.md §6, "The committed configuration").
// Energy ledger: E = Σ(½ m v² + ½ I ω²) + Σ m g z + Σ W(δ) + Σ U_t;  E + D_n + W_f − W_g = E₀, D_n = ∫Σ C δ̇² dt in
// MechanicalState::dissipated (DissipationPower).
//
// Energy-consistent schemes: through the contact seam (DiscreteContactSystem), pair and wall contacts as in
// SpherePairImpact / SphereWallImpact::EvaluateDiscreteStep.
// Rigid frictional contacts for the nonsmooth schemes (system/frictional_contact_structure.h; Moreau–Jean with the
// Newton–Coulomb law, docs/nonsmooth-peers.md) [Moreau 1988; Jean 1999; Acary & Brogliato 2008 §3.9]: every sphere
// pair i < j (contact α = its rank in (0,1), (0,2), …, (N−2, N−1)) and every sphere–wall pair (α = N(N−1)/2 + i·W + w)
// is declared, with the geometry of SpherePairImpact / SphereWallImpact and the tangent basis (t₁, t₂) of
// ContactTangentBasis(n) (models/sphere_contact_model.h):
//   pair:  g = |x_j − x_i| − 2R, n = (x_j − x_i)/|x_j − x_i|;  rows [−nᵀ 0 nᵀ 0], [−t_kᵀ −R(n×t_k)ᵀ t_kᵀ −R(n×t_k)ᵀ]
//          on (v_i, ω_i, v_j, ω_j);  Ḣ_n = [−ṅᵀ 0 ṅᵀ 0], ṅ = (ṙ − n(n·ṙ))/|r|
//   wall:  g = n·(x_i − p) − R;  rows [nᵀ 0], [t_kᵀ −R(n×t_k)ᵀ] on (v_i, ω_i);  Ḣ_n = 0
// μ from the tangential laws (the scenario's mu), M = diag(m, m, m, I, I, I), f = −m g e_z per sphere, and the
// calibrated e_n for Newton's law when the scenario names no e. All pairs are declared because a nonsmooth scheme
// must see every contact that can close during the run and the adapter fixes its interactions when it is built (t_end
// unknown there, so no distance bound from the cell list holds for the whole run). The Siconos adapter puts all of q
// in one dynamical system, so its interaction graph (index set 0) links every two of the I = N(N−1)/2 + N·W
// interactions: I(I−1)/2 edges, memory and set-up time ∝ N⁴ (measured, docs/nonsmooth-peers.md: 24 MB at N = 8,
// 95 MB at 27, 1.4 GB and ≈ 50 s per build at 64). Up to kMaxFrictionalSpheres = 64 spheres (2016 pairs, 320 wall
// contacts in the box); beyond it CheckFrictionalDeclaration names nx*ny*nz, its value and the range.
// Not (yet) provided: polydispersity (one radius, one material); contact event functions (num_contacts() = 0: a dynamic
// contact set of up to ~6N contacts is not a fixed list of event functions).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "contact/contact_law.h"
#include "system/discrete_contact_jacobian.h"
#include "system/discrete_contact_system.h"
#include "system/frictional_contact_structure.h"
#include "system/mechanical_system.h"

namespace impactlab {

/// A fixed planar wall: the half-space n·(x − point) ≥ 0 is inside the box.
struct AssemblyWall {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  ///< unit, pointing into the box
};

/// An explicit configuration (tests, user code): uniform spheres at given positions and velocities.
struct SphereAssemblyConfiguration {
  double radius = 1e-3;                 ///< R [m] > 0
  double density = 2500.0;              ///< ρ [kg/m³] > 0
  double gravity = 9.81;                ///< g [m/s²] ≥ 0, along −e_z
  std::vector<Eigen::Vector3d> positions;   ///< centres [m]
  std::vector<Eigen::Vector3d> velocities;  ///< [m/s] (same size as positions)
  std::vector<Eigen::Vector3d> spins;       ///< ω [rad/s] (same size, or empty: zero)
  std::vector<AssemblyWall> walls;
  int history_slots = 12;               ///< K ∈ [1, 64]: contacts one sphere may own
  double e_n = 1.0;                     ///< the restitution the laws were calibrated to (Δt_crit estimate)
  double shear_modulus_star = 0.0;      ///< G* of a sphere pair [Pa] (Δt_crit estimate; 0: unknown)
  void Validate() const;
};

/// The lattice packing of the scenarios: nx × ny × nz spheres on a simple cubic lattice of spacing 2R + gap in the
/// box [0, nx s] × [0, ny s] × [0, ∞) (floor and four side walls, open top), each centre jittered by up to
/// `jitter`·|gap|/2 per axis (gap < 0: a compressed lattice, every neighbour and wall contact overlapping by −gap
/// (−gap/2 at the walls) before the jitter) and given a random velocity of up to `random_speed` per axis (seeded, reproducible).
struct SphereAssemblyParameters {
  int nx = 4, ny = 4, nz = 4;  ///< ≥ 1 each
  double radius = 1e-3;        ///< R [m] > 0
  double density = 2500.0;     ///< ρ [kg/m³] > 0
  double E = 7.0e10;           ///< Young's modulus of the spheres [Pa] > 0
  double poisson = 0.25;       ///< [-] in [0, 0.5)
  double E_wall = 7.0e10;      ///< of the walls [Pa] > 0
  double nu_wall = 0.25;       ///< [-] in [0, 0.5)
  double e_n = 0.5;            ///< target normal restitution in (0, 1]
  double gravity = 9.81;       ///< g [m/s²] ≥ 0
  double gap = 1e-4;           ///< lattice gap between neighbouring surfaces [m] > −0.1 R
  double jitter = 0.5;         ///< in [0, 1)
  double random_speed = 0.01;  ///< [m/s] ≥ 0
  std::uint64_t seed = 1;
  int history_slots = 12;      ///< K ∈ [1, 64]

  void Validate() const;
  int num_spheres() const { return nx * ny * nz; }
  double spacing() const { return 2.0 * radius + gap; }
  double mass() const;
  double pair_effective_modulus() const;        ///< E* of two spheres [Pa]
  double pair_effective_shear_modulus() const;  ///< G* of two spheres [Pa]
  double wall_effective_modulus() const;        ///< E* of a sphere and a wall [Pa]
  double wall_effective_shear_modulus() const;  ///< G* of a sphere and a wall [Pa]
  /// The lattice, jitter and random velocities above.
  SphereAssemblyConfiguration Configuration() const;
};

/// One contact evaluated at a state (forces on B; A is sphere i, B sphere j, or A the wall and B sphere i).
struct AssemblyContact {
  bool active = false;
  double delta = 0.0, delta_dot = 0.0;
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double arm_a = 0.0, arm_b = 0.0;
  double normal_force_elastic = 0.0, normal_force = 0.0;
  double damping = 0.0;  ///< C(δ): F_n = W'(δ) + C(δ) δ̇
  TangentialResponse tangential;
};

/// W'(δ) and C(δ) of one contact, each kept with the δ it was computed at. Both are pure functions of δ (for a given
/// law), so a call with bitwise the same δ returns the kept value — bitwise what the law would return — instead of
/// evaluating it again (the power laws' `pow`). One velocity Verlet step of a contact asks for W'(δ⁰), W'(δ₁), C(δ₁)
/// (UpdateHistory), then W'(δ₁), C(δ₁) twice and, with the committed δ⁰ = δ₁, W'(δ⁰) (Acceleration), and C(δ₁)
/// (DissipationPower): with the memo (and P from Acceleration's contacts) W' and C are evaluated twice per contact
/// and step instead of eight times (docs/performance.md, "Sphere assembly: one force evaluation, profiled"). A NaN
/// key (the initial value) never matches.
struct NormalLawMemo {
  double elastic_delta = std::numeric_limits<double>::quiet_NaN(), elastic = 0.0;
  double damping_delta = std::numeric_limits<double>::quiet_NaN(), damping = 0.0;
  double Force(const NormalContactLaw& law, double delta) {
    if (!(delta == elastic_delta)) {
      elastic = law.Force(delta);
      elastic_delta = delta;
    }
    return elastic;
  }
  double Coefficient(const DampingLaw& law, double delta) {
    if (!(delta == damping_delta)) {
      damping = law.Coefficient(delta);
      damping_delta = delta;
    }
    return damping;
  }
};

class SphereAssembly final : public MechanicalSystem,
                             public DiscreteContactSystem,
                             public DiscreteContactJacobian,
                             public FrictionalContactStructure {
 public:
  /// `sphere_law` for sphere–sphere contacts, `wall_law` for sphere–wall contacts; both need a tangential part
  /// (μ = 0 for frictionless contact) with the same history size.
  SphereAssembly(SphereAssemblyConfiguration configuration, ContactLaw sphere_law, ContactLaw wall_law);

  std::string name() const override { return "sphere_assembly"; }
  MechanicalState InitialState() const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  /// Acceleration from the kept contacts without comparing q and z with their key (the caller's guarantee,
  /// MechanicalSystem::AccelerationAtNewVelocity): only F_n = W'(δ) + C(δ) δ̇ and the sums are formed from s.v.
  void AccelerationAtNewVelocity(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  bool velocity_dependent_forces() const override { return damped_; }
  /// q̇ = v (the rotational entries of q integrate ω), no normalisation; a history (UpdateHistory writes z); no
  /// dissipation without a damper (system/default_hooks.h). With q̇ = v declared, velocity Verlet's half kick and drift
  /// run as one pass, on the contact threads for 10⁴ spheres and more, instead of three serial passes.
  DefaultHooks default_hooks() const override { return {true, true, false, !damped_}; }
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override;

  double KineticEnergy(const MechanicalState& s) const override;
  double PotentialEnergy(const MechanicalState& s) const override;  ///< gravity + W_n + U_t
  double DissipationPower(const MechanicalState& s) const override;  ///< Σ C δ̇² over active contacts
  EnergyTerms EnergyBooks(const MechanicalState& s) const override;
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;

  std::vector<std::string> ObservableNames() const override;
  void Observe(const MechanicalState& s, std::vector<double>& values) const override;

  // --- energy-consistent schemes (system/discrete_contact_system.h) ---------------------------------
  // F̄ = Σ over the pairs within reach at q_n or q_{n+1} of SpherePairImpact's discrete pair force, Σ over the
  // sphere–wall contacts of SphereWallImpact's, plus m g e_z per sphere (gravity is linear in q: its discrete
  // gradient is exact). Books and slots as in UpdateHistory, with the law's discrete step.
  Eigen::VectorXd DiscreteMassDiagonal() const override;
  void WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const override;
  void EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                            DiscreteGradientForm form, DiscreteContactStep& out) const override;

  // --- sparse Newton Jacobian of the contact seam (system/discrete_contact_jacobian.h) ----------------
  // One block per contact of EvaluateDiscreteStep, in its order: 12 × 12 over (x_i, φ_i, x_j, φ_j) for a pair,
  // 6 × 6 over (x_i, φ_i) for a wall, by forward differences of that contact's discrete force alone
  // (system/contact_block_difference.h); the layout serially, each block's values on the contact threads
  // (core/contact_threads.h) into its own range, so the values do not depend on the thread count.
  void DiscreteStepJacobianBlocks(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                  DiscreteGradientForm form, double motion, ContactBlocks& blocks) const override;

  // --- rigid frictional contacts for the nonsmooth schemes (header comment) -----------------------------
  static constexpr int kMaxFrictionalSpheres = 64;
  int num_frictional_contacts() const override;  ///< N(N−1)/2 + N·W; throws beyond kMaxFrictionalSpheres
  Eigen::VectorXd FrictionalMassDiagonal() const override { return DiscreteMassDiagonal(); }
  Eigen::VectorXd ConstantForce() const override;  ///< −m g e_z on every sphere
  double FrictionCoefficient(int contact) const override;
  void DeclareFrictionalContact(int contact, const Eigen::VectorXd& q, double& gap,
                                Eigen::MatrixXd& jacobian) const override;
  Eigen::VectorXd NormalJacobianRate(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  /// InvalidParameter naming nx*ny*nz when N > kMaxFrictionalSpheres.
  void CheckFrictionalDeclaration() const override;
  std::optional<double> CalibratedRestitution() const override { return config_.e_n; }

  // --- ledger pieces and diagnostics ----------------------------------------------------------------
  double GravityEnergy(const MechanicalState& s) const;         ///< Σ m g z [J]
  double NormalElasticEnergy(const MechanicalState& s) const;   ///< Σ W(δ) [J]
  double TangentialElasticEnergy(const MechanicalState& s) const;  ///< Σ U_t of the slots in s.z [J]
  double FrictionWork(const MechanicalState& s) const { return s.z[books_]; }
  double GeneratedWork(const MechanicalState& s) const { return s.z[books_ + 1]; }
  /// (E + D_n + W_f − W_g − E₀)/E₀.
  double BalanceResidual(const MechanicalState& s) const;
  double initial_energy() const { return e0_; }
  /// Number of sphere–sphere and sphere–wall contacts with δ > 0 at s.
  std::pair<long, long> CountContacts(const MechanicalState& s) const;
  /// Number of occupied history slots in s.z.
  long OccupiedSlots(const MechanicalState& s) const;
  /// Largest overlap δ at s [m] (0 without contact).
  double MaxOverlap(const MechanicalState& s) const;

  /// Broad phase on (default) or a brute-force all-pairs loop (for the bitwise-identity test).
  void set_broad_phase(bool on) { broad_phase_ = on; }
  bool broad_phase() const { return broad_phase_; }

  int num_spheres() const { return n_; }
  int history_slots() const { return slots_; }
  double mass() const { return mass_; }
  double inertia() const { return inertia_; }
  const SphereAssemblyConfiguration& configuration() const { return config_; }
  const ContactLaw& sphere_law() const { return *sphere_law_; }
  const ContactLaw& wall_law() const { return *wall_law_; }

  /// Partner code of wall w in a slot.
  static double WallCode(int w) { return -2.0 - w; }

 private:
  /// The candidate pairs (i < j, within 2R) at q, ascending (cell list or all pairs).
  void CandidatePairs(const Eigen::VectorXd& q, std::vector<std::pair<int, int>>& pairs) const;
  /// The sphere–wall candidates (i, w) at q, ascending: with the broad phase, those with δ > −skin at the positions
  /// where this thread's list was last built (rebuilt with the Verlet list, so every (i, w) that touches until its
  /// next build is in it: a sphere moves less than skin/2 from the Verlet list's positions meanwhile); without it,
  /// every (i, w). Call after CandidatePairs(q).
  const std::vector<std::pair<int, int>>& WallCandidates(const Eigen::VectorXd& q) const;
  /// The law history of sphere i's slot for `code` in z, or empty when there is none.
  std::span<const double> FindHistory(const Eigen::VectorXd& z, int i, double code, int* slot = nullptr) const;
  /// `start`: the committed state's rates for the tangential law (slip → stick inside the step,
  /// contact/tangential/tangential_law.h); null: the one-step return mapping (force evaluations).
  /// `memo`: the contact's NormalLawMemo (null: none).
  /// v̇ from this thread's kept contacts (built by Acceleration at s.q, s.z): F = (W'(δ) + C(δ) δ̇) n + F_t per
  /// contact from s.v, divided by m once per contact, gathered per sphere in contact order, plus gravity and the kept
  /// angular accelerations.
  void GatherContactForces(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const;
  AssemblyContact EvaluatePair(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& z, int i,
                               int j, std::span<double> law_out, const TangentialStartRates* start = nullptr,
                               NormalLawMemo* memo = nullptr) const;
  AssemblyContact EvaluateWall(const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& z, int i,
                               int w, std::span<double> law_out, const TangentialStartRates* start = nullptr,
                               NormalLawMemo* memo = nullptr) const;
  /// The rates of pair (i, j) / wall contact (i, w) at the committed state `before`, `step` [s] after it: the rate
  /// of the contact's Δs there (the slip velocity with the arms R − δ/2), δ̇ and W''(δ) δ̇
  /// (SphereContactModel::StartRates).
  TangentialStartRates PairStartRates(const MechanicalState& before, int i, int j, double step) const;
  TangentialStartRates WallStartRates(const MechanicalState& before, int i, int w, double step) const;
  double PairOverlap(const Eigen::VectorXd& x, int offset, int i, int j) const;
  double WallOverlap(const Eigen::VectorXd& x, int offset, int i, int w) const;
  int SlotAt(int i, int k) const { return slots_at_ + (i * slots_ + k) * slot_size_; }
  /// Frictional contact α → (i, j ≥ 0) for a pair, (i, −1 − w) for wall w.
  std::pair<int, int> FrictionalContactBodies(int contact) const;

  // The contacts of one discrete step and the discrete force of one of them (shared by EvaluateDiscreteStep and
  // DiscreteStepJacobianBlocks). A step contact is a pair (i, other = j > i) or a wall (i, other = w).
  struct StepContact {
    int i = 0, other = 0;
    bool wall = false;
  };
  using PairCoordinates = Eigen::Matrix<double, 12, 1>;  ///< (x_i, φ_i, x_j, φ_j) at q₁
  using WallCoordinates = Eigen::Matrix<double, 6, 1>;   ///< (x_i, φ_i) at q₁
  /// Pairs within reach at q_n or q₁ with δ > 0 at q_n, q₁ or the last committed step, ascending; then every
  /// sphere–wall contact with the same test, sphere by sphere.
  void DiscreteStepContacts(const Eigen::VectorXd& q0, const Eigen::VectorXd& z0, const Eigen::VectorXd& q1,
                            std::vector<StepContact>& contacts) const;
  /// SpherePairImpact::EvaluateDiscreteStep for the pair (i, j): F̄ gets +force_j on x_i, −force_j on x_j and
  /// +arm_torque on φ_i and φ_j. `start`: the contact's rates at the step start (PairStartRates: the slip → stick
  /// switch inside the step). `target` receives the law's history after the step. `memo`: the contact's law values
  /// kept between the probes of its Jacobian block (DiscreteNormalMemo), or null.
  DiscreteContactResponse DiscretePairStep(const Eigen::VectorXd& q0, const Eigen::VectorXd& z0,
                                           const PairCoordinates& x1, int i, int j, double h,
                                           DiscreteGradientForm form, const TangentialStartRates& start,
                                           std::span<const double> history_prev,
                                           std::span<double> target, Eigen::Vector3d& force_j,
                                           Eigen::Vector3d& arm_torque, DiscreteNormalMemo* memo = nullptr) const;
  /// SphereWallImpact::EvaluateDiscreteStep for sphere i on wall w: F̄ gets −force on x_i, −torque on φ_i.
  DiscreteContactResponse DiscreteWallStep(const Eigen::VectorXd& q0, const Eigen::VectorXd& z0,
                                           const WallCoordinates& x1, int i, int w, double h,
                                           DiscreteGradientForm form, const TangentialStartRates& start,
                                           std::span<const double> history_prev,
                                           std::span<double> target, Eigen::Vector3d& force,
                                           Eigen::Vector3d& torque, DiscreteNormalMemo* memo = nullptr) const;

  SphereAssemblyConfiguration config_;
  std::shared_ptr<const ContactLaw> sphere_law_, wall_law_;
  int n_ = 0, slots_ = 12, history_ = 0, slot_size_ = 1;
  int books_ = 0, slots_at_ = 0, z_size_ = 0;
  double radius_ = 0.0, mass_ = 0.0, inertia_ = 0.0, cutoff_ = 0.0;
  bool damped_ = false, broad_phase_ = true;
  double e0_ = 0.0;
  std::uint64_t serial_ = 0;  ///< unique per model object (the key of the per-thread contact cache)
};

}  // namespace impactlab
