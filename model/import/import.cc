#include "model/import/import.h"

#include "model/capture/agent/record_decoder.h"
#include "model/import/agent_records_importer.h"
#include "model/import/chrome_json_importer.h"
#include "model/import/logdir.h"
#include "model/import/memory_budget.h"
#include "model/import/run_metadata_importer.h"
#include "model/import/xspace_importer.h"
#include "model/proto/protobuf_wire.h"

#include "model/import/byte_source.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

namespace tracescope {

namespace {

// The first bytes of the file, inflated when it is gzip.
std::vector<uint8_t> peekContent(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (error) *error = "cannot open " + path;
        return {};
    }
    std::vector<uint8_t> head(64 * 1024);
    in.read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    if (head.size() >= 2 && head[0] == 0x1f && head[1] == 0x8b) {
        std::vector<uint8_t> out(64 * 1024);
        z_stream zs{};
        if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return {};
        zs.next_in = head.data();
        zs.avail_in = uInt(head.size());
        zs.next_out = out.data();
        zs.avail_out = uInt(out.size());
        inflate(&zs, Z_SYNC_FLUSH);
        out.resize(out.size() - zs.avail_out);
        inflateEnd(&zs);
        return out;
    }
    return head;
}

bool isJsonSpace(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Offset of the first byte after the UTF-8 BOM and JSON whitespace (head.size() if none).
size_t firstNonSpace(const std::vector<uint8_t>& head) {
    size_t i = 0;
    if (head.size() >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF) i = 3;  // UTF-8 BOM
    while (i < head.size() && isJsonSpace(head[i])) ++i;
    return i;
}

bool looksLikeJson(const std::vector<uint8_t>& head) {
    const size_t i = firstNonSpace(head);
    return i < head.size() && (head[i] == '{' || head[i] == '[');
}

// The first byte after any amount of leading whitespace in the (inflated) content of `path`,
// read in chunks, never held whole; -1 when there is none. For files whose head is blank.
int firstByteAfterWhitespace(const std::string& path) {
    std::unique_ptr<ByteSource> source = ByteSource::open(path, nullptr);
    if (!source) return -1;
    std::vector<char> buf(1 << 20);
    bool first = true;
    for (;;) {
        const size_t n = source->read(buf.data(), buf.size());
        if (n == 0) return -1;
        size_t i = 0;
        if (first && n >= 3 && uint8_t(buf[0]) == 0xEF && uint8_t(buf[1]) == 0xBB && uint8_t(buf[2]) == 0xBF) i = 3;
        first = false;
        for (; i < n; ++i)
            if (!isJsonSpace(uint8_t(buf[i]))) return uint8_t(buf[i]);
    }
}

const char* specialFileKind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return nullptr;
}

// The first field of a protobuf message: its payload (possibly cut at the end of `head`).
// Protobuf has no magic number, so the binary formats are told apart by the shape of
// their first nested fields.
struct FirstField {
    wire::Field field;
    bool ok = false;
    size_t available = 0;  // payload bytes present in head
};

FirstField firstLengthDelimited(const uint8_t* data, size_t size) {
    FirstField out;
    const uint8_t* p = data;
    const uint8_t* end = data + size;
    uint64_t key, len;
    if (!wire::readVarint(p, end, key) || (key & 7) != wire::LengthDelimited) return out;
    if (!wire::readVarint(p, end, len)) return out;
    out.field.number = uint32_t(key >> 3);
    out.field.type = wire::LengthDelimited;
    out.field.data = p;
    out.field.size = size_t(len);
    out.available = std::min<size_t>(size_t(len), size_t(end - p));
    out.ok = len > 0;
    return out;
}

// Walks the fields present in a (possibly cut) payload; `check` accepts (number, wire type).
// True when at least one field was read and every field was accepted.
template <typename Check>
bool fieldsMatch(const uint8_t* data, size_t available, size_t declared, Check check, size_t* count = nullptr) {
    wire::Reader r(data, available);
    wire::Field f;
    size_t n = 0;
    while (r.next(f)) {
        if (!check(f)) return false;
        ++n;
    }
    if (r.error() && !(r.truncated() && available < declared)) return false;
    if (count) *count = n;
    return n > 0 || (r.truncated() && available < declared);
}

// XSpace: field 1 = XPlane { 1 varint id, 2 string name, 3 lines, 4/5 metadata maps, 6 stats }.
bool looksLikeXSpace(const std::vector<uint8_t>& head) {
    FirstField plane = firstLengthDelimited(head.data(), head.size());
    if (!plane.ok || plane.field.number != 1) return false;
    bool sawName = false, sawLines = false;
    auto check = [&](const wire::Field& f) {
        if (f.number == 1) return f.type == wire::Varint;
        if (f.number == 2) {
            sawName = true;
            return f.type == wire::LengthDelimited;
        }
        if (f.number >= 3 && f.number <= 6) {
            sawLines = sawLines || f.number == 3;
            return f.type == wire::LengthDelimited;
        }
        return false;
    };
    if (!fieldsMatch(plane.field.data, plane.available, plane.field.size, check)) return false;
    return sawName || sawLines;
}

// Copies a stream (pipe, FIFO, standard input) once into a temporary file, which is removed when
// this object goes. Stops early when the first bytes are already not a trace.
class StreamSpool {
public:
    ~StreamSpool() {
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    const std::string& path() const { return path_; }

    // "" on success, else the error (or "cancelled").
    std::string copy(int fd, const std::string& name, const ImportOptions& options) {
        std::error_code ec;
        std::string dir = std::filesystem::temp_directory_path(ec).string();
        if (ec || dir.empty()) dir = "/tmp";
        std::string templ = dir + "/tracescope-stream-XXXXXX";
        const int out = ::mkstemp(templ.data());
        if (out < 0) return "cannot read " + name + ": no temporary file in " + dir + ": " + std::strerror(errno);
        path_ = templ;
        std::vector<char> buf(1 << 20);
        uint64_t total = 0;
        bool headChecked = false;
        std::string failure;
        for (;;) {
            if (options.cancelled()) {
                failure = "cancelled";
                break;
            }
            pollfd pfd{fd, POLLIN, 0};
            const int ready = ::poll(&pfd, 1, 200);  // wakes up now and then to see a cancel
            if (ready < 0 && errno != EINTR) {
                failure = "cannot read " + name + ": " + std::strerror(errno);
                break;
            }
            if (ready <= 0) continue;
            const ssize_t n = ::read(fd, buf.data(), buf.size());
            if (n < 0) {
                if (errno == EINTR || errno == EAGAIN) continue;
                failure = "cannot read " + name + ": " + std::strerror(errno);
                break;
            }
            if (n == 0) break;
            if (::write(out, buf.data(), size_t(n)) != n) {
                failure = "cannot read " + name + ": the temporary copy in " + dir + " failed: " + std::strerror(errno);
                break;
            }
            total += uint64_t(n);
            options.report(total, 0);
            if (!headChecked && total >= 64 * 1024) {
                headChecked = true;
                std::vector<uint8_t> head = peekContent(path_, nullptr);
                if (!head.empty() && firstNonSpace(head) < head.size() && !looksLikeJson(head) &&
                    !looksLikeXSpace(head) && !looksLikeRunMetadata(head.data(), head.size()) &&
                    !agent::looksLikeRecordStream(
                        std::string_view(reinterpret_cast<const char*>(head.data()), head.size())))
                    failure = "not a trace: " + name + " is neither Chrome trace JSON, XSpace nor RunMetadata";
                if (!failure.empty()) break;
            }
        }
        ::close(out);
        return failure;
    }

private:
    std::string path_;
};

}  // namespace

TraceFormat detectFormat(const std::string& path, std::string* error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return TraceFormat::Directory;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (error)
            *error = (errno == ENOENT ? "no such file: " : "cannot open " + path + ": ") +
                     (errno == ENOENT ? path : std::string(std::strerror(errno)));
        return TraceFormat::Unknown;
    }
    if (const char* kind = specialFileKind(st.st_mode)) {
        // Never opened: opening a FIFO waits for a writer, a device may never end.
        if (error) *error = path + " is " + kind + ", not a trace file (not opened)";
        return TraceFormat::Unknown;
    }
    std::vector<uint8_t> head = peekContent(path, error);
    if (head.empty()) {
        if (error && error->empty()) *error = "empty file: " + path;
        return TraceFormat::Unknown;
    }
    if (looksLikeJson(head)) return TraceFormat::ChromeJson;
    if (firstNonSpace(head) == head.size()) {
        // Only whitespace so far: JSON when the first byte after it (however far) opens it.
        const int c = firstByteAfterWhitespace(path);
        if (c == '{' || c == '[') return TraceFormat::ChromeJson;
        if (error)
            *error = c < 0 ? "not a trace: " + path + " holds only whitespace"
                           : "not a trace: " + path + " is neither Chrome trace JSON, XSpace nor RunMetadata";
        return TraceFormat::Unknown;
    }
    if (agent::looksLikeRecordStream(std::string_view(reinterpret_cast<const char*>(head.data()), head.size())))
        return TraceFormat::AgentRecords;
    if (looksLikeXSpace(head)) return TraceFormat::XSpace;
    if (looksLikeRunMetadata(head.data(), head.size())) return TraceFormat::RunMetadata;
    if (error) *error = "not a trace: " + path + " is neither Chrome trace JSON, XSpace nor RunMetadata";
    return TraceFormat::Unknown;
}

