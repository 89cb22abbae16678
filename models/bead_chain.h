// BeadChain: Newton's cradle, a 1D chain of N equal beads (mass m, radius R) with Hertz (or any power-law)
// contacts between neighbours [Nesterenko 2001, "Dynamics of Heterogeneous Materials", ch. 1; Hinch &
// Saint-Jean 1999]. Positions x_i = 2R i + u_i [m] along the line; the coordinates are the displacements
// u_i from the touching lattice (particle_assembly.h); bead 0 is the striker.
//
//   δ_i = 2R − (x_{i+1} − x_i),   m ẍ_i = F_n(δ_{i−1}) − F_n(δ_i)   (F_n = W'(δ) + C(δ) δ̇, δ > 0)
//
// Initial state: beads 1..N−1 at rest and just touching (u_i = 0, δ = 0), the striker at u_0 = −gap
// moving with v_0 > 0 towards them. The Hessian and damping matrix are tridiagonal (sparse), so implicit
// steps cost O(N). Implements PairPotentialStructure with the N−1 neighbour pair terms.
#pragma once

#include "models/particle_assembly.h"

namespace impactlab {

struct BeadChainParameters {
  int num_beads = 10;            ///< N ≥ 2
  double mass = 1.0;             ///< m [kg] > 0
  double radius = 1.0;           ///< R [m] > 0
  double impact_velocity = 1.0;  ///< v₀ [m/s] > 0 of the striker
  double initial_gap = 0.0;      ///< [m] ≥ 0 between striker and bead 1
  void Validate() const;
};

class BeadChain final : public ParticleAssembly {
 public:
  BeadChain(BeadChainParameters parameters, DampedNormalLaw law);
  std::string name() const override { return "bead_chain"; }
  MechanicalState InitialState() const override;
  const BeadChainParameters& parameters() const { return p_; }

 private:
  BeadChainParameters p_;
};

}  // namespace impactlab
