//===- Json.cpp - A strict JSON reader for manifests ----------------------===//

#include "Rake/Artifact/Json.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace rake::json;

const Value *Value::get(const std::string &name) const {
  if (kind != Object)
    return nullptr;
  for (const auto &f : fields)
    if (f.first == name)
      return &f.second;
  return nullptr;
}

const char *rake::json::kindName(Value::Kind k) {
  switch (k) {
  case Value::Null: return "null";
  case Value::Bool: return "a boolean";
  case Value::Integer: return "an integer";
  case Value::Number: return "a number";
  case Value::String: return "a string";
  case Value::Array: return "an array";
  case Value::Object: return "an object";
  }
  return "?";
}

namespace {

struct Parser {
  const std::string &s;
  std::string &error;
  size_t i = 0;

  bool fail(const std::string &why) {
    if (error.empty()) {
      size_t line = 1, col = 1;
      for (size_t j = 0; j < i && j < s.size(); ++j) {
        if (s[j] == '\n') {
          ++line;
          col = 1;
        } else {
          ++col;
        }
      }
      error = why + " at line " + std::to_string(line) + ", column " +
              std::to_string(col);
    }
    return false;
  }
  void ws() {
    while (i < s.size() &&
           (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
      ++i;
  }
  bool literal(const char *word) {
    size_t n = std::strlen(word);
    if (s.compare(i, n, word) != 0)
      return fail("unexpected character");
    i += n;
    return true;
  }

  bool value(Value &v, int depth) {
    if (depth > 64)
      return fail("nesting deeper than 64 levels");
    ws();
    if (i >= s.size())
      return fail("unexpected end of the text");
    switch (s[i]) {
    case '{': return object(v, depth);
    case '[': return array(v, depth);
    case '"': v.kind = Value::String; return string(v.string);
    case 't': v.kind = Value::Bool; v.boolean = true; return literal("true");
    case 'f': v.kind = Value::Bool; return literal("false");
    case 'n': v.kind = Value::Null; return literal("null");
    default: return number(v);
    }
  }

  bool object(Value &v, int depth) {
    v.kind = Value::Object;
    ++i;
    ws();
    if (i < s.size() && s[i] == '}') {
      ++i;
      return true;
    }
    while (true) {
      ws();
      std::string name;
      if (i >= s.size() || s[i] != '"')
        return fail("expected a field name");
      size_t at = i;
      if (!string(name))
        return false;
      for (const auto &f : v.fields)
        if (f.first == name) {
          i = at;
          return fail("the field \"" + name + "\" appears twice");
        }
      ws();
      if (i >= s.size() || s[i] != ':')
        return fail("expected ':'");
      ++i;
      Value item;
      if (!value(item, depth + 1))
        return false;
      v.fields.emplace_back(std::move(name), std::move(item));
      ws();
      if (i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (i < s.size() && s[i] == '}') {
        ++i;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool array(Value &v, int depth) {
    v.kind = Value::Array;
    ++i;
    ws();
    if (i < s.size() && s[i] == ']') {
      ++i;
      return true;
    }
    while (true) {
      Value item;
      if (!value(item, depth + 1))
        return false;
      v.items.push_back(std::move(item));
      ws();
      if (i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (i < s.size() && s[i] == ']') {
        ++i;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool digits() {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      ++i;
    return i > start;
  }

  // RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  bool number(Value &v) {
    size_t start = i;
    if (i < s.size() && s[i] == '-')
      ++i;
    if (i < s.size() && s[i] == '0') {
      ++i;
    } else if (i < s.size() && s[i] >= '1' && s[i] <= '9') {
      digits();
    } else {
      return fail("unexpected character");
    }
    bool integral = true;
    if (i < s.size() && s[i] == '.') {
      ++i;
      integral = false;
      if (!digits())
        return fail("a number needs digits after '.'");
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      integral = false;
      if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        ++i;
      if (!digits())
        return fail("a number needs digits in its exponent");
    }
    std::string text = s.substr(start, i - start);
    v.number = std::strtod(text.c_str(), nullptr);
    if (integral) {
      errno = 0;
      long long n = std::strtoll(text.c_str(), nullptr, 10);
      if (errno == ERANGE) {
        i = start;
        return fail("the integer " + text + " does not fit in 64 bits");
      }
      v.kind = Value::Integer;
      v.integer = n;
    } else {
      v.kind = Value::Number;
    }
    return true;
  }

  bool hex4(unsigned &cp) {
    if (i + 4 > s.size())
      return fail("a \\u escape needs four hexadecimal digits");
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s[i++];
      cp <<= 4;
      if (c >= '0' && c <= '9')
        cp |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f')
        cp |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        cp |= unsigned(c - 'A' + 10);
      else
        return fail("a \\u escape needs four hexadecimal digits");
    }
    return true;
  }

  static void utf8(unsigned cp, std::string &out) {
    if (cp < 0x80) {
      out.push_back(char(cp));
    } else if (cp < 0x800) {
      out.push_back(char(0xc0 | (cp >> 6)));
      out.push_back(char(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
      out.push_back(char(0xe0 | (cp >> 12)));
      out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
      out.push_back(char(0x80 | (cp & 0x3f)));
    } else {
      out.push_back(char(0xf0 | (cp >> 18)));
      out.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
      out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
      out.push_back(char(0x80 | (cp & 0x3f)));
    }
  }

  /// One UTF-8 sequence starting at s[i] (already known to be >= 0x80).
  bool utf8Sequence(std::string &out) {
    unsigned char c = (unsigned char)s[i];
    int n = c >= 0xf0 && c <= 0xf4   ? 3
            : c >= 0xe0 && c < 0xf0 ? 2
            : c >= 0xc2 && c < 0xe0 ? 1
                                    : -1;
    if (n < 0)
      return fail("invalid UTF-8 in a string");
    unsigned cp = c & (0x3f >> n);
    for (int k = 1; k <= n; ++k) {
      if (i + k >= s.size())
        return fail("invalid UTF-8 in a string");
      unsigned char d = (unsigned char)s[i + k];
      if ((d & 0xc0) != 0x80)
        return fail("invalid UTF-8 in a string");
      cp = (cp << 6) | (d & 0x3f);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
      return fail("invalid UTF-8 in a string");
    out.append(s, i, n + 1);
    i += n + 1;
    return true;
  }

  bool string(std::string &out) {
    ++i; // the opening quote
    while (true) {
      if (i >= s.size())
        return fail("an unterminated string");
      unsigned char c = (unsigned char)s[i];
      if (c == '"') {
        ++i;
        return true;
      }
      if (c < 0x20)
        return fail("a control character inside a string");
      if (c >= 0x80) {
        if (!utf8Sequence(out))
          return false;
        continue;
      }
      ++i;
      if (c != '\\') {
        out.push_back(char(c));
        continue;
      }
      if (i >= s.size())
        return fail("an unterminated escape");
      char e = s[i++];
      switch (e) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case '/': out.push_back('/'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'u': {
        unsigned cp;
        if (!hex4(cp))
          return false;
        if (cp >= 0xdc00 && cp <= 0xdfff)
          return fail("a lone low surrogate in a \\u escape");
        if (cp >= 0xd800 && cp <= 0xdbff) {
          unsigned lo;
          if (s.compare(i, 2, "\\u") != 0)
            return fail("a high surrogate without its low surrogate");
          i += 2;
          if (!hex4(lo))
            return false;
          if (lo < 0xdc00 || lo > 0xdfff)
            return fail("a high surrogate without its low surrogate");
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
        utf8(cp, out);
        break;
      }
      default:
        --i;
        return fail(std::string("an invalid escape '\\") + e + "'");
      }
    }
  }
};

} // namespace

bool rake::json::parse(const std::string &text, Value &out,
                       std::string &error) {
  error.clear();
  out = Value();
  Parser p{text, error};
  if (!p.value(out, 0))
    return false;
  p.ws();
  if (p.i != text.size())
    return p.fail("text after the JSON value");
  return true;
}
