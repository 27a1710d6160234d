// Every export read back: PNG/JPEG size (and resolution), PDF page count (pdfinfo), SVG parse, clipboard,
// CSV and JSON of a session, and the HTML + PDF report.
#include "ComparisonView.h"
#include "ExportExtras.h"
#include "HistoryPanel.h"
#include "HistoryTestData.h"
#include "ReportWriter.h"
#include "RunOverlayChart.h"
#include "formats/CsvExport.h"
#include "formats/JsonExport.h"
#include "support/CiRule.h"

#include <qcustomplot.h>

#include <QClipboard>
#include <QGuiApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace wb;

namespace {

/// Page count and page size line of a PDF, by poppler's pdfinfo; -1 when it cannot be read.
int pdfPages(const QString &path, QString *pageSize = nullptr)
{
    QProcess p;
    p.start(QStringLiteral("pdfinfo"), {path});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return -1;
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    if (pageSize) {
        const auto m = QRegularExpression(QStringLiteral("Page size:\\s*(.*)")).match(out);
        *pageSize = m.captured(1).trimmed();
    }
    const auto m = QRegularExpression(QStringLiteral("Pages:\\s*(\\d+)")).match(out);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TestExportFormats : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void images_data();
    void images();
    void pngResolution();
    void pdf();
    void svg();
    void clipboard();
    void badPathsFailWithReason();
    void csvAndJson();
    void report();

private:
    QTemporaryDir m_dir;
    ResultStore m_store;
    qint64 m_session = 0;
    std::unique_ptr<ComparisonView> m_view;
};

void TestExportFormats::initTestCase()
{
    WB_REQUIRE(!QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty(),
               QStringLiteral("pdfinfo (poppler-utils) is missing: apt-get install poppler-utils"));
    QVERIFY(m_dir.isValid());
    QString error;
    QVERIFY2(m_store.open(m_dir.filePath(QStringLiteral("results.sqlite")), &error), qPrintable(error));
    m_session
        = histtest::addSession(m_store, histtest::plan({histtest::linuxHost(), histtest::windowsHost()}, {1500, 9000}),
                               QDateTime(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC));
    QVERIFY(m_session > 0);
    m_view = std::make_unique<ComparisonView>(&m_store);
    m_view->resize(1000, 700);
    m_view->addSession(m_session);
    m_view->setGrouping(CompareDimension::Test, CompareDimension::Os);
}

void TestExportFormats::images_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QSize>("size");
    QTest::newRow("png") << QStringLiteral("chart.png") << QSize(1200, 700);
    QTest::newRow("jpg") << QStringLiteral("chart.jpg") << QSize(800, 600);
    QTest::newRow("jpeg") << QStringLiteral("chart.jpeg") << QSize(640, 480);
}

void TestExportFormats::images()
{
    QFETCH(QString, name);
    QFETCH(QSize, size);
    const QString path = m_dir.filePath(name);
    ChartExportOptions options;
    options.size = size;
    options.footnote = m_view->footnote();
    QString error;
    QVERIFY2(ExportExtras::exportChart(m_view->barPlot(), path, options, &error), qPrintable(error));
    QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), size);
    // Bars in the host colours, not an empty frame: count distinct colours in a coarse grid.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y) & 0xf0f0f0);
    QVERIFY2(colours.size() > 8, qPrintable(QString::number(colours.size())));
    // The footnote row went away again after the export.
    QCOMPARE(m_view->barPlot()->plotLayout()->rowCount(), 3); // title, axis rect, legend
}

void TestExportFormats::pngResolution()
{
    const QString path = m_dir.filePath(QStringLiteral("chart300.png"));
    ChartExportOptions options;
    options.size = {1500, 900};
    options.dpi = 300;
    QString error;
    QVERIFY2(ExportExtras::exportChart(m_view->overlayChart()->plot(), path, options, &error), qPrintable(error));
    QImage image(path);
    QCOMPARE(image.size(), QSize(1500, 900));
    QVERIFY(qAbs(image.dotsPerMeterX() - 300 / 0.0254) < 2);
}

void TestExportFormats::pdf()
{
    const QString path = m_dir.filePath(QStringLiteral("chart.pdf"));
    ChartExportOptions options;
    options.size = {1000, 600};
    options.footnote = m_view->footnote();
    QString error;
    QVERIFY2(ExportExtras::exportChart(m_view->barPlot(), path, options, &error), qPrintable(error));
    QString pageSize;
    QCOMPARE(pdfPages(path, &pageSize), 1);
    QVERIFY2(pageSize.startsWith(QStringLiteral("1000 x 600")), qPrintable(pageSize));
}