namespace {

ImportResult importStream(int fd, const std::string& name, const ImportOptions& options) {
    StreamSpool spool;
    const std::string failure = spool.copy(fd, name, options);
    if (failure == "cancelled") return ImportResult::cancel();
    if (!failure.empty()) return ImportResult::failure(failure);
    ImportOptions inner = options;
    inner.allowStreams = false;
    ImportResult r = importTrace(spool.path(), inner);
    if (!r.ok() && !r.cancelled) {
        // Name the stream, not the temporary copy.
        for (size_t at; (at = r.error.find(spool.path())) != std::string::npos;)
            r.error.replace(at, spool.path().size(), name);
    }
    return r;
}

}  // namespace

ImportResult importTrace(const std::string& path, const ImportOptions& options) {
    if (options.allowStreams) {
        if (path == "-") return importStream(STDIN_FILENO, "standard input", options);
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
            const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) return ImportResult::failure("cannot open " + path + ": " + std::strerror(errno));
            ImportResult r = importStream(fd, path, options);
            ::close(fd);
            return r;
        }
    }
    std::string error;
    const TraceFormat format = detectFormat(path, &error);
    // A folder's run is checked when it is imported (importRun), as a whole.
    if (format != TraceFormat::Unknown && format != TraceFormat::Directory) {
        const std::string tooBig = checkImportMemory({{path, format}});
        if (!tooBig.empty()) return ImportResult::failure(tooBig);
    }
    switch (format) {
    case TraceFormat::ChromeJson: return importChromeJson(path, options);
    case TraceFormat::XSpace: return importXSpace(path, options);
    case TraceFormat::RunMetadata: return importRunMetadata(path, options);
    case TraceFormat::Directory: return importLogdir(path, options);
    case TraceFormat::AgentRecords: return importAgentRecords(path, options);
    case TraceFormat::Unknown: break;
    }
    return ImportResult::failure(error);
}

}  // namespace tracescope
