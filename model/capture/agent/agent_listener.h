// The viewer's end of the agent transport: a Unix socket that agents connect to, one
// connection per process (children of the launched program included), each read by its own
// RecordDecoder on one background thread. Live counts for progress displays; the records
// are taken once the capture ends. POSIX only.
#pragma once

#include "model/capture/agent/record_decoder.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tracescope::agent {

// One connected process as seen so far.
struct AgentProgress {
    int64_t pid = 0;
    std::string hostname, executable;
    uint64_t records = 0;  // activity records decoded
    uint64_t bytes = 0;
    uint64_t dropped = 0;
    bool closed = false;  // the connection ended (exit, crash or the agent gave up)
    bool bye = false;     // the agent's final flush arrived
    bool windowStopped = false;  // the agent answered Stop: its window's records are all here
    std::string error;    // a malformed stream (the connection was dropped)
    std::vector<std::string> statuses;  // the agent's errors and notes
};

// One process's records after the capture.
struct CollectedProcess {
    AgentProgress progress;
    AgentRecords records;
    size_t truncatedBytes = 0;  // a frame cut off by a crash
};

class AgentListener {
public:
    AgentListener() = default;
    ~AgentListener();
    AgentListener(const AgentListener&) = delete;
    AgentListener& operator=(const AgentListener&) = delete;

    // Creates and listens on a fresh socket in `dir` ($XDG_RUNTIME_DIR or /tmp when empty).
    bool start(const std::string& dir, std::string& error);
    const std::string& path() const { return path_; }

    std::vector<AgentProgress> progress() const;
    uint64_t totalRecords() const { return totalRecords_.load(); }
    // Connections accepted so far, and how many of them are still open.
    size_t connections() const;
    size_t openConnections() const;

    // Sends a control frame (Stop / Start) to every connected agent, and Stop to agents that
    // connect later while the window is closed. Never blocks.
    void sendControl(ControlCommand command);
    // Connections still open that have not answered the last Stop.
    size_t awaitingStop() const;

    // Stops accepting and reading; removes the socket file. Idempotent.
    void stop();
    // Every connection's records so far, in connection order. After stop() the connections
    // are gone; before it they stay open and collect from empty records again (what agents
    // send after a closed window).
    std::vector<CollectedProcess> take();

private:
    struct Connection {
        int fd = -1;
        RecordDecoder decoder;
        AgentProgress progress;
    };
    void loop();
    void readFrom(Connection& c);
    void sendTo(Connection& c, ControlCommand command);  // with mutex_ held

    std::string path_;
    int listenFd_ = -1;
    int wakePipe_[2] = {-1, -1};
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<Connection>> connections_;
    std::atomic<uint64_t> totalRecords_{0};
    std::atomic<bool> stopping_{false};
    bool windowClosed_ = false;  // under mutex_
};

}  // namespace tracescope::agent
