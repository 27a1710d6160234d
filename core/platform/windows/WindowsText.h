#pragma once

#include <string>

namespace wb::platform {

/// UTF-16 text of the Windows API as UTF-8 and back (WideCharToMultiByte, MultiByteToWideChar), and the
/// system's words for an error (FormatMessage).
class WindowsText
{
public:
    static std::string utf8(const wchar_t *text);
    static std::wstring wide(const std::string &text);
    /// The system's English words for an error code (GetLastError, a WSA code), without the final period.
    static std::string systemMessage(unsigned long code);
};

} // namespace wb::platform
