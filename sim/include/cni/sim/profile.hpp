// SPDX-License-Identifier: Apache-2.0
// Named parameter sets for the simulation (sim/profiles/<name>.profile, also embedded in the
// library). Format: `key = value   # comment` per line, full-line comments, a header comment
// saying what the profile models and where its numbers come from. Every model reads its
// parameters from a Profile; tools override them with `--set key=value` (Profile::set).
//
// Systems of several nodes (docs/host-sim.md, "Systems and nodes"): a key `node<i>.<key>` is
// a per-node override, setting <key> for node i only. <key> is any key of the profile except
// the system-wide ones (`nodes`, `net.*`); a per-node key `node.<name>` is overridden as
// `node<i>.<name>`. An override is checked where it is given (parse, set): the key it sets
// must exist and be per-node, and its value must have that key's type.
//
// A profile may start from another: its first key `include = <name or path>` takes every key and
// value of that profile (embedded name first, then a file path), and the keys after it set new
// keys or give included ones this profile's value (of the same type). Includes nest; a key is
// still set at most once per file.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cni::sim {

// Every embedded profile text, keyed by name (generated from sim/profiles/*.profile).
const std::map<std::string, std::string>& embedded_profiles();

class ProfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Profile {
 public:
  // An embedded profile by name, else a file path. Throws ProfileError naming the input
  // and the embedded names when neither exists, or naming file:line on a syntax error.
  static Profile load(const std::string& name_or_path);
  // Parse profile text; `origin` names it in error messages.
  static Profile parse(const std::string& name, std::string_view text, const std::string& origin);
  // Names of the embedded profiles.
  static std::vector<std::string> available();

  // Override one parameter: "key=value". The key must exist (the error lists close keys),
  // or be a per-node override of a per-node key; the value must have the key's type (number,
  // true/false, or text).
  void set(const std::string& key_eq_value);
  void set(const std::string& key, const std::string& value);

  bool has(const std::string& key) const;
  double get_double(const std::string& key) const;
  int64_t get_int(const std::string& key) const;
  bool get_bool(const std::string& key) const;
  std::string get_string(const std::string& key) const;

  // Keys in file order.
  std::vector<std::string> keys() const;
  const std::string& name() const { return name_; }
  // The profile this one includes (its first key, `include = <name or path>`), or empty.
  const std::string& base() const { return base_; }
  // The header comment (what the profile models and its sources), without '#'.
  const std::string& description() const { return description_; }
  // Effective parameters, one `key = value` line each, overrides marked; for result headers.
  std::string dump() const;
  // The parameters of node `node` of a system of `nodes` nodes: every key but the per-node
  // overrides, with node `node`'s applied (marked as overrides); named "<name> node <node>".
  // Throws ProfileError naming the first override of a node >= nodes.
  Profile node_profile(unsigned node, unsigned nodes) const;

 private:
  enum class Type { Number, Bool, Text };
  struct Entry {
    std::string value;
    Type type = Type::Text;
    bool overridden = false;
  };
  const Entry& entry(const std::string& key) const;
  std::string close_keys(const std::string& key) const;
  // Why `value` cannot be given to `key` whose entry (or, for an override, whose target's
  // entry) is `e`; empty when it can.
  static std::string value_error(const std::string& key, const Entry& e, const std::string& value);
  // The key the per-node override `key` = node<i>.<rest> sets; throws ProfileError, its
  // message starting with `where`, when there is none.
  std::string override_target(const std::string& where, const std::string& key,
                              const std::string& rest) const;

  std::string name_;
  std::string origin_;
  std::string base_;
  std::string description_;
  std::vector<std::string> order_;
  std::map<std::string, Entry> entries_;
};

}  // namespace cni::sim
