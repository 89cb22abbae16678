// DiskCloud: a 2D cloud of N equal frictionless disks (mass m, radius R) with Hertz (or power-law)
// contacts between every pair, no walls, no gravity: an isolated system whose linear momentum P and
// angular momentum L about the centre of mass are conserved by the exact dynamics [docs/theory.md §7].
//
//   δ_ab = 2R − |x_b − x_a|,   m ẍ_b = Σ_a F_n(δ_ab) n_ab,  n_ab = (x_b − x_a)/|x_b − x_a|
//
// Initial state (deterministic for a given seed): disk centres on a square grid of spacing
// 2R (1 + spacing_gap), jittered by ±¼ of the gap, velocities v = −v_contract (x − x_G)/ℓ + v_random·U(−1,1)²
// (a contracting cloud, so that many collisions happen), with the mean velocity removed (P ≈ 0). The
// contact list holds all N(N−1)/2 pairs (N ≤ kMaxDisks = 2000: that dense list's memory is the limit); the force
// evaluations and the simulation driver's contact readings visit only the pairs the cell list finds in range
// (ParticleAssembly's broad phase, O(N) per evaluation, bitwise the all-pairs results). Coordinates: displacements from the (unjittered) grid.
#pragma once

#include <cstdint>
#include <string>

#include "models/particle_assembly.h"

namespace impactlab {

struct DiskCloudParameters {
  /// The contact list is dense (N(N − 1)/2 pair terms, ≈ 220 B each with the broad phase's lists): 0.44 GB at N = 2000.
  static constexpr int kMaxDisks = 2000;
  int num_disks = 50;            ///< N ∈ [2, kMaxDisks]
  double mass = 1.0;             ///< m [kg] > 0
  double radius = 1.0;           ///< R [m] > 0
  double spacing_gap = 0.05;     ///< relative initial gap between grid neighbours, (0, 10]
  double contraction_speed = 0.5;  ///< v_contract [m/s] ≥ 0 at distance ℓ = grid half-width
  double random_speed = 0.5;     ///< v_random [m/s] ≥ 0
  std::uint64_t seed = 1;
  void Validate() const;
  /// The valid range of num_disks with its reason, for the error message.
  static std::string MaxDisksRange();
};

class DiskCloud final : public ParticleAssembly {
 public:
  DiskCloud(DiskCloudParameters parameters, DampedNormalLaw law);
  std::string name() const override { return "disk_cloud"; }
  MechanicalState InitialState() const override { return initial_; }
  const DiskCloudParameters& parameters() const { return p_; }

 private:
  DiskCloudParameters p_;
  MechanicalState initial_;
};

}  // namespace impactlab
