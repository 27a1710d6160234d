#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringView>

#include <string>

namespace wb::wire {

/// The Qt side's edge of the wire code (which is plain C++, so that wirebenchd links no Qt): the few conversions
/// the clients, the GUI and the tests need, and nothing of the wire format itself.

inline QString qs(const std::string &utf8)
{
    return QString::fromStdString(utf8);
}
inline std::string ss(const QString &text)
{
    return text.toStdString();
}
/// Bytes (a nonce, a frame) between QByteArray and std::string, whatever they hold.
inline QByteArray qb(const std::string &bytes)
{
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}
inline std::string sb(const QByteArray &bytes)
{
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

/// A JSON object between nlohmann::json and QJsonObject (through its text: the same JSON either way).
QJsonObject toQt(const nlohmann::json &object);
nlohmann::json fromQt(const QJsonObject &object);

/// printableText (PrintableText.h) of a QString.
QString printableText(QStringView text, int maxChars);

} // namespace wb::wire
