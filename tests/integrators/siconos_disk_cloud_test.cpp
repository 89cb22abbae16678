// The nonlinear Siconos relation of integrators/siconos/siconos_contact_adapter.h (2-D pair gaps
// y = |x_b − x_a| − R, H = [−n, n], Ḣ = [−ṅ, ṅ]) on disk_cloud, a contracting cloud of frictionless disks with
// many simultaneous contacts: with e = 1 and no field, both Siconos schemes must conserve linear momentum
// (impulses are internal: Σ Hᵀ P sums to zero pair by pair) and kinetic energy plus the booked impact losses
// [Acary & Brogliato 2008 §10.1 (Moreau–Jean θ = ½: ΔT = pᵀ v̄ exactly), ch. 8 (event-driven)].
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/parameter_set.h"
#include "registry/registries.h"

using namespace impactlab;

namespace {

void CheckCloud(const std::string& integrator_name, double h, int steps, double energy_tolerance) {
  ParameterSet p;
  p.Set("num_disks", 16.0);
  p.Set("k", 1.0e3);
  p.Set("R", 1.0);
  p.Set("m", 1.0);
  p.Set("spacing_gap", 0.05);
  p.Set("contraction_speed", 0.5);
  const ModelInstance model = ModelRegistry().Get("disk_cloud").make(p);
  auto integrator = IntegratorRegistry().Get(integrator_name).make(p);
  MechanicalState s = model.system->InitialState();
  const double e0 = model.system->TotalEnergy(s);
  const Eigen::VectorXd v0 = s.v;
  const Eigen::Vector3d p0 = *model.system->LinearMomentum(s);
  const double p_scale = *model.system->LinearMomentumScale(s);
  double momentum = 0.0, balance = 0.0, deepest = 0.0;
  std::vector<double> overlap(static_cast<size_t>(model.system->num_contacts())), rate(overlap.size());
  for (int i = 0; i < steps; ++i) {
    REQUIRE(integrator->Step(*model.system, s, h).status == StepStatus::kAccepted);
    momentum = std::max(momentum, (*model.system->LinearMomentum(s) - p0).norm() / p_scale);
    model.system->ContactOverlaps(s, overlap, rate);
    const double worst = *std::max_element(overlap.begin(), overlap.end());
    deepest = std::max(deepest, worst);
    // Books where no pair overlaps (inside an impact step the model's energy would count the compliant W(δ)).
    if (worst <= 0.0) balance = std::max(balance, std::abs(model.system->TotalEnergy(s) + s.dissipated - e0) / e0);
  }
  MESSAGE(integrator_name << ": momentum drift " << momentum << ", max |E + D - E0|/E0 " << balance
                          << ", deepest overlap " << deepest << " m");
  CHECK(momentum <= 1e-12);
  CHECK(balance <= energy_tolerance);
  // A Moreau–Jean step enters at most one step of closing motion into a contact: δ ≤ h |v_rel|, and
  // |v_rel| ≤ 2 √(2 T₀ / m) (energy is not created).
  CHECK(deepest <= h * 2.0 * std::sqrt(2.0 * e0 / 1.0));
  // The disks did collide: the velocities changed by impulses (a free flight keeps them).
  CHECK((s.v - v0).norm() > 0.1 * v0.norm());
}

}  // namespace

TEST_CASE("siconos on disk_cloud: Moreau-Jean with the nonlinear 2-D gap relation conserves momentum and E + D") {
  CheckCloud("siconos_moreau_jean", 1e-2, 300, 1e-12);
}

TEST_CASE("siconos on disk_cloud: event-driven with the nonlinear 2-D gap relation conserves momentum and E + D") {
  CheckCloud("siconos_event_driven", 1e-2, 300, 1e-8);
}
