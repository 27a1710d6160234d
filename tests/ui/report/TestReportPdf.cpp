#include "ReportPdfWriter.h"
#include "storage/ResultStore.h"
#include "StoreTestData.h"
#include "support/CiRule.h"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;

/// The PDF form of the report (Qt Gui, outside core): pages, the table's values with units, the chart.
class TestReportPdf : public QObject
{
    Q_OBJECT

private slots:
    void writesPdf();
    void refusesBadInput();
};

static QByteArray chartPng(int width, int height)
{
    QImage image(width, height, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.fillRect(QRect(width / 4, height / 3, width / 6, height * 2 / 3), QColor(0x1f, 0x77, 0xb4));
    p.end();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

void TestReportPdf::writesPdf()
{
    QTemporaryDir dir;
    ResultStore store;
    QString error;
    QVERIFY2(store.open(dir.filePath(QStringLiteral("results.sqlite")), &error), qPrintable(error));
    const TestPlan plan = wbtest::plan();
    const qint64 id = store.beginSession(plan);
    for (const RunSpec &spec : plan.expand()) {
        RunResult r = wbtest::run(spec, 1000, 10);
        r.bytes = 1180000000;
        r.seconds = 10;
        QVERIFY(store.addRun(id, r) > 0);
    }
    QVERIFY(store.endSession(id, SessionState::Finished));
    ReportInput input;
    QVERIFY(ReportGenerator::fromStore(store, id, &input, &error));
    input.charts.append({QStringLiteral("Comparison"), chartPng(1600, 900), QStringLiteral("linux-fs, win-fs")});

    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    QVERIFY2(ReportPdfWriter::write(path, input, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray pdf = f.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    // WIREBENCH_KEEP_REPORT=FILE keeps a copy to look at.
    if (const QString keep = qEnvironmentVariable("WIREBENCH_KEEP_REPORT"); !keep.isEmpty()) {
        QFile::remove(keep);
        QVERIFY(QFile::copy(path, keep));
    }
    QVERIFY(pdf.contains("/Subtype /Image")); // the chart

    const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    WB_REQUIRE(!pdfinfo.isEmpty() && !pdftotext.isEmpty(),
               QStringLiteral("poppler-utils (pdfinfo, pdftotext) is not installed"));
    QProcess info;
    info.start(pdfinfo, {path});
    QVERIFY(info.waitForFinished(60000));
    const QString infoText = QString::fromLocal8Bit(info.readAllStandardOutput());
    const QRegularExpressionMatch pages = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(infoText);
    QVERIFY2(pages.hasMatch(), qPrintable(infoText));
    // 16 runs, a table per section and a chart: more than one page, not absurdly many.
    QVERIFY2(pages.captured(1).toInt() >= 2 && pages.captured(1).toInt() <= 10, qPrintable(infoText));
    QVERIFY(infoText.contains(QStringLiteral("landscape")) || infoText.contains(QStringLiteral("841.89 x 595.28"))
            || infoText.contains(QStringLiteral("842 x 595")));

    QProcess text;
    text.start(pdftotext, {QStringLiteral("-layout"), path, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(60000));
    const QString body = QString::fromUtf8(text.readAllStandardOutput()).replace(QChar(0x00A0), QLatin1Char(' '));
    QVERIFY2(body.contains(QStringLiteral("118.00 MB/s")), qPrintable(body));
    QVERIFY(body.contains(QStringLiteral("944.00 Mbit/s")));
    QVERIFY(body.contains(QStringLiteral("Windows Server 2003")));
    QVERIFY(body.contains(QStringLiteral("MB/s = 10^6 bytes/s")));
    qInfo("PDF report: %s pages, %lld bytes", qPrintable(pages.captured(1)), qint64(pdf.size()));
}

void TestReportPdf::refusesBadInput()
{
    QTemporaryDir dir;
    ReportInput input;
    input.charts.append({QStringLiteral("Broken"), QByteArray("not a png"), QString()});
    QString error;
    QVERIFY(!ReportPdfWriter::write(dir.filePath(QStringLiteral("a.pdf")), input, &error));
    QVERIFY2(error.contains(QStringLiteral("not a PNG")), qPrintable(error));
    QVERIFY(!ReportPdfWriter::write(dir.filePath(QStringLiteral("no/such/dir/a.pdf")), ReportInput(), &error));
    QVERIFY2(error.contains(QStringLiteral("cannot be written")), qPrintable(error));
}

QTEST_MAIN(TestReportPdf)
#include "TestReportPdf.moc"
