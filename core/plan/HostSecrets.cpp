#include "HostSecrets.h"

#include "plan/Secrets.h"
#include "plan/TestPlan.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace wb {

namespace {

constexpr qint64 kMaxFileBytes = 1024 * 1024; ///< a secrets file is a few lines; anything larger is not one

/// The file's mode bits as `ls -l` and chmod write them, e.g. 0644.
int modeOf(QFileDevice::Permissions p)
{
    using P = QFileDevice;
    const std::pair<P::Permission, int> bits[] = {
        {P::ReadOwner, 0400}, {P::WriteOwner, 0200}, {P::ExeOwner, 0100}, {P::ReadGroup, 040}, {P::WriteGroup, 020},
        {P::ExeGroup, 010},   {P::ReadOther, 04},    {P::WriteOther, 02}, {P::ExeOther, 01},
    };
    int mode = 0;
    for (const auto &[permission, bit] : bits)
        mode |= p.testFlag(permission) ? bit : 0;
    return mode;
}

} // namespace

bool HostSecrets::splitSetting(const QString &text, Setting *setting, QString *why)
{
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq <= 0) {
        *why = QStringLiteral("write KEY=VALUE or HOST:KEY=VALUE, e.g. --set ftp.user=bench or --set "
                              "linux-server:ftp.password=@pw-file");
        return false;
    }
    const QString left = text.left(eq).trimmed();
    const qsizetype colon = left.lastIndexOf(QLatin1Char(':'));
    Setting s;
    s.key = left.mid(colon + 1).trimmed(); // colon -1: the whole
    s.value = text.mid(eq + 1);
    if (colon >= 0) {
        s.host = left.left(colon).trimmed();
        if (s.host.startsWith(QLatin1Char('[')) && s.host.endsWith(QLatin1Char(']')))
            s.host = s.host.mid(1, s.host.size() - 2);
        if (s.host.isEmpty()) {
            *why = QStringLiteral("no host before the ':': write HOST:KEY=VALUE (HOST: the host's name in the plan "
                                  "or its address), or KEY=VALUE for every host");
            return false;
        }
    }
    if (s.key.isEmpty()) {
        *why = QStringLiteral("no key before the '=': write %1KEY=VALUE")
                   .arg(s.host.isEmpty() ? QString() : s.host + QLatin1Char(':'));
        return false;
    }
    *setting = s;
    return true;
}

QList<int> HostSecrets::hostsNamed(const TestPlan &plan, const QString &name)
{
    QList<int> out;
    for (int i = 0; i < plan.hosts.size(); ++i) {
        const Host &h = plan.hosts.at(i);
        if ((!h.name.isEmpty() && h.name.compare(name, Qt::CaseInsensitive) == 0)
            || h.address.compare(name, Qt::CaseInsensitive) == 0)
            out << i;
    }
    return out;
}

QString HostSecrets::hostsText(const TestPlan &plan)
{
    QStringList names;
    for (const Host &h : plan.hosts)
        names << (h.name.isEmpty() ? h.address : QStringLiteral("%1 (%2)").arg(h.name, h.address));
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

bool HostSecrets::parseFile(const QByteArray &text, QList<Setting> *settings, QString *why)
{
    static const QRegularExpression blanks(QStringLiteral("[ \\t]+"));
    QList<Setting> out;
    const QList<QByteArray> lines = text.split('\n');
    for (int n = 0; n < lines.size(); ++n) {
        QString line = QString::fromUtf8(lines.at(n));
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        const QString bare = line.trimmed();
        if (bare.isEmpty() || bare.startsWith(QLatin1Char('#')))
            continue;
        const auto fail = [&](const QString &reason) {
            *why = QStringLiteral("line %1: %2").arg(n + 1).arg(reason);
            return false;
        };
        const QRegularExpressionMatch gap = blanks.match(bare);
        const qsizetype eq = bare.indexOf(QLatin1Char('='));
        if (!gap.hasMatch() || eq < 0 || gap.capturedStart() > eq)
            return fail(QStringLiteral("write HOST KEY=VALUE, e.g. linux-server smb.password=..., with the host's "
                                       "name in the plan or its address"));
        Setting s;
        s.line = n + 1;
        s.host = bare.left(gap.capturedStart());
        s.key = bare.mid(gap.capturedEnd(), eq - gap.capturedEnd()).trimmed();
        // The value is the rest of the line as written, after the first '=' (it may hold blanks and '=').
        s.value = line.mid(line.indexOf(QLatin1Char('=')) + 1);
        if (s.host.startsWith(QLatin1Char('[')) && s.host.endsWith(QLatin1Char(']')))
            s.host = s.host.mid(1, s.host.size() - 2);
        if (s.key.isEmpty())
            return fail(QStringLiteral("no key before the '=' (e.g. smb.password)"));
        if (!Secrets::isSecret(s.key))
            return fail(QStringLiteral("%1 is not a password or key (these are: %2); a secrets file holds only those, "
                                       "other settings go in the plan or --set HOST:KEY=VALUE")
                            .arg(s.key, Secrets::keys().join(QStringLiteral(", "))));
        out << s;
    }
    *settings = out;
    return true;
}

QString HostSecrets::modeProblem(const QString &path)
{
#ifdef Q_OS_WIN
    Q_UNUSED(path)
    return {};
#else
    const int mode = modeOf(QFileInfo(path).permissions());
    if ((mode & 066) == 0) // group and others can neither read nor write it
        return {};
    const QString who
        = (mode & 044) != 0 ? QStringLiteral("other users can read it") : QStringLiteral("other users can write it");
    return QStringLiteral("%1 holds passwords and %2 (mode %3): make it yours alone with chmod 600 %1")
        .arg(path, who, QString::number(mode, 8).rightJustified(4, QLatin1Char('0')));
#endif
}

bool HostSecrets::readFile(const QString &path, QList<Setting> *settings, QString *why)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    if (const QString problem = modeProblem(path); !problem.isEmpty()) {
        *why = problem;
        return false;
    }
    const QByteArray text = f.read(kMaxFileBytes + 1);
    if (text.size() > kMaxFileBytes) {
        *why = QStringLiteral("%1 is larger than 1 MiB: a secrets file holds a line per host and key").arg(path);
        return false;
    }
    QString reason;
    if (!parseFile(text, settings, &reason)) {
        *why = QStringLiteral("%1, %2").arg(path, reason);
        return false;
    }
    return true;
}

void HostSecrets::apply(const QList<Setting> &settings, TestPlan *plan, QStringList *unmatched)
{
    for (const Setting &s : settings) {
        const QList<int> hosts = hostsNamed(*plan, s.host);
        if (hosts.isEmpty() && unmatched && !unmatched->contains(s.host))
            *unmatched << s.host;
        for (int i : hosts) {
            Host &h = plan->hosts[i];
            if (!h.options.contains(s.key))
                h.options.insert(s.key, s.value);
        }
    }
}

bool HostSecrets::readValueFile(const QString &path, QString *value, QString *why)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    QString first = QString::fromUtf8(f.read(64 * 1024)).section(QLatin1Char('\n'), 0, 0);
    if (first.endsWith(QLatin1Char('\r')))
        first.chop(1);
    *value = first;
    return true;
}

} // namespace wb
