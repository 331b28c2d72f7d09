#include "tests/capture/test_profiler_server.h"

#include "model/proto/xplane.pb.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

namespace tracescope::capture::testing {
namespace {

uint64_t unixNowNs() {
    using namespace std::chrono;
    return uint64_t(duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count());
}

}  // namespace

class TestProfilerServer::Service final : public tensorflow::ProfilerService::Service {
public:
    explicit Service(Config config) : config_(std::move(config)) {}

    grpc::Status Profile(grpc::ServerContext* context, const tensorflow::ProfileRequest* request,
                         tensorflow::ProfileResponse* response) override {
        int call = 0;
        {
            std::lock_guard lock(mutex_);
            seen_.profiles.push_back(*request);
            call = int(seen_.profiles.size());
        }
        if (call <= config_.failFirst) return grpc::Status(config_.failCode, config_.failMessage);
        if (config_.reply == Reply::AnotherSession)
            return grpc::Status(grpc::StatusCode::INTERNAL, "Another profiling session active.");
        {
            std::lock_guard lock(mutex_);
            if (active_) return grpc::Status(grpc::StatusCode::INTERNAL, "Another profiling session active.");
            active_ = true;
        }
        const grpc::Status traced = trace(context, *request);
        {
            std::lock_guard lock(mutex_);
            active_ = false;
            stops_.erase(request->session_id());
            if (traced.error_code() == grpc::StatusCode::CANCELLED) ++seen_.cancelled;
        }
        if (!traced.ok()) return traced;

        if (call - config_.failFirst <= config_.emptyFirst || config_.reply == Reply::Empty) {
            response->set_empty_trace(true);
            return grpc::Status::OK;
        }
        switch (config_.reply) {
            case Reply::EmitXSpace: response->set_xspace(config_.xspace); break;
            case Reply::ToolData: {
                auto* other = response->add_tool_data();
                other->set_name("overview_page.pb");
                other->set_data("not an xspace");
                auto* tool = response->add_tool_data();
                tool->set_name("xplane.pb");
                tool->set_data(config_.xspace);
                break;
            }
            case Reply::WriteFile: {
                // As TSL's SaveXSpace names it: <root>/<session>/<host_name ':'->'_'>.xplane.pb.
                std::string stem = request->host_name();
                std::replace(stem.begin(), stem.end(), ':', '_');
                const std::filesystem::path dir =
                    std::filesystem::path(request->repository_root()) / request->session_id();
                std::filesystem::create_directories(dir);
                std::ofstream(dir / (stem + ".xplane.pb"), std::ios::binary) << config_.xspace;
                break;
            }
            case Reply::WriteFileRemote:  // the file went to the server's own disk elsewhere
            case Reply::Empty:
            case Reply::AnotherSession: break;
        }
        response->set_empty_trace(false);
        return grpc::Status::OK;
    }

    grpc::Status Terminate(grpc::ServerContext*, const tensorflow::TerminateRequest* request,
                           tensorflow::TerminateResponse*) override {
        std::lock_guard lock(mutex_);
        seen_.terminates.push_back(request->session_id());
        stops_.insert(request->session_id());
        return grpc::Status::OK;
    }

    Seen seen() const {
        std::lock_guard lock(mutex_);
        return seen_;
    }

private:
    const Config config_;
    mutable std::mutex mutex_;
    Seen seen_;
    std::set<std::string> stops_;
    bool active_ = false;

    bool stopped(const std::string& session) {
        std::lock_guard lock(mutex_);
        return stops_.count(session) > 0;
    }

    // Delay, tracing loop and collection, in 1 ms ticks like the TSL server.
    grpc::Status trace(grpc::ServerContext* context, const tensorflow::ProfileRequest& request) {
        const auto tick = std::chrono::milliseconds(1);
        while (unixNowNs() < request.opts().start_timestamp_ns()) {
            if (context->IsCancelled()) return grpc::Status::CANCELLED;
            std::this_thread::sleep_for(tick);
        }
        {
            // The stop signal is reset when tracing starts: a Terminate that came earlier
            // (during the delay) is lost, the worst a real server may do.
            std::lock_guard lock(mutex_);
            stops_.erase(request.session_id());
        }
        const auto start = std::chrono::steady_clock::now();
        const auto duration = std::chrono::milliseconds(request.opts().duration_ms());
        while (std::chrono::steady_clock::now() - start < duration) {
            if (context->IsCancelled()) return grpc::Status::CANCELLED;
            if (stopped(request.session_id())) break;
            std::this_thread::sleep_for(tick);
        }
        {
            std::lock_guard lock(mutex_);
            seen_.traced.push_back(
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start));
        }
        const auto collectEnd = std::chrono::steady_clock::now() + config_.collectTime;
        while (std::chrono::steady_clock::now() < collectEnd) {
            if (context->IsCancelled()) return grpc::Status::CANCELLED;
            std::this_thread::sleep_for(tick);
        }
        return grpc::Status::OK;
    }
};

TestProfilerServer::TestProfilerServer(Config config, const std::string& host)
    : service_(std::make_unique<Service>(std::move(config))), host_(host) {
    const std::string bracketed = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    grpc::ServerBuilder builder;
    builder.AddListeningPort(bracketed + ":0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    if (!server_) port_ = 0;
}

TestProfilerServer::~TestProfilerServer() { shutdown(); }

void TestProfilerServer::shutdown() {
    if (!server_) return;
    // In-flight calls are cancelled after the grace period.
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
    server_->Wait();
    server_.reset();
}

std::string TestProfilerServer::address() const {
    const std::string bracketed = host_.find(':') != std::string::npos ? "[" + host_ + "]" : host_;
    return bracketed + ":" + std::to_string(port_);
}

TestProfilerServer::Seen TestProfilerServer::seen() const { return service_->seen(); }

std::string readFileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string steadyCapturePath() {
    return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/jax0.11.2_h100_steady_emit_xspace.xplane.pb";
}

std::string warmupCapturePath() {
    return std::string(TRACESCOPE_SHARED_DIR) + "/testdata/gpu/jax0.11.2_h100_warmup_emit_xspace.xplane.pb";
}

std::string hostOnlyXSpace() {
    tensorflow::profiler::XSpace space;
    space.add_hostnames("testhost");
    tensorflow::profiler::XPlane* plane = space.add_planes();
    plane->set_id(0);
    plane->set_name("/host:CPU");
    (*plane->mutable_event_metadata())[1].set_id(1);
    (*plane->mutable_event_metadata())[1].set_name("train_step");
    (*plane->mutable_event_metadata())[2].set_id(2);
    (*plane->mutable_event_metadata())[2].set_name("matmul");
    tensorflow::profiler::XLine* line = plane->add_lines();
    line->set_id(1);
    line->set_name("python3");
    line->set_timestamp_ns(1000);
    tensorflow::profiler::XEvent* step = line->add_events();
    step->set_metadata_id(1);
    step->set_offset_ps(0);
    step->set_duration_ps(5'000'000);
    tensorflow::profiler::XEvent* op = line->add_events();
    op->set_metadata_id(2);
    op->set_offset_ps(1'000'000);
    op->set_duration_ps(1'000'000);
    space.add_planes()->set_name("Task Environment");
    return space.SerializeAsString();
}

}  // namespace tracescope::capture::testing
