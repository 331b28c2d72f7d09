// The agent's state and transport: pending frames under a memory budget, the connection
// to the viewer's Unix socket (records out, control frames in), the fallback file, and the
// hello / status / dropped / window / thread-name / bye frames. libc only; the CUPTI side is
// agent.cc.
#pragma once

#include "model/capture/agent/agent_records.h"
#include "model/capture/agent/control_decoder.h"

#include <cstdint>
#include <pthread.h>
#include <string>
#include <vector>

namespace tracescope::agent {

struct AgentConfig {
    std::string socketPath;   // TRACESCOPE_AGENT_SOCKET; empty: straight to the fallback file
    std::string fallbackDir;  // TRACESCOPE_AGENT_FALLBACK; default $TMPDIR or /tmp
    uint32_t kinds = 0;       // KindMask (TRACESCOPE_AGENT_KINDS)
    int flushMs = 200;        // TRACESCOPE_AGENT_FLUSH_MS, clamped to 100-250
    size_t budgetBytes = size_t(64) << 20;  // TRACESCOPE_AGENT_BUDGET_MB
    size_t maxThreads = 4096;               // TRACESCOPE_AGENT_MAX_THREADS: names looked up
    static AgentConfig fromEnvironment();
};

// "kernel,memcpy,..." as KindMask bits; unknown names are ignored, empty = the default set.
uint32_t parseKinds(const char* text);

class Agent {
public:
    explicit Agent(AgentConfig config);

    void setStartNs(int64_t ns) { startNs_ = ns; }
    void setCuptiVersion(uint32_t v) { cuptiVersion_ = v; }
    void setDriverVersion(int32_t v) { driverVersion_ = v; }
    void setActive(bool active) { active_ = active; }
    void setFlushThread(bool running) { flushThread_ = running; }
    bool active() const { return active_; }
    uint32_t kinds() const { return config_.kinds; }

    // A status frame (CUPTI failures, another profiler); also printed on stderr.
    void status(StatusCode code, int32_t cuptiResult, const std::string& message, const std::string& detail);
    // Builds the hello frame and connects (or opens the fallback file).
    void open();
    // Frames of one completed CUPTI buffer (any thread; never blocks on I/O).
    void submit(std::string frames, uint64_t records, uint64_t droppedByCupti);
    // Waits one flush period; false once the agent is finishing.
    bool waitForNextFlush();
    // The viewer's control frames that arrived since the last call (never blocks). A
    // malformed control stream is reported once and ignored from then on.
    std::vector<ControlRecord> pollControl();
    // After a control frame was carried out: a Window frame behind the records sent so far.
    void windowChanged(WindowState state, int64_t timestampNs);
    // A thread seen in the records: its name (/proc/self/task/<tid>/comm) is sent once, for
    // at most maxThreads threads.
    void noteThread(int64_t tid);
    // Sends (or writes) what is pending. From the flush thread and at exit.
    void send();
    // At exit: a last send with the Bye frame, then the connection is closed.
    void finish();
    // In a forked child: stop writing into the parent's stream.
    void detachAfterFork();
    bool detached() const { return detached_; }

private:
    bool writeAll(int fd, const char* data, size_t size, bool socket);
    bool openFallback();
    void appendDropped(std::string& out);

    AgentConfig config_;
    int64_t startNs_ = 0;
    uint32_t cuptiVersion_ = 0;
    int32_t driverVersion_ = 0;
    bool active_ = false;
    bool flushThread_ = false;
    bool detached_ = false;
    bool finishing_ = false;
    bool finished_ = false;

    pthread_mutex_t dataMutex_ = PTHREAD_MUTEX_INITIALIZER;  // pending_ and the counters
    pthread_mutex_t sendMutex_ = PTHREAD_MUTEX_INITIALIZER;  // fd_ and the hello state
    pthread_cond_t wake_ = PTHREAD_COND_INITIALIZER;
    std::string hello_;
    std::string pending_;
    uint64_t recordsSent_ = 0;
    uint64_t droppedCupti_ = 0, droppedBudget_ = 0;  // not yet reported
    uint64_t droppedTotal_ = 0;
    std::vector<int64_t> threadsSeen_;  // sorted
    ControlDecoder control_;
    bool controlBroken_ = false;
    int fd_ = -1;
    bool toSocket_ = false;
    bool helloWritten_ = false;
    std::string fallbackPath_;
};

}  // namespace tracescope::agent
