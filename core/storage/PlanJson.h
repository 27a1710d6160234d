#pragma once

#include "model/Host.h"
#include "model/TestParams.h"
#include "plan/TestPlan.h"

#include <QJsonObject>

namespace wb {

/// JSON form of plans and hosts as the result store keeps them. Secrets never reach the JSON: host and
/// parameter options whose key names a password, secret, token or passphrase are dropped.
class PlanJson
{
public:
    static QJsonObject hostToJson(const Host &host);
    static Host hostFromJson(const QJsonObject &object);
    static QJsonObject paramsToJson(const TestParams &params);
    static TestParams paramsFromJson(const QJsonObject &object);
    static QJsonObject planToJson(const TestPlan &plan);
    static TestPlan planFromJson(const QJsonObject &object);

    static Host withoutSecrets(Host host);
    static QVariantMap withoutSecrets(QVariantMap options);
    static bool isSecretKey(const QString &key);
};

} // namespace wb
