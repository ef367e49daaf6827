// rope_search.hpp: the RapidCheck search behind check_rope_apply and check_rope_layouts. Internal.
//
// It draws a case (tokens, heads, positions, the input, a shift), hands it to a case function that
// returns the first failing property, and turns RapidCheck's result into a check_result with the
// replay lines. Not a template: RapidCheck's machinery is compiled once per translation unit, whatever
// the element types and kernels checked there (it is most of a check's compile time). Every draw is
// an integer from rc::gen::inRange decoded by generators.hpp, so shrinking ends at position 0 and
// inputs of 1.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/testing/check_result.hpp"
#include "posenc/testing/detail/rope_case_checks.hpp"
#include "posenc/testing/generators.hpp"
#include "posenc/testing/rope_kernel_bound.hpp"
#include "posenc/testing/rope_property.hpp"

namespace rc::detail {
// Defined in librapidcheck (src/detail/Configuration.cpp) but not declared in its installed
// headers: the string RC_PARAMS="reproduce=..." takes, for a map of test id -> Reproduce.
std::string reproduceMapToString(const std::unordered_map<std::string, Reproduce>& reproduce_map);
}  // namespace rc::detail

namespace posenc::testing::detail {

struct case_input {
  std::size_t tokens = 0, heads = 0;
  std::vector<std::int64_t> positions;
  std::vector<double> x;  // [tokens][heads][head_dim], values of the kernel's format
  std::int64_t shift = 0;
};

// The first failing property of a case, or nothing; adds to worst (max |error| / bound).
using case_check = std::function<std::optional<failure>(const case_input&, double& worst)>;

// "case: tokens 2, heads 1, positions [0, 5] then shifted by 3 to [3, 8]" and the input.
inline std::string case_summary(const case_input& in) {
  std::ostringstream o;
  const auto list = [&](std::int64_t shift) {
    o << "[";
    for (std::size_t i = 0; i < in.positions.size(); ++i) o << (i ? ", " : "") << in.positions[i] + shift;
    o << "]";
  };
  o << "case: tokens " << in.tokens << ", heads " << in.heads << ", positions ";
  list(0);
  o << " then shifted by " << in.shift << " to ";
  list(in.shift);
  if (in.x.size() <= 512) {
    o.precision(17);
    o << "\nx = [";
    for (std::size_t i = 0; i < in.x.size(); ++i) o << (i ? ", " : "") << in.x[i];
    o << "]";
  }
  return o.str();
}

class quiet_listener final : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

// The report of a failed search: the shrunk case and how to replay it.
inline std::string describe(const rc::detail::TestResult& r, const std::string& id, std::uint64_t seed) {
  std::ostringstream o;
  if (r.template is<rc::detail::FailureResult>()) {
    const auto& f = r.template get<rc::detail::FailureResult>();
    o << id << ": falsified after " << f.numSuccess << " passing cases; the shrunk case:\n" << f.description << "\n";
    // f.counterExample holds the raw integers the case was decoded from; the description's first
    // lines (case_summary) show it decoded.
    o << "replay this case: RC_PARAMS=\"reproduce=" << rc::detail::reproduceMapToString({{id, f.reproduce}})
      << "\"\nreplay the whole search: RC_PARAMS=\"seed=" << seed << "\"";
  } else {
    rc::detail::printResultMessage(r, o);
    o << "\n(seed " << seed << ")";
  }
  return o.str();
}

// The exclusive upper end of the drawn positions.
inline std::int64_t drawn_position_limit(const rope::config& cfg, const check_options& opt) {
  if (!opt.positions.empty()) return *std::max_element(opt.positions.begin(), opt.positions.end()) + 1;
  return opt.position_limit > 0 ? opt.position_limit : position_limit(cfg);
}

// How a case is drawn: positions from the decoder (or the options' list), values of one format.
struct draw_plan {
  std::int64_t limit;
  std::optional<position_decoder> positions;  // unset: the options' list
  const std::vector<std::int64_t>* list;
  value_decoder values;
  std::size_t head_dim;

