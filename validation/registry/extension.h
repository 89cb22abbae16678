// The public extension API: a user's program registers its own integrator, normal contact law, damping law
// or model, and from then on the name works everywhere a built-in name does — scenarios (`integrators = […]`,
// `normal_law = "…"`, `model = "…"`), RunScenario / Simulate, the energy ledger, `impactlab list` (and the
// integrator × model matrix) through RunCli (cli/cli_app.h), the integrator contract and order audit
// (audit/integrator_audit.h), convergence against the exact solution, sweeps, and the Python module.
//
//   #include "registry/extension.h"
//   impactlab::RegisterNormalLaw("cubic", "F = k delta^3 (keys: k)", [](const impactlab::ParameterSet& p) {
//     return std::make_shared<CubicLaw>(p.GetDouble("k"));
//   });
//   return impactlab::cli::RunCli(argc, argv);   // the whole CLI, with "cubic" in it
//
// Rules (each broken rule is an InvalidParameter naming the key, the value and what is valid):
//   * name: 1–64 characters of [a-z0-9_], starting with a letter, not registered yet (built-ins cannot be
//     replaced: a scenario name always means one thing);
//   * factory non-empty; an integrator's factory must accept an empty ParameterSet (every registered
//     integrator is built once per run to validate the scenario's keys) and the integrator's name() must
//     equal the registered name (checked here by building it once);
//   * factories read their own scenario keys from the ParameterSet (a key nobody reads is an error);
//   * `example`: keys that make a valid instance where the factory has required keys (registry.h; the
//     integrator × model matrix of `list --matrix` builds models with them), never defaults of a scenario;
//   * register before running anything: registration is not synchronized with concurrent runs (sweeps run
//     in threads); entries live until the program ends.
// The example projects in examples/ (a law, an integrator, a model) use exactly this header.
#pragma once

#include <string>

#include "registry/registries.h"

namespace impactlab {

/// Adds integrator `name` (see the rules above).
void RegisterIntegrator(const std::string& name, const std::string& summary, IntegratorFactory make,
                        ParameterSet example = {});
/// Adds a normal (elastic) contact law, usable as `normal_law = "name"` by the contact_oscillator model.
void RegisterNormalLaw(const std::string& name, const std::string& summary, NormalLawFactory make,
                       ParameterSet example = {});
/// Adds a damping law, usable as `damping = "name"`; its factory gets the elastic law and the mass it damps.
void RegisterDampingLaw(const std::string& name, const std::string& summary, DampingLawFactory make,
                        ParameterSet example = {});
/// Adds a model, usable as `model = "name"` in a scenario.
void RegisterModel(const std::string& name, const std::string& summary, ModelFactory make,
                   ParameterSet example = {});

/// Checks a name against the rules above for registry `kind` ("integrator", "normal_law", "damping",
/// "model"); throws InvalidParameter(kind, name, …).
void RequireRegistrableName(const std::string& kind, const std::string& name, bool already_registered);

}  // namespace impactlab
