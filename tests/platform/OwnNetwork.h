#pragma once

#include "support/CiRule.h"

#include <QString>
#include <QStringList>

namespace wb::test {

/// A platform test's own network: before Qt starts any thread, the process moves into a network
/// namespace and a mount namespace of its own with sysfs mounted afresh (as `ip netns exec` does), so
/// /sys/class/net and /proc/sys/net show that namespace. Interfaces the test creates there (veth,
/// macvlan) and sysctls it writes vanish with the process. Needs root.
class OwnNetwork
{
public:
    /// Call first in main(); remembers why it failed.
    static void enter();
    static bool entered();
    static QString why();
    /// Runs "ip ARGS" in this process's namespaces; false with its output in *error.
    static bool ip(const QStringList &args, QString *error = nullptr);
    /// The standard output of program (looked up in PATH, then /usr/sbin and /sbin) run with args.
    static QByteArray runOutput(const QString &program, const QStringList &args);
};

} // namespace wb::test

/// Skips (developer machine) or fails (CI=true) the test when its own network could not be made.
#define WB_REQUIRE_OWN_NETWORK() WB_REQUIRE(::wb::test::OwnNetwork::entered(), ::wb::test::OwnNetwork::why())

/// main() of a platform test: its own network first, then the Qt Test run.
#define WB_OWN_NETWORK_TEST_MAIN(TestClass)                                                                            \
    int main(int argc, char **argv)                                                                                    \
    {                                                                                                                  \
        ::wb::test::OwnNetwork::enter();                                                                               \
        QCoreApplication app(argc, argv);                                                                              \
        TestClass test;                                                                                                \
        return QTest::qExec(&test, argc, argv);                                                                        \
    }
