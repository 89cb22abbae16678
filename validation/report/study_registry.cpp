// The registered validation studies: one line per study.
#include "report/study.h"
#include "studies/calibration_study.h"
#include "studies/conservation_study.h"
#include "studies/exact_solution_study.h"
#include "studies/friction_conserving_study.h"
#include "studies/rotation_study.h"
#include "studies/order_audit_study.h"
#include "studies/oscillator_comparison_study.h"
#include "studies/seed000_table7_angles_study.h"
#include "studies/seed000_table6_convergence_study.h"
#include "studies/seed000_table45_sweeps_study.h"
#include "studies/seed000_table3_stiffness_study.h"
#include "studies/seed000_table2_oblique_study.h"
#include "studies/seed000_table1_aligned_study.h"
#include "studies/seed000_energy_partition_study.h"
#include "studies/seed003_carom_study.h"
#include "studies/chung_ooi_study.h"
#include "studies/chung_ooi_pair_study.h"
#include "studies/oscillator_comparison_study.h"
#include "studies/seed002_kharaz_study.h"
#include "studies/seed002_thornton_study.h"

#ifdef IMPACTLAB_WITH_SICONOS
#include "studies/nonsmooth_peers_study.h"
#endif
namespace impactlab {

std::vector<std::unique_ptr<Study>> RegisteredStudies() {
  std::vector<std::unique_ptr<Study>> studies;
  studies.push_back(std::make_unique<CalibrationStudy>());
  studies.push_back(std::make_unique<ConservationStudy>());
  studies.push_back(std::make_unique<OscillatorComparisonStudy>());
  studies.push_back(std::make_unique<OrderAuditStudy>());
  studies.push_back(std::make_unique<Seed000EnergyPartitionStudy>());
  studies.push_back(std::make_unique<Seed000Table1AlignedStudy>());
  studies.push_back(std::make_unique<Seed000Table2ObliqueStudy>());
  studies.push_back(std::make_unique<Seed000Table3StiffnessStudy>());
  studies.push_back(std::make_unique<Seed000Table45SweepsStudy>());
  studies.push_back(std::make_unique<Seed000Table6ConvergenceStudy>());
  studies.push_back(std::make_unique<Seed000Table7AnglesStudy>());
  studies.push_back(std::make_unique<Seed003CaromStudy>());
  studies.push_back(std::make_unique<Seed002ThorntonStudy>());
  studies.push_back(std::make_unique<Seed002KharazStudy>());
  studies.push_back(std::make_unique<ChungOoiStudy>());
  studies.push_back(std::make_unique<ChungOoiPairStudy>());
  studies.push_back(std::make_unique<ExactSolutionStudy>());
  studies.push_back(std::make_unique<FrictionConservingStudy>());
  studies.push_back(std::make_unique<RotationStudy>());
#ifdef IMPACTLAB_WITH_SICONOS
  studies.push_back(std::make_unique<NonsmoothPeersStudy>());  // built with Siconos only (docs/nonsmooth-peers.md)
#endif
  return studies;
}

}  // namespace impactlab
