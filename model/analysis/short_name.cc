#include "model/analysis/short_name.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tracescope {

namespace {

constexpr std::string_view kAnon = "(anonymous namespace)";

bool identChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// A C++ name split into its qualified name's components ("at", "native",
// "kernel<4, at::F<float>>"); the return type and parameter list are gone.
struct Parsed {
    std::vector<std::string_view> components;
};

std::optional<Parsed> parse(std::string_view full) {
    const std::string_view s = trim(full);
    if (s.empty()) return std::nullopt;
    // The parameter list: the first '(' outside template arguments that is not "(anonymous namespace)".
    int angle = 0;
    size_t paren = std::string_view::npos;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' && s.substr(i, kAnon.size()) == kAnon) {
            i += kAnon.size() - 1;
            continue;
        }
        if (c == '<') ++angle;
        else if (c == '>' && --angle < 0) return std::nullopt;
        else if (c == '(' && angle == 0) {
            paren = i;
            break;
        }
    }
    if (paren == 0) return std::nullopt;
    if (paren != std::string_view::npos) {
        // The parameter list follows the name at once ("f(", "f<T>("): "Memcpy HtoD (..)" is no call.
        const char before = s[paren - 1];
        if (!identChar(before) && before != '>') return std::nullopt;
        // After the list only qualifiers ("f() draw" is no signature); a list cut short counts as one.
        int depth = 0;
        size_t close = std::string_view::npos;
        for (size_t i = paren; i < s.size() && close == std::string_view::npos; ++i) {
            if (s[i] == '(') ++depth;
            else if (s[i] == ')' && --depth == 0) close = i;
        }
        if (close != std::string_view::npos) {
            const std::string_view tail = trim(s.substr(close + 1));
            if (!tail.empty() && tail != "const" && tail != "volatile" && tail != "const volatile" && tail != "noexcept" &&
                tail != "const noexcept" && tail != "&" && tail != "&&" && tail != "const&" && tail.substr(0, 6) != "[clone")
                return std::nullopt;
        }
    } else if (angle != 0) {
        return std::nullopt;
    }
    const std::string_view head = s.substr(0, paren == std::string_view::npos ? s.size() : paren);
    // The name starts after the last space outside template arguments (before it: the return type).
    angle = 0;
    size_t nameStart = 0;
    for (size_t i = 0; i < head.size(); ++i) {
        const char c = head[i];
        if (c == '(' && head.substr(i, kAnon.size()) == kAnon) {
            i += kAnon.size() - 1;
            continue;
        }
        if (c == '<') ++angle;
        else if (c == '>') --angle;
        else if (c == ' ' && angle == 0) nameStart = i + 1;
    }
    if (angle != 0) return std::nullopt;
    const std::string_view ret = trim(head.substr(0, nameStart));
    const std::string_view name = head.substr(nameStart);
    for (char c : ret)
        if (!identChar(c) && c != ':' && c != '<' && c != '>' && c != ',' && c != '*' && c != '&' && c != ' ')
            return std::nullopt;
    // Components split at "::" outside template arguments; outside them only identifiers.
    Parsed p;
    bool templated = false;
    angle = 0;
    size_t compStart = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (angle == 0 && c == '(' && name.substr(i, kAnon.size()) == kAnon) {
            i += kAnon.size() - 1;
            continue;
        }
        if (c == '<') {
            ++angle;
            templated = true;
        } else if (c == '>') {
            --angle;
        } else if (angle == 0) {
            if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') {
                if (i == compStart) return std::nullopt;
                p.components.push_back(name.substr(compStart, i - compStart));
                compStart = i + 2;
                ++i;
            } else if (!identChar(c) && c != '~') {
                return std::nullopt;
            }
        }
    }
    if (compStart >= name.size()) return std::nullopt;
    p.components.push_back(name.substr(compStart));
    const std::string_view last = p.components.back();
    if ((!identChar(last.front()) && last.front() != '~') || last.substr(0, 8) == "operator") return std::nullopt;
    if (paren == std::string_view::npos && !templated) return std::nullopt;  // "aten::mm": an op name, not a signature
    return p;
}

bool opens(std::string_view s, size_t i) { return s[i] == '<' || s[i] == '(' || s[i] == '{' || s[i] == '['; }
bool closes(std::string_view s, size_t i) {
    return (s[i] == '>' && !(i > 0 && s[i - 1] == '-')) || s[i] == ')' || s[i] == '}' || s[i] == ']';
}

// Pieces of `s` between top-level occurrences of `sep` (nesting: <>, (), {}, []).
std::vector<std::string_view> splitTopLevel(std::string_view s, std::string_view sep) {
    std::vector<std::string_view> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (opens(s, i)) ++depth;
        else if (closes(s, i)) --depth;
        else if (depth == 0 && s.substr(i, sep.size()) == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + sep.size();
            i += sep.size() - 1;
        }
    }
    out.push_back(s.substr(start));
    return out;
}

std::string renderArg(std::string_view arg);

