#include "platform/ActivityMarker.h"

#include <QTest>

#include <string>
#include <thread>
#include <vector>

using namespace wb;

namespace {

struct Seen
{
    std::vector<std::string> names;
    std::vector<std::int64_t> ns;
};

void record(void *context, const char *name, std::int64_t durationNs)
{
    auto *seen = static_cast<Seen *>(context);
    seen->names.emplace_back(name);
    seen->ns.push_back(durationNs);
}

} // namespace

// ActivityMarker: what the window's responsiveness probe learns of the GUI thread's work. A marker reports its name
// and duration to the sink of its own thread, the inner before the outer, and nothing without a sink or on another
// thread.
class TestActivityMarker : public QObject
{
    Q_OBJECT
private slots:
    void reportsNestedSpansToTheSink()
    {
        Seen seen;
        ActivityMarker::setSink(&record, &seen);
        {
            const ActivityMarker outer("store: add run");
            const ActivityMarker inner("history: refresh");
        }
        ActivityMarker::setSink(nullptr, nullptr);
        {
            const ActivityMarker unseen("after the sink");
        }
        QCOMPARE(seen.names, (std::vector<std::string>{"history: refresh", "store: add run"}));
        QVERIFY(seen.ns.at(0) >= 0);
        QVERIFY(seen.ns.at(1) >= seen.ns.at(0));
    }

    void anotherThreadHasItsOwnSink()
    {
        Seen seen;
        ActivityMarker::setSink(&record, &seen);
        std::thread([] { const ActivityMarker elsewhere("worker"); }).join();
        {
            const ActivityMarker here("here");
        }
        ActivityMarker::setSink(nullptr, nullptr);
        QCOMPARE(seen.names, (std::vector<std::string>{"here"}));
    }
};

QTEST_GUILESS_MAIN(TestActivityMarker)
#include "TestActivityMarker.moc"
