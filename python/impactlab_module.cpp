// impactlab._impactlab: the pybind11 layer under the Python package python/impactlab/ (docs/python.md).
// It only converts: scenarios from dicts / files / overrides, RunScenario with a trajectory recorder
// (NumPy arrays of t, q, v and the energy ledger's typed books, MechanicalSystem::EnergyBooks: T, Σ V, E, damping
// work D, friction work, generated work, external work, and the balance residual (books − books₀)/|E₀| with
// books = E + D + W_f − W_g − W_ext — the quantity whose maximum is the summary's energy_balance_residual_max), Feng's exact
// solution [Feng 2026, Theorems 1–2; docs/exact-solution.md], convergence against it, the integrator audit,
// and normal contact laws written in Python (a NormalContactLaw whose W, W′, W″ are Python callables).
// Errors: InvalidParameter → impactlab.InvalidParameterError (a ValueError) with the CLI's message;
// StepFailure → impactlab.StepFailureError (a RuntimeError).
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "audit/integrator_audit.h"
#include "cli/cli_app.h"
#include "contact/normal_contact_law.h"
#include "convergence/exact_convergence.h"
#include "core/checks.h"
#include "core/errors.h"
#include "exact/feng_power_law_solution.h"
#include "observe/step_observer.h"
#include "state/energy_terms.h"
#include "registry/extension.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"
#include "scenario/scenario.h"
#include "version/build_info.h"

namespace py = pybind11;
using namespace impactlab;

namespace {

// ---- scenario values -------------------------------------------------------------------------------

ParameterSet::Value ToValue(const std::string& key, const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>();
  if (py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v)) return v.cast<double>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    std::vector<double> out;
    for (const auto& x : v) {
      if (!(py::isinstance<py::int_>(x) || py::isinstance<py::float_>(x)) || py::isinstance<py::bool_>(x))
        throw InvalidParameter(key, py::str(v).cast<std::string>(), "a number, a string, a boolean or a list of numbers");
      out.push_back(x.cast<double>());
    }
    return out;
  }
  throw InvalidParameter(key, py::str(v).cast<std::string>(), "a number, a string, a boolean or a list of numbers");
}

/// Sets one key of a scenario ("model" and "integrators" go to their fields, as in a scenario file).
void SetKey(Scenario& sc, const std::string& key, const py::handle& v) {
  if (key == "model") {
    if (!py::isinstance<py::str>(v)) throw InvalidParameter("model", py::str(v).cast<std::string>(), "a model name (string)");
    sc.model = v.cast<std::string>();
  } else if (key == "integrators") {
    sc.integrators.clear();
    for (const auto& x : v) sc.integrators.push_back(py::str(x).cast<std::string>());
  } else {
    sc.parameters.Set(key, ToValue(key, v));
  }
}

/// A scenario from a path (str) or a dict of keys, then `overrides` (dict) on top.
Scenario MakeScenario(const py::object& scenario, const py::dict& overrides) {
  Scenario sc;
  if (py::isinstance<py::str>(scenario)) {
    sc = LoadScenario(scenario.cast<std::string>());
  } else if (py::isinstance<py::dict>(scenario)) {
    sc.path = "<dict>";
    for (const auto& [k, v] : scenario.cast<py::dict>()) SetKey(sc, py::str(k).cast<std::string>(), v);
  } else {
    throw InvalidParameter("scenario", py::str(py::type::of(scenario)).cast<std::string>(),
                           "a scenario file path (str) or a dict of scenario keys");
  }
  for (const auto& [k, v] : overrides) SetKey(sc, py::str(k).cast<std::string>(), v);
  return sc;
}

// ---- trajectory recorder ----------------------------------------------------------------------------

