// StudyResult <-> JSON <-> CBOR (validation/mpi/mpi_validate.h), the form in which a study's result travels
// from another MPI rank to rank 0: every field back, doubles bit-exact, NaN and a missing published value
// kept. Needs no MPI (built in every configuration).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "mpi/mpi_validate.h"
#include "state/same_bits.h"

using namespace impactlab;

TEST_CASE("study result transport: claims, tables, figures and narrative survive CBOR bit for bit") {
  StudyResult r;
  r.claims.push_back(MakeClaim("a.b", "one third", "Seed000 Table 2", 1.0 / 3.0, 0.1 + 0.2, 1e-17, true));
  Claim nan_claim = MakeClaim("c.d", "bound, NaN measured", "docs/theory.md §5", std::nullopt,
                              std::numeric_limits<double>::quiet_NaN(), 1e-3);
  nan_claim.note = "a note, with \"quotes\"";
  r.claims.push_back(nan_claim);
  r.tables_markdown = {"| a | b |\n|---|---|\n| 1 | 2 |\n"};
  r.figures = {"fig1.png", "fig2.png"};
  r.narrative = "text δ ≤ R";

  const StudyResult back = StudyResultFromJson(nlohmann::json::from_cbor(nlohmann::json::to_cbor(StudyResultToJson(r))));
  REQUIRE(back.claims.size() == 2);
  const Claim& a = back.claims[0];
  CHECK(a.id == "a.b");
  CHECK(a.description == "one third");
  CHECK(a.source == "Seed000 Table 2");
  REQUIRE(a.published.has_value());
  CHECK(SameBits(*a.published, 1.0 / 3.0));
  CHECK(SameBits(a.measured, 0.1 + 0.2));
  CHECK(SameBits(a.tolerance, 1e-17));
  CHECK(a.relative);
  CHECK(a.pass == r.claims[0].pass);
  const Claim& b = back.claims[1];
  CHECK(!b.published.has_value());
  CHECK(std::isnan(b.measured));
  CHECK(!b.pass);
  CHECK(b.note == "a note, with \"quotes\"");
  CHECK(back.tables_markdown == r.tables_markdown);
  CHECK(back.figures == r.figures);
  CHECK(back.narrative == r.narrative);
}
