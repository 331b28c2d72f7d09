#include "model/import/byte_source.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace tracescope {

namespace {

// Real JSON traces inflate 5-30x; a stream that inflates far more than this is a
// decompression bomb (or a file of nothing but padding), not a trace.
constexpr uint64_t kMaxInflateRatio = 1000;
// The ratio is only judged after this much output, so small files never trip it.
constexpr uint64_t kRatioCheckAfter = 1ull << 30;
// Hard cap on decompressed bytes.
constexpr uint64_t kMaxInflatedBytes = 64ull << 30;

class FileSource : public ByteSource {
public:
    FileSource(int fd, uint64_t size) : fd_(fd) { fileSize_ = size; }
    ~FileSource() override { ::close(fd_); }

    // Raw reads, also used by the gzip source underneath.
    size_t read(char* dst, size_t n) override {
        size_t got = 0;
        while (got < n) {
            const ssize_t r = ::read(fd_, dst + got, n - got);
            if (r < 0) {
                if (errno == EINTR) continue;
                error_ = std::string("read error: ") + std::strerror(errno);
                break;
            }
            if (r == 0) break;
            got += size_t(r);
        }
        read_ += got;
        return got;
    }
    uint64_t fileBytesRead() const override { return read_; }

private:
    int fd_;
    uint64_t read_ = 0;
};

class GzipSource : public ByteSource {
public:
    explicit GzipSource(std::unique_ptr<FileSource> file) : file_(std::move(file)), in_(1 << 20) {
        fileSize_ = file_->fileSize();
        compressed_ = true;
        inflateInit2(&zs_, 16 + MAX_WBITS);
    }
    ~GzipSource() override { inflateEnd(&zs_); }

    size_t read(char* dst, size_t n) override {
        if (done_) return 0;
        zs_.next_out = reinterpret_cast<Bytef*>(dst);
        // zlib counts in uInt; large requests are served in several calls.
        zs_.avail_out = uInt(std::min<size_t>(n, 1u << 30));
        const uInt requested = zs_.avail_out;
        while (zs_.avail_out > 0) {
            if (zs_.avail_in == 0) {
                const size_t got = file_->read(reinterpret_cast<char*>(in_.data()), in_.size());
                if (!file_->error().empty()) error_ = file_->error();
                if (got == 0) {
                    // End of file: complete if the last member ended cleanly.
                    if (!memberEnded_) streamTruncated_ = true;
                    done_ = true;
                    break;
                }
                zs_.next_in = in_.data();
                zs_.avail_in = uInt(got);
            }
            if (memberEnded_) {
                // Another gzip member follows (concatenated .gz files are legal).
                inflateReset(&zs_);
                memberEnded_ = false;
                freshMember_ = true;
            }
            const int rc = inflate(&zs_, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                memberEnded_ = true;
                continue;
            }
            if (rc == Z_BUF_ERROR) continue;  // needs more input
            if (rc != Z_OK && freshMember_) {
                // Bytes after a complete gzip member that are not another member
                // (zero padding from some writers): the data ended there.
                done_ = true;
                break;
            }
            freshMember_ = false;
            if (rc != Z_OK) {
                error_ = std::string("corrupt gzip data near compressed byte ") +
                         std::to_string(file_->fileBytesRead() - zs_.avail_in) + (zs_.msg ? std::string(": ") + zs_.msg : "");
                done_ = true;
                break;
            }
        }
        const size_t produced = requested - zs_.avail_out;
        out_ += produced;
        if (out_ > kMaxInflatedBytes) {
            error_ = "gzip data inflates beyond 64 GiB; refusing to read further";
            done_ = true;
        } else if (out_ > kRatioCheckAfter && out_ > kMaxInflateRatio * std::max<uint64_t>(1, fileBytesRead())) {
            error_ = "gzip data inflates more than " + std::to_string(kMaxInflateRatio) +
                     "x (a decompression bomb, not a trace)";
            done_ = true;
        }
        return produced;
    }
    uint64_t fileBytesRead() const override { return file_->fileBytesRead() - zs_.avail_in; }

private:
    std::unique_ptr<FileSource> file_;
    std::vector<Bytef> in_;
    z_stream zs_{};
    uint64_t out_ = 0;
    bool memberEnded_ = false;
    bool freshMember_ = false;
    bool done_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> ByteSource::open(const std::string& path, std::string* error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (error) *error = "cannot open " + path + ": " + std::strerror(errno);
        return nullptr;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        if (error) *error = "cannot read " + path + ": not a regular file";
        ::close(fd);
        return nullptr;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    unsigned char magic[2] = {0, 0};
    const ssize_t got = ::pread(fd, magic, 2, 0);
    auto file = std::make_unique<FileSource>(fd, uint64_t(st.st_size));
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) return std::make_unique<GzipSource>(std::move(file));
    return file;
}

}  // namespace tracescope