class Recorder final : public StepObserver {
 public:
  explicit Recorder(long every) : every_(every) {}
  void OnStart(const MechanicalSystem& system, const MechanicalState& s) override {
    const EnergyTerms b = system.EnergyBooks(s);  // the ledger's typed books (state/energy_terms.h)
    e0_ = b.Energy();
    books0_ = b.Books();
    scale_ = std::abs(e0_) > 0.0 ? std::abs(e0_) : 1.0;
    n_ = 0;
    Record(system, s);
  }
  void OnStep(const MechanicalSystem& system, const MechanicalState& s) override {
    if (++n_ % every_ == 0) Record(system, s);
  }
  void OnFinish(const MechanicalSystem& system, const MechanicalState& s) override {
    if (!t_.empty() && t_.back() != s.t) Record(system, s);
  }
  void OnEvent(const MechanicalSystem&, const ContactEvent& e) override { events_.push_back(e); }

  py::dict ToDict() const {
    const size_t n = t_.size();
    const size_t nq = n ? q_.size() / n : 0, nv = n ? v_.size() / n : 0;
    auto vec = [](const std::vector<double>& x) { return py::array_t<double>(x.size(), x.data()); };
    auto mat = [n](const std::vector<double>& x, size_t cols) {
      py::array_t<double> a(std::vector<py::ssize_t>{static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(cols)});
      std::copy(x.begin(), x.end(), a.mutable_data());
      return a;
    };
    py::dict d;
    d["t"] = vec(t_);
    d["q"] = mat(q_, nq);
    d["v"] = mat(v_, nv);
    d["kinetic"] = vec(kin_);
    d["potential"] = vec(pot_);
    d["energy"] = vec(e_);
    d["dissipated"] = vec(diss_);
    d["friction_work"] = vec(fric_);
    d["generated_work"] = vec(gen_);
    d["external_work"] = vec(ext_);
    d["balance_residual"] = vec(res_);
    d["initial_energy"] = e0_;
    py::dict ev;
    std::vector<double> et, eo, er;
    std::vector<int> ec;
    std::vector<std::string> ek, el;
    for (const auto& e : events_) {
      et.push_back(e.t);
      eo.push_back(e.overlap);
      er.push_back(e.overlap_rate);
      ec.push_back(e.contact);
      ek.push_back(ToString(e.kind));
      el.push_back(e.located_by);
    }
    ev["t"] = vec(et);
    ev["overlap"] = vec(eo);
    ev["overlap_rate"] = vec(er);
    ev["contact"] = py::array_t<int>(ec.size(), ec.data());
    ev["kind"] = ek;
    ev["located_by"] = el;
    d["events"] = ev;
    return d;
  }

 private:
  void Record(const MechanicalSystem& system, const MechanicalState& s) {
    t_.push_back(s.t);
    q_.insert(q_.end(), s.q.data(), s.q.data() + s.q.size());
    v_.insert(v_.end(), s.v.data(), s.v.data() + s.v.size());
    const EnergyTerms b = system.EnergyBooks(s);
    kin_.push_back(b.kinetic);
    pot_.push_back(b.StoredTotal());
    e_.push_back(b.Energy());
    diss_.push_back(b.damping_work);
    fric_.push_back(b.friction_work);
    gen_.push_back(b.generated_work);
    ext_.push_back(b.external_work);
    res_.push_back((b.Books() - books0_) / scale_);
  }
  long every_;
  long n_ = 0;
  double e0_ = 0.0, books0_ = 0.0, scale_ = 1.0;
  std::vector<double> t_, q_, v_, kin_, pot_, e_, diss_, fric_, gen_, ext_, res_;
  std::vector<ContactEvent> events_;
};

py::tuple Run(const py::object& scenario, const std::vector<std::string>& integrators, const py::dict& overrides,
              std::optional<double> dt, long record_every, bool strict, const std::string& out_dir) {
  if (record_every < 1) throw InvalidParameter("record_every", static_cast<double>(record_every), "an integer >= 1");
  RunRequest req;
  req.scenario = MakeScenario(scenario, overrides);
  req.integrators = integrators;
  req.dt = dt;
  req.strict = strict;
  req.out_dir = out_dir;
  std::vector<std::unique_ptr<Recorder>> recorders;
  std::vector<std::string> names;
  req.observers = [&](const Integrator& integrator) {
    recorders.push_back(std::make_unique<Recorder>(record_every));
    names.push_back(integrator.name());
    return std::vector<StepObserver*>{recorders.back().get()};
  };
  nlohmann::json summary;
  {
    // Without the GIL: a law written in Python takes it per call, also from the worker threads of a sweep.
    py::gil_scoped_release nogil;
    summary = RunScenario(req);
  }
  py::list traj;
  for (size_t i = 0; i < recorders.size(); ++i) {
    py::dict d = recorders[i]->ToDict();
    d["integrator"] = names[i];
    traj.append(d);
  }
  return py::make_tuple(summary.dump(), traj);
}

