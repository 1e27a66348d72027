#include "core/io/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <locale.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fb {

std::string errorText(int error)
{
    // strerror follows LC_MESSAGES; FullBand's messages are English in every locale.
    static const locale_t cLocale = newlocale(LC_ALL_MASK, "C", locale_t(0));
    std::string text = cLocale ? strerror_l(error, cLocale) : std::strerror(error);
    if (!text.empty()) text[0] = char(std::tolower(static_cast<unsigned char>(text[0])));
    return text;
}

namespace {

std::string failure(const std::string &path, const std::string &why)
{
    return "cannot write '" + path + "': " + why;
}

std::string folderOf(const std::string &path)
{
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// Writes all of bytes to fd, through short writes and interruptions; false with errno set otherwise.
bool writeAll(int fd, std::string_view bytes)
{
    const char *p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (n == 0) {
            errno = EIO;
            return false;
        }
        p += n;
        left -= std::size_t(n);
    }
    return true;
}

bool writableByMode(const struct stat &st)
{
    // By the permission bits alone, as the owner set them: root could write anyway, and a rename
    // needs only the folder's permission, so neither access() nor the rename would refuse.
    if (st.st_uid == ::geteuid()) return (st.st_mode & S_IWUSR) != 0;
    bool inGroup = st.st_gid == ::getegid();
    if (!inGroup) {
        gid_t groups[256];
        const int n = ::getgroups(256, groups);
        for (int i = 0; i < n && !inGroup; ++i) inGroup = groups[i] == st.st_gid;
    }
    return (st.st_mode & (inGroup ? S_IWGRP : S_IWOTH)) != 0;
}

} // namespace

std::string checkReplaceable(const std::string &path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    if (writableByMode(st)) return {};
    return failure(path, "permission denied (the file is read-only)");
}

std::string writeFileAtomically(const std::string &path, std::string_view bytes)
{
    if (path.empty()) return "cannot write a file without a name";
    // The file the path names (a symbolic link is followed: the link stays, its target is replaced).
    std::string target = path;
    struct stat st {};
    bool existed = false;
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        if (char *resolved = ::realpath(path.c_str(), nullptr)) {
            target = resolved;
            std::free(resolved);
        }
    }
    if (::stat(target.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) return failure(path, "it exists and is not a regular file");
        // A read-only file stays as it is, as cp would leave it.
        if (!writableByMode(st)) return failure(path, "permission denied (the file is read-only)");
        existed = true;
    }

    // A fresh name next to the target: same file system, so rename() is atomic.
    static std::atomic<unsigned> counter { 0 };
    const std::string folder = folderOf(target);
    const std::string base = target.substr(target.find_last_of('/') == std::string::npos ? 0 : target.find_last_of('/') + 1);
    std::string temp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = folder + "/." + base + ".fullband-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) return failure(path, errorText(errno));
    }
    if (fd < 0) return failure(path, errorText(EEXIST));
    // The new file keeps the permissions of the one it replaces.
    if (existed) (void)::fchmod(fd, st.st_mode & 07777);

    auto abandon = [&](int error) {
        if (fd >= 0) ::close(fd);
        ::unlink(temp.c_str());
        return failure(path, errorText(error));
    };
    if (!writeAll(fd, bytes)) return abandon(errno);
    if (::fsync(fd) != 0) return abandon(errno);
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0) return abandon(errno);
    if (::rename(temp.c_str(), target.c_str()) != 0) return abandon(errno);
    // Make the rename itself durable; the file is in place whatever this says.
    if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
    return {};
}

} // namespace fb
