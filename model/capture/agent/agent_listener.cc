#include "model/capture/agent/agent_listener.h"

#include "model/capture/agent/record_encoder.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <random>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace tracescope::agent {

AgentListener::~AgentListener() { stop(); }

bool AgentListener::start(const std::string& dirIn, std::string& error) {
    std::string dir = dirIn;
    if (dir.empty()) {
        const char* runtime = std::getenv("XDG_RUNTIME_DIR");
        dir = runtime && *runtime && access(runtime, W_OK) == 0 ? runtime : "/tmp";
    }
    std::random_device rd;
    char name[96];
    std::snprintf(name, sizeof name, "/tracescope-%d-%08x.sock", int(getpid()), unsigned(rd()));
    path_ = dir + name;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path_.size() >= sizeof addr.sun_path) {
        error = "socket path too long: " + path_;
        return false;
    }
    std::memcpy(addr.sun_path, path_.data(), path_.size());
    listenFd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (listenFd_ < 0 || ::bind(listenFd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listenFd_, 64) != 0 || ::pipe2(wakePipe_, O_CLOEXEC | O_NONBLOCK) != 0) {
        error = "cannot listen on " + path_ + ": " + std::strerror(errno);
        stop();
        return false;
    }
    thread_ = std::thread([this] { loop(); });
    return true;
}

void AgentListener::loop() {
    std::vector<pollfd> fds;
    std::vector<Connection*> polled;
    while (!stopping_) {
        fds.clear();
        polled.clear();
        fds.push_back({wakePipe_[0], POLLIN, 0});
        fds.push_back({listenFd_, POLLIN, 0});
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (auto& c : connections_)
                if (c->fd >= 0) {
                    fds.push_back({c->fd, POLLIN, 0});
                    polled.push_back(c.get());
                }
        }
        if (::poll(fds.data(), fds.size(), 200) < 0 && errno != EINTR) break;
        if (fds[0].revents) break;
        if (fds[1].revents & POLLIN) {
            for (;;) {
                const int fd = ::accept4(listenFd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (fd < 0) break;
                auto c = std::make_unique<Connection>();
                c->fd = fd;
                std::lock_guard<std::mutex> lock(mutex_);
                if (windowClosed_) sendTo(*c, kControlStop);  // a process that starts after Stop
                connections_.push_back(std::move(c));
            }
        }
        for (size_t i = 0; i < polled.size(); ++i)
            if (fds[i + 2].revents) readFrom(*polled[i]);
    }
}

void AgentListener::readFrom(Connection& c) {
    char buf[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(c.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        std::lock_guard<std::mutex> lock(mutex_);
        if (n <= 0) {
            ::close(c.fd);
            c.fd = -1;
            c.progress.closed = true;
            return;
        }
        const uint64_t before = c.decoder.records().activityCount();
        const size_t statusesBefore = c.decoder.records().statuses.size();
        const bool ok = c.decoder.feed(std::string_view(buf, size_t(n)));
        const AgentRecords& r = c.decoder.records();
        c.progress.bytes += uint64_t(n);
        c.progress.records = r.activityCount();
        totalRecords_ += r.activityCount() - before;
        if (r.hasHello) {
            c.progress.pid = r.hello.pid;
            c.progress.hostname = r.hostname;
            c.progress.executable = r.executable;
        }
        for (size_t i = statusesBefore; i < r.statuses.size(); ++i) {
            std::string text = r.statuses[i].message;
            if (!r.statuses[i].detail.empty()) text += ": " + r.statuses[i].detail;
            c.progress.statuses.push_back(text);
        }
        uint64_t dropped = 0;
        for (const DroppedRecord& d : r.dropped) dropped += d.count;
        c.progress.dropped = dropped;
        c.progress.bye = r.hasBye;
        if (!r.windows.empty()) c.progress.windowStopped = r.windows.back().state == kWindowStopped;
        if (!ok) {
            c.progress.error = c.decoder.error() + " (at byte " + std::to_string(c.decoder.errorOffset()) + ")";
            ::close(c.fd);
            c.fd = -1;
            c.progress.closed = true;
            return;
        }
    }
}

std::vector<AgentProgress> AgentListener::progress() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<AgentProgress> out;
    for (const auto& c : connections_) out.push_back(c->progress);
    return out;
}

size_t AgentListener::connections() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return connections_.size();
}

size_t AgentListener::openConnections() const {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t n = 0;
    for (const auto& c : connections_) n += c->fd >= 0;
    return n;
}

void AgentListener::sendTo(Connection& c, ControlCommand command) {
    if (c.fd < 0) return;
    std::string frame;
    ControlRecord r{};
    r.command = command;
    r.timestampNs = int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count());
    appendFrame(frame, kRecControl, r);
    // 24 bytes on a socket the agent drains every flush period: a short or failed write only
    // happens when the agent is gone, and then there is no window to close.
    (void)!::send(c.fd, frame.data(), frame.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (command == kControlStop) c.progress.windowStopped = false;
}

void AgentListener::sendControl(ControlCommand command) {
    std::lock_guard<std::mutex> lock(mutex_);
    windowClosed_ = command == kControlStop;
    for (auto& c : connections_) sendTo(*c, command);
}

size_t AgentListener::awaitingStop() const {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t n = 0;
    for (const auto& c : connections_) n += c->fd >= 0 && !c->progress.windowStopped;
    return n;
}

void AgentListener::stop() {
    if (stopping_.exchange(true)) return;
    if (wakePipe_[1] >= 0) {
        const char x = 1;
        (void)!::write(wakePipe_[1], &x, 1);
    }
    if (thread_.joinable()) thread_.join();
    if (listenFd_ >= 0) ::close(listenFd_);
    listenFd_ = -1;
    for (int& fd : wakePipe_) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    if (!path_.empty()) ::unlink(path_.c_str());
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& c : connections_) {
        if (c->fd >= 0) {
            // What is still buffered in the socket belongs to the capture.
            char buf[64 * 1024];
            ssize_t n;
            while ((n = ::read(c->fd, buf, sizeof buf)) > 0 && c->decoder.feed(std::string_view(buf, size_t(n)))) {}
            ::close(c->fd);
            c->fd = -1;
        }
    }
}

std::vector<CollectedProcess> AgentListener::take() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<CollectedProcess> out;
    for (auto& c : connections_) {
        CollectedProcess p;
        p.progress = c->progress;
        p.truncatedBytes = c->decoder.truncatedBytes();
        p.records = std::move(c->decoder.records());
        p.progress.records = p.records.activityCount();
        p.progress.bye = p.records.hasBye;
        // What the connection sends from now on still belongs to this process.
        AgentRecords fresh;
        fresh.hasHello = p.records.hasHello;
        fresh.hello = p.records.hello;
        fresh.hostname = p.records.hostname;
        fresh.executable = p.records.executable;
        fresh.commandLine = p.records.commandLine;
        c->decoder.records() = std::move(fresh);
        out.push_back(std::move(p));
    }
    if (stopping_) connections_.clear();
    return out;
}

}  // namespace tracescope::agent
