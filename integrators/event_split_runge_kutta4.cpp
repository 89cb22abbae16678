#include "integrators/event_split_runge_kutta4.h"

#include <algorithm>
#include <boost/numeric/odeint.hpp>

#include "integrators/first_order_form.h"

namespace impactlab {

namespace odeint = boost::numeric::odeint;
using OdeState = std::vector<double>;

namespace {

struct PinnedContact {
  int contact = -1;
  bool in = false;  ///< the side the sub-step lies on (true: in contact)
};

}  // namespace

struct EventSplitRungeKutta4::Workspace {
  /// Boost.Odeint sizes the stage buffers at the first step only (initially_resizer): a fresh stepper whenever
  /// the system's size changes.
  odeint::runge_kutta4<OdeState> rk4;
  OdeState y0, y;  ///< sub-step start and end in the first-order form
  OdeState y_trial;  ///< the trial sub-step's end, kept while its events are searched
  MechanicalState sub_start, scratch, pinned_state, probe;
  ContactCrossing crossing;
  std::vector<char> side;       ///< current side of each event along the step (contacts: 1 = in contact;
                                ///< switches: always 1, only a + → − change of g is split)
  std::vector<char> end_in;     ///< side of each event at the end of the trial sub-step
  std::vector<char> starts_on;  ///< 1: the current sub-step starts on this event's root
  std::vector<double> g;        ///< switch functions at the end of the trial sub-step
  PinnedContact pins[2];     ///< the contacts the current sub-step starts / ends on
  int num_pins = 0;
  long evaluations = 0;
};

EventSplitRungeKutta4::EventSplitRungeKutta4() : work_(std::make_unique<Workspace>()) {}
EventSplitRungeKutta4::~EventSplitRungeKutta4() = default;

IntegratorTraits EventSplitRungeKutta4::traits() const {
  IntegratorTraits t;
  t.order = 4;  // for laws smooth on each side of δ = 0; min(4, p + 1) on F ∝ δ^p (header comment)
  t.locates_events = true;
  t.library = "Boost.Odeint (runge_kutta4) + impactlab event location";
  t.reference =
      "Kutta 1901; Hairer, Norsett & Wanner 1993, Table II.1.2; event-located sub-steps (docs/theory.md §12.3)";
  t.damping_treatment =
      "exact right-hand side at every stage; one-sided (pinned-side) stages at located contact onsets and releases";
  return t;
}

StepResult EventSplitRungeKutta4::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  Workspace& w = *work_;
  const FirstOrderForm form(state);
  const int nc = system.num_contacts();
  const int ns = system.num_switches();
  const int ne = nc + ns;  // events: the overlaps δ_i, then the switch functions g_j
  if (w.y0.size() != form.size()) w.rk4 = odeint::runge_kutta4<OdeState>();
  w.y0.resize(form.size());
  w.y.resize(form.size());
  if (w.scratch.q.size() != state.q.size() || w.scratch.v.size() != state.v.size() ||
      w.scratch.z.size() != state.z.size()) {
    w.scratch = state;
    w.probe = state;
  }
  w.evaluations = 0;
  w.num_pins = 0;

  // y' = F(t, y) with the pinned contacts held on their side (header comment); without pins (or when every
  // pinned contact is already on its side) exactly FirstOrderForm::Rhs, as plain rk4 evaluates it.
  auto rhs = [&](const OdeState& x, OdeState& dxdt, double t) {
    ++w.evaluations;
    if (w.num_pins == 0) {
      form.Rhs(system, x.data(), t, dxdt.data(), w.scratch, &w.sub_start);
      return;
    }
    form.Unpack(x.data(), t, w.scratch);
    const MechanicalState* at = &w.scratch;
    for (int k = 0; k < w.num_pins; ++k) {
      const MechanicalState& p = w.crossing.PinnedSide(system, *at, w.pins[k].contact, w.pins[k].in, h);
      if (&p != at) {
        w.pinned_state = p;
        at = &w.pinned_state;
      }
    }
    if (at == &w.scratch) {
      form.Rhs(system, x.data(), t, dxdt.data(), w.scratch, &w.sub_start);
      return;
    }
    MechanicalState& e = w.pinned_state;
    const Eigen::Index nq = state.q.size(), nv = state.v.size(), nz = state.z.size();
    if (nz > 0) system.UpdateHistory(w.sub_start, e);
    Eigen::Map<Eigen::VectorXd> q_dot(dxdt.data(), nq), v_dot(dxdt.data() + nq, nv), z_dot(dxdt.data() + nq + nv, nz);
    system.PositionRate(w.scratch, q_dot);
    system.Acceleration(e, v_dot);
    if (nz > 0) system.HistoryRate(e, z_dot);
    dxdt[nq + nv + nz] = system.DissipationPower(e);
  };
  auto sub_step = [&](double tau) {
    w.y = w.y0;
    w.rk4.do_step(rhs, w.y, w.sub_start.t, tau);
  };
  // The sub-step's end state into w.probe, with the switch functions w.g there.
  auto end_state = [&](double tau) {
    form.Unpack(w.y.data(), w.sub_start.t + tau, w.probe);
    system.NormalizeCoordinates(w.probe);
    if (ns > 0) system.SwitchFunctions(w.sub_start, w.probe, w.g);
  };
  // Switch j as an event: g_j − kSwitchRoundOff, so that a sub-step starting on the switch (g_j = 0 to round-off:
  // the committed spring on the cone, slipping) is on the − side from its start and is not split again.
  auto switch_value = [&](int j) { return w.g[j] - kSwitchRoundOff; };

