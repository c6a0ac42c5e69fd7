//===- Json.h - A strict JSON reader for manifests --------------*- C++ -*-===//
//
// The one JSON reader of the artifact boundary: rake-verify and the C runtime
// read manifests with it, so the two cannot read the same bytes differently.
// Plain C++17 (no LLVM). It is strict where a lenient reader would let two
// readings of one file exist: a duplicated field name, text after the value,
// a number outside RFC 8259's grammar, an invalid escape or UTF-8, a control
// character in a string, or nesting past 64 levels are each an error.
// Integers are kept exactly (up to 2^63); a number with a fraction or an
// exponent is not an integer.
//
//===----------------------------------------------------------------------===//

#ifndef RAKE_ARTIFACT_JSON_H
#define RAKE_ARTIFACT_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rake {
namespace json {

struct Value {
  enum Kind { Null, Bool, Integer, Number, String, Array, Object };
  Kind kind = Null;
  bool boolean = false;
  int64_t integer = 0; ///< Integer
  double number = 0;   ///< Number (and Integer, as a double)
  std::string string;
  std::vector<Value> items;
  /// In file order; names are unique (the parser refuses duplicates).
  std::vector<std::pair<std::string, Value>> fields;

  bool isObject() const { return kind == Object; }
  bool isArray() const { return kind == Array; }
  bool isString() const { return kind == String; }
  bool isInteger() const { return kind == Integer; }
  /// The field called \p name of an object, or null.
  const Value *get(const std::string &name) const;
};

/// The name of a kind, for messages: "an object", "a string", ...
const char *kindName(Value::Kind k);

/// Parses \p text (one JSON value, then only white space). On failure
/// returns false and sets \p error to what is wrong and at which line and
/// column.
bool parse(const std::string &text, Value &out, std::string &error);

} // namespace json
} // namespace rake

#endif // RAKE_ARTIFACT_JSON_H