  draw_plan(const rope::config& cfg, const check_options& opt, std::size_t hd, dtype d)
      : limit(drawn_position_limit(cfg, opt)), list(&opt.positions), values(d), head_dim(hd) {
    if (opt.positions.empty()) positions.emplace(cfg, limit);
  }

  // Called inside a RapidCheck property: each * is a draw RapidCheck records and shrinks.
  case_input draw() const {
    case_input in;
    in.tokens = *rc::gen::inRange<std::size_t>(1, 9);
    in.heads = *rc::gen::inRange<std::size_t>(1, 5);
    using raw_vector = std::vector<std::uint64_t>;
    const std::uint64_t pos_end = positions ? positions->raw_end() : list->size();
    const raw_vector raw_pos = *rc::gen::container<raw_vector>(in.tokens, rc::gen::inRange<std::uint64_t>(0, pos_end));
    const raw_vector raw_x = *rc::gen::container<raw_vector>(
        in.tokens * in.heads * head_dim, rc::gen::inRange(std::uint64_t{0}, value_decoder::raw_end()));
    for (const std::uint64_t r : raw_pos)
      in.positions.push_back(positions ? (*positions)(r) : (*list)[static_cast<std::size_t>(r)]);
    for (const std::uint64_t r : raw_x) in.x.push_back(values(r));
    const auto [lo, hi] = std::minmax_element(in.positions.begin(), in.positions.end());
    in.shift = *rc::gen::inRange<std::int64_t>(-*lo, limit - *hi);
    return in;
  }
};

// The check_result of RapidCheck's result; last_property: the property of the shrunk failure.
inline check_result to_result(const rc::detail::TestResult& r, const check_options& opt, std::uint64_t seed,
                              double worst, const std::string& last_property) {
  check_result out;
  out.seed = seed;
  out.worst_ratio = worst;
  if (r.template is<rc::detail::SuccessResult>()) {
    out.passed = true;
    out.cases = r.template get<rc::detail::SuccessResult>().numSuccess;
    if (!rc::detail::configuration().reproduce.empty() && out.cases == 0)
      out.message = opt.name + ": not run (RC_PARAMS reproduce= replays other checks only)";
    return out;
  }
  if (r.template is<rc::detail::FailureResult>()) out.cases = r.template get<rc::detail::FailureResult>().numSuccess;
  out.property = last_property;
  out.message = describe(r, opt.name, seed);
  return out;
}

// The search: opt.max_success cases of head_dim-wide heads with values of format d, each checked
// by check. The last failing call is the shrunk case (RapidCheck accepts a shrink only when it
// fails, and stops after trying every shrink of the last one), so its property names the failure.
inline check_result search(const rope::config& cfg, const check_options& opt, std::size_t head_dim, dtype d,
                           const case_check& check) {
  const draw_plan plan(cfg, opt, head_dim, d);
  double worst = 0;
  std::string last_property;
  const auto property = [&] {
    const case_input in = plan.draw();
    double w = 0;
    if (const std::optional<failure> f = check(in, w)) {
      last_property = name_of(f->property);
      // What RC_FAIL throws, without its file:line and macro text: the message is the report.
      throw rc::detail::CaseResult(rc::detail::CaseResult::Type::Failure, case_summary(in) + "\n" + f->message);
    }
    worst = std::max(worst, w);
  };
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (opt.max_success > 0) params.maxSuccess = opt.max_success;
  if (opt.seed) params.seed = *opt.seed;
  rc::detail::TestMetadata meta;
  meta.id = opt.name;
  meta.description = opt.name;
  quiet_listener listener;
  const rc::detail::TestResult r =
      rc::detail::checkTestable(property, meta, params, listener, rc::detail::configuration().reproduce);
  return to_result(r, opt, params.seed, worst, last_property);
}

}  // namespace posenc::testing::detail
