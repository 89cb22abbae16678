#include "integrators/contact_term_discrete_force.h"

#include "integrators/gonzalez_discrete_gradient.h"

#include <cmath>
#include <optional>
#include <vector>

#include "core/errors.h"
#include "state/same_bits.h"

namespace impactlab {

const PairPotentialStructure& RequirePairPotentialStructure(const MechanicalSystem& system,
                                                            const std::string& integrator) {
  const auto* s = dynamic_cast<const PairPotentialStructure*>(&system);
  if (!s)
    throw InvalidParameter("integrator", "\"" + integrator + "\"",
                           "a model exposing its contact terms (PairPotentialStructure); model \"" + system.name() +
                               "\" does not (use gonzalez_dg or implicit_midpoint)");
  return *s;
}

namespace {

// Pair-term vectors and blocks have dim ≤ 3: stack storage (heap temporaries per term dominated a chain step).
using Vec3 = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 3, 1>;
using Mat3 = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 3, 3>;

template <class Q>
Vec3 Separation(const ContactTerm& t, const Q& q) {
  Vec3 d = q.segment(t.first_b, t.dim) - q.segment(t.first_a, t.dim);
  if (t.pair_offset.size() > 0) d += t.pair_offset;
  return d;
}

// Relative threshold below which the difference quotient falls back to the midpoint derivative
// (docs/theory.md §7 "Cancellation guard").
constexpr double kQuotientThreshold = 1e-7;

// Difference quotient and its derivative with respect to the end point b.
struct Quotient {
  double value = 0.0;  // f̄'(a, b)
  double d_db = 0.0;   // ∂f̄'/∂b (0 when not asked for)
  double noise = 0.0;  // magnitude of the terms that cancel in value, (|f(a)| + |f(b)|)/|b − a| (round-off ~ε·noise)
  bool fallback = false;
};

// True when δ₀, δ₁ coincide to the guard's relative threshold (decided in the gap δ for both pair forms,
// so that the invariant form falls back exactly where the gap form does).
bool GapsCoincide(double d0, double d1) {
  return !(std::abs(d1 - d0) > kQuotientThreshold * (std::abs(d0) + std::abs(d1)));
}

// `difference` is b − a when the caller has it more accurately than the rounded b − a (the invariant
// form: C₁ − C₀ = 2 d_{n+½}·Δd is exact to ε·ΔC, whereas (C₀ + ΔC) − C₀ is only exact to ε·C₀).
// `fa`, when given, is f(a) already known (the step-start value of StepStartMemo). f(a) and f(b) are evaluated
// at most once each (the quotient and its noise share them): the same operations on the same inputs as the
// difference quotient of lib/contact/discrete_derivative.h, whose guard (scale 0) the caller has decided with
// the same rule (GapsCoincide), so the values are bitwise those of DiscreteDerivative. ∂f̄'/∂b (df(b) or ddf) is
// evaluated only when `derivative` is true: a Newton Jacobian reads it, nothing else does.
template <class F, class DF, class DDF>
Quotient QuotientOf(const F& f, const DF& df, const DDF& ddf, double a, double b, bool fallback, bool derivative,
                    std::optional<double> difference = std::nullopt, const double* fa = nullptr) {
  Quotient q;
  const double diff = difference ? *difference : b - a;
  q.fallback = fallback || diff == 0.0;
  if (q.fallback) {
    q.value = df(0.5 * (a + b));
    if (derivative) q.d_db = 0.5 * ddf(0.5 * (a + b));
    return q;
  }
  const double f_a = fa ? *fa : f(a), f_b = f(b);
  q.value = (f_b - f_a) / diff;
  if (derivative) q.d_db = (df(b) - q.value) / diff;
  q.noise = (std::abs(f_a) + std::abs(f_b)) / std::abs(diff);
  return q;
}

// The gap-form quotients W̄'(δ₀, δ₁) and c̄(δ₀, δ₁) of one term (wall terms, and pair terms of form kGapQuotient),
// with W(δ₀), Φ(δ₀) from `start` when given; ∂W̄'/∂δ₁ only with `jacobian` (the Jacobian reads C(δ₁), not ∂c̄/∂δ₁).
struct GapQuotients {
  Quotient w, c;
};
GapQuotients GapFormQuotients(const NormalContactLaw& law, const DampingLaw& damper, double d0, double d1,
                              const StepStartMemo::Values* start, bool jacobian) {
  const bool coincide = GapsCoincide(d0, d1);
  return {QuotientOf([&](double d) { return law.Potential(d); }, [&](double d) { return law.Force(d); },
                     [&](double d) { return law.Stiffness(d); }, d0, d1, coincide, jacobian, std::nullopt,
                     start && !coincide ? &start->potential : nullptr),
          QuotientOf([&](double d) { return damper.DissipationPotential(d); },
                     [&](double d) { return damper.Coefficient(d); }, [](double) { return 0.0; }, d0, d1, coincide,
                     false, std::nullopt, start && !coincide ? &start->dissipation_potential : nullptr)};
}

}  // namespace

void StepStartMemo::Reset(std::size_t terms) {
  if (entries_.size() < terms) entries_.resize(terms);
  ++epoch_;  // every entry stored before is stale (entries start at epoch 0, epoch_ is ≥ 1 from here on)
}

const StepStartMemo::Values& StepStartMemo::At(std::size_t index, double d0, const NormalContactLaw& law,
                                               const DampingLaw& damper) {
  Entry& e = entries_[index];
  // Bitwise equality of the key (== would identify −0.0 with +0.0 and could never match a NaN).
  if (e.epoch != epoch_ || !SameBits(e.d0, d0)) {
    e.d0 = d0;
    e.epoch = epoch_;
    e.values = {law.Potential(d0), damper.DissipationPotential(d0)};
  }
  return e.values;
}

namespace {

// The sum over the contact terms of F̄ (into `force`), Σ |terms| per coordinate (into `magnitude`) and D_n (into
// `dissipation`), all three zero on entry, and, when `jacobian` is true, the entries of ∂F̄/∂q₁ handed to
// add(i, j, value) in a fixed order; q₁ is any Eigen vector (the generic Eigen::VectorXd or the fixed-size storage of
// the small-system path), the statements are the same for both.
template <class Q1, class Vector, class Add>
void SumContactTerms(const PairPotentialStructure& structure, const std::vector<int>* subset, DiscreteGradientForm form,
                     const Eigen::VectorXd& q0, const Q1& q1, double h, Vector& force, Vector& magnitude,
                     double& dissipation, bool jacobian, Add&& add, StepStartMemo* memo) {
  const std::vector<ContactTerm>& terms = structure.ContactTerms();
  const size_t count = subset ? subset->size() : terms.size();
  // W(δ₀), Φ(δ₀) of term k: from the memo when there is one (a pointer to them), else nullptr (evaluated inline).
  auto step_start = [&](size_t k, double d0) -> const StepStartMemo::Values* {
    return memo ? &memo->At(k, d0, *terms[k].elastic, *terms[k].damping) : nullptr;
  };
  for (size_t index = 0; index < count; ++index) {
    const size_t term_index = subset ? static_cast<size_t>((*subset)[index]) : index;
    const ContactTerm& t = terms[term_index];
    const NormalContactLaw& law = *t.elastic;
    const DampingLaw& damper = *t.damping;
    if (t.kind == ContactTerm::Kind::kWall) {
      const double d0 = WallGap(t, q0), d1 = WallGap(t, q1);
      if (d0 <= 0.0 && d1 <= 0.0 && law.Potential(d0) == 0.0 && law.Potential(d1) == 0.0) continue;
      const GapQuotients g = GapFormQuotients(law, damper, d0, d1, step_start(term_index, d0), jacobian);
      const Quotient &w = g.w, &c = g.c;
      const double dd = d1 - d0;
      const double s = w.value + c.value * dd / h;
      dissipation += c.value * dd * dd / h;
      // ∂(c̄Δδ)/∂δ₁ = Φ'(δ₁) = C(δ₁) (or C(δ_mid) in the fallback)
      const double ds = jacobian ? w.d_db + (c.fallback ? c.value : damper.Coefficient(d1)) / h : 0.0;
      const double noise = w.noise + c.noise * std::abs(dd) / h;
      for (const auto& [i, gi] : t.wall_gradient) {
        force[i] += s * gi;
        magnitude[i] += (std::abs(s) + noise) * std::abs(gi);
        if (jacobian)
          for (const auto& [j, gj] : t.wall_gradient) add(i, j, ds * gi * gj);
      }
      continue;
    }
    // pair term
    if (t.dim > 3) throw InvalidParameter("pair term dim", t.dim, "1, 2 or 3");
    const Vec3 dv0 = Separation(t, q0), dv1 = Separation(t, q1);
    const double r0 = dv0.norm(), r1 = dv1.norm();
    const double d0 = PairGap(t, q0), d1 = PairGap(t, q1);  // accurate gaps (no R − r cancellation)
    // Δd from the coordinate increments directly (the offset cancels), accurate even when |d| ≫ |Δd|.
    const Vec3 ddv = (q1.segment(t.first_b, t.dim) - q0.segment(t.first_b, t.dim)) -
                                (q1.segment(t.first_a, t.dim) - q0.segment(t.first_a, t.dim));
    if (d0 <= 0.0 && d1 <= 0.0) continue;
    if (r0 == 0.0 || r1 == 0.0) continue;  // coincident centres: no direction (model must prevent this)
    const Vec3 dmid = 0.5 * (dv0 + dv1);
    Vec3 fb(t.dim);  // force on b (= −force on a) contribution to F̄ at b's coordinates
    Mat3 block;
    double noise = 0.0;  // magnitude of the cancelling terms in fb's entries
    if (form == DiscreteGradientForm::kGapQuotient) {
      const GapQuotients g = GapFormQuotients(law, damper, d0, d1, step_start(term_index, d0), jacobian);
      const Quotient &w = g.w, &c = g.c;
      const double dd = d1 - d0;
      const double s = w.value + c.value * dd / h;
      dissipation += c.value * dd * dd / h;
      const double rbar = 0.5 * (r0 + r1);
      fb = -s * dmid / rbar;  // F̄_b = s ∇̄_b δ
      noise = (w.noise + c.noise * std::abs(dd) / h) * dmid.norm() / rbar;
      if (jacobian) {
        const double ds = w.d_db + (c.fallback ? c.value : damper.Coefficient(d1)) / h;
        const Mat3 p = ds * dmid * dv1.transpose() / (rbar * r1);
        const Mat3 k = 0.5 * Mat3::Identity(t.dim, t.dim) / rbar -
                                  0.5 * dmid * dv1.transpose() / (r1 * rbar * rbar);
        block = p - s * k;
      }
    } else {
      // C₁ − C₀ = 2 d_{n+½}·Δd exactly; C₁ is taken as C₀ + that, so that F̄·Δq = W̃̄'·ΔC holds to round-off.
      const double c0 = dv0.squaredNorm(), c1 = c0 + 2.0 * dmid.dot(ddv), rs = t.radius_sum;
      // W̃(C) = W(R − √C), W̃' = −W'/(2√C), W̃'' = W''/(4C) + W'/(4C^{3/2}); Φ̃ likewise (C' dropped
      // in the fallback's derivative, which only affects Newton's rate, never the balance).
      // W̃ at the end points uses the accurate gaps; in between (fallback midpoint) the invariant form.
      auto wt = [&](double cc) { return cc == c0 ? law.Potential(d0) : cc == c1 ? law.Potential(d1)
                                                                            : law.Potential(rs - std::sqrt(cc)); };
      auto dwt = [&](double cc) {
        if (cc == c1) return -law.Force(d1) / (2.0 * r1);  // end point: the accurate gap
        const double r = std::sqrt(cc);
        return -law.Force(rs - r) / (2.0 * r);
      };
      auto ddwt = [&](double cc) {
        const double r = std::sqrt(cc);
        return law.Stiffness(rs - r) / (4.0 * cc) + law.Force(rs - r) / (4.0 * cc * r);
      };
      auto pt = [&](double cc) {
        return cc == c0 ? damper.DissipationPotential(d0)
                        : cc == c1 ? damper.DissipationPotential(d1) : damper.DissipationPotential(rs - std::sqrt(cc));
      };
      auto dpt = [&](double cc) {
        if (cc == c1) return -damper.Coefficient(d1) / (2.0 * r1);
        const double r = std::sqrt(cc);
        return -damper.Coefficient(rs - r) / (2.0 * r);
      };
      const bool coincide = GapsCoincide(d0, d1);
      const double exact_dc = 2.0 * dmid.dot(ddv);
      // wt(c₀) = W(δ₀) and pt(c₀) = Φ(δ₀) (the accurate gap at the end point): the step-start values.
      const StepStartMemo::Values* start = coincide ? nullptr : step_start(term_index, d0);
      const Quotient w =
          QuotientOf(wt, dwt, ddwt, c0, c1, coincide, jacobian, exact_dc, start ? &start->potential : nullptr);
      const Quotient c = QuotientOf(pt, dpt, [](double) { return 0.0; }, c0, c1, coincide, false, exact_dc,
                                    start ? &start->dissipation_potential : nullptr);
      // Φ-form in the invariant: damping force (ΔΦ/ΔC)(Δδ/h) ∇C(q_{n+½}), i.e. c̄ g gᵀ v with
      // g = ∇̄δ = (Δδ/ΔC) ∇C(q_{n+½}); its work is D = (ΔΦ/ΔC) Δδ ΔC / h = ΔΦ Δδ / h ≥ 0.
      const double dd = d1 - d0, dc = exact_dc;
      const double s = w.value + c.value * dd / h;
      dissipation += c.value * dd * dc / h;
      fb = 2.0 * s * dmid;
      noise = (w.noise + c.noise * std::abs(dd) / h) * 2.0 * dmid.norm();
      if (jacobian) {
        // ∂δ₁/∂C₁ = −1/(2 r₁)
        const double dcv = c.fallback ? 0.0 : (dpt(c1) - c.value) / dc;  // ∂c̃̄/∂C₁
        const double ds = w.d_db + (dcv * dd - c.value / (2.0 * r1)) / h;
        block = 4.0 * ds * dmid * dv1.transpose() + s * Mat3::Identity(t.dim, t.dim);
      }
    }
    force.segment(t.first_b, t.dim) += fb;
    force.segment(t.first_a, t.dim) -= fb;
    magnitude.segment(t.first_b, t.dim).array() += fb.cwiseAbs().array() + noise;
    magnitude.segment(t.first_a, t.dim).array() += fb.cwiseAbs().array() + noise;
    if (jacobian) AddPairBlock(t, block, add);
  }
  const Eigen::VectorXd& b = structure.LinearPotentialCoefficientsRef();
  if (b.size() > 0) {
    force += b;
    magnitude += b.cwiseAbs();
  }
}

}  // namespace

void EvaluateContactTermDiscreteForce(const PairPotentialStructure& structure, DiscreteGradientForm form,
                                      const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, double h,
                                      DiscreteForceEvaluation& out, NewtonJacobian* jacobian, StepStartMemo* memo) {
  const Eigen::Index n = q0.size();
  out.force.setZero(n);
  out.dissipation = 0.0;
  // Storage reused between calls (out.scratch): no heap allocation once sized.
  Eigen::VectorXd& magnitude = out.scratch.magnitude;  // Σ |terms| per coordinate (round-off scale)
  magnitude.setZero(n);
  SparseEntries& trip = out.scratch.entries;
  trip.clear();
  // All terms, or the structure's broad phase (ascending, so the same order of summation: the skipped terms
  // are exactly those that would `continue` in SumContactTerms).
  const std::vector<int>* subset = structure.CandidateTermsBetween(q0, q1);
  const size_t count = subset ? subset->size() : structure.ContactTerms().size();
  // A system of at most 3 unknowns whose solver reads the dense form gets ∂F̄/∂q₁ summed straight into it
  // (NewtonJacobian::small): the same additions in the same order as setFromTriplets' sums of duplicates, from 0.
  const bool dense = jacobian && jacobian->accepts_small && n <= kSmallJacobian;
  if (dense) jacobian->small.setZero(n, n);
  if (jacobian && !dense) trip.reserve(4 * count);
  auto add = [&](Eigen::Index i, Eigen::Index j, double v) {
    if (dense)
      jacobian->small(i, j) += v;
    else
      trip.emplace_back(i, j, v);
  };
  SumContactTerms(structure, subset, form, q0, q1, h, out.force, magnitude, out.dissipation, jacobian != nullptr, add,
                  memo);
  out.scale = magnitude.lpNorm<Eigen::Infinity>();
  if (jacobian) {
    // setFromTriplets, refilled in place while the contact set (the triplets' coordinates) is unchanged.
    if (!dense) out.scratch.jacobian_assembler.Assemble(n, n, trip, jacobian->matrix);
    jacobian->u.resize(0);
    jacobian->w.resize(0);
  }
}

template <int N>
void EvaluateContactTermDiscreteForce(const PairPotentialStructure& structure, DiscreteGradientForm form,
                                      const Eigen::VectorXd& q0, const Eigen::Matrix<double, N, 1>& q1, double h,
                                      SmallDiscreteForce<N>& out, Eigen::Matrix<double, N, N>* jacobian,
                                      StepStartMemo* memo) {
  out.force.setZero();
  out.dissipation = 0.0;
  Eigen::Matrix<double, N, 1> magnitude = Eigen::Matrix<double, N, 1>::Zero();
  // No broad phase (CandidateTermsBetween) at N ≤ 3: by its contract the terms it leaves out are those the full
  // loop skips without adding anything, so the full loop is the same sum, bit for bit, without the call and the
  // copy of q₁ into the Eigen::VectorXd its interface reads.
  if (jacobian) jacobian->setZero();
  auto add = [jacobian](Eigen::Index i, Eigen::Index j, double v) { (*jacobian)(i, j) += v; };
  SumContactTerms(structure, nullptr, form, q0, q1, h, out.force, magnitude, out.dissipation, jacobian != nullptr, add,
                  memo);
  out.scale = magnitude.template lpNorm<Eigen::Infinity>();
}

template void EvaluateContactTermDiscreteForce<1>(const PairPotentialStructure&, DiscreteGradientForm,
                                                  const Eigen::VectorXd&, const Eigen::Matrix<double, 1, 1>&, double,
                                                  SmallDiscreteForce<1>&, Eigen::Matrix<double, 1, 1>*,
                                                  StepStartMemo*);
template void EvaluateContactTermDiscreteForce<2>(const PairPotentialStructure&, DiscreteGradientForm,
                                                  const Eigen::VectorXd&, const Eigen::Matrix<double, 2, 1>&, double,
                                                  SmallDiscreteForce<2>&, Eigen::Matrix<double, 2, 2>*,
                                                  StepStartMemo*);
template void EvaluateContactTermDiscreteForce<3>(const PairPotentialStructure&, DiscreteGradientForm,
                                                  const Eigen::VectorXd&, const Eigen::Matrix<double, 3, 1>&, double,
                                                  SmallDiscreteForce<3>&, Eigen::Matrix<double, 3, 3>*,
                                                  StepStartMemo*);

IntegratorTraits QuotientDiscreteGradient::EnergyMomentumTraits(std::string reference, std::string damping_treatment) {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.conserves_energy = true;
  t.conserves_momentum = true;
  t.library = "impactlab";
  t.reference = std::move(reference);
  t.damping_treatment = std::move(damping_treatment);
  return t;
}

void QuotientDiscreteGradient::Prepare(const ConstantMassSystem& system) {
  // A potential that is not a sum of scalar-gap terms (the ECC volume law of ellipsoid_wall) has no gap or
  // invariant quotient: its discrete gradient is Gonzalez's Cartesian one (docs/conserving-schemes.md).
  structure_ = as_structure_(system);
  // A new step (a new q_n, possibly a new model): the step-start values are evaluated anew.
  if (structure_) memo_.Reset(structure_->ContactTerms().size());
}

std::optional<ContactTermForce> QuotientDiscreteGradient::contact_term_force() const {
  if (!structure_) return std::nullopt;  // Gonzalez's Cartesian discrete gradient (ECC volume law)
  return ContactTermForce{structure_, form_, &memo_};
}

void QuotientDiscreteGradient::EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                                     const Eigen::VectorXd& q1, double h,
                                                     DiscreteForceEvaluation& out, NewtonJacobian* jacobian) const {
  if (!structure_) return EvaluateGonzalezDiscreteForce(system, q0, q1, h, out, jacobian);
  EvaluateContactTermDiscreteForce(*structure_, form_, q0, q1, h, out, jacobian, &memo_);
}

}  // namespace impactlab