void TestExportFormats::svg()
{
    const QString path = m_dir.filePath(QStringLiteral("chart.svg"));
    ChartExportOptions options;
    options.size = {1100, 650};
    options.footnote = m_view->footnote();
    QString error;
    QVERIFY2(ExportExtras::exportChart(m_view->barPlot(), path, options, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QXmlStreamReader xml(bytes);
    int elements = 0;
    QString root;
    QString texts;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement) {
            if (root.isEmpty())
                root = xml.name().toString();
            ++elements;
        } else if (xml.isCharacters()) {
            texts += xml.text();
        }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    QVERIFY(elements > 20);
    QSvgRenderer renderer(path);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBox().size(), QSize(1100, 650));
    // Title, value labels with unit, legend and footnote are text in the SVG.
    QVERIFY2(texts.contains(QStringLiteral("MB/s")), qPrintable(texts.left(400)));
    QVERIFY(texts.contains(QStringLiteral("Windows Server 2003")));
    QVERIFY(texts.contains(QStringLiteral("frame sizes: 1500, 9000 B")));
}

void TestExportFormats::clipboard()
{
    ChartExportOptions options;
    options.size = {700, 400};
    QString error;
    QVERIFY2(ExportExtras::copyToClipboard(m_view->barPlot(), options, &error), qPrintable(error));
    const QImage image = QGuiApplication::clipboard()->image();
    QCOMPARE(image.size(), QSize(700, 400));
}

void TestExportFormats::badPathsFailWithReason()
{
    ChartExportOptions options;
    QString error;
    QVERIFY(!ExportExtras::exportChart(m_view->barPlot(), m_dir.filePath(QStringLiteral("no/such/dir/a.svg")), options,
                                       &error));
    QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
    QVERIFY(!ExportExtras::exportChart(m_view->barPlot(), m_dir.filePath(QStringLiteral("a.bmp")), options, &error));
    QVERIFY2(error.contains(QStringLiteral("Unknown image format")), qPrintable(error));
    options.dpi = 5;
    QVERIFY(!ExportExtras::exportChart(m_view->barPlot(), m_dir.filePath(QStringLiteral("a.png")), options, &error));
    QVERIFY(error.contains(QStringLiteral("dpi")));
}

void TestExportFormats::csvAndJson()
{
    HistoryPanel panel(&m_store);
    QVERIFY(panel.openSession(m_session));
    QString error;
    const QString csvPath = m_dir.filePath(QStringLiteral("session.csv"));
    QVERIFY2(panel.exportData(csvPath, &error), qPrintable(error));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QStringList> rows = CsvExport::parse(QString::fromUtf8(csv.readAll()));
    QCOMPARE(rows.size(), 1 + 24);
    const int col = int(rows.first().indexOf(QStringLiteral("throughput_MBps")));
    QVERIFY(col >= 0);
    QCOMPARE(rows.at(1).at(col).toDouble(), 101.0);

    const QString jsonPath = m_dir.filePath(QStringLiteral("session.json"));
    QVERIFY2(panel.exportData(jsonPath, &error), qPrintable(error));
    QFile json(jsonPath);
    QVERIFY(json.open(QIODevice::ReadOnly));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json.readAll(), &parseError);
    QVERIFY2(!doc.isNull(), qPrintable(parseError.errorString()));
    const QJsonArray results = doc.object().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 24);
    QCOMPARE(results.at(0).toObject().value(QStringLiteral("throughput_MBps")).toDouble(), 101.0);
    QCOMPARE(results.at(0).toObject().value(QStringLiteral("samples")).toArray().size(), 10);
    QVERIFY(!doc.object().value(QStringLiteral("summary")).toArray().isEmpty());
    RunResultList back;
    QVERIFY2(JsonExport::read(jsonPath, &back, &error), qPrintable(error));
    QCOMPARE(back.size(), 24);

    QVERIFY(!panel.exportData(m_dir.filePath(QStringLiteral("session.xls")), &error));
    QVERIFY(error.contains(QStringLiteral(".csv or .json")));
}

void TestExportFormats::report()
{
    const QString html = m_dir.filePath(QStringLiteral("report.html"));
    const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
    QString error;
    QVERIFY2(ReportWriter::write(m_store, m_session, html, pdf, &error), qPrintable(error));
    QFile file(html);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    // Comparison chart + 8 live-graph charts (2 hosts x 2 protocols x 2 frames), embedded as PNG.
    QCOMPARE(text.count("data:image/png;base64,"), 9);
    QXmlStreamReader xml(text);
    while (!xml.atEnd())
        xml.readNext();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(pdfPages(pdf) >= 1);
    // Nothing to write to is a clear failure.
    QVERIFY(!ReportWriter::write(m_store, m_session, QString(), QString(), &error));
    QVERIFY(error.contains(QStringLiteral("HTML")));
    QVERIFY(!ReportWriter::write(m_store, 9999, html, QString(), &error));
    QVERIFY(!error.isEmpty());
}

QTEST_MAIN(TestExportFormats)
#include "TestExportFormats.moc"
