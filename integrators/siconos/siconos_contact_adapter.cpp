#include "integrators/siconos/siconos_contact_adapter.h"

#include <SiconosKernel.hpp>
#include <SolverOptions.h>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

namespace impactlab {

namespace {

void Gather(const BlockVector& in, Eigen::VectorXd& out) {
  for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = in.getValue(static_cast<unsigned>(i));
}

// y = |x_b − x_a| − R (= −δ of the pair term, cancellation-free), H = [−n, n] on (a, b), Ḣ = [−ṅ, ṅ].
class PairGapRelation final : public LagrangianScleronomousR {
 public:
  PairGapRelation(ContactTerm term, Eigen::Index nq) : term_(std::move(term)), q_(nq), v_(nq) {}

  void computeh(const BlockVector& q, BlockVector& z, SiconosVector& y) override {
    (void)z;
    Gather(q, q_);
    y.setValue(0, -PairGap(term_, q_));
  }
  void computeJachq(const BlockVector& q, BlockVector& z) override {
    (void)z;
    Gather(q, q_);
    const Eigen::VectorXd d = PairSeparation(term_, q_);
    const Eigen::VectorXd n = d / d.norm();
    _jachq->zero();
    for (int k = 0; k < term_.dim; ++k) {
      _jachq->setValue(0, static_cast<unsigned>(term_.first_a + k), -n[k]);
      _jachq->setValue(0, static_cast<unsigned>(term_.first_b + k), n[k]);
    }
  }
  void computeDotJachq(const BlockVector& q, BlockVector& z, const BlockVector& q_dot) override {
    (void)z;
    Gather(q, q_);
    Gather(q_dot, v_);
    const Eigen::VectorXd d = PairSeparation(term_, q_);
    const double r = d.norm();
    const Eigen::VectorXd n = d / r;
    const Eigen::VectorXd d_dot = v_.segment(term_.first_b, term_.dim) - v_.segment(term_.first_a, term_.dim);
    const Eigen::VectorXd n_dot = (d_dot - n * n.dot(d_dot)) / r;
    _dotjachq->zero();
    for (int k = 0; k < term_.dim; ++k) {
      _dotjachq->setValue(0, static_cast<unsigned>(term_.first_a + k), -n_dot[k]);
      _dotjachq->setValue(0, static_cast<unsigned>(term_.first_b + k), n_dot[k]);
    }
  }

 private:
  ContactTerm term_;
  Eigen::VectorXd q_, v_;
};

// A frictional contact declared by the model (system/frictional_contact_structure.h): y = (g, 0, 0) with `rows` = 3
// (Newton–Coulomb) or y = g with rows = 1 (frictionless, event-driven), H = the first `rows` rows of the declared
// Jacobian, Ḣ = the declared Ḣ_n (the acceleration level uses the normal row only).
class FrictionalContactRelation final : public LagrangianScleronomousR {
 public:
  FrictionalContactRelation(const FrictionalContactStructure& model, int contact, Eigen::Index nq, int rows)
      : model_(model), contact_(contact), rows_(rows), q_(nq), v_(nq) {}

  void computeh(const BlockVector& q, BlockVector& z, SiconosVector& y) override {
    (void)z;
    Gather(q, q_);
    double gap = 0.0;
    model_.DeclareFrictionalContact(contact_, q_, gap, jacobian_);
    y.zero();
    y.setValue(0, gap);
  }
  void computeJachq(const BlockVector& q, BlockVector& z) override {
    (void)z;
    Gather(q, q_);
    double gap = 0.0;
    model_.DeclareFrictionalContact(contact_, q_, gap, jacobian_);
    for (int r = 0; r < rows_; ++r)
      for (Eigen::Index j = 0; j < q_.size(); ++j)
        _jachq->setValue(static_cast<unsigned>(r), static_cast<unsigned>(j), jacobian_(r, j));
  }
  void computeDotJachq(const BlockVector& q, BlockVector& z, const BlockVector& q_dot) override {
    (void)z;
    Gather(q, q_);
    Gather(q_dot, v_);
    const Eigen::VectorXd rate = model_.NormalJacobianRate(contact_, q_, v_);
    _dotjachq->zero();
    for (Eigen::Index j = 0; j < q_.size(); ++j) _dotjachq->setValue(0, static_cast<unsigned>(j), rate[j]);
  }

