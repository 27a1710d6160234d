#include "TestFile.h"

#include "TestPattern.h"

namespace wb {

namespace {

QString sizeText(qint64 found)
{
    return found >= 0 ? QStringLiteral("%1 bytes").arg(found) : QStringLiteral("a size the server did not say");
}

const QString NotOurs
    = QStringLiteral("is not a Wirebench test file (it does not start with Wirebench's test-data mark)");

} // namespace

QString TestFile::defaultName()
{
    return QStringLiteral("wirebench-test.bin");
}

qint64 TestFile::headBytes()
{
    return TestPattern::markBytes();
}

bool TestFile::isOwn(const QByteArray &head)
{
    // A head shorter than the mark is a whole file that short: Wirebench's when it is the mark's start (an upload
    // of Wirebench's that broke early), and an empty file holds nothing to lose.
    const qint64 n = qMin<qint64>(head.size(), TestPattern::markBytes());
    return TestPattern::firstMismatch(head.constData(), 0, n) < 0;
}

QString TestFile::readAsFoundWarning(const QString &path, qint64 found, qint64 planned, bool verifySkipped)
{
    const QString runSize
        = found >= 0 ? QStringLiteral("the file's %1 bytes").arg(found) : QStringLiteral("what arrived");
    QString text = QStringLiteral("\"%1\" on the server holds %2, not the plan's %3, and %4: it was read as it is and "
                                  "left unchanged, so this run's size is %5")
                       .arg(path, sizeText(found))
                       .arg(planned)
                       .arg(NotOurs, runSize);
    if (verifySkipped)
        text += QStringLiteral("; its content was not verified (it is not Wirebench's test data)");
    return text;
}

QString TestFile::notOverwritten(const QString &path, qint64 found)
{
    return QStringLiteral("\"%1\" already exists on the server (%2) and %3: Wirebench does not overwrite it")
        .arg(path, sizeText(found), NotOurs);
}

} // namespace wb
