#include "model/capture/server_address.h"

#include <algorithm>
#include <cctype>

namespace tracescope::capture {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
    return true;
}

bool parsePort(std::string_view text, int& port) {
    if (text.empty() || text.size() > 5) return false;
    int value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + (c - '0');
    }
    if (value < 1 || value > 65535) return false;
    port = value;
    return true;
}

// One entry; `error` names the entry as the user typed it.
bool parseOne(std::string_view typed, ServerAddress& out, std::string& error) {
    const std::string quoted = "'" + std::string(typed) + "'";
    std::string_view s = typed;
    // TensorBoard's dialog and tf.profiler.experimental.client.trace strip "grpc://";
    // any other scheme is a mistake worth naming (http:// is TensorBoard's own web port).
    if (startsWithNoCase(s, "grpc://")) s.remove_prefix(7);
    else if (s.find("://") != std::string_view::npos) {
        error = "unsupported scheme in " + quoted + " (expected host:port or grpc://host:port)";
        return false;
    }
    if (!s.empty() && s.back() == '/') s.remove_suffix(1);

    std::string_view host, port;
    if (!s.empty() && s.front() == '[') {
        // IPv6 literal in brackets, as in URLs. (TSL's own client rejects these.)
        const size_t close = s.find(']');
        if (close == std::string_view::npos) {
            error = "missing ']' in " + quoted;
            return false;
        }
        host = s.substr(1, close - 1);
        std::string_view rest = s.substr(close + 1);
        if (rest.empty()) {
            error = "missing port in " + quoted + " (expected [address]:port)";
            return false;
        }
        if (rest.front() != ':') {
            error = "unexpected text after ']' in " + quoted;
            return false;
        }
        port = rest.substr(1);
    } else {
        const size_t colon = s.rfind(':');
        if (colon == std::string_view::npos) {
            error = "missing port in " + quoted + " (expected host:port, e.g. localhost:9999)";
            return false;
        }
        host = s.substr(0, colon);
        port = s.substr(colon + 1);
        if (host.find(':') != std::string_view::npos) {
            error = "IPv6 address " + quoted + " needs brackets: [address]:port";
            return false;
        }
    }
    if (host.empty()) {
        error = "missing host in " + quoted;
        return false;
    }
    if (std::any_of(host.begin(), host.end(), [](char c) {
            return c == '/' || c == '[' || c == ']' || c == ',' || std::isspace(static_cast<unsigned char>(c));
        })) {
        error = "invalid host in " + quoted;
        return false;
    }
    if (port.empty()) {
        error = "missing port in " + quoted;
        return false;
    }
    if (!parsePort(port, out.port)) {
        error = "invalid port '" + std::string(port) + "' in " + quoted + " (expected 1-65535)";
        return false;
    }
    out.host = std::string(host);
    return true;
}

}  // namespace

std::string ServerAddress::target() const {
    const std::string p = std::to_string(port);
    return host.find(':') != std::string::npos ? "[" + host + "]:" + p : host + ":" + p;
}

std::string ServerAddress::fileStem() const {
    std::string stem = host + "_" + std::to_string(port);
    std::replace(stem.begin(), stem.end(), ':', '_');
    return stem;
}

bool parseServerAddresses(std::string_view list, std::vector<ServerAddress>& out, std::string& error) {
    out.clear();
    error.clear();
    size_t begin = 0;
    while (begin <= list.size()) {
        size_t end = list.find(',', begin);
        if (end == std::string_view::npos) end = list.size();
        const std::string_view entry = trim(list.substr(begin, end - begin));
        begin = end + 1;
        if (entry.empty()) continue;
        ServerAddress address;
        if (!parseOne(entry, address, error)) {
            out.clear();
            return false;
        }
        // Two entries for one server would write the same file and collide on the server
        // ("Another profiling session active").
        if (std::find(out.begin(), out.end(), address) != out.end()) {
            error = "'" + std::string(entry) + "' is listed twice";
            out.clear();
            return false;
        }
        out.push_back(std::move(address));
    }
    return true;
}

}  // namespace tracescope::capture
