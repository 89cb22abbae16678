#include "mpi/mpi_validate.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "core/errors.h"
#include "core/interrupt.h"
#include "io/atomic_file.h"
#include "mpi/mpi_world.h"
#include "mpi/rank_pool.h"

namespace impactlab {

namespace {

namespace fs = std::filesystem;

/// Every regular file below `dir`: relative path → bytes (CBOR byte string).
nlohmann::json ReadFolder(const fs::path& dir) {
  nlohmann::json files = nlohmann::json::object();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    files[fs::relative(entry.path(), dir).generic_string()] =
        nlohmann::json::binary(std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
  }
  return files;
}

void WriteFolder(const fs::path& dir, const nlohmann::json& files) {
  for (const auto& [rel, content] : files.items()) {
    const fs::path target = (dir / rel).lexically_normal();
    IMPACTLAB_DEMAND(!fs::path(rel).is_absolute() && rel.find("..") == std::string::npos);
    const auto& bytes = content.get_binary();
    WriteFileAtomically(target, std::string(bytes.begin(), bytes.end()));
  }
}

/// The study's inputs (StudyContext::inputs, with `validate --set` applied on rank 0), typed.
nlohmann::json InputsToJson(const ParameterSet& inputs) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& [key, value] : inputs.values()) {
    if (auto d = std::get_if<double>(&value)) j.push_back({{"key", key}, {"double", *d}});
    else if (auto t = std::get_if<std::string>(&value)) j.push_back({{"key", key}, {"string", *t}});
    else if (auto b = std::get_if<bool>(&value)) j.push_back({{"key", key}, {"bool", *b}});
    else j.push_back({{"key", key}, {"vector", std::get<std::vector<double>>(value)}});
  }
  return j;
}

ParameterSet InputsFromJson(const nlohmann::json& j) {
  ParameterSet p;
  for (const auto& e : j) {
    const std::string key = e.at("key").get<std::string>();
    if (e.contains("double")) p.Set(key, e.at("double").get<double>());
    else if (e.contains("string")) p.Set(key, e.at("string").get<std::string>());
    else if (e.contains("bool")) p.Set(key, e.at("bool").get<bool>());
    else p.Set(key, e.at("vector").get<std::vector<double>>());
  }
  return p;
}

}  // namespace

nlohmann::json StudyResultToJson(const StudyResult& result) {
  nlohmann::json claims = nlohmann::json::array();
  for (const Claim& c : result.claims)
    claims.push_back({{"id", c.id},
                      {"description", c.description},
                      {"source", c.source},
                      {"published", c.published ? nlohmann::json(*c.published) : nlohmann::json(nullptr)},
                      {"measured", c.measured},
                      {"tolerance", c.tolerance},
                      {"relative", c.relative},
                      {"pass", c.pass},
                      {"note", c.note}});
  return {{"claims", claims},
          {"tables_markdown", result.tables_markdown},
          {"figures", result.figures},
          {"narrative", result.narrative}};
}

StudyResult StudyResultFromJson(const nlohmann::json& j) {
  StudyResult r;
  for (const auto& c : j.at("claims")) {
    Claim claim;
    claim.id = c.at("id").get<std::string>();
    claim.description = c.at("description").get<std::string>();
    claim.source = c.at("source").get<std::string>();
    if (!c.at("published").is_null()) claim.published = c.at("published").get<double>();
    claim.measured = c.at("measured").get<double>();
    claim.tolerance = c.at("tolerance").get<double>();
    claim.relative = c.at("relative").get<bool>();
    claim.pass = c.at("pass").get<bool>();
    claim.note = c.at("note").get<std::string>();
    r.claims.push_back(std::move(claim));
  }
  r.tables_markdown = j.at("tables_markdown").get<std::vector<std::string>>();
  r.figures = j.at("figures").get<std::vector<std::string>>();
  r.narrative = j.at("narrative").get<std::string>();
  return r;
}

int ServeStudies(int threads) {
  return ServeRankPool(
      threads > 0 ? threads : 1,
      [](const nlohmann::json& task) {
        const std::string name = task.at("study").get<std::string>();
        std::unique_ptr<Study> study;
        for (auto& s : RegisteredStudies())
          if (s->name() == name) study = std::move(s);
        if (!study) throw std::runtime_error("no registered study named " + name);
        std::string tmpl = (fs::temp_directory_path() / "impactlab-study-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a scratch folder in " + fs::temp_directory_path().string());
        const fs::path scratch = tmpl;
        struct Remove {
          fs::path p;
          ~Remove() {
            std::error_code ec;
            fs::remove_all(p, ec);
          }
        } remove{scratch};
        StudyContext ctx;
        ctx.out_dir = scratch / name;
        ctx.quick = task.at("quick").get<bool>();
        ctx.inputs = InputsFromJson(task.at("inputs"));
        ctx.progress = [](const std::string&) {};
        fs::create_directories(ctx.out_dir);
        WriteFolder(ctx.out_dir, task.at("files"));
        const StudyResult result = study->Run(ctx);
        return nlohmann::json{{"result", StudyResultToJson(result)}, {"files", ReadFolder(ctx.out_dir)}};
      },
      "");
}

MpiValidate::MpiValidate(int threads, const std::string& out_dir)
    : pool_(std::make_shared<RankPool>(threads > 0 ? threads : 1,
                                       "the finished studies' files are kept in " + out_dir)) {}

MpiValidate::~MpiValidate() = default;

void MpiValidate::Attach(ValidationOptions& options) {
  options.threads = pool_->slots();
  auto pool = pool_;
  const bool quick = options.quick;
  options.run_study = [pool, quick](const Study& study, const StudyContext& ctx) {
    const std::string label = "study " + study.name();
    try {
      const nlohmann::json answer =
          pool->Run({{"study", study.name()}, {"quick", quick}, {"inputs", InputsToJson(ctx.inputs)}, {"files", ReadFolder(ctx.out_dir)}}, label,
                    [&] { return nlohmann::json{{"local", StudyResultToJson(study.Run(ctx))}}; });
      if (answer.contains("local")) return StudyResultFromJson(answer.at("local"));
      WriteFolder(ctx.out_dir, answer.at("files"));
      return StudyResultFromJson(answer.at("result"));
    } catch (const RemoteTaskError& e) {
      if (e.kind() == "interrupted") throw Interrupted(e.what());
      throw std::runtime_error(label + ": " + e.what());
    }
  };
}

}  // namespace impactlab