 private:
  const FrictionalContactStructure& model_;
  int contact_, rows_;
  Eigen::VectorXd q_, v_;
  Eigen::MatrixXd jacobian_;
};

SP::SiconosVector ToSiconos(const Eigen::VectorXd& x) {
  auto out = std::make_shared<SiconosVector>(static_cast<unsigned>(x.size()));
  for (Eigen::Index i = 0; i < x.size(); ++i) out->setValue(static_cast<unsigned>(i), x[i]);
  return out;
}

Eigen::VectorXd FromSiconos(const SiconosVector& x, Eigen::Index n) {
  Eigen::VectorXd out(n);
  for (Eigen::Index i = 0; i < n; ++i) out[i] = x.getValue(static_cast<unsigned>(i));
  return out;
}

// The relation of one declared contact term at positions q (header comment).
SP::Relation MakeRelation(const ContactTerm& term, const Eigen::VectorXd& q) {
  const auto nq = static_cast<unsigned>(q.size());
  if (term.kind == ContactTerm::Kind::kWall) {
    auto c = std::make_shared<SimpleMatrix>(1, nq);
    c->zero();
    for (const auto& [j, g] : term.wall_gradient)
      c->setValue(0, static_cast<unsigned>(j), c->getValue(0, static_cast<unsigned>(j)) - g);
    auto e = std::make_shared<SiconosVector>(1);
    e->setValue(0, -term.wall_offset);
    return std::make_shared<LagrangianLinearTIR>(c, e);
  }
  if (term.dim == 1) {
    const double s = PairSeparation(term, q)[0] >= 0.0 ? 1.0 : -1.0;
    const double offset = term.pair_offset.size() ? term.pair_offset[0] : 0.0;
    auto c = std::make_shared<SimpleMatrix>(1, nq);
    c->zero();
    c->setValue(0, static_cast<unsigned>(term.first_b), s);
    c->setValue(0, static_cast<unsigned>(term.first_a), -s);
    auto e = std::make_shared<SiconosVector>(1);
    e->setValue(0, s * offset - term.radius_sum);
    return std::make_shared<LagrangianLinearTIR>(c, e);
  }
  return std::make_shared<PairGapRelation>(term, q.size());
}

// 16 ε times the largest length in the gap functions (radii sums, reference offsets, wall offsets).
double RoundOffGap(const std::vector<ContactTerm>& terms) {
  double length = 0.0;
  for (const ContactTerm& t : terms) {
    length = std::max({length, std::abs(t.radius_sum), std::abs(t.wall_offset)});
    if (t.pair_offset.size()) length = std::max(length, t.pair_offset.lpNorm<Eigen::Infinity>());
  }
  return 16.0 * std::numeric_limits<double>::epsilon() * length;
}

}  // namespace

// 16 ε times the coordinates' size and the gaps at q (the frictional contacts' lengths).
double RoundOffGap(const FrictionalContactStructure& model, const Eigen::VectorXd& q) {
  double length = q.lpNorm<Eigen::Infinity>();
  Eigen::MatrixXd h;
  for (int a = 0; a < model.num_frictional_contacts(); ++a) {
    double gap = 0.0;
    model.DeclareFrictionalContact(a, q, gap, h);
    length = std::max(length, std::abs(gap));
  }
  return 16.0 * std::numeric_limits<double>::epsilon() * length;
}

// The info of the last nonsmooth solve TimeStepping reported as failed (≠ 0), for this thread's running step. Installed
// instead of TimeStepping::DefaultCheckSolverOutput, which prints a warning on stdout (it broke `run --json`) and
// continues; the adapter keeps Siconos' behaviour (the step goes on with the solver's answer) and reports it.
namespace {
thread_local int last_failed_solver_info = 0;
void RecordSolverInfo(int info, Simulation* simulation) {
  (void)simulation;
  last_failed_solver_info = info;
}
}  // namespace

constexpr double kFrictionContactTolerance = 1e-14;  ///< FC3D NSGS residual (Siconos' relative error measure)
constexpr int kFrictionContactMaxIterations = 10000;
constexpr double kNewtonTolerance = 1e-14;  ///< TimeStepping's Newton loop on nonlinear relations (default 1e-6)
constexpr int kNewtonMaxIterations = 50;

struct SiconosContactAdapter::Impl {
  SiconosSchemeSettings settings;
  Eigen::Index n = 0;
  SP::NonSmoothDynamicalSystem nsds;
  SP::LagrangianLinearTIDS ds;
  SP::TimeStepping time_stepping;
  SP::EventDriven event_driven;
  SP::FrictionContact friction_contact;
  Eigen::VectorXd impulse;
  int interactions = 0;
  int solver_iterations = 0;
  double solver_residual = 0.0;
  bool solver_converged = true;
  // Per Interaction: u = H(q) v (the normal row), the Interaction, whether it carried an impulse in the last step.
  std::vector<std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&)>> normal_velocity;
  std::vector<SP::Interaction> links;
  std::vector<char> was_pushing;
  std::vector<SiconosContactImpact> step_impacts;
  long problems = 0, problem_iterations = 0;
  Eigen::VectorXd mass, force;
  double h = 0.0;