std::string ListJson() {
  nlohmann::json out;
  out["integrators"] = nlohmann::json::array();
  for (const auto& [name, entry] : IntegratorRegistry().entries()) {
    const IntegratorTraits t = entry.make(ParameterSet{})->traits();
    out["integrators"].push_back({{"name", name}, {"summary", entry.summary}, {"order", t.order},
                                  {"implicit", t.implicit}, {"symplectic", t.symplectic},
                                  {"conserves_energy", t.conserves_energy},
                                  {"conserves_momentum", t.conserves_momentum}, {"adaptive", t.adaptive},
                                  {"locates_events", t.locates_events}, {"dense_matrices", t.dense_matrices},
                                  {"library", t.library}, {"reference", t.reference}});
  }
  auto simple = [](const auto& r) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& [name, entry] : r.entries()) a.push_back({{"name", name}, {"summary", entry.summary}});
    return a;
  };
  out["normal_laws"] = simple(NormalLawRegistry());
  out["damping_laws"] = simple(DampingLawRegistry());
  out["models"] = simple(ModelRegistry());
  return out.dump();
}

py::dict Exact(double p, std::optional<double> e, std::optional<double> alpha, double m, double k, double v0,
               int samples, const std::vector<double>& times) {
  if (e.has_value() == alpha.has_value()) throw InvalidParameter("e", e ? "given with alpha" : "<missing>", "give e or alpha, not both");
  if (samples < 2) throw InvalidParameter("samples", samples, "an integer >= 2");
  FengPowerLawParameters par{m, k, p, alpha.value_or(0.0), v0};
  const FengPowerLawSolution sol = e ? FengPowerLawSolution::FromRestitution(m, k, p, *e, v0) : FengPowerLawSolution(par);
  py::dict d;
  d["p"] = p;
  d["m"] = m;
  d["k"] = k;
  d["v0"] = v0;
  d["alpha"] = sol.parameters().alpha;
  d["zeta"] = sol.zeta();
  d["rebounds"] = sol.rebounds();
  d["restitution"] = sol.restitution();
  d["delta_max"] = sol.max_overlap();
  d["t_max"] = sol.time_of_max_overlap();
  d["t_contact"] = sol.contact_time();
  d["t_contact_undamped"] = sol.undamped_contact_time();
  d["exit_velocity"] = sol.exit_velocity();
  d["energy_initial"] = sol.initial_energy();
  d["energy_dissipated_loading"] = sol.energy_dissipated_loading();
  d["energy_dissipated_unloading"] = sol.energy_dissipated_unloading();
  if (sol.rebounds() && std::isfinite(sol.contact_time())) {
    const auto tr = sol.Trajectory(samples);
    std::vector<double> t, x, xd;
    for (const auto& s : tr) {
      t.push_back(s.t);
      x.push_back(s.delta);
      xd.push_back(s.delta_dot);
    }
    d["t"] = py::array_t<double>(t.size(), t.data());
    d["delta"] = py::array_t<double>(x.size(), x.data());
    d["delta_dot"] = py::array_t<double>(xd.size(), xd.data());
  }
  if (!times.empty()) {  // the state at the caller's times (since first touch), inside [0, t_c]
    std::vector<double> x, xd;
    for (double t : times) {
      if (!(t >= 0.0 && t <= sol.contact_time()))
        throw InvalidParameter("times", t, "within the contact, [0, " + InvalidParameter::FormatNumber(sol.contact_time()) + "] s");
      const PowerLawContactState st = sol.StateAtTime(t);
      x.push_back(st.delta);
      xd.push_back(st.delta_dot);
    }
    d["delta_at_times"] = py::array_t<double>(x.size(), x.data());
    d["delta_dot_at_times"] = py::array_t<double>(xd.size(), xd.data());
  }
  return d;
}

