// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/profile.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

namespace cni::sim {

namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool parse_number(const std::string& s, double& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return errno == 0 && end == s.c_str() + s.size() && std::isfinite(out);
}

bool valid_key(const std::string& k) {
  return !k.empty() && std::all_of(k.begin(), k.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string after_dot(const std::string& k) {
  const auto p = k.rfind('.');
  return p == std::string::npos ? k : k.substr(p + 1);
}

std::string before_dot(const std::string& k) {
  const auto p = k.find('.');
  return p == std::string::npos ? k : k.substr(0, p);
}

// A per-node override key `node<i>.<rest>` (i without leading zeros).
struct NodeOverride {
  unsigned node;
  std::string rest;
};

std::optional<NodeOverride> node_override(const std::string& k) {
  if (k.compare(0, 4, "node") != 0) return std::nullopt;
  size_t i = 4;
  while (i < k.size() && k[i] >= '0' && k[i] <= '9') ++i;
  const size_t digits = i - 4;
  if (digits == 0 || digits > 9 || (digits > 1 && k[4] == '0') || i + 1 >= k.size() ||
      k[i] != '.') {
    return std::nullopt;
  }
  return NodeOverride{static_cast<unsigned>(std::stoul(k.substr(4, digits))), k.substr(i + 1)};
}

// Profiles included one inside another, at most (docs/host-sim.md, "Profiles").
constexpr unsigned kMaxIncludeDepth = 8;

// Keys of the whole system, which no node overrides.
bool system_wide(const std::string& k) { return k == "nodes" || k.rfind("net.", 0) == 0; }

}  // namespace

std::vector<std::string> Profile::available() {
  std::vector<std::string> names;
  for (const auto& [name, text] : embedded_profiles()) names.push_back(name);
  return names;
}

Profile Profile::load(const std::string& name_or_path) {
  const auto& emb = embedded_profiles();
  if (auto it = emb.find(name_or_path); it != emb.end()) {
    return parse(name_or_path, it->second, "embedded profile '" + name_or_path + "'");
  }
  std::ifstream f(name_or_path);
  if (!f) {
    std::string names;
    for (const auto& n : available()) names += (names.empty() ? "" : ", ") + n;
    throw ProfileError("profile '" + name_or_path +
                       "': neither an embedded profile nor a readable file (embedded: " + names +
                       ")");
  }
  std::stringstream ss;
  ss << f.rdbuf();
  std::string name = name_or_path;
  if (auto p = name.find_last_of('/'); p != std::string::npos) name = name.substr(p + 1);
  if (auto p = name.rfind(".profile"); p != std::string::npos && p + 8 == name.size()) {
    name = name.substr(0, p);
  }
  return parse(name, ss.str(), name_or_path);
}

Profile Profile::parse(const std::string& name, std::string_view text, const std::string& origin) {
  Profile p;
  p.name_ = name;
  p.origin_ = origin;
  bool in_header = true;
  bool first_key = true;
  size_t lineno = 0;
  size_t pos = 0;
  std::vector<std::pair<std::string, std::string>> overrides;  // key, where
  std::vector<std::string> own;                                // keys this text sets
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view raw = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++lineno;
    const std::string line = trim(raw);
    if (line.empty()) {
      in_header = in_header && p.description_.empty();
      continue;
    }
    if (line[0] == '#') {
      if (in_header) {
        std::string c = trim(std::string_view(line).substr(1));
        p.description_ += (p.description_.empty() ? "" : "\n") + c;
      }
      continue;
    }
    in_header = false;
    std::string body = line;
    if (auto h = body.find('#'); h != std::string::npos) body = trim(body.substr(0, h));
    const auto eq = body.find('=');
    const std::string where = origin + ":" + std::to_string(lineno);
    if (eq == std::string::npos) {
      throw ProfileError(where + ": expected 'key = value', got '" + line + "'");
    }
    const std::string key = trim(std::string_view(body).substr(0, eq));
    const std::string value = trim(std::string_view(body).substr(eq + 1));
    if (!valid_key(key)) {
      throw ProfileError(where + ": bad key '" + key + "' (use a-z, 0-9, '_' and '.')");
    }
    if (value.empty()) throw ProfileError(where + ": key '" + key + "' has no value");
    if (key == "include") {
      // The base profile: its keys and values, which the keys after this line override or extend.
      if (!first_key) throw ProfileError(where + ": 'include' must be the first key");
      first_key = false;
      // (a chain this deep is a cycle: a includes b includes a)
      static thread_local unsigned depth = 0;
      if (depth >= kMaxIncludeDepth) {
        throw ProfileError(where + ": include = " + value + ": a profile that includes itself");
      }
      struct Nested {  // one level deeper while the base loads, on every way out
        Nested() { ++depth; }
        ~Nested() { --depth; }
      };
      Profile base = [&] {
        const Nested nested;
        try {
          return load(value);
        } catch (const ProfileError& e) {
          throw ProfileError(where + ": include: " + e.what());
        }
      }();
      p.entries_ = std::move(base.entries_);
      p.order_ = std::move(base.order_);
      p.base_ = value;
      continue;
    }
    first_key = false;
    if (std::find(own.begin(), own.end(), key) != own.end()) {
      throw ProfileError(where + ": key '" + key + "' set twice");
    }
    own.push_back(key);
    if (auto it = p.entries_.find(key); it != p.entries_.end()) {
      // a key of the base profile: this one's value, of the same type
      if (const std::string why = value_error(key, it->second, value); !why.empty()) {
        throw ProfileError(where + ": " + why);
      }
      it->second.value = value;
      continue;
    }
    Entry e;
    e.value = value;
    double d;
    if (parse_number(value, d)) {
      e.type = Type::Number;
    } else if (value == "true" || value == "false") {
      e.type = Type::Bool;
    }
    p.entries_.emplace(key, e);
    p.order_.push_back(key);
    if (node_override(key)) overrides.emplace_back(key, where);
  }
  for (const auto& [key, where] : overrides) {
    Entry& e = p.entries_.at(key);
    const Entry& target = p.entries_.at(p.override_target(where, key, node_override(key)->rest));
    if (const std::string why = value_error(key, target, e.value); !why.empty()) {
      throw ProfileError(where + ": " + why);
    }
    e.type = target.type;
  }
  return p;
}

std::string Profile::close_keys(const std::string& key) const {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& k : order_) {
    if (node_override(k)) continue;
    const size_t d = edit_distance(key, k);
    if (d <= 3 || after_dot(k) == after_dot(key) || before_dot(k) == before_dot(key)) {
      scored.emplace_back(d, k);
    }
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  if (!scored.empty()) {
    out = "close keys: ";
    for (size_t i = 0; i < scored.size() && i < 6; ++i) out += (i ? ", " : "") + scored[i].second;
  } else {
    out = "valid keys: ";
    for (size_t i = 0; i < order_.size(); ++i) out += (i ? ", " : "") + order_[i];
  }
  return out;
}

void Profile::set(const std::string& key_eq_value) {
  const auto eq = key_eq_value.find('=');
  if (eq == std::string::npos) {
    throw ProfileError("profile " + name_ + ": override '" + key_eq_value +
                       "' is not of the form key=value");
  }
  set(trim(std::string_view(key_eq_value).substr(0, eq)),
      trim(std::string_view(key_eq_value).substr(eq + 1)));
}

std::string Profile::override_target(const std::string& where, const std::string& key,
                                     const std::string& rest) const {
  if (has("node." + rest)) return "node." + rest;
  if (!has(rest)) {
    throw ProfileError(where + ": unknown key '" + key + "': '" + rest + "' is not a key (" +
                       close_keys(rest) + ")");
  }
  if (system_wide(rest)) {
    throw ProfileError(where + ": key '" + key + "': '" + rest +
                       "' is a key of the whole system (nodes, net.*), not of one node");
  }
  if (rest.rfind("node.", 0) == 0) {
    throw ProfileError(where + ": key '" + key + "': a node overrides '" + rest + "' as '" +
                       key.substr(0, key.size() - rest.size()) + rest.substr(5) + "'");
  }
  if (node_override(rest)) {
    throw ProfileError(where + ": key '" + key + "' overrides the per-node override '" + rest +
                       "'");
  }
  return rest;
}

std::string Profile::value_error(const std::string& key, const Entry& e, const std::string& value) {
  double d;
  if (e.type == Type::Number && !parse_number(value, d)) {
    return "bad value '" + value + "' for key '" + key + "' (expected a number, current value " +
           e.value + ")";
  }
  if (e.type == Type::Bool && value != "true" && value != "false") {
    return "bad value '" + value + "' for key '" + key + "' (expected true or false)";
  }
  if (value.empty()) return "empty value for key '" + key + "'";
  return {};
}

void Profile::set(const std::string& key, const std::string& value) {
  const std::string where = "profile " + name_;
  const auto o = node_override(key);
  const auto it = entries_.find(o ? override_target(where, key, o->rest) : key);
  if (it == entries_.end()) {
    throw ProfileError(where + ": unknown key '" + key + "' (" + close_keys(key) + ")");
  }
  if (const std::string why = value_error(key, it->second, value); !why.empty()) {
    throw ProfileError(where + ": " + why);
  }
  // An override given for the first time is a new key, with its target's type.
  const auto [e, fresh] = entries_.try_emplace(key, it->second);
  if (fresh) order_.push_back(key);
  e->second.value = value;
  e->second.overridden = true;
}

bool Profile::has(const std::string& key) const { return entries_.count(key) != 0; }

const Profile::Entry& Profile::entry(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    throw ProfileError("profile " + name_ + " (" + origin_ + "): missing key '" + key + "'");
  }
  return it->second;
}

