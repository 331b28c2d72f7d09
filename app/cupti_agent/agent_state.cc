#include "app/cupti_agent/agent_state.h"

#include "model/capture/agent/record_encoder.h"

#include <cupti_version.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace tracescope::agent {

namespace {

int64_t realtimeNs() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::string readFile(const char* path) {
    std::string out;
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return out;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0 && out.size() < 64 * 1024) out.append(buf, size_t(n));
    ::close(fd);
    return out;
}

constexpr uint32_t kDefaultKinds = kKindKernel | kKindMemcpy | kKindMemset | kKindRuntime | kKindSync | kKindNvtx |
                                   kKindMemory;

}  // namespace

uint32_t parseKinds(const char* text) {
    if (!text || !*text) return kDefaultKinds;
    static const struct { const char* name; uint32_t bits; } kNames[] = {
        {"kernel", kKindKernel}, {"memcpy", kKindMemcpy}, {"memset", kKindMemset}, {"runtime", kKindRuntime},
        {"driver", kKindDriver}, {"sync", kKindSync},     {"nvtx", kKindNvtx},     {"memory", kKindMemory},
        {"overhead", kKindOverhead}, {"all", kKindAll},   {"default", kDefaultKinds}};
    uint32_t bits = 0;
    const char* p = text;
    while (*p) {
        const char* end = std::strchr(p, ',');
        const size_t n = end ? size_t(end - p) : std::strlen(p);
        for (const auto& k : kNames)
            if (std::strlen(k.name) == n && std::strncmp(k.name, p, n) == 0) bits |= k.bits;
        p += n;
        if (*p == ',') ++p;
    }
    return bits ? bits : kDefaultKinds;
}

AgentConfig AgentConfig::fromEnvironment() {
    AgentConfig c;
    if (const char* s = std::getenv(TS_AGENT_ENV_SOCKET)) c.socketPath = s;
    if (const char* s = std::getenv(TS_AGENT_ENV_FALLBACK); s && *s) c.fallbackDir = s;
    else if (const char* t = std::getenv("TMPDIR"); t && *t) c.fallbackDir = t;
    else c.fallbackDir = "/tmp";
    c.kinds = parseKinds(std::getenv(TS_AGENT_ENV_KINDS));
    if (const char* s = std::getenv(TS_AGENT_ENV_FLUSH_MS)) {
        const int ms = std::atoi(s);
        c.flushMs = ms < 100 ? 100 : ms > 250 ? 250 : ms;
    }
    if (const char* s = std::getenv(TS_AGENT_ENV_BUDGET)) {
        const long mb = std::atol(s);
        if (mb > 0) c.budgetBytes = size_t(mb) << 20;
    }
    if (const char* s = std::getenv(TS_AGENT_ENV_THREADS)) {
        const long n = std::atol(s);
        if (n >= 0 && n <= 1 << 20) c.maxThreads = size_t(n);
    }
    return c;
}

Agent::Agent(AgentConfig config) : config_(std::move(config)) {}

void Agent::status(StatusCode code, int32_t cuptiResult, const std::string& message, const std::string& detail) {
    std::fprintf(stderr, "tracescope agent: %s%s%s\n", message.c_str(), detail.empty() ? "" : ": ", detail.c_str());
    StatusRecord r{};
    r.code = code;
    r.cuptiResult = cuptiResult;
    r.timestampNs = realtimeNs();
    pthread_mutex_lock(&dataMutex_);
    appendFrame(pending_, kRecStatus, r, {message, detail});
    pthread_mutex_unlock(&dataMutex_);
}

