#include "model/import/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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
            return true;
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
    return true;
}

}  // namespace tracescope
