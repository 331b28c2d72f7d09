// The launched program's standard output and error, read from one pipe both are joined to (as a
// terminal would show them interleaved), handed to a live display and kept to be saved with the
// capture. POSIX only, no Qt.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tracescope::capture {

class ProgramOutput {
public:
    // At most this much of the output is kept (its end); what came before is counted.
    static constexpr size_t kKeptBytes = size_t(8) << 20;

    ProgramOutput() = default;
    ProgramOutput(const ProgramOutput&) = delete;
    ProgramOutput& operator=(const ProgramOutput&) = delete;
    ~ProgramOutput();

    // Makes the pipe; false with `error`. childFd() is its write end, for the child's fd 1 and 2.
    bool open(std::string& error);
    int childFd() const { return writeFd_; }
    // After the child started: closes our copy of the write end, so the pipe ends with the
    // program (and the children it gave its output to).
    void closeChildEnd();

    // Reads whatever is there without blocking and passes each piece to `onOutput`. False once
    // the pipe has ended (every writer closed it) or was never opened.
    bool pump(const std::function<void(std::string_view)>& onOutput);

    const std::string& text() const { return kept_; }
    uint64_t totalBytes() const { return total_; }
    // Writes the kept output to `path`, with a first line saying how much was left out, if any.
    bool saveTo(const std::string& path, std::string& error) const;

private:
    int readFd_ = -1, writeFd_ = -1;
    std::string kept_;
    uint64_t total_ = 0;
};

}  // namespace tracescope::capture