double Profile::get_double(const std::string& key) const {
  const Entry& e = entry(key);
  double d;
  if (!parse_number(e.value, d)) {
    throw ProfileError("profile " + name_ + ": key '" + key + "' is '" + e.value +
                       "', not a number");
  }
  return d;
}

int64_t Profile::get_int(const std::string& key) const {
  const Entry& e = entry(key);
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(e.value.c_str(), &end, 0);
  if (errno != 0 || end != e.value.c_str() + e.value.size()) {
    throw ProfileError("profile " + name_ + ": key '" + key + "' is '" + e.value +
                       "', not an integer");
  }
  return v;
}

bool Profile::get_bool(const std::string& key) const {
  const Entry& e = entry(key);
  if (e.value == "true") return true;
  if (e.value == "false") return false;
  throw ProfileError("profile " + name_ + ": key '" + key + "' is '" + e.value +
                     "', not true or false");
}

std::string Profile::get_string(const std::string& key) const { return entry(key).value; }

std::vector<std::string> Profile::keys() const { return order_; }

Profile Profile::node_profile(unsigned node, unsigned nodes) const {
  for (const auto& k : order_) {
    if (const auto o = node_override(k); o && o->node >= nodes) {
      throw ProfileError("profile " + name_ + ": key '" + k + "' overrides node " +
                         std::to_string(o->node) + ", but the system has " + std::to_string(nodes) +
                         " nodes (nodes = " + std::to_string(nodes) + ": node0 .. node" +
                         std::to_string(nodes - 1) + ")");
    }
  }
  if (node >= nodes) {
    throw std::out_of_range("Profile::node_profile: no node " + std::to_string(node) + " of " +
                            std::to_string(nodes));
  }
  Profile p = *this;
  p.name_ = name_ + " node " + std::to_string(node);
  p.order_.clear();
  for (const auto& k : order_) {
    const auto o = node_override(k);
    if (!o) {
      p.order_.push_back(k);
      continue;
    }
    p.entries_.erase(k);
    if (o->node == node) {
      Entry& e = p.entries_.at(override_target(name_, k, o->rest));
      e.value = entries_.at(k).value;
      e.overridden = true;
    }
  }
  return p;
}

std::string Profile::dump() const {
  std::string out = "# profile " + name_ + " (" + origin_ + ")\n";
  size_t width = 0;
  for (const auto& k : order_) width = std::max(width, k.size());
  for (const auto& k : order_) {
    const Entry& e = entries_.at(k);
    out += k + std::string(width - k.size(), ' ') + " = " + e.value;
    if (e.overridden) out += "   # override";
    out += "\n";
  }
  return out;
}

}  // namespace cni::sim