  // The impulse that counts as an impact: above round-off of the momenta the step moves, 64 ε max_i(m_i |v_i| + h |f_i|)
  // (touching contacts that carry no load get ±1e-18-sized impulses from the LCP: not impacts).
  double ImpulseRoundOff(const Eigen::VectorXd& v, double step) const {
    const double scale = (mass.cwiseProduct(v).cwiseAbs() + step * force.cwiseAbs()).maxCoeff();
    return 64.0 * std::numeric_limits<double>::epsilon() * scale;
  }

  void Link(const SP::NonSmoothLaw& law, const SP::Relation& relation,
            std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&)> u) {
    auto inter = std::make_shared<Interaction>(law, relation);
    nsds->link(inter, ds);
    links.push_back(inter);
    normal_velocity.push_back(std::move(u));
    was_pushing.push_back(0);
    ++interactions;
  }
  // Normal impulse λ_α(1)[0] of Interaction α when it is in the index set of the velocity-level problem, else 0.
  double NormalImpulse(Simulation& sim, size_t a) const {
    const SP::InteractionsGraph index_set = sim.indexSet(1);
    if (!index_set || !index_set->is_vertex(links[a])) return 0.0;
    const SP::SiconosVector lambda = links[a]->lambda(1);
    return lambda ? lambda->getValue(0) : 0.0;
  }
  long IterationsDone(const SP::OneStepNSProblem& problem) const {
    if (!problem) return 0;
    const SP::SolverOptions options = problem->numericsSolverOptions();
    return options ? options->iparam[SICONOS_IPARAM_ITER_DONE] : 0;
  }
};

namespace {

// u = H v of a declared contact term (the normal row of its relation, header comment).
std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&)> TermNormalVelocity(const ContactTerm& term,
                                                                                          const Eigen::VectorXd& q0) {
  if (term.kind == ContactTerm::Kind::kWall) {
    return [term](const Eigen::VectorXd&, const Eigen::VectorXd& v) {
      double u = 0.0;
      for (const auto& jg : term.wall_gradient) u -= jg.second * v[jg.first];
      return u;
    };
  }
  if (term.dim == 1) {
    const double s = PairSeparation(term, q0)[0] >= 0.0 ? 1.0 : -1.0;
    return [term, s](const Eigen::VectorXd&, const Eigen::VectorXd& v) {
      return s * (v[term.first_b] - v[term.first_a]);
    };
  }
  return [term](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    const Eigen::VectorXd d = PairSeparation(term, q);
    return (d / d.norm()).dot(v.segment(term.first_b, term.dim) - v.segment(term.first_a, term.dim));
  };
}

}  // namespace

