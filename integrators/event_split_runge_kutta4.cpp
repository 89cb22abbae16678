#include "integrators/event_split_runge_kutta4.h"

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
  odeint::runge_kutta4<OdeState> rk4;
  OdeState y0, y;  ///< sub-step start and end in the first-order form
  MechanicalState sub_start, scratch, pinned_state, probe;
  ContactCrossing crossing;
  std::vector<char> side;    ///< current side of each contact (1 = in contact) along the step
  std::vector<char> end_in;  ///< side of each contact at the end of the trial sub-step
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
  auto end_overlaps = [&](double tau) {
    form.Unpack(w.y.data(), w.sub_start.t + tau, w.probe);
    system.NormalizeCoordinates(w.probe);
    w.crossing.Overlaps(system, w.probe);
  };

  w.sub_start = state;
  w.crossing.Overlaps(system, state);
  w.side.resize(nc);
  w.end_in.resize(nc);
  for (int i = 0; i < nc; ++i) w.side[i] = w.crossing.overlap()[i] > 0.0;

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

    // --- trial sub-step over the remaining interval; earliest overlap sign change in it ---
    sub_step(remaining);
    int crossing = -1;
    double tau = remaining;
    if (nc > 0 && splits < kMaxSplits) {
      end_overlaps(remaining);
      bool changed = false;
      for (int i = 0; i < nc; ++i) {
        w.end_in[i] = w.crossing.overlap()[i] > 0.0;
        changed = changed || w.end_in[i] != w.side[i];
      }
      if (changed) {
        const ContactCrossing::Crossing c =
            w.crossing.LocateEarliest(w.side, w.end_in, start_contact, remaining, h, [&](int i, double s) {
              pin_end(i);
              sub_step(s);
              end_overlaps(s);
              return w.crossing.overlap()[i];
            });
        crossing = c.contact;
        tau = c.tau;
        pin_end(crossing);
        sub_step(tau);  // the root function overwrote y: the sub-step to take, with its end pinned
      }
    }

    const bool last = crossing < 0;
    form.Unpack(w.y.data(), last ? t_end : w.sub_start.t + tau, state);
    system.NormalizeCoordinates(state);
    system.UpdateHistory(w.sub_start, state);
    remaining -= tau;
    ++stats_.internal_steps;
    if (last) break;

    LocatedEvent event;
    event.contact = crossing;
    event.entering = !w.side[crossing];
    event.state = state;
    result.events.push_back(std::move(event));
    w.side[crossing] = !w.side[crossing];
    ++splits;
    if (remaining <= 0.0) break;  // crossing exactly at the step end
    start_contact = crossing;
    w.sub_start = state;
  }
  w.num_pins = 0;
  stats_.rhs_evaluations += w.evaluations;
  return result;
}

}  // namespace impactlab