// One component ("kernel<4, at::F<float> >"): its template arguments each
// without namespaces, recursively; "> >" closes as ">>".
std::string renderComponent(std::string_view comp) {
    std::string out;
    for (size_t i = 0; i < comp.size(); ++i) {
        if (comp[i] != '<') {
            out.push_back(comp[i]);
            continue;
        }
        // The matching '>'.
        int depth = 0;
        size_t j = i;
        for (; j < comp.size(); ++j) {
            if (opens(comp, j)) ++depth;
            else if (closes(comp, j) && --depth == 0) break;
        }
        if (j >= comp.size()) {  // cut short: leave the rest as it is
            out.append(comp.substr(i));
            break;
        }
        out.push_back('<');
        bool first = true;
        for (std::string_view a : splitTopLevel(comp.substr(i + 1, j - i - 1), ",")) {
            if (!first) out += ", ";
            first = false;
            out += renderArg(a);
        }
        out.push_back('>');
        i = j;
    }
    return out;
}

// A template argument: its last component ("std::array<char*, 1ul>" -> "array<char*, 1ul>",
// "at::f<float>::operator()(at::T&)::{lambda(float)#1}" -> "{lambda(float)#1}").
std::string renderArg(std::string_view arg) {
    arg = trim(arg);
    const std::vector<std::string_view> parts = splitTopLevel(arg, "::");
    return renderComponent(trim(parts.back()));
}

std::string render(std::string_view comp, bool keepArgNamespaces) {
    if (!keepArgNamespaces) return renderComponent(comp);
    std::string out(comp);
    for (size_t k; (k = out.find("> >")) != std::string::npos;) out.erase(k + 1, 1);
    return out;
}

// The last `keep` namespaces plus the name.
std::string renderKeeping(const Parsed& p, size_t keep, bool keepArgNamespaces) {
    const size_t n = p.components.size();
    keep = std::min(keep, n - 1);
    std::string out;
    for (size_t i = n - 1 - keep; i < n; ++i) {
        if (!out.empty()) out += "::";
        out += render(p.components[i], keepArgNamespaces);
    }
    return out;
}

template <class S>
std::vector<std::string> shortNamesImpl(std::span<const S> names) {
    std::vector<std::string> out(names.size());
    std::vector<std::optional<Parsed>> parsed(names.size());
    std::map<std::string, std::vector<size_t>> groups;  // short form -> names having it
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string_view name(names[i]);
        if (name.find('(') != std::string_view::npos || name.find('<') != std::string_view::npos) parsed[i] = parse(name);
        if (!parsed[i]) {
            out[i] = std::string(name);
            continue;
        }
        out[i] = renderKeeping(*parsed[i], 0, false);
        groups[out[i]].push_back(i);
    }
    for (auto& [form, members] : groups) {
        if (members.size() < 2) continue;
        // Names that differ only in return type or parameter list share one identity.
        std::vector<std::string> identity;
        for (size_t i : members) identity.push_back(renderKeeping(*parsed[i], SIZE_MAX, true));
        if (std::all_of(identity.begin(), identity.end(), [&](const std::string& s) { return s == identity[0]; })) continue;
        for (size_t a = 0; a < members.size(); ++a) {
            const Parsed& pa = *parsed[members[a]];
            std::string chosen;
            for (size_t keep = 1; keep < pa.components.size() && chosen.empty(); ++keep) {
                const std::string candidate = renderKeeping(pa, keep, false);
                bool unique = true;
                for (size_t b = 0; b < members.size() && unique; ++b)
                    if (identity[b] != identity[a] && renderKeeping(*parsed[members[b]], keep, false) == candidate) unique = false;
                if (unique) chosen = candidate;
            }
            if (chosen.empty()) {
                // The qualified names without argument namespaces do not tell them apart: keep those too.
                chosen = renderKeeping(pa, SIZE_MAX, false);
                for (size_t b = 0; b < members.size(); ++b)
                    if (identity[b] != identity[a] && renderKeeping(*parsed[members[b]], SIZE_MAX, false) == chosen) {
                        chosen = identity[a];
                        break;
                    }
            }
            out[members[a]] = chosen;
        }
    }
    return out;
}

}  // namespace

std::string shortName(std::string_view full) {
    if (full.find('(') == std::string_view::npos && full.find('<') == std::string_view::npos) return std::string(full);
    const std::optional<Parsed> p = parse(full);
    return p ? renderKeeping(*p, 0, false) : std::string(full);
}

std::vector<std::string> shortNames(std::span<const std::string_view> names) { return shortNamesImpl(names); }
std::vector<std::string> shortNames(std::span<const std::string> names) { return shortNamesImpl(names); }

std::unordered_map<StringId, std::string> shortNamesOf(const StringTable& strings) {
    std::vector<StringId> ids;
    std::vector<std::string_view> names;
    for (StringId id = 0; id < strings.size(); ++id) {
        const std::string_view s = strings.get(id);
        if (s.find('(') == std::string_view::npos && s.find('<') == std::string_view::npos) continue;
        ids.push_back(id);
        names.push_back(s);
    }
    const std::vector<std::string> shorts = shortNames(std::span<const std::string_view>(names));
    std::unordered_map<StringId, std::string> out;
    for (size_t i = 0; i < ids.size(); ++i)
        if (shorts[i] != names[i]) out.emplace(ids[i], shorts[i]);
    return out;
}

}  // namespace tracescope
