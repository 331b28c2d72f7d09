#include "model/import/mapped_file.h"

#include "model/import/memory_budget.h"

#include <zlib.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>

namespace tracescope {

MappedFile::~MappedFile() {
    if (mapping_) munmap(mapping_, size_);
}

bool MappedFile::open(const std::string& path, std::string* error) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (error) *error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    struct stat st {};
    if (fstat(fd, &st) != 0) {
        if (error) *error = "cannot read " + path + ": " + std::strerror(errno);
        ::close(fd);
        return false;
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        // MAP_POPULATE: one call maps every page instead of one fault per 4 KB later on.
        void* m = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (m != MAP_FAILED) {
            madvise(m, size_t(st.st_size), MADV_SEQUENTIAL);
            mapping_ = m;
            data_ = static_cast<const uint8_t*>(m);
            size_ = size_t(st.st_size);
            ::close(fd);
            return inflateGzip(path, error);
        }
    }
    // Not mappable: read it.
    uint8_t buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (error) *error = "cannot read " + path + ": " + std::strerror(errno);
            ::close(fd);
            return false;
        }
        if (n == 0) break;
        fallback_.insert(fallback_.end(), buf, buf + n);
    }
    ::close(fd);
    data_ = fallback_.data();
    size_ = fallback_.size();
    return inflateGzip(path, error);
}

// gzip (every member, as gunzip does) into fallback_, which then holds the bytes; other data
// stays as it is. A cut or damaged stream is an error, never half a file read as whole.
bool MappedFile::inflateGzip(const std::string& path, std::string* error) {
    if (size_ < 2 || data_[0] != 0x1f || data_[1] != 0x8b) return true;
    std::vector<uint8_t> out;
    out.reserve(std::min<size_t>(size_ * 4, size_t(1) << 30));
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        if (error) *error = "cannot inflate " + path;
        return false;
    }
    MemoryGuard memory;  // a gzip that inflates far more than its size suggests stops here
    const uint8_t* in = data_;
    size_t left = size_;
    int rc = Z_OK;
    constexpr size_t kStep = size_t(1) << 20;
    while (true) {
        if (zs.avail_in == 0 && left > 0) {
            const size_t take = std::min<size_t>(left, 1u << 30);
            zs.next_in = const_cast<Bytef*>(in);
            zs.avail_in = uInt(take);
            in += take;
            left -= take;
        }
        const size_t at = out.size();
        out.resize(at + kStep);
        zs.next_out = out.data() + at;
        zs.avail_out = uInt(kStep);
        rc = inflate(&zs, Z_NO_FLUSH);
        out.resize(at + kStep - zs.avail_out);
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0 && left == 0) break;
            inflateReset(&zs);  // the next member
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) break;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && left == 0) break;  // cut short
        if ((out.size() & ((size_t(64) << 20) - 1)) < kStep && memory.exceeded()) {
            inflateEnd(&zs);
            if (error) *error = memory.message(uint64_t(size_ - left - zs.avail_in));
            return false;
        }
    }
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        if (error)
            *error = "cannot read " + path + ": the gzip data is " + (rc == Z_DATA_ERROR ? "damaged" : "cut short") +
                     " after " + std::to_string(out.size()) + " bytes";
        return false;
    }
    if (mapping_) {
        munmap(mapping_, size_);
        mapping_ = nullptr;
    }
    fallback_ = std::move(out);
    data_ = fallback_.data();
    size_ = fallback_.size();
    return true;
}

}  // namespace tracescope
