#include "SmbClientLibrary.h"

#include <QLibrary>

#include <cerrno>
#include <cstring>

namespace wb {

namespace {

struct Loaded
{
    SmbClientApi api{};
    bool ok = false;
    QString error;
};

template <typename Fn>
bool resolve(QLibrary &lib, Fn &slot, const char *name, QString *missing)
{
    slot = reinterpret_cast<Fn>(lib.resolve(name));
    if (!slot && missing->isEmpty())
        *missing = QString::fromLatin1(name);
    return slot != nullptr;
}

Loaded open()
{
    Loaded l;
    // The library stays loaded for the life of the process (forked write lanes use it too).
    static QLibrary lib(QStringLiteral("smbclient"), 0);
    lib.setLoadHints(QLibrary::PreventUnloadHint);
    if (!lib.load()) {
        l.error = QStringLiteral("SMB needs libsmbclient, which could not be loaded (%1): install the package "
                                 "libsmbclient")
                      .arg(lib.errorString());
        return l;
    }
    QString missing;
    SmbClientApi &a = l.api;
#define WB_SMBC(name) resolve(lib, a.name, "smbc_" #name, &missing)
    WB_SMBC(new_context);
    WB_SMBC(free_context);
    WB_SMBC(init_context);
    WB_SMBC(setDebug);
    WB_SMBC(setOptionDebugToStderr);
    WB_SMBC(setOptionUserData);
    WB_SMBC(getOptionUserData);
    WB_SMBC(setFunctionAuthDataWithContext);
    WB_SMBC(setOptionUseKerberos);
    WB_SMBC(setOptionFallbackAfterKerberos);
    WB_SMBC(setOptionNoAutoAnonymousLogin);
    WB_SMBC(setTimeout);
    WB_SMBC(setPort);
    WB_SMBC(setOptionProtocols);
    WB_SMBC(getFunctionOpen);
    WB_SMBC(getFunctionClose);
    WB_SMBC(getFunctionRead);
    WB_SMBC(getFunctionWrite);
    WB_SMBC(getFunctionLseek);
    WB_SMBC(getFunctionFstat);
    WB_SMBC(getFunctionStat);
    WB_SMBC(getFunctionOpendir);
    WB_SMBC(getFunctionReaddir);
    WB_SMBC(getFunctionClosedir);
#undef WB_SMBC
    if (!missing.isEmpty()) {
        l.error = QStringLiteral("SMB needs libsmbclient 4.x, and %1 has no %2: install a newer libsmbclient")
                      .arg(lib.fileName(), missing);
        return l;
    }
    l.ok = true;
    return l;
}

const Loaded &loaded()
{
    static const Loaded l = open();
    return l;
}

} // namespace

bool SmbClientLibrary::load(QString *error)
{
    const Loaded &l = loaded();
    if (!l.ok && error)
        *error = l.error;
    return l.ok;
}

const SmbClientApi &SmbClientLibrary::api()
{
    return loaded().api;
}

SMBCCTX *SmbClientLibrary::newContext(const SmbContextOptions &options, QString *error)
{
    if (!load(error))
        return nullptr;
    const SmbClientApi &c = api();
    SMBCCTX *ctx = c.new_context();
    if (!ctx) {
        if (error)
            *error = QStringLiteral("libsmbclient could not make a context (out of memory?)");
        return nullptr;
    }
    c.setDebug(ctx, 0);
    c.setOptionDebugToStderr(ctx, true);
    c.setOptionUserData(ctx, options.userData);
    c.setFunctionAuthDataWithContext(ctx, options.auth);
    c.setOptionNoAutoAnonymousLogin(ctx, options.noAnonymousFallback);
    c.setOptionUseKerberos(ctx, false);
    c.setOptionFallbackAfterKerberos(ctx, true);
    c.setTimeout(ctx, options.timeoutMs);
    c.setPort(ctx, uint16_t(options.port));
    // SMB1 only when the host allows it (Windows 2003 and older speak nothing else).
    c.setOptionProtocols(ctx, options.allowSmb1 ? "NT1" : "SMB2_02", "SMB3");
    errno = 0;
    if (!c.init_context(ctx)) {
        const int err = errno;
        c.free_context(ctx, 1);
        if (error)
            *error
                = QStringLiteral("libsmbclient could not start (%1)").arg(QString::fromLocal8Bit(std::strerror(err)));
        return nullptr;
    }
    return ctx;
}

} // namespace wb