  w.sub_start = state;
  w.side.assign(ne, 1);
  w.end_in.resize(ne);
  w.starts_on.assign(ne, 0);
  w.g.resize(ns);
  w.crossing.Sides(system, state, w.side);

  StepResult result;
  const double t_end = state.t + h;
  double remaining = h;
  int splits = 0;
  int start_contact = -1;  // contact whose crossing the current sub-step starts on (-1: none)
  for (;;) {
    form.Pack(w.sub_start, w.y0.data());
    w.num_pins = 0;
    if (start_contact >= 0) w.pins[w.num_pins++] = {start_contact, static_cast<bool>(w.side[start_contact])};
    const int base_pins = w.num_pins;
    auto pin_end = [&](int contact) {
      w.num_pins = base_pins;
      if (contact >= 0 && contact != start_contact)
        w.pins[w.num_pins++] = {contact, static_cast<bool>(w.side[contact])};
    };

    // --- trial sub-step over the remaining interval; earliest event sign change in it ---
    sub_step(remaining);
    int crossing = -1;  // the located event (a contact if < nc, else the switch crossing − nc)
    double tau = remaining;
    if (ne > 0 && splits < kMaxSplits) {
      end_state(remaining);
      w.crossing.Sides(system, w.probe, w.end_in);
      bool changed = false;
      for (int i = 0; i < ne; ++i) {
        if (i >= nc) w.end_in[i] = w.side[i] ? switch_value(i - nc) > 0.0 : w.side[i];  // switches: + → − only
        changed = changed || w.end_in[i] != w.side[i];
      }
      if (changed) {
        std::fill(w.starts_on.begin(), w.starts_on.end(), 0);
        if (start_contact >= 0) w.starts_on[start_contact] = 1;
        w.y_trial = w.y;
        const ContactCrossing::Crossing c =
            w.crossing.LocateEarliest(w.side, w.end_in, w.starts_on, remaining, h, [&](int i, double s) {
              pin_end(i < nc ? i : -1);
              sub_step(s);
              end_state(s);
              return i < nc ? system.ContactOverlapOf(w.probe, i).overlap : switch_value(i - nc);
            });
        crossing = c.contact;
        tau = c.tau;
        pin_end(crossing >= 0 && crossing < nc ? crossing : -1);
        if (crossing >= 0)
          sub_step(tau);  // the root function overwrote y: the sub-step to take, with its end pinned
        else
          w.y = w.y_trial;  // no crossing after all: the trial sub-step (the same sub-step, not recomputed)
      }
    }

    const bool last = crossing < 0;
    form.Unpack(w.y.data(), last ? t_end : w.sub_start.t + tau, state);
    system.NormalizeCoordinates(state);
    system.UpdateHistory(w.sub_start, state);
    remaining -= tau;
    ++stats_.internal_steps;
    if (last) break;

    ++splits;
    if (crossing >= nc) {  // a switch: the force is continuous (a kink), nothing to pin; the next sub-step slips
      w.side[crossing] = 0;  // one stick → slip switch per function and step
      if (remaining <= 0.0) break;
      start_contact = -1;
      w.sub_start = state;
      continue;
    }
    LocatedEvent event;
    event.contact = crossing;
    event.entering = !w.side[crossing];
    event.state = state;
    result.events.push_back(std::move(event));
    w.side[crossing] = !w.side[crossing];
    if (remaining <= 0.0) break;  // crossing exactly at the step end
    start_contact = crossing;
    w.sub_start = state;
  }
  w.num_pins = 0;
  stats_.rhs_evaluations += w.evaluations;
  return result;
}

}  // namespace impactlab
