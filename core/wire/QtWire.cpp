#include "QtWire.h"

#include "PrintableText.h"

#include <QJsonDocument>

namespace wb::wire {

QJsonObject toQt(const nlohmann::json &object)
{
    if (!object.is_object())
        return {};
    const std::string text = object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

nlohmann::json fromQt(const QJsonObject &object)
{
    const QByteArray text = QJsonDocument(object).toJson(QJsonDocument::Compact);
    return nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
}

QString printableText(QStringView text, int maxChars)
{
    // Through code points: an unpaired surrogate is U+FFFD (toUcs4), where toUtf8 would make it '?'.
    std::string utf8;
    for (const uint cp : text.toUcs4())
        appendUtf8(&utf8, char32_t(cp));
    return QString::fromStdString(printableText(utf8, maxChars));
}

} // namespace wb::wire