SiconosContactAdapter::SiconosContactAdapter(const SiconosModelData& data, const SiconosSchemeSettings& settings,
                                             double h)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.settings = settings;
  m.n = data.q.size();
  m.impulse = Eigen::VectorXd::Zero(m.n);
  m.mass = data.mass;
  m.force = data.force;
  m.h = h;
  try {
    const auto n = static_cast<unsigned>(m.n);
    auto mass = std::make_shared<SimpleMatrix>(n, n);
    mass->zero();
    for (unsigned i = 0; i < n; ++i) mass->setValue(i, i, data.mass[i]);
    if (data.stiffness.size() != 0) {
      auto k = std::make_shared<SimpleMatrix>(n, n);
      auto c = std::make_shared<SimpleMatrix>(n, n);
      c->zero();
      for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < n; ++j) k->setValue(i, j, data.stiffness(i, j));
      m.ds = std::make_shared<LagrangianLinearTIDS>(ToSiconos(data.q), ToSiconos(data.v), mass, k, c);
    } else {
      m.ds = std::make_shared<LagrangianLinearTIDS>(ToSiconos(data.q), ToSiconos(data.v), mass);
    }
    m.ds->setFExtPtr(ToSiconos(data.force));
    m.nsds = std::make_shared<NonSmoothDynamicalSystem>(data.t0, data.t0 + 1e9 * h);
    m.nsds->insertDynamicalSystem(m.ds);
    for (const ContactTerm& term : data.terms)
      m.Link(std::make_shared<NewtonImpactNSL>(settings.restitution), MakeRelation(term, data.q),
             TermNormalVelocity(term, data.q));
    const bool frictional = data.frictional != nullptr && data.frictional->num_frictional_contacts() > 0;
    if (frictional) {
      const FrictionalContactStructure& model = *data.frictional;
      // Moreau–Jean: the 3-D Newton–Coulomb law; event-driven: the normal row only (frictionless; the caller
      // refuses μ > 0).
      const int rows = settings.scheme == SiconosScheme::kMoreauJean ? 3 : 1;
      for (int a = 0; a < model.num_frictional_contacts(); ++a) {
        SP::NonSmoothLaw law;
        if (rows == 3)
          law = std::make_shared<NewtonImpactFrictionNSL>(settings.restitution, 0.0, model.FrictionCoefficient(a), 3);
        else
          law = std::make_shared<NewtonImpactNSL>(settings.restitution);
        auto relation = std::make_shared<FrictionalContactRelation>(model, a, m.n, rows);
        const FrictionalContactStructure* declared = &model;
        m.Link(law, relation, [declared, a](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
          double gap = 0.0;
          Eigen::MatrixXd jacobian;
          declared->DeclareFrictionalContact(a, q, gap, jacobian);
          return jacobian.row(0).dot(v);
        });
      }
    }
    auto td = std::make_shared<TimeDiscretisation>(data.t0, h);
    if (settings.scheme == SiconosScheme::kMoreauJean) {
      auto osi = std::make_shared<MoreauJeanOSI>(settings.theta);
      // A contact is active when its predicted gap is ≤ 0 *to round-off*: gaps that are zero in exact arithmetic
      // (touching beads at reference positions such as 0.03 − 0.02 ≠ 0.01) come out as ±ε·L. Without this a
      // ±1e-18 m "gap" decides between the simultaneous-impact answer and a sequence of impacts.
      if (frictional) {
        osi->setConstraintActivationThreshold(RoundOffGap(*data.frictional, data.q));
        m.friction_contact = std::make_shared<FrictionContact>(3, SICONOS_FRICTION_3D_NSGS);
        const SP::SolverOptions options = m.friction_contact->numericsSolverOptions();
        options->dparam[SICONOS_DPARAM_TOL] = kFrictionContactTolerance;
        options->iparam[SICONOS_IPARAM_MAX_ITER] = kFrictionContactMaxIterations;
        m.time_stepping = std::make_shared<TimeStepping>(m.nsds, td, osi, m.friction_contact);
        m.time_stepping->setCheckSolverFunction(&RecordSolverInfo);
        // The pair's relation is nonlinear (H(q) turns with the normal): converge Siconos' Newton loop on it.
        m.time_stepping->setNewtonTolerance(kNewtonTolerance);
        m.time_stepping->setNewtonMaxIteration(kNewtonMaxIterations);
      } else {
        osi->setConstraintActivationThreshold(RoundOffGap(data.terms));
        auto lcp = std::make_shared<LCP>(SICONOS_LCP_LEMKE);
        m.time_stepping = std::make_shared<TimeStepping>(m.nsds, td, osi, lcp);
        m.time_stepping->setCheckSolverFunction(&RecordSolverInfo);
      }
    } else {
      m.event_driven = std::make_shared<EventDriven>(m.nsds, td);
      auto osi = std::make_shared<LsodarOSI>();
      osi->setTol(1, settings.rel_tol, settings.abs_tol);
      m.event_driven->insertIntegrator(osi);
      m.event_driven->associate(osi, m.ds);
      m.event_driven->insertNonSmoothProblem(std::make_shared<LCP>(SICONOS_LCP_LEMKE), SICONOS_OSNSP_ED_IMPACT);
      m.event_driven->insertNonSmoothProblem(std::make_shared<LCP>(SICONOS_LCP_LEMKE),
                                             SICONOS_OSNSP_ED_SMOOTH_ACC);
      m.event_driven->initialize();
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("Siconos set-up failed: ") + e.what());
  } catch (...) {
    throw std::runtime_error("Siconos set-up failed (unknown exception)");
  }
}

