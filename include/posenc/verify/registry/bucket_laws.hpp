// registry/bucket_laws.hpp: the registry's laws of a table of relative-position buckets or indices
// (docs/laws.md section 8), for every descriptor whose tables are one (T5, DeBERTa, Shaw): its
// tables give bucket_view() (a laws::bucket_table) and spec() (a laws::bucket_spec, what its config
// promises). registry/scheme.hpp says what a law is.
#pragma once

#include "posenc/laws/bucket/bounded.hpp"
#include "posenc/laws/bucket/monotone.hpp"
#include "posenc/laws/bucket/saturation.hpp"
#include "posenc/laws/bucket/sign_partition.hpp"
#include "posenc/laws/bucket/table.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::verify::registry::law {

struct bucket_monotone {
  static constexpr const char* name = "bucket monotone";
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::bucket_monotone(t.bucket_view(), t.spec());
  }
};

struct bucket_bounded {
  static constexpr const char* name = "bucket bounded";
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::bucket_bounded(t.bucket_view(), t.spec());
  }
};

struct bucket_saturation {
  static constexpr const char* name = "bucket saturation";
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::bucket_saturation(t.bucket_view(), t.spec());
  }
};

// Needs buckets on both signs of the relative position: not a causal config (T5's decoder, whose
// config has bidirectional = false); a config without that field is bidirectional.
struct bucket_sign_partition {
  static constexpr const char* name = "bucket sign partition";
  template <class C>
  static constexpr bool applies_to(const C& c) noexcept {
    if constexpr (requires { c.bidirectional; })
      return c.bidirectional;
    else
      return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::bucket_sign_partition(t.bucket_view(), t.spec());
  }
};

}  // namespace posenc::verify::registry::law
