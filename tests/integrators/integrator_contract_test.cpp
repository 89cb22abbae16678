// Contract suite run on every registered integrator (STYLE.md §3.7): bad h rejected, time advances by
// exactly h, a free particle is integrated exactly, the declared reference is non-empty.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <string>

#include "core/errors.h"
#include "registry/registries.h"
#include "support/analytic_problems.h"

using namespace impactlab;

TEST_CASE("integrator contract: every registered integrator") {
  for (const auto& name : IntegratorRegistry().names()) {
    SUBCASE(name.c_str()) {
      auto integrator = IntegratorRegistry().Get(name).make(ParameterSet{});
      CHECK(integrator->name() == name);
      CHECK_FALSE(integrator->traits().reference.empty());
      CHECK((integrator->traits().order >= 1 || integrator->traits().exact));  // exact: no truncation error, order meaningless
      testing::FreeParticle particle;
      MechanicalState s = particle.InitialState();
      const MechanicalState s0 = s;
      CHECK_THROWS_AS((void)integrator->Step(particle, s, 0.0), InvalidParameter);
      CHECK_THROWS_AS((void)integrator->Step(particle, s, -1e-3), InvalidParameter);
      CHECK_THROWS_AS((void)integrator->Step(particle, s, std::numeric_limits<double>::quiet_NaN()), InvalidParameter);
      CHECK(s.q == s0.q);  // untouched after rejected input
      const double h = 0.125;
      // Schemes that need model structure (e.g. EFDA's planar contact interface) must reject other models
      // with a clear InvalidParameter naming the integrator, and leave the state untouched.
      bool supported = true;
      try {
        (void)integrator->Step(particle, s, h);
      } catch (const InvalidParameter& e) {
        supported = false;
        CHECK(std::string(e.what()).find(name) != std::string::npos);
        CHECK(s.q == s0.q);
      }
      if (!supported) continue;
      integrator->Reset();
      integrator->ResetStatistics();
      s = s0;
      for (int i = 0; i < 8; ++i) REQUIRE(integrator->Step(particle, s, h).status == StepStatus::kAccepted);
      CHECK(s.t == doctest::Approx(1.0).epsilon(1e-15));
      for (int k = 0; k < 2; ++k) {
        CHECK(s.q[k] == doctest::Approx(s0.q[k] + s0.v[k] * s.t).epsilon(1e-12));
        CHECK(s.v[k] == doctest::Approx(s0.v[k]).epsilon(1e-12));
      }
      CHECK(integrator->statistics().steps == 8);
      // An instance reused on a larger system after Reset() (a library user's loop over models): first the 1-D
      // oscillator, then the 2-D particle, which it must integrate bitwise as the fresh instance did. Scratch that
      // is sized once (e.g. Boost.Odeint's steppers resize their stage buffers only at the first step) would be
      // written past its end here: a crash, or a finding of the sanitizer build.
      auto reused = IntegratorRegistry().Get(name).make(ParameterSet{});
      testing::HarmonicOscillator oscillator(1.0, 4.0, 0.1, 0.0);
      MechanicalState o = oscillator.InitialState();
      bool oscillator_supported = true;
      try {
        for (int i = 0; i < 8; ++i) REQUIRE(reused->Step(oscillator, o, 0.01).status == StepStatus::kAccepted);
      } catch (const InvalidParameter&) {
        oscillator_supported = false;
      }
      if (!oscillator_supported) continue;
      reused->Reset();
      MechanicalState r = s0;
      for (int i = 0; i < 8; ++i) REQUIRE(reused->Step(particle, r, h).status == StepStatus::kAccepted);
      CHECK(r.q == s.q);
      CHECK(r.v == s.v);
    }
  }
}
