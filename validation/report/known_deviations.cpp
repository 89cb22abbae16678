#include "report/known_deviations.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <toml.hpp>

#include "core/errors.h"

namespace impactlab {

namespace {

const std::set<std::string> kEntryKeys = {"id", "study", "published", "measured", "band", "quick", "reason", "evidence"};
const std::set<std::string> kQuickKeys = {"measured", "band"};

class EntryReader {
 public:
  EntryReader(const std::string& source, size_t index, const std::string& id) : where_(source + " [[deviation]] #" + std::to_string(index + 1) + (id.empty() ? "" : " (" + id + ")")) {}

  [[noreturn]] void Fail(const std::string& field, const std::string& value, const std::string& valid) const {
    throw InvalidParameter(where_ + " " + field, value, valid);
  }
  double Number(const toml::value& v, const std::string& field) const {
    if (v.is_floating()) {
      const double x = v.as_floating();
      if (std::isfinite(x) && std::abs(x) != std::numeric_limits<double>::max()) return x;
    } else if (v.is_integer()) {
      return static_cast<double>(v.as_integer());
    }
    Fail(field, "<not a finite number>", "a finite number");
  }
  std::string Text(const toml::table& t, const std::string& field) const {
    auto it = t.find(field);
    if (it == t.end() || !it->second.is_string() || it->second.as_string().str.empty())
      Fail(field, it == t.end() ? "<missing>" : "<not a non-empty string>", "a non-empty string");
    return it->second.as_string().str;
  }
  DeviationBand Band(const toml::table& t, const std::string& prefix, const std::set<std::string>& allowed) const {
    for (const auto& [k, _] : t)
      if (!allowed.count(k)) Fail(prefix + k, "<unknown key>", "one of the documented keys");
    DeviationBand b;
    auto m = t.find("measured");
    if (m == t.end()) Fail(prefix + "measured", "<missing>", "our measured value at review time");
    b.expected = Number(m->second, prefix + "measured");
    auto band = t.find("band");
    if (band == t.end() || !band->second.is_array() || band->second.as_array().size() != 2)
      Fail(prefix + "band", "<missing or not [low, high]>", "an array [low, high]");
    b.low = Number(band->second.as_array()[0], prefix + "band");
    b.high = Number(band->second.as_array()[1], prefix + "band");
    if (!(b.low <= b.expected && b.expected <= b.high)) {
      std::ostringstream os;
      os << "[" << b.low << ", " << b.high << "] around " << b.expected;
      Fail(prefix + "band", os.str(), "low ≤ measured ≤ high");
    }
    return b;
  }

 private:
  std::string where_;
};

}  // namespace

KnownDeviations KnownDeviations::Parse(std::string_view toml_text, const std::string& source_name) {
  toml::value root;
  try {
    std::istringstream stream{std::string(toml_text)};
    root = toml::parse(stream, source_name);
  } catch (const std::exception& e) {
    std::string msg = e.what();
    for (auto& c : msg)
      if (c == '\n') c = ' ';
    throw InvalidParameter("known deviations", "\"" + source_name + "\"", "well-formed TOML; parser says: " + msg);
  }
  KnownDeviations out;
  if (!root.is_table()) throw InvalidParameter("known deviations", "\"" + source_name + "\"", "a TOML table");
  for (const auto& [key, _] : root.as_table())
    if (key != "deviation")
      throw InvalidParameter("known deviations " + source_name, "key \"" + key + "\"", "only [[deviation]] tables");
  if (!root.as_table().count("deviation")) return out;
  const toml::value& list = root.at("deviation");
  if (!list.is_array()) throw InvalidParameter("known deviations " + source_name, "deviation", "an array of tables");
  std::set<std::string> ids;
  for (size_t i = 0; i < list.as_array().size(); ++i) {
    const toml::value& v = list.as_array()[i];
    if (!v.is_table()) EntryReader(source_name, i, "").Fail("", "<not a table>", "a [[deviation]] table");
    const toml::table& t = v.as_table();
    const EntryReader probe(source_name, i, "");
    KnownDeviation d;
    d.id = probe.Text(t, "id");
    const EntryReader r(source_name, i, d.id);
    d.study = r.Text(t, "study");
    d.reason = r.Text(t, "reason");
    d.evidence = r.Text(t, "evidence");
    if (auto p = t.find("published"); p != t.end()) d.published = r.Number(p->second, "published");
    std::set<std::string> band_keys = {"measured", "band"};
    toml::table band_part;
    for (const auto& [k, val] : t) {
      if (!kEntryKeys.count(k)) r.Fail(k, "<unknown key>", "one of id, study, published, measured, band, quick, reason, evidence");
      if (band_keys.count(k)) band_part.emplace(k, val);
    }
    d.full = r.Band(band_part, "", kQuickKeys);
    if (auto q = t.find("quick"); q != t.end()) {
      if (!q->second.is_table()) r.Fail("quick", "<not a table>", "{ measured = x, band = [low, high] }");
      d.quick = r.Band(q->second.as_table(), "quick.", kQuickKeys);
    }
    if (!ids.insert(d.id).second) r.Fail("id", "\"" + d.id + "\"", "an id listed once");
    out.entries_.push_back(std::move(d));
  }
  return out;
}

KnownDeviations KnownDeviations::Load(const std::filesystem::path& path) {
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open()) throw InvalidParameter("--deviations", "\"" + path.string() + "\"", "a readable TOML file");
  std::ostringstream text;
  text << in.rdbuf();
  return Parse(text.str(), path.string());
}

std::filesystem::path KnownDeviations::DefaultPath() {
  return std::filesystem::path(IMPACTLAB_SOURCE_DIR) / "validation" / "known_deviations.toml";
}

const KnownDeviation* KnownDeviations::Find(const std::string& id) const {
  for (const auto& d : entries_)
    if (d.id == id) return &d;
  return nullptr;
}

void ReviewClaims(std::vector<Claim>& claims, const KnownDeviations& deviations, bool quick_mode) {
  for (Claim& c : claims) {
    const KnownDeviation* d = deviations.Find(c.id);
    c.band.reset();
    if (!d) {
      c.status = c.pass ? ClaimStatus::kPass : ClaimStatus::kFail;
      continue;
    }
    const DeviationBand& b = d->Band(quick_mode);
    c.band = ReviewedBand{b.low, b.high, b.expected, d->reason, d->evidence};
    if (c.pass) c.status = ClaimStatus::kFixed;
    else if (std::isfinite(c.measured) && b.low <= c.measured && c.measured <= b.high) c.status = ClaimStatus::kKnownDeviation;
    else c.status = ClaimStatus::kOutsideBand;
  }
}

std::vector<std::string> StaleEntries(const KnownDeviations& deviations, const std::set<std::string>& studies_run,
                                      const std::set<std::string>& claim_ids) {
  std::vector<std::string> out;
  for (const auto& d : deviations.entries())
    if (studies_run.count(d.study) && !claim_ids.count(d.id)) out.push_back(d.id);
  return out;
}

}  // namespace impactlab