py::dict Converge(const py::object& scenario, const std::string& integrator_name, const std::vector<double>& dts,
                  const py::dict& overrides) {
  Scenario sc = MakeScenario(scenario, overrides);
  const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
  auto integrator = IntegratorRegistry().Get(integrator_name).make(sc.parameters);
  const ExactReference ref = MakeExactReference(*model.system);
  if (dts.size() < 2) throw InvalidParameter("dt", static_cast<double>(dts.size()), "a list of at least 2 steps");
  std::vector<double> dt, er, ed, et, etr;
  for (double h : dts) {
    RequirePositive("dt", h);
    ExactErrors e;
    {
      py::gil_scoped_release nogil;
      e = MeasureAgainstExact(*model.system, *integrator, ref, h);
    }
    dt.push_back(e.dt);
    er.push_back(e.restitution);
    ed.push_back(e.delta_max);
    et.push_back(e.t_contact);
    etr.push_back(e.trajectory);
  }
  auto arr = [](const std::vector<double>& x) { return py::array_t<double>(x.size(), x.data()); };
  auto order = [&](const std::vector<double>& err) -> py::object {
    const auto o = ObservedOrder(dt, err);
    return o ? py::object(py::float_(*o)) : py::object(py::none());
  };
  py::dict d;
  d["integrator"] = integrator_name;
  d["declared_order"] = integrator->traits().order;
  d["dt"] = arr(dt);
  d["restitution_error"] = arr(er);
  d["delta_max_error"] = arr(ed);
  d["t_contact_error"] = arr(et);
  d["trajectory_error"] = arr(etr);
  d["order_restitution"] = order(er);
  d["order_delta_max"] = order(ed);
  d["order_t_contact"] = order(et);
  d["order_trajectory"] = order(etr);
  d["exact_restitution"] = ref.solution.restitution();
  return d;
}

// ---- normal laws written in Python ------------------------------------------------------------------

/// A NormalContactLaw whose methods call a Python object (see impactlab.register_normal_law). Every call
/// takes the GIL; a Python exception propagates as a C++ exception out of the run.
class PythonNormalLaw final : public NormalContactLaw {
 public:
  PythonNormalLaw(std::string name, py::object law) : name_(std::move(name)), law_(std::move(law)) {
    potential_ = law_.attr("potential");
    force_ = law_.attr("force");
    stiffness_ = law_.attr("stiffness");
    if (py::hasattr(law_, "effective_stiffness")) keff_ = law_.attr("effective_stiffness");
    coefficient_ = py::hasattr(law_, "coefficient") ? law_.attr("coefficient")().cast<double>() : 0.0;
    exponent_ = py::hasattr(law_, "exponent") ? law_.attr("exponent")().cast<double>() : 1.0;
    reference_ = py::hasattr(law_, "reference") ? law_.attr("reference")().cast<std::string>() : "user law (Python)";
  }
  ~PythonNormalLaw() override {
    py::gil_scoped_acquire gil;
    potential_ = force_ = stiffness_ = keff_ = law_ = py::object();
  }
  std::string name() const override { return name_; }
  std::string reference() const override { return reference_; }
  double Potential(double d) const override { return d <= 0.0 ? 0.0 : Call(potential_, d); }
  double Force(double d) const override { return d <= 0.0 ? 0.0 : Call(force_, d); }
  double Stiffness(double d) const override { return d < 0.0 ? 0.0 : Call(stiffness_, d); }
  double EffectiveStiffness(double d) const override {
    if (keff_) return Call(keff_, d);
    const double w = Potential(d), f = Force(d);
    return w > 0.0 ? f * f / (2.0 * w) : coefficient_;
  }
  double coefficient() const override { return coefficient_; }
  double exponent() const override { return exponent_; }

 private:
  static double Call(const py::object& f, double d) {
    py::gil_scoped_acquire gil;
    return f(d).cast<double>();
  }
  std::string name_, reference_;
  py::object law_, potential_, force_, stiffness_, keff_;
  double coefficient_ = 0.0, exponent_ = 1.0;
};

