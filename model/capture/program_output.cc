#include "model/capture/program_output.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace tracescope::capture {

ProgramOutput::~ProgramOutput() {
    if (readFd_ >= 0) ::close(readFd_);
    if (writeFd_ >= 0) ::close(writeFd_);
}

bool ProgramOutput::open(std::string& error) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        error = std::string("cannot make a pipe for the program's output: ") + std::strerror(errno);
        return false;
    }
    readFd_ = fds[0];
    writeFd_ = fds[1];
    // Never block the session's loop: it also watches the program and the capture window.
    ::fcntl(readFd_, F_SETFL, ::fcntl(readFd_, F_GETFL) | O_NONBLOCK);
    return true;
}

void ProgramOutput::closeChildEnd() {
    if (writeFd_ >= 0) ::close(writeFd_);
    writeFd_ = -1;
}

bool ProgramOutput::pump(const std::function<void(std::string_view)>& onOutput) {
    if (readFd_ < 0) return false;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(readFd_, buffer, sizeof buffer);
        if (n > 0) {
            const std::string_view piece(buffer, size_t(n));
            total_ += uint64_t(n);
            kept_.append(piece);
            if (kept_.size() > kKeptBytes) kept_.erase(0, kept_.size() - kKeptBytes);
            if (onOutput) onOutput(piece);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
        ::close(readFd_);  // end of the pipe (n == 0), or an error we cannot read past
        readFd_ = -1;
        return false;
    }
}

bool ProgramOutput::saveTo(const std::string& path, std::string& error) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        error = "cannot write " + path;
        return false;
    }
    if (total_ > kept_.size())
        out << "[the first " << (total_ - kept_.size()) << " of " << total_ << " bytes of output are left out]\n";
    out << kept_;
    out.flush();
    if (!out) {
        error = "cannot write " + path;
        return false;
    }
    return true;
}

}  // namespace tracescope::capture
