#include "registry/contact_law_registry.h"

#include <cmath>

#include "contact/tangential/cundall_strack.h"
#include "contact/tangential/mindlin_deresiewicz.h"
#include "contact/tangential/mindlin_incremental.h"
#include "contact/tangential/mindlin_integral.h"
#include "contact/tangential/mindlin_rescaled_incremental.h"
#include "contact/tangential/mindlin_scaled_integral.h"
#include "core/checks.h"
#include "registry/registries.h"

namespace impactlab {

double ContactPairData::hertz_coefficient() const {
  return 4.0 / 3.0 * effective_modulus * std::sqrt(effective_radius);
}

namespace {

// Mindlin's no-slip stiffness k_t = 8 G* √(R* δ_n) of the pair.
MindlinStiffness StiffnessOf(const ContactPairData& sp) {
  return MindlinStiffness{sp.effective_shear_modulus, sp.effective_radius};
}

}  // namespace

const Registry<TangentialLawFactory>& TangentialLawRegistry() {
  static const Registry<TangentialLawFactory> r = [] {
    Registry<TangentialLawFactory> reg("tangential_law");
    reg.Add("cundall_strack", "linear spring + Coulomb slider (keys: kt, or kt_over_kn)",
            [](const ParameterSet& p, const ContactPairData& sp, double mu) -> std::shared_ptr<const TangentialLaw> {
              if (p.Has("kt")) return std::make_shared<CundallStrackLaw>(p.GetDouble("kt"), mu);
              // Reference normal stiffness: Hertz tangent stiffness 3/2 K_H √δ_max at the undamped peak overlap
              // δ_max = (15 m v_n² / (16 E* √R))^{2/5}.
              const double ratio = RequirePositive("kt_over_kn", p.GetDouble("kt_over_kn", 2.0 / 7.0));
              const double vn = sp.approach_speed;
              const double delta_max = std::pow(15.0 * sp.effective_mass * vn * vn /
                                                    (16.0 * sp.effective_modulus * std::sqrt(sp.effective_radius)),
                                                0.4);
              return std::make_shared<CundallStrackLaw>(ratio * 1.5 * sp.hertz_coefficient() * std::sqrt(delta_max), mu);
            });
    reg.Add("mindlin_deresiewicz", "Thornton-Randall incremental micro-slip (Seed002 eqs. 2-4, 2 mu F_n)",
            [](const ParameterSet&, const ContactPairData& sp, double mu) {
              return std::make_shared<MindlinDeresiewiczLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_incremental", "Oda-Iwashita incremental no-slip (Seed002 eqs. 14-15)",
            [](const ParameterSet&, const ContactPairData& sp, double mu) {
              return std::make_shared<MindlinIncrementalLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_integral", "Tsuji 1992 integral no-slip (Seed002 eqs. 16-19)",
            [](const ParameterSet&, const ContactPairData& sp, double mu) {
              return std::make_shared<MindlinIntegralLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_rescaled_incremental", "Thornton 2013 rescaled incremental (Seed002 eqs. 8-11)",
            [](const ParameterSet&, const ContactPairData& sp, double mu) {
              return std::make_shared<MindlinRescaledIncrementalLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_scaled_integral", "Di Maio-Di Renzo scaled integral, 2/3 k_t (Seed002 3.2.2)",
            [](const ParameterSet&, const ContactPairData& sp, double mu) {
              return std::make_shared<MindlinScaledIntegralLaw>(StiffnessOf(sp), mu);
            });
    return reg;
  }();
  return r;
}

std::vector<std::string> TangentialLawNames() { return TangentialLawRegistry().names(); }

std::shared_ptr<const TangentialLaw> TangentialLawFromKeys(const ParameterSet& p, const ContactPairData& pair) {
  const std::string name = p.GetString("tangential_law", "mindlin_rescaled_incremental");
  const double mu = RequireNonNegative("mu", p.GetDouble("mu", 0.0));
  return TangentialLawRegistry().Get(name).make(p, pair, mu);
}

ContactLaw ContactLawFromKeys(const ParameterSet& p, const ContactPairData& pair) {
  // Normal law: Hertz of the pair's materials unless the scenario names another law (with its own keys).
  std::shared_ptr<const NormalContactLaw> elastic;
  const std::string normal = p.GetString("normal_law", "hertz");
  if (normal == "hertz" && !p.Has("k") && !p.Has("E_star") && !p.Has("R_star")) {
    ParameterSet material;
    material.Set("E_star", pair.effective_modulus);
    material.Set("R_star", pair.effective_radius);
    elastic = NormalLawRegistry().Get("hertz").make(material);
  } else {
    elastic = NormalLawRegistry().Get(normal).make(p);
  }
  // Damping law, calibrated to the model's e_n (the damping laws read it as "e") and bound to m*.
  ParameterSet damping_keys = p;
  damping_keys.Set("e", pair.restitution);
  const bool undamped = pair.restitution == 1.0 && !p.Has("alpha") && !p.Has("c") && !p.Has("gamma");
  const std::string damping = p.GetString("damping", undamped ? "none" : "tsuji");
  auto damper = DampingLawRegistry().Get(damping).make(damping_keys, elastic, pair.effective_mass);
  p.MergeUsage(damping_keys);
  return ContactLaw(elastic, damper, TangentialLawFromKeys(p, pair));
}

TangentialLawForRadius MindlinLawForRadius(const ParameterSet& p, const std::string& name, double mu,
                                           const std::string& model, const std::string& model_kind) {
  const TangentialLawFactory factory = TangentialLawRegistry().Get(name).make;  // unknown name: the list of laws
  if (!p.Has("G_star"))
    throw InvalidParameter("G_star", "<missing>",
                           "the shear modulus G* [Pa] of k_t = 8 G* sqrt(R* delta), required with tangential_law = " +
                               name + " on model \"" + model + "\" (the " + model_kind +
                               " model has no material modulus)");
  ContactPairData pair;
  pair.effective_shear_modulus = RequirePositive("G_star", p.GetDouble("G_star"));
  pair.restitution = 1.0;
  // One law per contact, for the contact's R* (frozen at first touch); the Mindlin factories read no keys.
  return [factory, pair, mu](double effective_radius) {
    ContactPairData d = pair;
    d.effective_radius = effective_radius;
    return factory(ParameterSet{}, d, mu);
  };
}

}  // namespace impactlab
