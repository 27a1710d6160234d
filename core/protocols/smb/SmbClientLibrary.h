#pragma once

#include <QString>

#include <libsmbclient.h>

namespace wb {

/// libsmbclient's calls that Wirebench makes, resolved from the library when SMB is first used.
struct SmbClientApi
{
    decltype(&::smbc_new_context) new_context;
    decltype(&::smbc_free_context) free_context;
    decltype(&::smbc_init_context) init_context;
    decltype(&::smbc_setDebug) setDebug;
    decltype(&::smbc_setOptionDebugToStderr) setOptionDebugToStderr;
    decltype(&::smbc_setOptionUserData) setOptionUserData;
    decltype(&::smbc_getOptionUserData) getOptionUserData;
    decltype(&::smbc_setFunctionAuthDataWithContext) setFunctionAuthDataWithContext;
    decltype(&::smbc_setOptionUseKerberos) setOptionUseKerberos;
    decltype(&::smbc_setOptionFallbackAfterKerberos) setOptionFallbackAfterKerberos;
    decltype(&::smbc_setOptionNoAutoAnonymousLogin) setOptionNoAutoAnonymousLogin;
    decltype(&::smbc_setTimeout) setTimeout;
    decltype(&::smbc_setPort) setPort;
    decltype(&::smbc_setOptionProtocols) setOptionProtocols;
    decltype(&::smbc_getFunctionOpen) getFunctionOpen;
    decltype(&::smbc_getFunctionClose) getFunctionClose;
    decltype(&::smbc_getFunctionRead) getFunctionRead;
    decltype(&::smbc_getFunctionWrite) getFunctionWrite;
    decltype(&::smbc_getFunctionLseek) getFunctionLseek;
    decltype(&::smbc_getFunctionFstat) getFunctionFstat;
    decltype(&::smbc_getFunctionStat) getFunctionStat;
    decltype(&::smbc_getFunctionOpendir) getFunctionOpendir;
    decltype(&::smbc_getFunctionReaddir) getFunctionReaddir;
    decltype(&::smbc_getFunctionClosedir) getFunctionClosedir;
};

/// How a context is set up: the SMB driver's and the identity probe's differ only in these.
struct SmbContextOptions
{
    void *userData = nullptr;
    smbc_get_auth_data_with_context_fn auth = nullptr;
    int port = 445;
    int timeoutMs = 20000;
    bool allowSmb1 = false;
    bool noAnonymousFallback = true; ///< a wrong password must fail, not fall back to guest
};

/// libsmbclient is opened on first use instead of linked: it brings some 90 Samba libraries and about 11 MiB
/// resident, which every wirebench-cli, window and test process would pay without ever testing SMB.
class SmbClientLibrary
{
public:
    /// Opens the library once per process; on failure *error says what to install.
    static bool load(QString *error);
    /// The calls; only after load() returned true (a context exists only then).
    static const SmbClientApi &api();
    /// A context set up and initialised as options say, or nullptr and *error.
    static SMBCCTX *newContext(const SmbContextOptions &options, QString *error);
};

/// Short form for the calls: smbc().getFunctionRead(ctx)(...).
inline const SmbClientApi &smbc()
{
    return SmbClientLibrary::api();
}

} // namespace wb