void Agent::open() {
    HelloRecord h{};
    h.magic = TS_AGENT_MAGIC;
    h.formatVersion = TS_AGENT_FORMAT_VERSION;
    h.pid = getpid();
    h.ppid = getppid();
    h.cuptiVersion = cuptiVersion_;
    h.cuptiBuildVersion = CUPTI_API_VERSION;
    h.driverVersion = driverVersion_;
    h.kinds = active_ ? config_.kinds : 0;
    h.startNs = startNs_ ? startNs_ : realtimeNs();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    char exe[4096] = {};
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) exe[n] = 0;
    std::string cmdline = readFile("/proc/self/cmdline");
    for (char& c : cmdline)
        if (c == 0) c = ' ';
    while (!cmdline.empty() && cmdline.back() == ' ') cmdline.pop_back();
    appendFrame(hello_, kRecHello, h, {host, exe, cmdline});

    pthread_mutex_lock(&sendMutex_);
    if (!config_.socketPath.empty()) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        if (fd >= 0 && config_.socketPath.size() < sizeof addr.sun_path) {
            std::memcpy(addr.sun_path, config_.socketPath.data(), config_.socketPath.size());
            if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
                timeval tv{2, 0};  // a stuck viewer costs the flush thread at most this per send
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
                fd_ = fd;
                toSocket_ = true;
            }
        }
        if (fd >= 0 && !toSocket_) ::close(fd);
        if (!toSocket_)
            std::fprintf(stderr, "tracescope agent: no viewer listens on %s (%s); writing to a fallback file\n",
                         config_.socketPath.c_str(), std::strerror(errno));
    }
    pthread_mutex_unlock(&sendMutex_);
    send();  // the hello (and any status) right away, so the viewer sees the process
}

void Agent::submit(std::string frames, uint64_t records, uint64_t droppedByCupti) {
    if (detached_) return;
    pthread_mutex_lock(&dataMutex_);
    droppedCupti_ += droppedByCupti;
    if (pending_.size() + frames.size() > config_.budgetBytes) {
        droppedBudget_ += records;
    } else {
        pending_ += frames;
        recordsSent_ += records;
    }
    pthread_mutex_unlock(&dataMutex_);
}

void Agent::appendDropped(std::string& out) {
    const int64_t now = realtimeNs();
    if (droppedCupti_) {
        appendFrame(out, kRecDropped, DroppedRecord{kDropCupti, 0, droppedCupti_, now});
        droppedTotal_ += droppedCupti_;
        droppedCupti_ = 0;
    }
    if (droppedBudget_) {
        appendFrame(out, kRecDropped, DroppedRecord{kDropBudget, 0, droppedBudget_, now});
        droppedTotal_ += droppedBudget_;
        droppedBudget_ = 0;
    }
}

bool Agent::waitForNextFlush() {
    pthread_mutex_lock(&dataMutex_);
    if (!finishing_) {
        timespec until{};
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += long(config_.flushMs) * 1'000'000;
        until.tv_sec += until.tv_nsec / 1'000'000'000;
        until.tv_nsec %= 1'000'000'000;
        pthread_cond_timedwait(&wake_, &dataMutex_, &until);
    }
    const bool go = !finishing_ && !detached_;
    pthread_mutex_unlock(&dataMutex_);
    return go;
}

std::vector<ControlRecord> Agent::pollControl() {
    std::vector<ControlRecord> commands;
    if (detached_) return commands;
    pthread_mutex_lock(&sendMutex_);
    bool broke = false;
    while (toSocket_ && fd_ >= 0 && !controlBroken_) {
        char buf[256];
        const ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;  // nothing more now (EAGAIN), or the viewer closed its side
        if (!control_.feed(buf, size_t(n), [&](const ControlRecord& r) { commands.push_back(r); })) {
            controlBroken_ = broke = true;
        }
    }
    pthread_mutex_unlock(&sendMutex_);
    if (broke)
        status(kStatusNote, 0, "the viewer sent a malformed control frame; Start/Stop requests are ignored from now on",
               "");
    return commands;
}

void Agent::windowChanged(WindowState state, int64_t timestampNs) {
    pthread_mutex_lock(&dataMutex_);
    WindowRecord w{};
    w.state = state;
    w.timestampNs = timestampNs;
    w.recordsSent = recordsSent_;
    appendFrame(pending_, kRecWindow, w);
    pthread_mutex_unlock(&dataMutex_);
}

