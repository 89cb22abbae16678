#include "models/particle_assembly.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <functional>
#include <iterator>
#include <cmath>
#include <span>

#include "core/checks.h"
#include "geometry/verlet_list.h"

namespace impactlab {

namespace {
/// Skin of the broad phase's neighbour list (geometry/verlet_list.h), relative to the cutoff: 0.1 R for equal disks,
/// as sphere_assembly's. The list is rebuilt when a body has moved half of it.
constexpr double kSkinFraction = 0.05;
}  // namespace

ParticleAssembly::ParticleAssembly(int dim, std::vector<double> masses, std::vector<double> radii,
                                   Eigen::VectorXd reference, const std::vector<std::pair<int, int>>& pairs,
                                   DampedNormalLaw law)
    : dim_(dim), mass_(std::move(masses)), radius_(std::move(radii)), reference_(std::move(reference)),
      law_(std::move(law)) {
  if (dim_ < 1 || dim_ > 3) throw InvalidParameter("dim", dim_, "1, 2 or 3");
  if (mass_.size() != radius_.size() || mass_.empty())
    throw InvalidParameter("num_bodies", static_cast<double>(mass_.size()), ">= 1, one radius per mass");
  for (size_t b = 0; b < mass_.size(); ++b) {
    RequirePositive("m", mass_[b]);
    RequirePositive("R", radius_[b]);
  }
  if (reference_.size() != static_cast<Eigen::Index>(dim_) * static_cast<Eigen::Index>(mass_.size()))
    throw InvalidParameter("reference_positions", static_cast<double>(reference_.size()), "dim * num_bodies entries");
  if (!law_.elastic || !law_.damping) throw InvalidParameter("normal_law", "<null>", "an elastic and a damping law");
  damped_ = law_.damping->name() != "none";
  const int n = num_bodies();
  terms_.reserve(pairs.size());
  for (const auto& [a, b] : pairs) {
    if (a < 0 || b < 0 || a >= n || b >= n || a == b)
      throw InvalidParameter("pair", std::to_string(a) + "-" + std::to_string(b), "two distinct bodies in [0, n)");
    ContactTerm t;
    t.kind = ContactTerm::Kind::kPair;
    t.first_a = static_cast<Eigen::Index>(dim_) * a;
    t.first_b = static_cast<Eigen::Index>(dim_) * b;
    t.dim = dim_;
    t.radius_sum = radius_[a] + radius_[b];
    t.pair_offset = reference_.segment(t.first_b, dim_) - reference_.segment(t.first_a, dim_);
    t.elastic = law_.elastic;
    t.damping = law_.damping;
    terms_.push_back(std::move(t));
  }
  ValidateContactTerms(*this, static_cast<Eigen::Index>(dim_) * n);
  partners_.resize(static_cast<size_t>(n));
  for (size_t k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs[k];
    partners_[static_cast<size_t>(std::min(a, b))].emplace_back(std::max(a, b), static_cast<int>(k));
    cutoff_ = std::max(cutoff_, radius_[static_cast<size_t>(a)] + radius_[static_cast<size_t>(b)]);
  }
  for (auto& p : partners_) std::sort(p.begin(), p.end());
  // 1e-6 relative: far above the rounding of |x_b − x_a| against PairGap's δ, so no touching pair is missed.
  cutoff_ *= 1.0 + 1e-6;
  broad_phase_ = terms_.size() > 4 * static_cast<size_t>(n);
  max_sparse_entries_ = StructureMaxSparseEntries(*this);
}

std::vector<int> ParticleAssembly::CandidateTerms(const Eigen::VectorXd& q) const {
  std::vector<int> active;
  CandidateTerms(q, active);
  return active;
}

void ParticleAssembly::CandidateTerms(const Eigen::VectorXd& q, std::vector<int>& active) const {
  // Per-thread storage (the model is const and may be shared between threads): the positions, the neighbour list
  // and its pairs; every list is given room for all terms, so none grows inside a step. The neighbour list gives
  // exactly the cell list's pairs within the cutoff (geometry/verlet_list.h), rebuilding it only when a body has
  // moved half the skin since its last build. It depends on the positions alone, so models sharing a thread share it.
  thread_local Eigen::VectorXd x;
  thread_local VerletList neighbours;
  thread_local std::vector<std::pair<int, int>> near;
  active.clear();
  active.reserve(terms_.size());
  x = reference_ + q;
  if (!x.allFinite() || terms_.empty()) {  // NaN/Inf state: the full loop (it propagates the NaN as before)
    active.resize(terms_.size());
    for (size_t k = 0; k < terms_.size(); ++k) active[k] = static_cast<int>(k);
    return;
  }
  near.reserve(terms_.size());
  neighbours.Reserve(terms_.size());
  neighbours.Pairs(dim_, std::span<const double>(x.data(), static_cast<size_t>(x.size())), cutoff_,
                   kSkinFraction * cutoff_, near);
  for (const auto& [i, j] : near) {
    const auto& p = partners_[static_cast<size_t>(i)];
    for (auto it = std::lower_bound(p.begin(), p.end(), std::make_pair(j, -1)); it != p.end() && it->first == j; ++it)
      active.push_back(it->second);
  }
  std::sort(active.begin(), active.end());  // the order of the full loop
}

const std::vector<int>* ParticleAssembly::CandidateTermsBetween(const Eigen::VectorXd& q0,
                                                                const Eigen::VectorXd& q1) const {
  if (!broad_phase_) return nullptr;
  thread_local std::vector<int> a, b, both;
  CandidateTerms(q0, a);
  CandidateTerms(q1, b);
  both.clear();
  both.reserve(2 * terms_.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return &both;
}

double ParticleAssembly::Potential(const Eigen::VectorXd& q) const {
  if (!broad_phase_) return StructurePotential(*this, q);
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(q, active);
  return StructurePotential(*this, q, &active);
}

void ParticleAssembly::PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const {
  if (!broad_phase_) return StructurePotentialGradient(*this, q, g);
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(q, active);
  StructurePotentialGradient(*this, q, g, &active);
}

Eigen::SparseMatrix<double> ParticleAssembly::PotentialHessian(const Eigen::VectorXd& q) const {
  if (!broad_phase_) return StructurePotentialHessian(*this, q);
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(q, active);
  return StructurePotentialHessian(*this, q, &active);
}

Eigen::SparseMatrix<double> ParticleAssembly::DampingMatrix(const Eigen::VectorXd& q) const {
  if (!broad_phase_) return StructureDampingMatrix(*this, q);
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(q, active);
  return StructureDampingMatrix(*this, q, &active);
}

void ParticleAssembly::AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  if (!broad_phase_) return AppendStructurePotentialHessianEntries(*this, q, entries);
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(q, active);
  AppendStructurePotentialHessianEntries(*this, q, entries, &active);
}

void ParticleAssembly::AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  if (!broad_phase_) return AppendStructureDampingMatrixEntries(*this, q, entries);
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(q, active);
  AppendStructureDampingMatrixEntries(*this, q, entries, &active);
}

