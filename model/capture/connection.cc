#include "model/capture/connection.h"

#include "model/proto/profiler_service.grpc.pb.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>

#include <algorithm>
#include <climits>
#include <cstdio>

namespace tracescope::capture {
namespace {

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// gRPC keeps the reason of the last connection failure; a fail-fast call on the failed
// channel returns it at once. Monitor has no effect on any server (OSS servers answer
// UNIMPLEMENTED), so it is the harmless call to ask with.
std::string lastConnectError(const std::shared_ptr<grpc::Channel>& channel) {
    auto stub = tensorflow::ProfilerService::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(1));
    tensorflow::MonitorRequest request;
    tensorflow::MonitorResponse response;
    return stub->Monitor(&context, request, &response).error_message();
}

std::string describeConnectFailure(const ServerAddress& server, const std::string& detail) {
    const std::string address = server.target();
    if (contains(detail, "Connection refused"))
        return "nothing listening at " + address + " (connection refused): is the profiler server started on this port?";
    if (contains(detail, "No route to host") || contains(detail, "Network is unreachable"))
        return "nothing listening at " + address + " (no route to the host)";
    if (contains(detail, "DNS") || contains(detail, "resolve"))
        return "cannot resolve the host name '" + server.host + "' (" + detail + ")";
    return "cannot connect to " + address + (detail.empty() ? std::string() : ": " + detail);
}

}  // namespace

std::shared_ptr<grpc::Channel> openProfilerChannel(const ServerAddress& server) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(INT_MAX);
    return grpc::CreateCustomChannel(server.target(), grpc::InsecureChannelCredentials(), args);
}

ConnectOutcome waitForConnection(const std::shared_ptr<grpc::Channel>& channel, const ServerAddress& server, std::chrono::milliseconds timeout,
                                 CaptureControl& control, std::string& message) {
    using clock = std::chrono::system_clock;
    const auto deadline = clock::now() + timeout;
    grpc_connectivity_state state = channel->GetState(/*try_to_connect=*/true);
    while (state != GRPC_CHANNEL_READY) {
        if (control.cancelRequested()) return ConnectOutcome::Cancelled;
        if (state == GRPC_CHANNEL_TRANSIENT_FAILURE || state == GRPC_CHANNEL_SHUTDOWN) {
            message = describeConnectFailure(server, lastConnectError(channel));
            return ConnectOutcome::Failed;
        }
        if (clock::now() >= deadline) {
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%.1f", double(timeout.count()) / 1000.0);
            message = "nothing answered at " + server.target() + " within " + seconds +
                      " s (no route to the host, or a firewall drops the connection)";
            return ConnectOutcome::Failed;
        }
        // Short waits so that cancel() is seen promptly.
        channel->WaitForStateChange(state, std::min(deadline, clock::now() + std::chrono::milliseconds(100)));
        state = channel->GetState(/*try_to_connect=*/true);
    }
    return ConnectOutcome::Ready;
}

}  // namespace tracescope::capture
