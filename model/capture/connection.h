// Opening a channel to a profiler server and telling "nothing listening" apart, in
// seconds, from a server that is there.
#pragma once

#include "model/capture/capture_control.h"
#include "model/capture/server_address.h"

#include <grpcpp/channel.h>

#include <chrono>
#include <memory>
#include <string>

namespace tracescope::capture {

// An insecure channel (profiler servers listen without TLS) that accepts replies up to
// 2^31-1 bytes, as TSL's client sets (a capture's XSpace is often tens of MB).
std::shared_ptr<grpc::Channel> openProfilerChannel(const ServerAddress& server);

enum class ConnectOutcome { Ready, Failed, Cancelled };

// Waits up to `timeout` for the channel to connect. Fails at once when the connection is
// refused (the channel reports TRANSIENT_FAILURE): the Profile call would otherwise wait
// for its whole deadline, and a refused connection is not worth retrying. On Failed,
// `message` is one line for the user ("nothing listening at ...").
ConnectOutcome waitForConnection(const std::shared_ptr<grpc::Channel>& channel, const ServerAddress& server, std::chrono::milliseconds timeout,
                                 CaptureControl& control, std::string& message);

}  // namespace tracescope::capture
