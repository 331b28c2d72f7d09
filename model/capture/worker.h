// One server's part of a capture: connect, Profile (again on a retryable failure or an
// empty trace), find the data in the reply or on disk, save it.
#pragma once

#include "model/capture/capture_control.h"
#include "model/capture/capture_options.h"
#include "model/capture/capture_session.h"

#include <grpcpp/channel.h>

#include <functional>
#include <memory>
#include <string>

namespace tracescope::capture {

struct WorkerJob {
    const CaptureOptions* options = nullptr;
    ServerAddress server;
    std::string sessionId;
    std::string runDir;  // <logdir>/plugins/profile/<sessionId>, absolute
    std::shared_ptr<grpc::Channel> channel;
    CaptureControl* control = nullptr;
    // Called with the worker's status whenever it changes.
    std::function<void(const WorkerStatus&)> report;
};

// Runs the attempt loop; returns the final status (Saved, Failed or Cancelled).
WorkerStatus runWorker(const WorkerJob& job);

}  // namespace tracescope::capture
