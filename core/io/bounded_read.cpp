#include "core/io/bounded_read.h"

#include "core/io/atomic_file.h"

#include <algorithm>
#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fb {

namespace {
std::string quoted(const std::string &path)
{
    return "'" + path + "'";
}

std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "not a regular file";
}

// "67108864 bytes (64 MiB)": the exact figure, and the round one when there is one.
std::string limitText(std::size_t maxBytes)
{
    std::string text = std::to_string(maxBytes) + " bytes";
    if (maxBytes >= (std::size_t(1) << 20) && maxBytes % (std::size_t(1) << 20) == 0)
        text += " (" + std::to_string(maxBytes >> 20) + " MiB)";
    return text;
}
} // namespace

std::string checkNotSpecialFile(const std::string &path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return {};
    return quoted(path) + " is " + kindOf(st.st_mode) + ", not a regular file";
}

std::string readRegularFile(const std::string &path, std::size_t maxBytes, std::string &out)
{
    out.clear();
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT) return quoted(path) + " does not exist";
        return "cannot read " + quoted(path) + ": " + errorText(errno);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int error = errno;
        ::close(fd);
        return "cannot read " + quoted(path) + ": " + errorText(error);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return quoted(path) + " is " + kindOf(st.st_mode) + ", not a regular file";
    }
    if (std::size_t(st.st_size) > maxBytes) {
        ::close(fd);
        return quoted(path) + " is " + std::to_string(st.st_size) + " bytes; at most " + limitText(maxBytes);
    }
    // Read at most maxBytes + 1: a file that grows while being read is refused too.
    std::string bytes(std::size_t(st.st_size) + 1, '\0');
    std::size_t got = 0;
    for (;;) {
        if (got == bytes.size()) {
            if (bytes.size() > maxBytes) break;
            bytes.resize(std::min(maxBytes + 1, bytes.size() * 2 + 4096));
        }
        const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int error = errno;
            ::close(fd);
            return "cannot read " + quoted(path) + ": " + errorText(error);
        }
        if (n == 0) break;
        got += std::size_t(n);
    }
    ::close(fd);
    if (got > maxBytes) return quoted(path) + " is more than " + std::to_string(maxBytes) + " bytes; at most "
                               + limitText(maxBytes);
    bytes.resize(got);
    out = std::move(bytes);
    return {};
}

} // namespace fb