void ParticleAssembly::AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                                         SparseEntries& entries) const {
  if (!broad_phase_) return AppendStructureDampingForceGradientEntries(*this, q, w, entries);
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(q, active);
  AppendStructureDampingForceGradientEntries(*this, q, w, entries, &active);
}

void ParticleAssembly::WriteMassDiagonal(Eigen::Ref<Eigen::VectorXd> m) const {
  for (int b = 0; b < num_bodies(); ++b) m.segment(dim_ * b, dim_).setConstant(mass_[b]);
}

Eigen::VectorXd ParticleAssembly::MassDiagonal() const {
  Eigen::VectorXd m(static_cast<Eigen::Index>(dim_) * num_bodies());
  for (int b = 0; b < num_bodies(); ++b) m.segment(dim_ * b, dim_).setConstant(mass_[b]);
  return m;
}

MechanicalSystem::ContactReading ParticleAssembly::TermReading(const MechanicalState& s, size_t k) const {
  // d and w of dimension ≤ 3 on the stack (the event functions run every step of an event-locating scheme)
  using Small = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 3, 1>;
  const ContactTerm& t = terms_[k];
  Small d = s.q.segment(t.first_b, t.dim) - s.q.segment(t.first_a, t.dim);  // PairSeparation(t, s.q)
  if (t.pair_offset.size() > 0) d += t.pair_offset;
  const Small w = s.v.segment(t.first_b, t.dim) - s.v.segment(t.first_a, t.dim);
  const double r = d.norm();
  return {static_cast<int>(k), PairGap(t, s.q), r > 0.0 ? -d.dot(w) / r : 0.0};
}

void ParticleAssembly::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                       std::span<double> overlap_rate) const {
  for (size_t k = 0; k < terms_.size(); ++k) {
    const ContactReading r = TermReading(s, k);
    overlap[k] = r.overlap;
    overlap_rate[k] = r.rate;
  }
}

MechanicalSystem::ContactReading ParticleAssembly::ContactOverlapOf(const MechanicalState& s, int contact) const {
  if (contact < 0 || contact >= num_contacts())
    throw InvalidParameter("contact", contact, "[0, " + std::to_string(num_contacts()) + ")");
  return TermReading(s, static_cast<size_t>(contact));
}

void ParticleAssembly::TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const {
  out.clear();
  auto keep = [&](size_t k) {
    const ContactReading r = TermReading(s, k);
    if (r.overlap >= 0.0) out.push_back(r);
  };
  if (!broad_phase_) {
    for (size_t k = 0; k < terms_.size(); ++k) keep(k);
    return;
  }
  thread_local std::vector<int> active;  // per-thread storage: no allocation once sized
  CandidateTerms(s.q, active);           // every term with δ ≥ 0, ascending
  for (const int k : active) keep(static_cast<size_t>(k));
}

Eigen::Vector3d ParticleAssembly::Velocity(const Eigen::VectorXd& v, int b) const {
  Eigen::Vector3d w = Eigen::Vector3d::Zero();
  w.head(dim_) = v.segment(dim_ * b, dim_);
  return w;
}

