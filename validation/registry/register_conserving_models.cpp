// Registration of the multi-body models of issue 4: two_body, bead_chain, disk_cloud.
// Shared keys: normal_law (hertz | linear | power_law; k | E_star, R_star; p), damping, e | alpha | c | gamma
// (damping laws are bound to the reduced mass m*/2 of an equal-mass pair, or m₁m₂/(m₁+m₂) for two_body).
#include <cmath>

#include "core/checks.h"
#include "metrics/contact_metrics.h"
#include "models/bead_chain.h"
#include "models/disk_cloud.h"
#include "models/two_body_impact.h"
#include "registry/registries.h"

namespace impactlab {

namespace {

DampedNormalLaw PairLaw(const ParameterSet& p, double reduced_mass) {
  auto elastic = NormalLawRegistry().Get(p.GetString("normal_law", "hertz")).make(p);
  const double e = RequireInLeftOpen("e", p.GetDouble("e", 1.0), 0.0, 1.0);
  std::string damping = p.GetString("damping", e == 1.0 ? "none" : "tsuji");
  auto damper = DampingLawRegistry().Get(damping).make(p, elastic, reduced_mass);
  return DampedNormalLaw{elastic, damper};
}

auto Optional(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

}  // namespace

void RegisterConservingModels(Registry<ModelFactory>& r) {
  r.Add("two_body", "two spheres head-on (1D); keys m1, m2, R1, R2, v1, v2, initial_gap, normal_law, damping, e",
        [](const ParameterSet& p) {
          RejectTangentialLaw(p, "two_body", "a head-on 1-D impact has no tangential direction");
          TwoBodyImpactParameters tp;
          tp.mass1 = RequirePositive("m1", p.GetDouble("m1", 1.0));
          tp.mass2 = RequirePositive("m2", p.GetDouble("m2", 1.0));
          tp.radius1 = p.GetDouble("R1", 1.0);
          tp.radius2 = p.GetDouble("R2", 1.0);
          tp.velocity1 = p.GetDouble("v1", 0.5);
          tp.velocity2 = p.GetDouble("v2", -0.5);
          tp.initial_gap = p.GetDouble("initial_gap", 0.0);
          auto model = std::make_shared<TwoBodyImpact>(tp, PairLaw(p, tp.mass1 * tp.mass2 / (tp.mass1 + tp.mass2)));
          ModelInstance mi;
          mi.system = model;
          mi.summarize = [](const RunOutcome& o, nlohmann::json& out) {
            const ContactMetrics m = FirstContactMetrics(o.record.events, 0);
            out["rebounds"] = m.rebounds;
            out["restitution"] = Optional(m.restitution);
            out["contact_duration"] = Optional(m.contact_duration);
            out["max_overlap"] = Optional(m.max_overlap);
          };
          return mi;
        },
        ExampleKeys({{"k", 1.0e6}, {"R1", 0.1}, {"R2", 0.1}}));
  r.Add("bead_chain",
        "Newton's cradle: N beads in a line with neighbour contacts; keys num_beads, m, R, v0, initial_gap, "
        "normal_law, damping, e",
        [](const ParameterSet& p) {
          RejectTangentialLaw(p, "bead_chain", "a 1-D chain has no tangential direction");
          BeadChainParameters bp;
          const double n = p.GetDouble("num_beads", 10);
          if (!(n >= 2 && n <= 1e6 && std::floor(n) == n)) throw InvalidParameter("num_beads", n, "an integer in [2, 1e6]");
          bp.num_beads = static_cast<int>(n);
          bp.mass = RequirePositive("m", p.GetDouble("m", 1.0));
          bp.radius = p.GetDouble("R", 1.0);
          bp.impact_velocity = p.GetDouble("v0", 1.0);
          bp.initial_gap = p.GetDouble("initial_gap", 0.0);
          auto model = std::make_shared<BeadChain>(bp, PairLaw(p, 0.5 * bp.mass));
          ModelInstance mi;
          mi.system = model;
          mi.summarize = [bp](const RunOutcome& o, nlohmann::json& out) {
            const auto& v = o.record.final_state.v;
            out["last_bead_velocity_ratio"] = v[bp.num_beads - 1] / bp.impact_velocity;
            out["striker_velocity_ratio"] = v[0] / bp.impact_velocity;
          };
          return mi;
        },
        ExampleKeys({{"num_beads", 10.0}, {"E_star", 1.15e11}, {"R_star", 0.0025}, {"R", 0.005}, {"m", 0.0041}, {"v0", 1.0}}));
  r.Add("disk_cloud",
        "2D cloud of N ≤ 2000 frictionless disks, all pairs in contact list; keys num_disks, m, R, spacing_gap, "
        "contraction_speed, random_speed, seed, normal_law, damping, e",
        [](const ParameterSet& p) {
          RejectTangentialLaw(p, "disk_cloud", "its disks carry no rotation coordinate, so its contacts are central frictionless pair potentials");
          DiskCloudParameters dp;
          const double n = p.GetDouble("num_disks", 50);
          if (!(n >= 2 && n <= DiskCloudParameters::kMaxDisks && std::floor(n) == n))
            throw InvalidParameter("num_disks", n, DiskCloudParameters::MaxDisksRange());
          dp.num_disks = static_cast<int>(n);
          dp.mass = RequirePositive("m", p.GetDouble("m", 1.0));
          dp.radius = p.GetDouble("R", 1.0);
          dp.spacing_gap = p.GetDouble("spacing_gap", dp.spacing_gap);
          dp.contraction_speed = p.GetDouble("contraction_speed", dp.contraction_speed);
          dp.random_speed = p.GetDouble("random_speed", dp.random_speed);
          const double seed = p.GetDouble("seed", 1);
          if (!(seed >= 0 && seed < 9e15 && std::floor(seed) == seed)) throw InvalidParameter("seed", seed, "an integer >= 0");
          dp.seed = static_cast<std::uint64_t>(seed);
          auto model = std::make_shared<DiskCloud>(dp, PairLaw(p, 0.5 * dp.mass));
          ModelInstance mi;
          mi.system = model;
          // The summary counts contact starts; a state per located event (thousands of them, 64 kB each at
          // N = 2000) would dominate a long run's memory.
          mi.event_states = false;
          mi.summarize = [](const RunOutcome& o, nlohmann::json& out) {
            long contacts = 0;
            for (const auto& ev : o.record.events)
              if (ev.kind == ContactEventKind::kStart) ++contacts;
            out["contacts_started"] = contacts;
            const auto l = o.ledger.angular_momentum_drift_max();
            const auto pd = o.ledger.linear_momentum_drift_max();
            out["linear_momentum_drift_max"] = Optional(pd);
            out["angular_momentum_drift_max"] = Optional(l);
          };
          return mi;
        },
        ExampleKeys({{"num_disks", 16.0}, {"k", 1.0e3}, {"R", 1.0}, {"m", 1.0}, {"spacing_gap", 0.05}, {"contraction_speed", 0.5}}));
}

}  // namespace impactlab
