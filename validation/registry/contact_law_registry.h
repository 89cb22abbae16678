// The contact-law registry at the edge: scenario keys → one ContactLaw (contact/contact_law.h), composed by role
// as LAMMPS `pair granular` composes its sub-models and Yade turns materials into contact physics (Ip2):
//
//   normal_law     = hertz (default: K = 4/3 E* √R* from the pair's materials) | linear | power_law | any
//                    registered normal law, with its own keys (k, p, E_star, R_star)
//   damping        = tsuji (default when e_n < 1) | none (default when e_n = 1) | linear_viscous | universal |
//                    kuwabara_kono | any registered damping law; bound to the pair's effective mass m* and
//                    calibrated to the target restitution e_n (key "e" of the damping laws)
//   tangential_law = one of the six tangential laws below (Mindlin stiffness 8 G* √(R* δ_n)), with mu
//
// Models pass what their geometry knows of the two bodies (ContactPairData: E*, G*, R*, m*, approach speed, e_n);
// law factories read nothing else, so one factory serves every model (sphere–wall, sphere–sphere, …).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "contact/contact_law.h"
#include "contact/radius_bound_tangential_law.h"
#include "contact/tangential/tangential_law.h"
#include "core/parameter_set.h"
#include "registry/registry.h"

namespace impactlab {

/// What a law factory may read of the two bodies of a contact (all SI).
struct ContactPairData {
  double effective_modulus = 0.0;        ///< E* [Pa]
  double effective_shear_modulus = 0.0;  ///< G* [Pa]
  double effective_radius = 0.0;         ///< R* [m]
  double effective_mass = 0.0;           ///< m* [kg] (the body's mass against a wall)
  double approach_speed = 0.0;           ///< normal approach speed [m/s] (sets reference overlaps)
  double restitution = 1.0;              ///< target normal restitution e_n ∈ (0, 1]
  /// Hertz coefficient 4/3 E* √R* [N/m^1.5].
  double hertz_coefficient() const;
};

using TangentialLawFactory =
    std::function<std::shared_ptr<const TangentialLaw>(const ParameterSet&, const ContactPairData&, double mu)>;

/// The tangential laws by name (cundall_strack and the five Mindlin laws).
const Registry<TangentialLawFactory>& TangentialLawRegistry();
/// Names of the tangential laws, sorted.
std::vector<std::string> TangentialLawNames();
/// The tangential law of keys tangential_law (default mindlin_rescaled_incremental) and mu (default 0).
std::shared_ptr<const TangentialLaw> TangentialLawFromKeys(const ParameterSet& p, const ContactPairData& pair);
/// The Mindlin law `name` (k_t = 8 G* √(R* δ)) for a model whose contact has no material modulus (the planar
/// penalty, the ECC volume law): key G_star [Pa] required — missing, an InvalidParameter naming `model` and
/// `model_kind` ("penalty", "ECC") —, bound as a factory of the contact's R* (contact/radius_bound_tangential_law.h).
TangentialLawForRadius MindlinLawForRadius(const ParameterSet& p, const std::string& name, double mu,
                                           const std::string& model, const std::string& model_kind);
/// normal ⊕ damping ⊕ tangential from the keys above.
ContactLaw ContactLawFromKeys(const ParameterSet& p, const ContactPairData& pair);

}  // namespace impactlab
