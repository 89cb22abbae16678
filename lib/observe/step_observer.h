// StepObserver: sees every accepted step of a simulation (energy ledger, time-series writer, event
// detector, momentum monitor). Observers never modify the state.
#pragma once

#include "observe/contact_event.h"
#include "state/mechanical_state.h"
#include "system/mechanical_system.h"

namespace impactlab {

class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void OnStart(const MechanicalSystem& system, const MechanicalState& state) {
    (void)system;
    (void)state;
  }
  virtual void OnStep(const MechanicalSystem& system, const MechanicalState& state) = 0;
  virtual void OnEvent(const MechanicalSystem& system, const ContactEvent& event) {
    (void)system;
    (void)event;
  }
  virtual void OnFinish(const MechanicalSystem& system, const MechanicalState& state) {
    (void)system;
    (void)state;
  }
};

}  // namespace impactlab
