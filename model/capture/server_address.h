// Profiler server addresses as users type them ("host:port", "grpc://host:port",
// "[::1]:port", comma-separated lists).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tracescope::capture {

// One profiler server. Accepted spellings: "host:port", "grpc://host:port", "[::1]:port",
// "localhost:port" (whitespace around it is ignored).
struct ServerAddress {
    std::string host;  // without brackets: "::1", "localhost", "10.0.0.2"
    int port = 0;
    std::string target() const;    // what gRPC dials: "host:port" or "[v6]:port"
    std::string fileStem() const;  // TensorBoard's file name stem: "host_port" (':' -> '_')

    bool operator==(const ServerAddress&) const = default;
};

// Parses a comma-separated list; false with a one-line `error` naming the bad entry.
// Empty entries (a trailing comma) are skipped; an empty list gives an empty `out`.
bool parseServerAddresses(std::string_view list, std::vector<ServerAddress>& out, std::string& error);

}  // namespace tracescope::capture