void Agent::noteThread(int64_t tid) {
    if (tid <= 0 || detached_) return;
    pthread_mutex_lock(&dataMutex_);
    auto at = std::lower_bound(threadsSeen_.begin(), threadsSeen_.end(), tid);
    const bool known = at != threadsSeen_.end() && *at == tid;
    const bool room = threadsSeen_.size() < config_.maxThreads;
    if (!known && room) threadsSeen_.insert(at, tid);
    pthread_mutex_unlock(&dataMutex_);
    if (known || !room) return;
    // comm holds at most 15 bytes and a newline (proc(5)); the thread may be gone already.
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%lld/comm", static_cast<long long>(tid));
    char name[32] = {};
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = ::read(fd, name, sizeof name - 1);
    ::close(fd);
    while (n > 0 && (name[n - 1] == '\n' || name[n - 1] == 0)) --n;
    if (n <= 0) return;
    ThreadNameRecord r{};
    r.threadId = tid;
    pthread_mutex_lock(&dataMutex_);
    appendFrame(pending_, kRecThreadName, r, {std::string_view(name, size_t(n))});
    pthread_mutex_unlock(&dataMutex_);
}

bool Agent::writeAll(int fd, const char* data, size_t size, bool socket) {
    while (size) {
        const ssize_t n = socket ? ::send(fd, data, size, MSG_NOSIGNAL) : ::write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        size -= size_t(n);
    }
    return true;
}

bool Agent::openFallback() {
    fallbackPath_ = config_.fallbackDir + "/";
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    fallbackPath_ += std::string(host) + "." + std::to_string(getpid()) + TS_AGENT_FALLBACK_SUFFIX;
    fd_ = ::open(fallbackPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    toSocket_ = false;
    helloWritten_ = false;
    if (fd_ < 0) {
        std::fprintf(stderr, "tracescope agent: cannot write %s: %s; records are lost\n", fallbackPath_.c_str(),
                     std::strerror(errno));
        return false;
    }
    std::fprintf(stderr, "tracescope agent: writing records to %s\n", fallbackPath_.c_str());
    return true;
}

void Agent::send() {
    if (detached_) return;
    pthread_mutex_lock(&sendMutex_);
    if (finished_) {
        pthread_mutex_unlock(&sendMutex_);
        return;
    }
    std::string batch;
    pthread_mutex_lock(&dataMutex_);
    batch.swap(pending_);
    appendDropped(batch);
    if (finishing_) {
        ByeRecord bye{realtimeNs(), recordsSent_, droppedTotal_};
        appendFrame(batch, kRecBye, bye);
    }
    pthread_mutex_unlock(&dataMutex_);
    if (!batch.empty() || !helloWritten_) {
        for (int attempt = 0; attempt < 2; ++attempt) {
            if (fd_ < 0 && !openFallback()) break;
            bool ok = true;
            if (!helloWritten_) ok = writeAll(fd_, hello_.data(), hello_.size(), toSocket_);
            if (ok) helloWritten_ = true;
            if (ok && writeAll(fd_, batch.data(), batch.size(), toSocket_)) break;
            // The viewer went away (or the disk is full): the batch goes to a fresh fallback file.
            std::fprintf(stderr, "tracescope agent: %s failed (%s)\n", toSocket_ ? "sending to the viewer" : "writing",
                         std::strerror(errno));
            const bool wasSocket = toSocket_;
            ::close(fd_);
            fd_ = -1;
            if (!wasSocket) break;
        }
    }
    pthread_mutex_unlock(&sendMutex_);
}

void Agent::finish() {
    if (detached_) return;
    pthread_mutex_lock(&dataMutex_);
    finishing_ = true;
    pthread_cond_broadcast(&wake_);
    pthread_mutex_unlock(&dataMutex_);
    send();
    pthread_mutex_lock(&sendMutex_);
    finished_ = true;
    if (fd_ >= 0) {
        if (toSocket_) ::shutdown(fd_, SHUT_WR);
        ::close(fd_);
        fd_ = -1;
    }
    pthread_mutex_unlock(&sendMutex_);
}

void Agent::detachAfterFork() {
    detached_ = true;
    // The child's copy of the descriptor only; the parent's stream stays intact.
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    finished_ = true;
}

}  // namespace tracescope::agent
