// The registered validation studies: one line per study.
#include "report/study.h"
#include "studies/exact_solution_study.h"
#include "studies/oscillator_comparison_study.h"

namespace impactlab {

std::vector<std::unique_ptr<Study>> RegisteredStudies() {
  std::vector<std::unique_ptr<Study>> studies;
  studies.push_back(std::make_unique<OscillatorComparisonStudy>());
  studies.push_back(std::make_unique<ExactSolutionStudy>());
  return studies;
}

}  // namespace impactlab