void RegisterPythonNormalLaw(const std::string& name, const std::string& summary, const py::function& factory,
                             const py::dict& keys) {
  // The factory and the key defaults live as long as the registry, i.e. until the process ends; they are
  // deliberately never released (releasing them after the interpreter has finalized would crash at exit).
  auto* held_factory = new py::object(factory);
  std::vector<std::pair<std::string, std::optional<double>>> key_list;
  for (const auto& [k, v] : keys)
    key_list.emplace_back(py::str(k).cast<std::string>(), v.is_none() ? std::nullopt : std::optional<double>(v.cast<double>()));
  RegisterNormalLaw(name, summary, [name, held_factory, key_list](const ParameterSet& p) -> std::shared_ptr<const NormalContactLaw> {
    py::gil_scoped_acquire gil;
    py::dict kwargs;
    for (const auto& [k, def] : key_list) kwargs[py::str(k)] = def ? p.GetDouble(k, *def) : p.GetDouble(k);
    py::object law;
    try {
      law = (*held_factory)(**kwargs);
    } catch (py::error_already_set& e) {
      if (e.matches(PyExc_ValueError)) throw InvalidParameter("normal_law", "\"" + name + "\"", std::string("parameters its factory accepts: ") + e.what());
      throw;
    }
    return std::make_shared<PythonNormalLaw>(name, law);
  });
}

}  // namespace

PYBIND11_MODULE(_impactlab, m) {
  m.doc() = "impactlab C++ core (use the impactlab package, not this module)";
  py::register_exception<InvalidParameter>(m, "InvalidParameterError", PyExc_ValueError);
  py::register_exception<StepFailure>(m, "StepFailureError", PyExc_RuntimeError);
  m.def("version", &Version);
  m.def("version_text", &VersionText);
  m.def("dependency_versions", &DependencyVersions);
  m.def("list_json", &ListJson);
  m.def("run", &Run, py::arg("scenario"), py::arg("integrators"), py::arg("overrides"), py::arg("dt"),
        py::arg("record_every"), py::arg("strict"), py::arg("out_dir"));
  m.def("exact", &Exact, py::arg("p"), py::arg("e"), py::arg("alpha"), py::arg("m"), py::arg("k"), py::arg("v0"),
        py::arg("samples"), py::arg("times"));
  m.def("converge", &Converge, py::arg("scenario"), py::arg("integrator"), py::arg("dts"), py::arg("overrides"));
  m.def("register_normal_law", &RegisterPythonNormalLaw, py::arg("name"), py::arg("summary"), py::arg("factory"),
        py::arg("keys"));
  m.def("audit_order", [](const std::string& name, const py::dict& options, int n0, int levels) {
    Scenario sc = MakeScenario(py::dict(), options);
    const OrderAuditReport r = AuditOrder(name, sc.parameters, n0, levels);
    py::dict d;
    d["integrator"] = r.integrator;
    d["declared_order"] = r.declared_order;
    d["dt"] = py::array_t<double>(r.dt.size(), r.dt.data());
    d["error"] = py::array_t<double>(r.error.size(), r.error.data());
    d["observed_order"] = r.observed_order ? py::object(py::float_(*r.observed_order)) : py::object(py::none());
    d["passes"] = r.passes;
    return d;
  }, py::arg("name"), py::arg("options"), py::arg("n0"), py::arg("levels"));
  m.def("check_contract", [](const std::string& name) {
    const IntegratorContractReport r = CheckIntegratorContract(name);
    py::dict d;
    d["integrator"] = r.integrator;
    d["supports_free_particle"] = r.supports_free_particle;
    d["failures"] = r.failures;
    d["ok"] = r.ok();
    return d;
  }, py::arg("name"));
  m.def("cli", [](const std::vector<std::string>& args) {
    std::vector<const char*> argv{"impactlab"};
    for (const auto& a : args) argv.push_back(a.c_str());
    py::gil_scoped_release nogil;  // `sweep --threads N` may call a Python law from its worker threads
    const int status = cli::RunCli(static_cast<int>(argv.size()), argv.data());
    std::cout.flush();
    std::cerr.flush();
    return status;
  }, py::arg("args"), "runs the impactlab command line in this process (user registrations included)");
}