Eigen::Vector3d ParticleAssembly::Position(const Eigen::VectorXd& q, int b) const {
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  x.head(dim_) = q.segment(dim_ * b, dim_) + reference_.segment(dim_ * b, dim_);
  return x;
}

std::optional<Eigen::Vector3d> ParticleAssembly::LinearMomentum(const MechanicalState& s) const {
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (int b = 0; b < num_bodies(); ++b) p += mass_[b] * Velocity(s.v, b);
  return p;
}

std::optional<double> ParticleAssembly::LinearMomentumScale(const MechanicalState& s) const {
  double sum = 0.0;
  for (int b = 0; b < num_bodies(); ++b) sum += mass_[b] * s.v.segment(dim_ * b, dim_).norm();
  return sum;
}

std::optional<Eigen::Vector3d> ParticleAssembly::AngularMomentum(const MechanicalState& s) const {
  if (dim_ == 1) return std::nullopt;  // collinear motion: L ≡ 0 about the line
  Eigen::Vector3d xg = Eigen::Vector3d::Zero();
  double m_total = 0.0;
  for (int b = 0; b < num_bodies(); ++b) {
    xg += mass_[b] * Position(s.q, b);
    m_total += mass_[b];
  }
  xg /= m_total;
  Eigen::Vector3d l = Eigen::Vector3d::Zero();
  for (int b = 0; b < num_bodies(); ++b) l += mass_[b] * (Position(s.q, b) - xg).cross(Velocity(s.v, b));
  return l;
}

std::optional<double> ParticleAssembly::AngularMomentumScale(const MechanicalState& s) const {
  if (dim_ == 1) return std::nullopt;
  Eigen::Vector3d xg = Eigen::Vector3d::Zero();
  double m_total = 0.0;
  for (int b = 0; b < num_bodies(); ++b) {
    xg += mass_[b] * Position(s.q, b);
    m_total += mass_[b];
  }
  xg /= m_total;
  double sum = 0.0;
  for (int b = 0; b < num_bodies(); ++b) sum += mass_[b] * (Position(s.q, b) - xg).norm() * Velocity(s.v, b).norm();
  return sum;
}

}  // namespace impactlab

namespace impactlab {

std::optional<double> ParticleAssembly::ContactSize(int contact) const {
  if (contact < 0 || contact >= num_contacts()) return std::nullopt;
  const ContactTerm& t = terms_[static_cast<size_t>(contact)];
  if (t.kind != ContactTerm::Kind::kPair) return std::nullopt;
  const size_t a = static_cast<size_t>(t.first_a / dim_), b = static_cast<size_t>(t.first_b / dim_);
  return std::min(radius_[a], radius_[b]);
}

}  // namespace impactlab

namespace impactlab {

std::optional<double> ParticleAssembly::CriticalTimeStep(const MechanicalState& s) const {
  const int n = num_bodies();
  double v_ref = 0.0;
  for (const auto& t : terms_)
    if (t.kind == ContactTerm::Kind::kPair)
      v_ref = std::max(v_ref, (s.v.segment(t.first_b, t.dim) - s.v.segment(t.first_a, t.dim)).norm());
  std::vector<std::vector<double>> contributions(static_cast<size_t>(n));
  for (const auto& t : terms_) {
    if (t.kind != ContactTerm::Kind::kPair || !t.elastic) continue;
    const int a = static_cast<int>(t.first_a / dim_), b = static_cast<int>(t.first_b / dim_);
    const double ma = mass_[static_cast<size_t>(a)], mb = mass_[static_cast<size_t>(b)];
    const double k = t.elastic->coefficient(), p = t.elastic->exponent();
    double stiffness = k;  // linear: independent of the overlap
    if (p != 1.0) {
      if (!(v_ref > 0.0)) return std::nullopt;
      const double m_red = ma * mb / (ma + mb);
      const double delta_max = std::pow((p + 1.0) * m_red * v_ref * v_ref / (2.0 * k), 1.0 / (p + 1.0));
      stiffness = p * k * std::pow(delta_max, p - 1.0);
    }
    contributions[static_cast<size_t>(a)].push_back(stiffness * (1.0 / ma + 1.0 / std::sqrt(ma * mb)));
    contributions[static_cast<size_t>(b)].push_back(stiffness * (1.0 / mb + 1.0 / std::sqrt(ma * mb)));
  }
  const size_t kissing = dim_ == 1 ? 2 : dim_ == 2 ? 6 : 12;
  double omega2 = 0.0;
  for (auto& c : contributions) {
    std::sort(c.begin(), c.end(), std::greater<>());
    double sum = 0.0;
    for (size_t i = 0; i < std::min(kissing, c.size()); ++i) sum += c[i];
    omega2 = std::max(omega2, sum);
  }
  if (!(omega2 > 0.0 && std::isfinite(omega2))) return std::nullopt;
  return 2.0 / std::sqrt(omega2);
}

}  // namespace impactlab
