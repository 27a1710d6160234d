#pragma once

#include <QString>
#include <QTest>

namespace wb::test {

/// CI runs every test as root with every peer installed (CI=true): there a test that cannot run is a
/// failure, never a skip. On a developer's machine the same test is skipped with its reason.
inline bool underCi()
{
    return qEnvironmentVariable("CI") == QLatin1String("true");
}

} // namespace wb::test

/// The one CI rule: when `ok` is false, fails under CI=true and skips elsewhere, saying `why` (what is
/// missing and how to get it) either way. Use it in a test function or initTestCase.
#define WB_REQUIRE(ok, why)                                                                                            \
    do {                                                                                                               \
        if (!(ok)) {                                                                                                   \
            const QString wbRequireWhy_ = (why);                                                                       \
            if (::wb::test::underCi())                                                                                 \
                QFAIL(qPrintable(wbRequireWhy_));                                                                      \
            QSKIP(qPrintable(wbRequireWhy_));                                                                          \
        }                                                                                                              \
    } while (false)