SiconosContactAdapter::~SiconosContactAdapter() {
  // Siconos' integrators and one-step problems hold a shared_ptr back to their Simulation, which holds them: a
  // reference cycle that would leak the whole problem (LeakSanitizer reports it). Break it before the Impl goes.
  if (!impl_) return;
  Simulation* sim = impl_->time_stepping ? static_cast<Simulation*>(impl_->time_stepping.get())
                                         : static_cast<Simulation*>(impl_->event_driven.get());
  if (sim == nullptr) return;
  if (const SP::OSISet osis = sim->oneStepIntegrators())
    for (const SP::OneStepIntegrator& osi : *osis)
      if (osi) osi->setSimulationPtr(SP::Simulation());
  if (const SP::OneStepNSProblems problems = sim->oneStepNSProblems())
    for (const SP::OneStepNSProblem& problem : *problems)
      if (problem) problem->setSimulationPtr(SP::Simulation());
}

void SiconosContactAdapter::Advance(double t_target, std::vector<SiconosImpact>* impacts) {
  Impl& m = *impl_;
  try {
    m.step_impacts.clear();
    m.problems = 0;
    m.problem_iterations = 0;
    if (m.time_stepping) {
      Eigen::VectorXd q_start, v_start;
      Read(q_start, v_start);
      const double t_start = m.time_stepping->startingTime();
      last_failed_solver_info = 0;
      m.time_stepping->computeOneStep();
      m.solver_converged = last_failed_solver_info == 0;
      m.solver_iterations = 0;
      m.solver_residual = 0.0;
      const SP::OneStepNSProblem problem = m.time_stepping->oneStepNSProblem(SICONOS_OSNSP_TS_VELOCITY);
      if (problem && problem->hasInteractions()) {
        m.problems = 1;
        m.problem_iterations = m.IterationsDone(problem);
      }
      if (m.friction_contact && m.friction_contact->hasInteractions()) {
        const SP::SolverOptions options = m.friction_contact->numericsSolverOptions();
        m.solver_iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
        m.solver_residual = options->dparam[SICONOS_DPARAM_RESIDU];
      }
      const SP::SiconosVector p = m.ds->p(1);
      m.impulse = p ? FromSiconos(*p, m.n) : Eigen::VectorXd::Zero(m.n);
      // Impacts of the step: a contact pushing (P_α > 0) that did not push in the previous step.
      Eigen::VectorXd q_end, v_end;
      Read(q_end, v_end);
      const double round_off = m.ImpulseRoundOff(v_start, m.h);
      for (size_t a = 0; a < m.links.size(); ++a) {
        const double impulse = m.NormalImpulse(*m.time_stepping, a);
        const bool pushing = impulse > round_off;
        if (pushing && !m.was_pushing[a])
          m.step_impacts.push_back({t_start, static_cast<int>(a), m.normal_velocity[a](q_start, v_start),
                                    m.normal_velocity[a](q_end, v_end), impulse});
        m.was_pushing[a] = pushing ? 1 : 0;
      }
      m.time_stepping->nextStep();
      return;
    }
    EventDriven& sim = *m.event_driven;
    const double tolerance = 1e-12 * std::max(1.0, std::abs(t_target));
    long events = 0;
    while (sim.hasNextEvent() && sim.startingTime() < t_target - tolerance) {
      sim.advanceToEvent();
      const double t_event = sim.nextTime();
      const Eigen::VectorXd v_before = FromSiconos(*m.ds->velocity(), m.n);
      sim.processEvents();
      const Eigen::VectorXd v_after = FromSiconos(*m.ds->velocity(), m.n);
      if (v_after != v_before) {
        // A nonsmooth event: the impact LCP gave the contacts of the index set I_1 their impulses λ_α(1).
        SiconosImpact impact{t_event, v_before, v_after, {}};
        const Eigen::VectorXd q_event = FromSiconos(*m.ds->q(), m.n);
        const double round_off = m.ImpulseRoundOff(v_before, 0.0);
        for (size_t a = 0; a < m.links.size(); ++a) {
          const double impulse = m.NormalImpulse(sim, a);
          if (!(impulse > round_off)) continue;
          impact.contacts.push_back({t_event, static_cast<int>(a), m.normal_velocity[a](q_event, v_before),
                                     m.normal_velocity[a](q_event, v_after), impulse});
        }
        ++m.problems;
        m.problem_iterations += m.IterationsDone(sim.oneStepNSProblem(SICONOS_OSNSP_ED_IMPACT));
        if (impacts) impacts->push_back(std::move(impact));
      }
      if (++events > 100000)
        throw std::runtime_error("more than 1e5 events in one step (an accumulation of impacts)");
    }
  } catch (const std::runtime_error&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(e.what());
  } catch (...) {
    throw std::runtime_error("unknown Siconos exception");
  }
}

void SiconosContactAdapter::Read(Eigen::VectorXd& q, Eigen::VectorXd& v) const {
  q = FromSiconos(*impl_->ds->q(), impl_->n);
  v = FromSiconos(*impl_->ds->velocity(), impl_->n);
}

int SiconosContactAdapter::last_solver_iterations() const { return impl_->solver_iterations; }
double SiconosContactAdapter::last_solver_residual() const { return impl_->solver_residual; }
bool SiconosContactAdapter::last_solver_converged() const { return impl_->solver_converged; }
const Eigen::VectorXd& SiconosContactAdapter::last_impulse() const { return impl_->impulse; }
const std::vector<SiconosContactImpact>& SiconosContactAdapter::last_step_impacts() const {
  return impl_->step_impacts;
}
long SiconosContactAdapter::last_problems() const { return impl_->problems; }
long SiconosContactAdapter::last_problem_iterations() const { return impl_->problem_iterations; }
int SiconosContactAdapter::num_interactions() const { return impl_->interactions; }

}  // namespace impactlab
