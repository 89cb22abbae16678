// The registered validation studies: one line per study.
#include "report/study.h"
#include "studies/chung_ooi_study.h"
#include "studies/oscillator_comparison_study.h"
#include "studies/seed002_kharaz_study.h"
#include "studies/seed002_thornton_study.h"

namespace impactlab {

std::vector<std::unique_ptr<Study>> RegisteredStudies() {
  std::vector<std::unique_ptr<Study>> studies;
  studies.push_back(std::make_unique<OscillatorComparisonStudy>());
  studies.push_back(std::make_unique<Seed002ThorntonStudy>());
  studies.push_back(std::make_unique<Seed002KharazStudy>());
  studies.push_back(std::make_unique<ChungOoiStudy>());
  return studies;
}

}  // namespace impactlab
