// Auth.h's key file on Windows: %ProgramData%\Wirebench\wirebenchd.key by default (the service's and an
// administrator's), created new with an ACL of its own that lets only its owner, SYSTEM and the Administrators
// read it (a protected DACL: nothing inherited from the folder, whose Users may read). A key file made some other
// way is read as it is: checking its ACL is not ported (POSIX refuses a key file others may read).
#include "Auth.h"

#include "platform/windows/WindowsText.h"
#include "wire/Text.h"

#include <cstdlib>
#include <filesystem>

#include <windows.h>
#include <sddl.h>

namespace wb::auth {

using platform::WindowsText;
using wire::format;
using wire::trimmed;

namespace {

std::string lastErrorText()
{
    return WindowsText::systemMessage(::GetLastError());
}

bool readKeyFile(const std::string &path, std::string *key, std::string *error)
{
    const HANDLE h = ::CreateFileW(WindowsText::wide(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr,
                                   OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        *error = format("cannot read the key file %s: %s", path.c_str(), lastErrorText().c_str());
        return false;
    }
    std::string text(4096, '\0');
    DWORD got = 0;
    const BOOL ok = ::ReadFile(h, text.data(), DWORD(text.size()), &got, nullptr);
    ::CloseHandle(h);
    text.resize(ok ? got : 0);
    text = trimmed(text);
    if (text.empty()) {
        *error = format("the key file %s is empty: delete it to get a new key", path.c_str());
        return false;
    }
    *key = text;
    return true;
}

} // namespace

std::string defaultKeyFilePath()
{
    const char *data = std::getenv("ProgramData");
    return std::string(data && *data ? data : "C:\\ProgramData") + "\\Wirebench\\wirebenchd.key";
}

bool loadOrCreateKeyFile(const std::string &path, std::string *key, bool *created, std::string *error)
{
    *created = false;
    const std::wstring wide = WindowsText::wide(path);
    std::error_code ec;
    if (std::filesystem::exists(wide, ec))
        return readKeyFile(path, key, error);
    const std::filesystem::path dir = std::filesystem::absolute(wide, ec).parent_path();
    std::filesystem::create_directories(dir, ec);
    if (!std::filesystem::is_directory(dir, ec)) {
        *error = format("cannot create the folder %s for the key file: choose another with --key-file",
                        WindowsText::utf8(dir.c_str()).c_str());
        return false;
    }
    // Full control for the owner, SYSTEM and the Administrators; nothing else, nothing inherited.
    SECURITY_ATTRIBUTES sa{sizeof(SECURITY_ATTRIBUTES), nullptr, FALSE};
    if (!::ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:P(A;;FA;;;OW)(A;;FA;;;SY)(A;;FA;;;BA)",
                                                                SDDL_REVISION_1, &sa.lpSecurityDescriptor, nullptr)) {
        *error = format("cannot make the key file's access list: %s", lastErrorText().c_str());
        return false;
    }
    const HANDLE h = ::CreateFileW(wide.c_str(), GENERIC_WRITE, 0, &sa, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    const std::string openError = h == INVALID_HANDLE_VALUE ? lastErrorText() : std::string();
    ::LocalFree(sa.lpSecurityDescriptor);
    if (h == INVALID_HANDLE_VALUE) {
        *error = format("cannot create the key file %s: %s", path.c_str(), openError.c_str());
        return false;
    }
    const std::string fresh = generateKey();
    const std::string line = fresh + "\r\n";
    DWORD wrote = 0;
    const bool written = ::WriteFile(h, line.data(), DWORD(line.size()), &wrote, nullptr) && wrote == line.size();
    const std::string writeError = written ? std::string() : lastErrorText();
    ::CloseHandle(h);
    if (!written) {
        *error = format("cannot write the key file %s: %s", path.c_str(), writeError.c_str());
        ::DeleteFileW(wide.c_str());
        return false;
    }
    *key = fresh;
    *created = true;
    return true;
}

} // namespace wb::auth
